package main

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ir/npy"
)

func int32s(vals ...int32) []byte {
	var out []byte
	for _, v := range vals {
		out = binary.LittleEndian.AppendUint32(out, uint32(v))
	}
	return out
}

// divONNX is z = x / y, Div-13 of i32[4], and its folder.
func divONNX(t *testing.T, inits ...[]byte) (dir, model string) {
	t.Helper()
	value := func(name string) []byte { return onnxwire.Value(name, onnxwire.Int32, 4) }
	inputs := [][]byte{value("x")}
	if len(inits) == 0 {
		inputs = append(inputs, value("y"))
	}
	graph := onnxwire.Graph("g", [][]byte{onnxwire.Node("Div", "div", []string{"x", "y"}, []string{"z"})}, inits, inputs, [][]byte{value("z")})
	dir = t.TempDir()
	model = filepath.Join(dir, "model.onnx")
	writeFiles(t, dir, map[string][]byte{"model.onnx": onnxwire.Model(13, graph)})
	return dir, model
}

func writeFiles(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNoArguments: bare irdiv is a usage error whose first line says so,
// as every failure's does, and then shows the usage.
func TestNoArguments(t *testing.T) {
	_, stderr, code := irdiv(t)
	if code != 2 || !strings.HasPrefix(stderr, "irdiv: want a command (eval, run, info, bench, convert, validate, fix, version)\n") || !strings.Contains(stderr, "\nUsage:\n") {
		t.Errorf("irdiv: exit %d, %q", code, stderr)
	}
}

// TestDataSetMatchedByName: the files of a test data set give the inputs
// their tensor names say, whatever their numbers; files without a name go
// by position. Matched by position, the swapped set would divide y by x
// and miss the expected truncated quotients.
func TestDataSetMatchedByName(t *testing.T) {
	dir, model := divONNX(t)
	x, y := int32s(7, -7, 7, -7), int32s(2, 2, -2, -2)
	z := int32s(3, -3, -3, 3) // 7/2, -7/2, 7/-2, -7/-2 truncated
	tensor := func(name string, data []byte) []byte { return onnxwire.Tensor(name, onnxwire.Int32, []int64{4}, data) }
	writeFiles(t, dir, map[string][]byte{
		"swapped/input_0.pb": tensor("y", y), "swapped/input_1.pb": tensor("x", x), "swapped/output_0.pb": tensor("z", z),
		"unnamed/input_0.pb": tensor("", x), "unnamed/input_1.pb": tensor("", y), "unnamed/output_0.pb": tensor("", z),
	})
	for _, set := range []string{"swapped", "unnamed"} {
		path := filepath.Join(dir, set)
		stdout, stderr, code := irdiv(t, "run", model, "--inputs", path, "--expected", path)
		if code != 0 || !strings.Contains(stdout, "matches "+filepath.Join(path, "output_0.pb")) {
			t.Errorf("%s: exit %d\n%s%s", set, code, stdout, stderr)
		}
	}
	// -i gives one input, the set the other.
	writeFiles(t, dir, map[string][]byte{"half/input_1.pb": tensor("y", y), "x.pb": tensor("x", x)})
	stdout, stderr, code := irdiv(t, "run", model, "-i", "x="+filepath.Join(dir, "x.pb"), "--inputs", filepath.Join(dir, "half"), "--expected", filepath.Join(dir, "swapped", "output_0.pb"))
	if code != 0 || !strings.Contains(stdout, "matches") {
		t.Errorf("-i and --inputs: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestExternalDataLinkInside: links that stay inside the model's folder
// are followed, a folder link and a file link among them.
func TestExternalDataLinkInside(t *testing.T) {
	dir, model := divONNX(t, onnxwire.ExternalTensor("y", onnxwire.Int32, []int64{4}, "weights/y.bin"))
	writeFiles(t, dir, map[string][]byte{"store/data.bin": int32s(2, 2, -2, -2)})
	if err := os.Symlink("store", filepath.Join(dir, "weights")); err != nil {
		t.Skipf("skipped: no symbolic links here (%v)", err)
	}
	if err := os.Symlink("data.bin", filepath.Join(dir, "store", "y.bin")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "m.xml")
	if _, stderr, code := irdiv(t, "convert", model, "-o", out); code != 0 {
		t.Fatalf("convert: %s", stderr)
	}
	x, err := ir.TensorOf(ir.I32, []int64{4}, []int32{7, -7, 7, -7})
	if err != nil {
		t.Fatal(err)
	}
	xPath := filepath.Join(dir, "x.npy")
	if err := npy.WriteFile(xPath, x); err != nil {
		t.Fatal(err)
	}
	// y = [2, 2, -2, -2] came through the links: the quotients truncate.
	stdout, stderr, code := irdiv(t, "run", out, "-i", "x="+xPath)
	if code != 0 || !strings.Contains(stdout, "[3 -3 -3 3]") {
		t.Errorf("run: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestDataSetOfAModelWithoutInputs: a model of constants takes a test
// data set that holds only outputs (ONNX's test_constant), and a set
// that gives it an input it does not have is still refused.
func TestDataSetOfAModelWithoutInputs(t *testing.T) {
	dir := t.TempDir()
	c := onnxwire.Tensor("", onnxwire.Int32, []int64{2}, int32s(7, -7))
	graph := onnxwire.Graph("constant", [][]byte{onnxwire.NodeAttrs("Constant", "c", nil, []string{"c"}, onnxwire.TensorAttr("value", c))},
		nil, nil, [][]byte{onnxwire.Value("c", onnxwire.Int32, 2)})
	model := filepath.Join(dir, "model.onnx")
	writeFiles(t, dir, map[string][]byte{
		"model.onnx":        onnxwire.Model(13, graph),
		"set/output_0.pb":   onnxwire.Tensor("c", onnxwire.Int32, []int64{2}, int32s(7, -7)),
		"extra/input_0.pb":  onnxwire.Tensor("x", onnxwire.Int32, []int64{2}, int32s(1, 2)),
		"extra/output_0.pb": onnxwire.Tensor("c", onnxwire.Int32, []int64{2}, int32s(7, -7)),
	})
	set := filepath.Join(dir, "set")
	if stdout, stderr, code := irdiv(t, "run", model, "--inputs", set, "--expected", set); code != 0 || !strings.Contains(stdout, "matches") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	extra := filepath.Join(dir, "extra")
	if _, stderr, code := irdiv(t, "run", model, "--inputs", extra); code != 1 || !strings.Contains(stderr, `holds tensor "x", which is no input of the model`) {
		t.Errorf("a set with an input the model lacks: exit %d %q", code, stderr)
	}
}

// TestRunComputesWhatItCan: a model with an output that needs an op irdiv
// cannot execute still gives its other outputs, names the one it could
// not compute and the layer in its way, and exits 1.
func TestRunComputesWhatItCan(t *testing.T) {
	dir := t.TempDir()
	graph := onnxwire.Graph("partial", [][]byte{
		onnxwire.Node("Abs", "abs", []string{"x"}, []string{"a"}),
		onnxwire.Node("Acos", "acos", []string{"x"}, []string{"c"}),
	}, nil, [][]byte{onnxwire.Value("x", onnxwire.Float, 2)}, [][]byte{onnxwire.Value("a", onnxwire.Float, 2), onnxwire.Value("c", onnxwire.Float, 2)})
	writeFiles(t, dir, map[string][]byte{"model.onnx": onnxwire.Model(13, graph)})
	stdout, stderr, code := irdiv(t, "run", filepath.Join(dir, "model.onnx"))
	for _, want := range []string{`output "a"`, `output "c"          not computed: it needs layer "acos" (id 2) (Acos opset1)`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("missing %q in\n%s", want, stdout)
		}
	}
	if code != 1 || !strings.Contains(stderr, "irdiv cannot execute 1 layer (Acos opset1 x1)") || !strings.Contains(stderr, "computed the 1 other output without them") {
		t.Errorf("exit %d %q", code, stderr)
	}
}

// TestReadLimitFlags: --max-nodes and --max-layers lower or raise the caps
// on an IR's XML, and a file past one is refused naming the flag.
func TestReadLimitFlags(t *testing.T) {
	model := filepath.Join("..", "..", "examples", "floordiv", "model.xml")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"info", "--max-nodes", "20", model}, "(ReadOptions.MaxNodes); --max-nodes raises it"},
		{[]string{"validate", "--max-layers", "2", model}, "(ReadOptions.MaxLayers); --max-layers raises it"},
		{[]string{"run", "--max-layers", "2", model}, "--max-layers raises it"},
		{[]string{"info", "--max-layers", "0", model}, "must be at least 1"},
	} {
		if _, stderr, code := irdiv(t, c.args...); code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d %q", c.args, code, stderr)
		}
	}
	if _, stderr, code := irdiv(t, "info", "--max-nodes", "100000", "--max-layers", "100000", model); code != 0 {
		t.Errorf("raised caps: %q", stderr)
	}
}
