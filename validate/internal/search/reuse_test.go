package search

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/absint"
)

// reuseModel is x / 2 + 1 (flooring in the IR), x * 3 and (x / 2) * 0 +
// x, all Results, for x: i32[?].
func reuseModel(t *testing.T) (an *absint.Analysis, x, divide, sum, product, past *ir.Layer) {
	t.Helper()
	m := &ir.Model{}
	xl := m.AddParameter("x", ir.I32, shapeinfer.MustParseShape("[?]"))
	constant := func(name string, v int64) ir.Output {
		c, err := ir.NewTensor(ir.I32, []int64{1})
		if err != nil {
			t.Fatal(err)
		}
		c.SetInt64(0, v)
		return ir.Output{Layer: m.AddConst(name, c)}
	}
	layer := func(typ, name string, attrs []ir.Attr, ins ...ir.Output) *ir.Layer {
		return m.AddLayer(typ, "opset1", name, attrs, ins, []*ir.Port{{Type: ir.Dynamic}})
	}
	divide = layer("Divide", "q", []ir.Attr{{Name: "m_pythondiv", Value: "true"}}, ir.Output{Layer: xl}, constant("two", 2))
	sum = layer("Add", "sum", nil, ir.Output{Layer: divide}, constant("one", 1))
	product = layer("Multiply", "product", nil, ir.Output{Layer: xl}, constant("three", 3))
	vanished := layer("Multiply", "vanished", nil, ir.Output{Layer: divide}, constant("zero", 0))
	past = layer("Add", "past", nil, ir.Output{Layer: vanished}, ir.Output{Layer: xl})
	m.AddResult("sum_out", ir.Output{Layer: sum})
	m.AddResult("product_out", ir.Output{Layer: product})
	m.AddResult("past_out", ir.Output{Layer: past})
	inf, err := ops.InferModel(m)
	if err != nil {
		t.Fatal(err)
	}
	return absint.Analyze(m, inf, absint.Options{}), xl, divide, sum, product, past
}

func truncatingDivides(*ir.Layer, *ops.Divide) bool { return false }
func flooringDivides(*ir.Layer, *ops.Divide) bool   { return true }

// sameRuns reports where two evaluations differ, for the layers of need.
func sameRuns(t *testing.T, what string, got, want *Run, need map[*ir.Layer]bool) {
	t.Helper()
	if (got.Err == nil) != (want.Err == nil) {
		t.Errorf("%s: error %v, want %v", what, got.Err, want.Err)
	}
	for out, w := range outputsOf(want) {
		if !need[out.Layer] {
			continue
		}
		g, ok := got.Info(out)
		if !ok || !g.Shape.Equal(w.Shape) || g.Type != w.Type {
			t.Errorf("%s: %s is %v, want %v", what, out.Layer.Name, g, w)
		}
		gv, wv := got.Value(out), want.Value(out)
		if (gv == nil) != (wv == nil) || gv != nil && !bytes.Equal(gv.Data, wv.Data) {
			t.Errorf("%s: %s holds %v, want %v", what, out.Layer.Name, gv, wv)
		}
	}
}

// TestReusedEvaluationsAgree: the test evaluation of a confirmation,
// taking from the reference one the values of the layers whose inputs
// are the reference's, computes what an evaluation of its own does; it
// takes x * 3 from the reference, and (x / 2) * 0 + x, past where the
// difference vanished, and computes x / 2 + 1 anew, which floors there
// and truncates in the reference (-7 / 2 + 1 is -3, not -2).
func TestReusedEvaluationsAgree(t *testing.T) {
	an, x, divide, sum, product, past := reuseModel(t)
	in, err := ir.NewTensor(ir.I32, []int64{3})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range []int64{-7, 4, 5} {
		in.SetInt64(i, v)
	}
	inputs := map[*ir.Layer]*ir.Tensor{x: in}
	s := New(an, Options{})
	need := s.need(divide)
	refOpts := RunOptions{Floor: truncatingDivides, ONNX: true, Need: s.reachingResults()}
	testOpts := RunOptions{Floor: flooringDivides, Need: s.reachingResults()}
	ref := s.Evaluate(inputs, refOpts)
	want := s.Evaluate(inputs, testOpts)
	got := s.evaluationAfter(inputs, s.evaluation(inputs), ref, refOpts, testOpts)
	sameRuns(t, "reusing", got, want, s.reachingResults())
	for _, l := range []*ir.Layer{product, past} {
		if out := (ir.Output{Layer: l}); got.Value(out) != ref.Value(out) {
			t.Errorf("%s was computed again, not taken from the reference", l.Name)
		}
	}
	if sumOut := (ir.Output{Layer: sum}); bytes.Equal(got.Value(sumOut).Data, ref.Value(sumOut).Data) {
		t.Errorf("x / 2 + 1 is the reference's %v, which truncates", ref.Value(sumOut))
	}
	// The edge inputs' evaluation over every layer a Result needs gives
	// what an evaluation around the Divide does, and charges as much.
	edge, ok := s.edgeInputs(0, smallEdges, true)
	if !ok {
		t.Fatal("no edge inputs")
	}
	around := refOpts
	around.Need = need
	before := s.runLayers
	want = s.Evaluate(edge, around)
	charged := before - s.runLayers
	for range 2 { // made, then kept
		before = s.runLayers
		got = s.edgeEvaluation(0, edge)(around)
		sameRuns(t, "edge", got, want, need)
		if before-s.runLayers != charged {
			t.Errorf("the edge evaluation charged %d layers, want %d", before-s.runLayers, charged)
		}
	}
}

// TestRunOptionsKnownToReuse: the kept edge evaluations (edgeRunKey) and
// the reused ones (alike) tell options apart by the fields they know;
// another field of RunOptions must be added to both.
func TestRunOptionsKnownToReuse(t *testing.T) {
	known := map[string]bool{"Floor": true, "MaxTensorBytes": true, "MaxBytes": true, "Stop": true, "Need": true, "ONNX": true, "IntegersOnly": true, "DoubleReductions": true, "EmptyAsONNXRuntime": true, "watch": true}
	ty := reflect.TypeFor[RunOptions]()
	for i := range ty.NumField() {
		if name := ty.Field(i).Name; !known[name] {
			t.Errorf("RunOptions.%s is new: edgeRunKey and alike must tell evaluations apart by it", name)
		}
	}
}

// outputsOf yields each output run reached, with its type and shape.
func outputsOf(run *Run) func(yield func(ir.Output, ops.ValueInfo) bool) {
	return func(yield func(ir.Output, ops.ValueInfo) bool) {
		for l, sr := range run.slots.layers {
			for i := range sr.n {
				if e := run.outs[sr.first+i]; e.set && !yield(ir.Output{Layer: l, Index: i}, e.info) {
					return
				}
			}
		}
	}
}
