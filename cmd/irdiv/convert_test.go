package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/validate"
)

// TestConvertReadsBack: every model convert writes, irdiv reads back:
// the PyTorch exports of testdata/pytorch, ONNX's node tests of
// testdata/onnx-node and onnx/testdata/node, and models whose ops irdiv
// does not know (an output of unknown rank, which an IR writes as it
// writes a scalar, without dims) convert, and info and validate read what
// they wrote; a model whose IR the reader would refuse (past its caps) is
// refused by convert, which then writes nothing.
func TestConvertReadsBack(t *testing.T) {
	if testing.Short() {
		t.Skip("converts and reads back 760 models; go test without -short runs it (.ci/run does, twice)")
	}
	var models []string
	for _, pattern := range []string{"../../testdata/pytorch/*.onnx", "../../testdata/onnx-node/*/model.onnx", "../../onnx/testdata/node/*/model.onnx"} {
		found, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, found...)
	}
	if len(models) < 700 {
		t.Fatalf("found %d models; testdata/pytorch and the node tests hold more than 700", len(models))
	}
	dir := t.TempDir()
	// Ops of another domain compute tensors of unknown rank, which ops
	// that need a rank read.
	mystery := onnxwire.DomainNode("com.example", "Mystery", "mystery", []string{"x"}, []string{"u"})
	for name, node := range map[string][]byte{
		"rankless-transpose": onnxwire.NodeAttrs("Transpose", "t", []string{"u"}, []string{"y"}, onnxwire.IntsAttr("perm", 1, 0)),
		"rankless-flatten":   onnxwire.NodeAttrs("Flatten", "f", []string{"u"}, []string{"y"}, onnxwire.IntAttr("axis", 1)),
		"rankless-tile":      onnxwire.Node("Tile", "tile", []string{"u", "r"}, []string{"y"}),
	} {
		g := onnxwire.Graph("g", [][]byte{mystery, node}, [][]byte{onnxwire.Tensor("r", onnxwire.Int64, []int64{2}, make([]byte, 16))},
			[][]byte{onnxwire.Value("x", onnxwire.Float, 2, 3)}, [][]byte{onnxwire.Rankless("y", onnxwire.Float)})
		path := filepath.Join(dir, name+".onnx")
		if err := os.WriteFile(path, onnxwire.WithOpset(onnxwire.Model(13, g), "com.example", 1), 0o644); err != nil {
			t.Fatal(err)
		}
		models = append(models, path)
	}
	converted := 0
	for i, model := range models {
		out := filepath.Join(dir, "out", strings.ReplaceAll(strings.TrimPrefix(model, "../../"), "/", "_")+".xml")
		if i == 0 {
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		_, stderr, code := irdiv(t, "convert", model, "-o", out)
		if code != 0 {
			// Refused (a node test irdiv refuses, such as a random
			// Dropout): then nothing is written.
			if _, err := os.Stat(out); err == nil || !strings.HasPrefix(stderr, "irdiv: ") {
				t.Errorf("convert %s: exit %d, %q, and it wrote %s", model, code, stderr, out)
			}
			continue
		}
		converted++
		if _, stderr, code := irdiv(t, "info", out); code != 0 {
			t.Errorf("convert %s wrote an IR info cannot read: %s", model, stderr)
		}
		if stdout, stderr, _ := irdiv(t, "validate", out); !strings.Contains(stdout, "1 model:") || strings.Contains(stdout, string(validate.IRUnreadable)) {
			t.Errorf("convert %s wrote an IR validate cannot read: %s%s", model, stdout, stderr)
		}
	}
	t.Logf("%d of %d models converted and read back", converted, len(models))
	if converted < len(models)-20 {
		t.Errorf("only %d of %d models converted", converted, len(models))
	}

	// 270,000 Adds (a Sum of one input repeated): more layers than the
	// reader takes (ir.DefaultMaxLayers) and more XML nodes. An 800 KB
	// model, too large for testdata/bad, whose cases must allocate
	// little.
	inputs := make([]string, 270000)
	for i := range inputs {
		inputs[i] = "x"
	}
	g := onnxwire.Graph("g", [][]byte{onnxwire.Node("Sum", "sum", inputs, []string{"y"})}, nil,
		[][]byte{onnxwire.Value("x", onnxwire.Float, 1)}, [][]byte{onnxwire.Value("y", onnxwire.Float, 1)})
	big := filepath.Join(dir, "sum.onnx")
	if err := os.WriteFile(big, onnxwire.Model(13, g), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "sum.xml")
	_, stderr, code := irdiv(t, "convert", big, "-o", out)
	if code != 1 || !strings.Contains(stderr, "irdiv would write an IR it cannot read back, so it writes none") || !strings.Contains(stderr, "ReadOptions.Max") {
		t.Errorf("convert of 270,000 Adds: exit %d, %q; want a refusal naming the reader's cap", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("convert of 270,000 Adds wrote %s", out)
	}
}
