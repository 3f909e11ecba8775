package search

import (
	"strconv"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// TestONNXRefuses: the ops ONNX fails where their OpenVINO counterparts
// run, on known inputs.
func TestONNXRefuses(t *testing.T) {
	ints := func(t ir.ElementType, dims []int64, vs ...int64) ops.ValueInfo {
		x, err := ir.NewTensor(t, dims)
		if err != nil {
			panic(err)
		}
		for i, v := range vs {
			x.SetInt64(i, v)
		}
		return ops.ValueInfo{Type: t, Shape: shapeinfer.StaticShape(dims...), Value: x}
	}
	data := func(dims ...int64) ops.ValueInfo {
		return ops.ValueInfo{Type: ir.F32, Shape: shapeinfer.StaticShape(dims...)}
	}
	out := func(dims ...int64) []ops.ValueInfo { return []ops.ValueInfo{data(dims...)} }
	scalar := func(v int64) ops.ValueInfo { return ints(ir.I64, []int64{}, v) }
	for _, tc := range []struct {
		name    string
		op      ops.Op
		in      []ops.ValueInfo
		outs    []ops.ValueInfo
		refuses bool
	}{
		{"Gather in range", &ops.Gather{Version: 8}, []ops.ValueInfo{data(3), scalar(-3), scalar(0)}, out(), false},
		{"Gather out of range", &ops.Gather{Version: 8}, []ops.ValueInfo{data(3), scalar(3), scalar(0)}, out(), true},
		{"Gather below range", &ops.Gather{Version: 8}, []ops.ValueInfo{data(3), scalar(-4), scalar(0)}, out(), true},
		{"Range of step 1", &ops.Range{Version: 4}, []ops.ValueInfo{scalar(0), scalar(3), scalar(1)}, out(3), false},
		{"Range of step 0", &ops.Range{Version: 4}, []ops.ValueInfo{scalar(0), scalar(3), scalar(0)}, out(), true},
		{"Squeeze of a 1", &ops.Squeeze{Version: 1}, []ops.ValueInfo{data(2, 1), ints(ir.I64, []int64{1}, 1)}, out(2), false},
		{"Squeeze of a 2", &ops.Squeeze{Version: 1}, []ops.ValueInfo{data(2, 1), ints(ir.I64, []int64{1}, 0)}, out(2, 1), true},
		{"Reshape keeping the count", &ops.Reshape{SpecialZero: true}, []ops.ValueInfo{data(2, 3), ints(ir.I64, []int64{2}, 0, -1)}, out(2, 3), false},
		{"Reshape to another count", &ops.Reshape{SpecialZero: true}, []ops.ValueInfo{data(1, 32, 32), ints(ir.I64, []int64{2}, 2, 0)}, out(2, 32), true},
		{"Reshape [0,-1] of an empty tensor", &ops.Reshape{SpecialZero: true}, []ops.ValueInfo{data(0), ints(ir.I64, []int64{2}, 0, -1)}, out(0, 1), true},
		{"Interpolate to 0", &ops.Interpolate{Version: 11}, []ops.ValueInfo{data(1, 1, 4)}, out(1, 1, 0), true},
		{"Interpolate to 2", &ops.Interpolate{Version: 11}, []ops.ValueInfo{data(1, 1, 4)}, out(1, 1, 2), false},
		{"Interpolate of 0 to 1", &ops.Interpolate{Version: 11}, []ops.ValueInfo{data(1, 1, 0)}, out(1, 1, 1), true},
		{"Interpolate of 0 to 0", &ops.Interpolate{Version: 11}, []ops.ValueInfo{data(1, 1, 0)}, out(1, 1, 0), false},
		{"Interpolate to sizes [1,1,-1]", &ops.Interpolate{Version: 11, ShapeCalculationMode: "sizes"}, []ops.ValueInfo{data(1, 1, 4), ints(ir.I64, []int64{3}, 1, 1, -1)}, []ops.ValueInfo{{Type: ir.F32, Shape: shapeinfer.DynamicRankShape()}}, true},
		{"Interpolate to sizes [1,1,3]", &ops.Interpolate{Version: 11, ShapeCalculationMode: "sizes"}, []ops.ValueInfo{data(1, 1, 4), ints(ir.I64, []int64{3}, 1, 1, 3)}, out(1, 1, 3), false},
		{"MaxPool of an empty batch", &ops.MaxPool{Version: 8}, []ops.ValueInfo{data(0, 1, 4)}, out(0, 1, 2), false},
		{"MaxPool of a zero dim", &ops.MaxPool{Version: 8}, []ops.ValueInfo{data(1, 1, 0)}, out(1, 1, 0), true},
	} {
		err := onnxRefuses(tc.op, tc.in, tc.outs)
		if (err != nil) != tc.refuses {
			t.Errorf("%s: %v, want refused %v", tc.name, err, tc.refuses)
		}
	}
}

// TestONNXRefusesAnEmptyScan: ONNX Runtime fails a Scan (a
// TensorIterator) over an empty sequence, which OpenVINO's runs.
func TestONNXRefusesAnEmptyScan(t *testing.T) {
	b := &ir.Model{}
	e := b.AddParameter("e", ir.I32, shapeinfer.MustParseShape("[1]"))
	r := b.AddResult("r", ir.Output{Layer: e})
	m := &ir.Model{}
	x := m.AddParameter("x", ir.I32, shapeinfer.MustParseShape("[?]"))
	l := m.AddLayer("TensorIterator", "opset1", "ti", nil, []ir.Output{{Layer: x}}, []*ir.Port{{Type: ir.Dynamic}})
	entry := func(tag, ext string, id uint64) *ir.Node {
		return &ir.Node{Tag: tag, Attrs: []ir.Attr{{Name: "external_port_id", Value: ext}, {Name: "internal_layer_id", Value: strconv.FormatUint(id, 10)}, {Name: "axis", Value: "0"}}}
	}
	l.Extra = []ir.Extra{{Node: &ir.Node{Tag: "port_map", Children: []*ir.Node{entry("input", "0", e.ID), entry("output", "1", r.ID)}}}, {Node: &ir.Node{Tag: "body"}, Body: b}}
	op, err := ops.New(l)
	if err != nil {
		t.Fatal(err)
	}
	for n, refuses := range map[int64]bool{0: true, 3: false} {
		in := []ops.ValueInfo{{Type: ir.I32, Shape: shapeinfer.StaticShape(n)}}
		outs, err := op.Infer(in)
		if err != nil {
			t.Fatal(err)
		}
		if err := onnxRefuses(op, in, outs); (err != nil) != refuses {
			t.Errorf("a Scan over %d elements: %v, want refused %v", n, err, refuses)
		}
	}
}
