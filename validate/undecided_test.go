package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/ir"
)

// Divides that the random-model differential left undecided (issue 27),
// where ONNX Runtime finds no difference, and irdiv now proves why.

// TestReshapeInfersOneDim: Reshape(x, [y, -1]) runs only where y is 0 or
// more, as ONNX infers one dim at most: y / 2 agrees at every input the
// model runs on, and the proof says what it rests on. ONNX Runtime, where
// installed, refuses y = -1 (two dims to infer) and runs y = 0.
func TestReshapeInfersOneDim(t *testing.T) {
	g := new(graph).input("x", onnxwire.Float, param("K")).input("y", onnxwire.Int64).
		i64("axes", []int64{1}, 0).i64("rest", []int64{1}, -1).i64("two", []int64{}, 2).
		node("Unsqueeze", []string{"y", "axes"}, "y1").node("Concat", []string{"y1", "rest"}, "target", onnxwire.IntAttr("axis", 0)).
		node("Reshape", []string{"x", "target"}, "r").
		node("Div", []string{"y", "two"}, "half").
		output("half", onnxwire.Int64).output("r", onnxwire.Float)
	f := verdictOf(t, Model(g.imported(t), "reshape.onnx", Options{}), "half")
	if f.Code != FloorTruncAgree || !strings.Contains(f.Message, "infers one dim only") {
		t.Errorf("half: %s %s, want %s resting on the Reshape", f.Code, f.Message, FloorTruncAgree)
	}
	runner, err := ortreplay.Find()
	if err != nil {
		t.Logf("ONNX Runtime is not available (%v): the model is not run", err)
		return
	}
	path := filepath.Join(t.TempDir(), "m.onnx")
	if err := os.WriteFile(path, onnxwire.Model(13, onnxwire.Graph("g", g.nodes, g.inits, g.inputs, g.outputs)), 0o644); err != nil {
		t.Fatal(err)
	}
	x, _ := ir.NewTensor(ir.F32, []int64{4})
	var runs []map[string]*ir.Tensor
	for _, v := range []int64{-1, 0} {
		y, _ := ir.NewTensor(ir.I64, []int64{})
		y.SetInt64(0, v)
		runs = append(runs, map[string]*ir.Tensor{"x": x, "y": y})
	}
	res, err := runner.RunJobs([]ortreplay.Job{{Model: path, Runs: runs}})
	if err != nil {
		t.Fatal(err)
	}
	if res[0][0].Err == nil || res[0][1].Err != nil {
		t.Errorf("ONNX Runtime at y = -1: %v, at y = 0: %v; want a failure, then a run", res[0][0].Err, res[0][1].Err)
	}
}
