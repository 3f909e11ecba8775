package search

import (
	"strconv"
	"strings"
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
		// ONNX Runtime 1.30 infers a -1 beside a zero of the pattern
		// (allowzero) of an empty input: the product of its nonzero dims
		// over the pattern's.
		// (Not beside a zero dim of the input that a zero copies.)
		{"Reshape [0,-1] of an empty tensor", &ops.Reshape{SpecialZero: true}, []ops.ValueInfo{data(0), ints(ir.I64, []int64{2}, 0, -1)}, out(0, 1), true},
		{"Reshape [0,-1] of [0, 32, 2] without allowzero", &ops.Reshape{SpecialZero: true}, []ops.ValueInfo{data(0, 32, 2), ints(ir.I64, []int64{2}, 0, -1)}, out(0, 64), true},
		{"Reshape [0,-1] of [0, 5, 2]", &ops.Reshape{}, []ops.ValueInfo{data(0, 5, 2), ints(ir.I64, []int64{2}, 0, -1)}, out(0, 10), false},
		{"Reshape [0,-1] of [0, 5, 2] shaped as OpenVINO does", &ops.Reshape{}, []ops.ValueInfo{data(0, 5, 2), ints(ir.I64, []int64{2}, 0, -1)}, out(0, 1), true},
		{"Reshape [0,-1,3] of [0, 5, 2]", &ops.Reshape{}, []ops.ValueInfo{data(0, 5, 2), ints(ir.I64, []int64{3}, 0, -1, 3)}, out(0, 3, 3), true},
		{"Reshape [0,-1] of a tensor", &ops.Reshape{}, []ops.ValueInfo{data(2, 5), ints(ir.I64, []int64{2}, 0, -1)}, out(0, 1), true},
		{"Interpolate to 0", &ops.Interpolate{Version: 11}, []ops.ValueInfo{data(1, 1, 4)}, out(1, 1, 0), true},
		{"Interpolate to 2", &ops.Interpolate{Version: 11}, []ops.ValueInfo{data(1, 1, 4)}, out(1, 1, 2), false},
		{"Interpolate of 0 to 1", &ops.Interpolate{Version: 11}, []ops.ValueInfo{data(1, 1, 0)}, out(1, 1, 1), true},
		{"Interpolate of 0 to 0", &ops.Interpolate{Version: 11}, []ops.ValueInfo{data(1, 1, 0)}, out(1, 1, 0), false},
		{"Interpolate to sizes [1,1,-1]", &ops.Interpolate{Version: 11, ShapeCalculationMode: "sizes"}, []ops.ValueInfo{data(1, 1, 4), ints(ir.I64, []int64{3}, 1, 1, -1)}, []ops.ValueInfo{{Type: ir.F32, Shape: shapeinfer.DynamicRankShape()}}, true},
		{"Interpolate to sizes [1,1,3]", &ops.Interpolate{Version: 11, ShapeCalculationMode: "sizes"}, []ops.ValueInfo{data(1, 1, 4), ints(ir.I64, []int64{3}, 1, 1, 3)}, out(1, 1, 3), false},
		{"MaxPool of an empty batch", &ops.MaxPool{Version: 8}, []ops.ValueInfo{data(0, 1, 4)}, out(0, 1, 2), false},
		{"MaxPool of a zero dim", &ops.MaxPool{Version: 8}, []ops.ValueInfo{data(1, 1, 0)}, out(1, 1, 0), true},
		{"MaxPool of no channel", &ops.MaxPool{Version: 8}, []ops.ValueInfo{data(1, 0, 4)}, out(1, 0, 2), true},
		{"MaxPool of an empty batch and no channel", &ops.MaxPool{Version: 8}, []ops.ValueInfo{data(0, 0, 4)}, out(0, 0, 2), false},
	} {
		err := onnxRefuses(tc.op, tc.in, tc.outs, true)
		if (err != nil) != tc.refuses {
			t.Errorf("%s: %v, want refused %v", tc.name, err, tc.refuses)
		}
	}
	// Where ONNX Runtime's loading may know the zero beside the -1, it
	// refuses the model.
	if onnxRefuses(&ops.Reshape{}, []ops.ValueInfo{data(0, 5, 2), ints(ir.I64, []int64{2}, 0, -1)}, out(0, 10), false) == nil {
		t.Errorf("Reshape [0,-1] of [0, 5, 2] of a zero known as ONNX Runtime loads the model: not refused")
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
		if err := onnxRefuses(op, in, outs, false); (err != nil) != refuses {
			t.Errorf("a Scan over %d elements: %v, want refused %v", n, err, refuses)
		}
	}
}

// TestEmptyAsONNXRuntime: the ops of empty inputs that ONNX Runtime 1.30
// runs and OpenVINO refuses, or shapes otherwise, shaped as ONNX Runtime
// does; the others left to OpenVINO's inference.
func TestEmptyAsONNXRuntime(t *testing.T) {
	data := func(dims ...int64) ops.ValueInfo {
		return ops.ValueInfo{Type: ir.F32, Shape: shapeinfer.StaticShape(dims...)}
	}
	pattern := func(vs ...int64) ops.ValueInfo {
		x, err := ir.NewTensor(ir.I64, []int64{int64(len(vs))})
		if err != nil {
			panic(err)
		}
		for i, v := range vs {
			x.SetInt64(i, v)
		}
		return ops.ValueInfo{Type: ir.I64, Shape: shapeinfer.StaticShape(int64(len(vs))), Value: x}
	}
	pool := ops.PoolAttrs{Kernel: []int64{2}, Strides: []int64{2}, PadsBegin: []int64{0}, PadsEnd: []int64{0}}
	for _, tc := range []struct {
		name string
		op   ops.Op
		in   []ops.ValueInfo
		want string // the outputs' shapes; "" where left to OpenVINO
	}{
		{"AvgPool of an empty batch", &ops.AvgPool{Version: 1, PoolAttrs: pool}, []ops.ValueInfo{data(0, 5, 4)}, "[[0,5,2]]"},
		{"AvgPool of an empty batch and no channel", &ops.AvgPool{Version: 1, PoolAttrs: pool}, []ops.ValueInfo{data(0, 0, 4)}, "[[0,0,2]]"},
		{"MaxPool of an empty batch", &ops.MaxPool{Version: 8, PoolAttrs: pool, IndexElementType: ir.I64}, []ops.ValueInfo{data(0, 3, 6)}, "[[0,3,3] [0,3,3]]"},
		{"AvgPool of no channel", &ops.AvgPool{Version: 1, PoolAttrs: pool}, []ops.ValueInfo{data(1, 0, 4)}, ""},
		{"AvgPool of a batch", &ops.AvgPool{Version: 1, PoolAttrs: pool}, []ops.ValueInfo{data(1, 5, 4)}, ""},
		{"Reshape [0,-1] of [0, 5, 2]", &ops.Reshape{}, []ops.ValueInfo{data(0, 5, 2), pattern(0, -1)}, "[[0,10]]"},
		{"Reshape [0,-1] of [0, 5, 2] with a special zero", &ops.Reshape{SpecialZero: true}, []ops.ValueInfo{data(0, 5, 2), pattern(0, -1)}, ""},
		{"Reshape [2,0,-1] of [2, 5, 0] with a special zero", &ops.Reshape{SpecialZero: true}, []ops.ValueInfo{data(2, 5, 0), pattern(2, 0, -1)}, ""},
		{"Reshape [2,0,-1] of [3, 0]", &ops.Reshape{}, []ops.ValueInfo{data(3, 0), pattern(2, 0, -1)}, ""},
		{"Reshape [0,-1,3] of [3, 0]", &ops.Reshape{}, []ops.ValueInfo{data(3, 0), pattern(0, -1, 3)}, "[[0,1,3]]"},
		{"Reshape [5,-1] of [0, 2]", &ops.Reshape{}, []ops.ValueInfo{data(0, 2), pattern(5, -1)}, ""},
		{"Reshape [0,-1] of [2, 5]", &ops.Reshape{}, []ops.ValueInfo{data(2, 5), pattern(0, -1)}, ""},
	} {
		outs, ok := emptyAsONNXRuntime(tc.op, tc.in)
		got := ""
		if ok {
			var shapes []string
			for _, o := range outs {
				shapes = append(shapes, o.Shape.String())
			}
			got = "[" + strings.Join(shapes, " ") + "]"
		}
		if got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
