package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
)

func TestEscapeControls(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"x\ny", `x\ny`},
		{"tab\there\r", `tab\there\r`},
		{"\x1b[31mred", `\x1b[31mred`},
		{"del\x7f", `del\x7f`},
		{"c1\u0085", `c1\u0085`},
		{"rtl\u202eevil", `rtl\u202eevil`},
		{"sep\u2028", `sep\u2028`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"é ü 中", "é ü 中"},
		{`back\slash`, `back\slash`},
	} {
		if got := escapeControls(tc.in); got != tc.want {
			t.Errorf("escapeControls(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestTextOutputEscapesControls: names holding a newline, a carriage
// return and a bidirectional override (an input name, an op type; XML
// cannot hold an escape sequence, which the import refuses) are escaped
// in every text output, one line per line irdiv means, while the JSON
// keeps them exact.
func TestTextOutputEscapesControls(t *testing.T) {
	dir := t.TempDir()
	const input, opType = "x\ny\r", "Odd\nOp\u202e"
	v := func(n string) []byte { return onnxwire.Value(n, onnxwire.Int32, 4) }
	g := onnxwire.Graph("g\n", [][]byte{
		onnxwire.Node("Div", "div", []string{input, "y"}, []string{"z"}),
		onnxwire.Node(opType, "odd\n", []string{"z"}, []string{"o"}),
	}, nil, [][]byte{v(input), v("y")}, [][]byte{v("z"), v("o")})
	// run computes what it can of a model with an op it cannot execute,
	// and its line about that op is not report's: it gets a model of one
	// Div, its output name holding the controls.
	div := onnxwire.Graph("g", [][]byte{onnxwire.Node("Div", "div", []string{input, "y"}, []string{opType})}, nil,
		[][]byte{v(input), v("y")}, [][]byte{v(opType)})
	writeFiles(t, dir, map[string][]byte{"model.onnx": onnxwire.Model(13, g), "div.onnx": onnxwire.Model(13, div)})
	model := filepath.Join(dir, "model.onnx")
	for _, args := range [][]string{
		{"info", model},
		{"info", "--dot", model},
		{"validate", model},
		{"validate", "--counter-examples", filepath.Join(dir, "cex"), model},
		{"run", filepath.Join(dir, "div.onnx"), "-o", filepath.Join(dir, "out")},
	} {
		stdout, stderr, _ := irdiv(t, args...)
		for i, line := range strings.Split(stdout+stderr, "\n") {
			if strings.ContainsFunc(strings.TrimLeft(line, "\t"), needsEscape) {
				t.Errorf("%q: line %d holds a control character: %q", args, i+1, line)
			}
			// Text after a raw newline of a name starts a line of its own.
			for _, stray := range []string{"Op", "y\\r", "y\r"} {
				if strings.HasPrefix(line, stray) {
					t.Errorf("%q: line %d starts with the rest of a name: %q", args, i+1, line)
				}
			}
		}
		if args[1] == "--dot" && !strings.Contains(stdout, `\nOdd\\nOp\\u202e i32[4]"`) {
			t.Errorf("info --dot does not escape the type in its label:\n%s", stdout)
		}
	}
	stdout, _, _ := irdiv(t, "info", "--json", model)
	var info infoJSON
	if err := json.Unmarshal([]byte(stdout), &info); err != nil || info.Inputs[0].Name != input {
		t.Errorf("info --json: %v, inputs %+v", err, info.Inputs)
	}
}
