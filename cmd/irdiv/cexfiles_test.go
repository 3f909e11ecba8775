package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/ir/npy"
)

// divsONNX is a model of Div nodes over i32[4] inputs: each node "x,y"
// divides input x by input y; inputs lists every graph input.
func divsONNX(inputs []string, nodes ...string) []byte {
	var ns, ins, outs [][]byte
	for _, in := range inputs {
		ins = append(ins, onnxwire.Value(in, onnxwire.Int32, 4))
	}
	for i, n := range nodes {
		x, y, _ := strings.Cut(n, ",")
		z := fmt.Sprintf("z%d", i)
		ns = append(ns, onnxwire.Node("Div", fmt.Sprintf("div%d", i), []string{x, y}, []string{z}))
		outs = append(outs, onnxwire.Value(z, onnxwire.Int32, 4))
	}
	return onnxwire.Model(13, onnxwire.Graph("g", ns, nil, ins, outs))
}

type cexFinding struct {
	Code     string
	Layer    *struct{ Name string }
	Evidence map[string]any
}

// validateJSON runs validate --json on one model and returns its findings
// with a counter-example.
func validateJSON(t *testing.T, args ...string) []cexFinding {
	t.Helper()
	stdout, stderr, code := irdiv(t, append([]string{"validate", "--json"}, args...)...)
	var r struct{ Findings []cexFinding }
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != 1 {
		t.Fatalf("validate %q: exit %d %v %s", args, code, err, stderr)
	}
	var out []cexFinding
	for _, f := range r.Findings {
		if f.Evidence["inputs"] != nil {
			out = append(out, f)
		}
	}
	return out
}

// TestCounterExampleFolders: findings whose counter-examples are the same
// inputs share one folder, which the JSON names for each; every model
// input is in it; a folder that holds files already is refused;
// --max-files stops what would pass it and the JSON says so.
func TestCounterExampleFolders(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "twice.onnx")
	// Two Divs of the same operands find the same counter-examples; w is
	// read by no Div and must still be in each folder.
	writeFiles(t, dir, map[string][]byte{"twice.onnx": divsONNX([]string{"x", "y", "w"}, "x,y", "x,y")})
	cex := filepath.Join(dir, "cex")
	found := validateJSON(t, "--counter-examples", cex, model)
	folders := map[string][]string{}
	for _, f := range found {
		d, _ := f.Evidence["counter_example_dir"].(string)
		if d == "" {
			t.Fatalf("%s of %v: no counter_example_dir: %v", f.Code, f.Layer, f.Evidence)
		}
		folders[d] = append(folders[d], f.Layer.Name)
	}
	// Each Div has three: -3 / 2, MIN / -1 and a divisor of 0.
	if len(found) != 6 || len(folders) != 3 {
		t.Errorf("%d findings with counter-examples in %d folders, want 6 in 3: %v", len(found), len(folders), folders)
	}
	for d, layers := range folders {
		if len(layers) != 2 || layers[0] == layers[1] {
			t.Errorf("%s holds the counter-example of %v, want one of each Div", d, layers)
		}
		for _, in := range []string{"x", "y", "w"} {
			if _, err := npy.ReadFile(filepath.Join(d, in+".npy"), 0); err != nil {
				t.Error(err)
			}
		}
	}
	entries, _ := os.ReadDir(filepath.Join(cex, "twice"))
	if len(entries) != 4 {
		t.Errorf("%d entries written, want 3 folders and openvino.onnx", len(entries))
	}

	// The same folder again: the model's folder holds files.
	if _, stderr, code := irdiv(t, "validate", "--counter-examples", cex, model); code != 1 ||
		!strings.Contains(stderr, filepath.Join(cex, "twice")+" is not empty (an earlier run's?); irdiv writes counter-examples into new folders only") {
		t.Errorf("validate into a used folder: exit %d %q", code, stderr)
	}

	// Budget: 3 inputs, 4 files and folders per counter-example, 2 for
	// the model's folder and its openvino.onnx: 6 leave room for one,
	// which two findings share.
	budget := filepath.Join(dir, "budget")
	found = validateJSON(t, "--counter-examples", budget, "--max-files", "6", model)
	written, skipped := 0, 0
	for _, f := range found {
		switch {
		case f.Evidence["counter_example_dir"] != nil:
			written++
		case strings.HasPrefix(fmt.Sprint(f.Evidence["counter_example_not_written"]), "--max-files 6: it needs 4 files and folders (3 inputs), 0 left"):
			skipped++
		default:
			t.Errorf("%s: %v", f.Code, f.Evidence)
		}
	}
	n := 0
	filepath.WalkDir(budget, func(string, os.DirEntry, error) error { n++; return nil })
	if written != 2 || skipped != 4 || n-1 != 6 {
		t.Errorf("--max-files 6: %d written, %d skipped, %d files and folders", written, skipped, n-1)
	}
	if stdout, _, _ := irdiv(t, "validate", "--counter-examples", filepath.Join(dir, "b2"), "--max-files", "5", model); !strings.Contains(stdout, "(not written: --max-files 5: ") {
		t.Errorf("the text report does not say what was not written:\n%s", stdout)
	}
}

// TestRunOutputsCollide: run -o writes outputs "p/q" and "p_q" to files of
// their own.
func TestRunOutputsCollide(t *testing.T) {
	dir := t.TempDir()
	v := func(n string) []byte { return onnxwire.Value(n, onnxwire.Int32, 4) }
	g := onnxwire.Graph("g", [][]byte{
		onnxwire.Node("Div", "d1", []string{"x", "y"}, []string{"p/q"}),
		onnxwire.Node("Div", "d2", []string{"y", "x"}, []string{"p_q"}),
	}, nil, [][]byte{v("x"), v("y")}, [][]byte{v("p/q"), v("p_q")})
	writeFiles(t, dir, map[string][]byte{"model.onnx": onnxwire.Model(13, g)})
	out := filepath.Join(dir, "out")
	if _, stderr, code := irdiv(t, "run", filepath.Join(dir, "model.onnx"), "-o", out); code != 0 {
		t.Fatal(stderr)
	}
	a, err1 := npy.ReadFile(filepath.Join(out, "p_q.npy"), 0)
	b, err2 := npy.ReadFile(filepath.Join(out, "p_q~2.npy"), 0)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	// x / y and y / x of generated values that are never zero: p_q is
	// y / x, so where |y| < |x| it is 0 and p/q is not.
	if string(a.Data) == string(b.Data) {
		t.Errorf("p_q.npy and p_q~2.npy hold the same values: one output was written twice")
	}
}
