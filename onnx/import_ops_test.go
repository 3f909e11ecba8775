package onnx

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx/internal/onnxpb"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/plugin"
	"google.golang.org/protobuf/proto"
)

// portInfo is a graph input or output of type t; a dim of -1 is a
// symbolic one, and nil dims an unknown shape.
func portInfo(name string, t ir.ElementType, dims []int64) *onnxpb.ValueInfoProto {
	tt := &onnxpb.TypeProto_Tensor{ElemType: proto.Int32(dataType(t))}
	if dims != nil {
		tt.Shape = &onnxpb.TensorShapeProto{}
		for i, d := range dims {
			dim := &onnxpb.TensorShapeProto_Dimension{Value: &onnxpb.TensorShapeProto_Dimension_DimValue{DimValue: d}}
			if d < 0 {
				dim.Value = &onnxpb.TensorShapeProto_Dimension_DimParam{DimParam: fmt.Sprintf("%s_%d", name, i)}
			}
			tt.Shape.Dim = append(tt.Shape.Dim, dim)
		}
	}
	return &onnxpb.ValueInfoProto{Name: proto.String(name), Type: &onnxpb.TypeProto{Value: &onnxpb.TypeProto_TensorType{TensorType: tt}}}
}

// port is a graph input or output: its name, type and dims (see portInfo).
type port struct {
	name string
	typ  ir.ElementType
	dims []int64
}

// nodeModel is a model of one node "n" of type op at opset, reading the
// graph inputs ins (an input named "" is absent) and writing outs.
func nodeModel(opset int64, op string, ins, outs []port, attrs ...*onnxpb.AttributeProto) *onnxpb.ModelProto {
	n := &onnxpb.NodeProto{Name: proto.String("n"), OpType: proto.String(op), Attribute: attrs}
	g := &onnxpb.GraphProto{Name: proto.String("g"), Node: []*onnxpb.NodeProto{n}}
	for _, in := range ins {
		n.Input = append(n.Input, in.name)
		if in.name != "" {
			g.Input = append(g.Input, portInfo(in.name, in.typ, in.dims))
		}
	}
	for _, out := range outs {
		n.Output = append(n.Output, out.name)
		if out.name != "" {
			g.Output = append(g.Output, portInfo(out.name, out.typ, out.dims))
		}
	}
	return &onnxpb.ModelProto{
		IrVersion:   proto.Int64(8),
		OpsetImport: []*onnxpb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(opset)}},
		Graph:       g,
	}
}

func tensorOf[T ir.Scalar](t *testing.T, et ir.ElementType, shape []int64, v ...T) *ir.Tensor {
	t.Helper()
	x, err := ir.TensorOf(et, shape, v)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// shaped formats a tensor as its shape and values.
func shaped(x *ir.Tensor) string {
	vals := make([]string, x.Len())
	for i := range vals {
		vals[i] = x.Format(i)
	}
	return fmt.Sprintf("%v%v", x.Shape, vals)
}

// TestReduceEmptyAxes: empty axes, from an absent input, an input of
// static length 0 or one whose length is known only at run time, reduce
// every axis unless noop_with_empty_axes is set, as ONNX specifies.
func TestReduceEmptyAxes(t *testing.T) {
	x := tensorOf(t, ir.F32, []int64{2, 2}, []float32{1, 2, 3, 4}...)
	none := tensorOf(t, ir.I64, []int64{0}, []int64{}...)
	axis1 := tensorOf(t, ir.I64, []int64{1}, []int64{1}...)
	data := port{"x", ir.F32, []int64{2, 2}}
	out := port{"y", ir.F32, nil}
	for _, tc := range []struct {
		name   string
		opset  int64
		op     string
		axes   *port // nil: no axes input
		noop   bool
		inputs []*ir.Tensor
		want   string
	}{
		{"sum13 no axes", 13, "ReduceSum", nil, false, []*ir.Tensor{x}, "[1 1][10]"},
		{"sum13 static empty axes", 13, "ReduceSum", &port{"axes", ir.I64, []int64{0}}, false, []*ir.Tensor{x, none}, "[1 1][10]"},
		{"sum13 runtime empty axes", 13, "ReduceSum", &port{"axes", ir.I64, []int64{-1}}, false, []*ir.Tensor{x, none}, "[1 1][10]"},
		{"sum13 runtime axes", 13, "ReduceSum", &port{"axes", ir.I64, []int64{-1}}, false, []*ir.Tensor{x, axis1}, "[2 1][3 7]"},
		{"sum13 unknown axes shape", 13, "ReduceSum", &port{"axes", ir.I64, nil}, false, []*ir.Tensor{x, none}, "[1 1][10]"},
		{"sum13 noop static empty", 13, "ReduceSum", &port{"axes", ir.I64, []int64{0}}, true, []*ir.Tensor{x, none}, "[2 2][1 2 3 4]"},
		{"sum13 noop runtime empty", 13, "ReduceSum", &port{"axes", ir.I64, []int64{-1}}, true, []*ir.Tensor{x, none}, "[2 2][1 2 3 4]"},
		{"sum13 noop no axes", 13, "ReduceSum", nil, true, []*ir.Tensor{x}, "[2 2][1 2 3 4]"},
		{"mean18 static empty axes", 18, "ReduceMean", &port{"axes", ir.I64, []int64{0}}, false, []*ir.Tensor{x, none}, "[1 1][2.5]"},
		{"mean18 runtime empty axes", 18, "ReduceMean", &port{"axes", ir.I64, []int64{-1}}, false, []*ir.Tensor{x, none}, "[1 1][2.5]"},
		{"max18 runtime empty axes", 18, "ReduceMax", &port{"axes", ir.I64, []int64{-1}}, false, []*ir.Tensor{x, none}, "[1 1][4]"},
		{"min18 no axes", 18, "ReduceMin", nil, false, []*ir.Tensor{x}, "[1 1][1]"},
		{"prod18 runtime empty axes", 18, "ReduceProd", &port{"axes", ir.I64, []int64{-1}}, false, []*ir.Tensor{x, none}, "[1 1][24]"},
		{"prod18 dynamic rank", 18, "ReduceProd", nil, false, []*ir.Tensor{x}, "[1 1][24]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ins := []port{data}
			if tc.name == "prod18 dynamic rank" {
				ins = []port{{"x", ir.F32, nil}}
			}
			if tc.axes != nil {
				ins = append(ins, *tc.axes)
			}
			var attrs []*onnxpb.AttributeProto
			if tc.noop {
				attrs = append(attrs, intAttr("noop_with_empty_axes", 1))
			}
			m, err := convertProto(t, nodeModel(tc.opset, tc.op, ins, []port{out}, attrs...))
			if err != nil {
				t.Fatal(err)
			}
			if got := shaped(run(t, m, tc.inputs...)); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// TestReduceMaxMinEmptyAndBool: ReduceMax and ReduceMin of an empty set
// of floats are -inf and +inf (ONNX's answer; OpenVINO's IR op gives the
// lowest and highest finite values), of integers the type's limits; of
// booleans (opset 20) they are Or and And.
func TestReduceMaxMinEmptyAndBool(t *testing.T) {
	for _, tc := range []struct {
		name  string
		op    string
		typ   ir.ElementType
		dims  []int64
		x     *ir.Tensor
		axes  []int64
		keep  int64
		opset int64
		want  string
	}{
		{"max f32 empty", "ReduceMax", ir.F32, []int64{2, 0, 4}, tensorOf(t, ir.F32, []int64{2, 0, 4}, []float32{}...), []int64{1}, 1, 18, "[2 1 4][-Inf -Inf -Inf -Inf -Inf -Inf -Inf -Inf]"},
		{"min f32 empty", "ReduceMin", ir.F32, []int64{2, 0, 4}, tensorOf(t, ir.F32, []int64{2, 0, 4}, []float32{}...), []int64{1}, 1, 18, "[2 1 4][+Inf +Inf +Inf +Inf +Inf +Inf +Inf +Inf]"},
		{"max f64 dynamic empty", "ReduceMax", ir.F64, []int64{-1, -1}, tensorOf(t, ir.F64, []int64{2, 0}, []float64{}...), []int64{1}, 0, 18, "[2][-Inf -Inf]"},
		{"min f16 empty", "ReduceMin", ir.F16, []int64{0, 2}, tensorOf(t, ir.F16, []int64{0, 2}, []uint16{}...), []int64{0}, 0, 13, "[2][+Inf +Inf]"},
		{"max f32 dynamic not empty", "ReduceMax", ir.F32, []int64{-1, -1}, tensorOf(t, ir.F32, []int64{1, 2}, []float32{-3, -5}...), []int64{1}, 0, 18, "[1][-3]"},
		{"max i32 empty", "ReduceMax", ir.I32, []int64{1, 0}, tensorOf(t, ir.I32, []int64{1, 0}, []int32{}...), []int64{1}, 0, 18, "[1][-2147483648]"},
		{"min u8 empty", "ReduceMin", ir.U8, []int64{1, 0}, tensorOf(t, ir.U8, []int64{1, 0}, []uint8{}...), []int64{1}, 0, 18, "[1][255]"},
		{"max bool", "ReduceMax", ir.Boolean, []int64{2, 2}, tensorOf(t, ir.Boolean, []int64{2, 2}, []uint8{1, 0, 0, 0}...), []int64{1}, 0, 20, "[2][1 0]"},
		{"min bool", "ReduceMin", ir.Boolean, []int64{2, 2}, tensorOf(t, ir.Boolean, []int64{2, 2}, []uint8{1, 1, 1, 0}...), []int64{1}, 0, 20, "[2][1 0]"},
		{"max bool empty", "ReduceMax", ir.Boolean, []int64{2, 0}, tensorOf(t, ir.Boolean, []int64{2, 0}, []uint8{}...), []int64{1}, 0, 20, "[2][0 0]"},
		{"min bool empty", "ReduceMin", ir.Boolean, []int64{2, 0}, tensorOf(t, ir.Boolean, []int64{2, 0}, []uint8{}...), []int64{1}, 0, 20, "[2][1 1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ins := []port{{"x", tc.typ, tc.dims}}
			inputs := []*ir.Tensor{tc.x}
			attrs := []*onnxpb.AttributeProto{intAttr("keepdims", tc.keep)}
			if tc.opset >= 18 {
				ins = append(ins, port{"axes", ir.I64, []int64{int64(len(tc.axes))}})
				inputs = append(inputs, tensorOf(t, ir.I64, []int64{int64(len(tc.axes))}, tc.axes...))
			} else {
				attrs = append(attrs, intsAttr("axes", tc.axes...))
			}
			m, err := convertProto(t, nodeModel(tc.opset, tc.op, ins, []port{{"y", tc.typ, nil}}, attrs...))
			if err != nil {
				t.Fatal(err)
			}
			y := run(t, m, inputs...)
			if got := shaped(y); got != tc.want || y.Type != tc.typ {
				t.Errorf("got %s %s, want %s %s", y.Type, got, tc.typ, tc.want)
			}
		})
	}
}

func intsAttr(name string, v ...int64) *onnxpb.AttributeProto {
	return &onnxpb.AttributeProto{Name: proto.String(name), Type: onnxpb.AttributeProto_INTS.Enum(), Ints: v}
}

// TestReshapeAllowZero: with allowzero=1 (opset 14) a 0 in the shape is a
// dim of 0, so [0,3,4] becomes [3,4,0]; without it, 0 copies the dim and
// the element counts must still agree.
func TestReshapeAllowZero(t *testing.T) {
	x := tensorOf(t, ir.F32, []int64{0, 3, 4}, []float32{}...)
	for _, tc := range []struct {
		allowZero int64
		want      string // the output's shape, or the error
	}{
		{1, "[3 4 0][]"},
		{0, "Requested output shape [3,4,4] is incompatible with input shape"},
	} {
		model := nodeModel(14, "Reshape", []port{{"x", ir.F32, []int64{0, 3, 4}}, {"shape", ir.I64, []int64{3}}}, []port{{"y", ir.F32, nil}}, intAttr("allowzero", tc.allowZero))
		model.Graph.Input = model.Graph.Input[:1]
		model.Graph.Initializer = []*onnxpb.TensorProto{{Name: proto.String("shape"), DataType: proto.Int32(dataType(ir.I64)), Dims: []int64{3}, Int64Data: []int64{3, 4, 0}}}
		m, err := convertProto(t, model)
		if err != nil {
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `node "n" (Reshape, #0)`) {
				t.Errorf("allowzero=%d: %v, want %q", tc.allowZero, err, tc.want)
			}
			continue
		}
		if got := shaped(run(t, m, x)); got != tc.want {
			t.Errorf("allowzero=%d: got %s, want %s", tc.allowZero, got, tc.want)
		}
	}
}

// TestPowMixedTypes: Pow's exponent may have another type than its base
// (opset 12 and later); the result has the base's type, computed as
// OpenVINO's frontend does.
func TestPowMixedTypes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		base    *ir.Tensor
		exp     *ir.Tensor
		want    string
		convert string // the Convert's input: "exponent" or "base"
	}{
		{"f32^i32", tensorOf(t, ir.F32, []int64{3}, []float32{1, 2, 0.5}...), tensorOf(t, ir.I32, []int64{3}, []int32{4, -1, 3}...), "[3][1 0.5 0.125]", "exponent"},
		{"f32^u64", tensorOf(t, ir.F32, []int64{2}, []float32{3, -2}...), tensorOf(t, ir.U64, []int64{2}, []uint64{2, 3}...), "[2][9 -8]", "exponent"},
		{"f64^f32", tensorOf(t, ir.F64, []int64{1}, []float64{2}...), tensorOf(t, ir.F32, []int64{1}, []float32{0.5}...), "[1][1.4142135623730951]", "exponent"},
		{"i64^f32", tensorOf(t, ir.I64, []int64{3}, []int64{1, 2, 3}...), tensorOf(t, ir.F32, []int64{3}, []float32{4, 0.5, 6}...), "[3][1 1 729]", "base"},
		{"i32^f32", tensorOf(t, ir.I32, []int64{2}, []int32{2, 9}...), tensorOf(t, ir.F32, []int64{2}, []float32{10, 0.5}...), "[2][1024 3]", "base"},
		{"f16^f32", tensorOf(t, ir.F16, []int64{1}, []uint16{0x4000}...), tensorOf(t, ir.F32, []int64{1}, []float32{3}...), "[1][8]", "base"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := convertProto(t, nodeModel(15, "Pow", []port{{"x", tc.base.Type, tc.base.Shape}, {"e", tc.exp.Type, tc.exp.Shape}}, []port{{"y", tc.base.Type, nil}}))
			if err != nil {
				t.Fatal(err)
			}
			y := run(t, m, tc.base, tc.exp)
			if got := shaped(y); got != tc.want || y.Type != tc.base.Type {
				t.Errorf("got %s %s, want %s %s", y.Type, got, tc.base.Type, tc.want)
			}
			if l := m.LayerByName("n/" + tc.convert); l == nil || l.Type != "Convert" {
				t.Errorf("no Convert of the %s: %v", tc.convert, l)
			}
		})
	}
}

func i64Initializer(name string, v ...int64) *onnxpb.TensorProto {
	return &onnxpb.TensorProto{Name: proto.String(name), DataType: proto.Int32(dataType(ir.I64)), Dims: []int64{int64(len(v))}, Int64Data: v}
}

// TestSplit: Split-18's num_outputs splits an uneven axis as ONNX does
// (parts of ceil(d/n), the last smaller), whether the axis is static or
// not; lengths must be non-negative and add up to the axis without
// wrapping; num_outputs must match the outputs before anything is sized
// by it. Where ONNX leaves the last part a negative length, the refusal
// says what OpenVINO's frontend does with it.
func TestSplit(t *testing.T) {
	seven := tensorOf(t, ir.F32, []int64{7}, []float32{1, 2, 3, 4, 5, 6, 7}...)
	four := tensorOf(t, ir.F32, []int64{4}, []float32{1, 2, 3, 4}...)
	eleven := tensorOf(t, ir.F32, []int64{11}, make([]float32, 11)...)
	outs := func(n int) []port {
		var ps []port
		for i := range n {
			ps = append(ps, port{fmt.Sprintf("y%d", i), ir.F32, nil})
		}
		return ps
	}
	for _, tc := range []struct {
		name    string
		opset   int64
		dims    []int64
		outs    int
		attrs   []*onnxpb.AttributeProto
		lengths []int64 // an initializer, when not nil
		runtime bool    // lengths as a graph input instead
		x       *ir.Tensor
		want    string // the outputs, or the error
	}{
		{"uneven static", 18, []int64{7}, 4, []*onnxpb.AttributeProto{intAttr("num_outputs", 4)}, nil, false, seven, "[2][1 2] [2][3 4] [2][5 6] [1][7]"},
		{"uneven dynamic", 18, []int64{-1}, 4, []*onnxpb.AttributeProto{intAttr("num_outputs", 4)}, nil, false, seven, "[2][1 2] [2][3 4] [2][5 6] [1][7]"},
		{"even dynamic", 18, []int64{-1}, 2, []*onnxpb.AttributeProto{intAttr("num_outputs", 2)}, nil, false, four, "[2][1 2] [2][3 4]"},
		{"uneven unknown rank", 18, nil, 3, []*onnxpb.AttributeProto{intAttr("num_outputs", 3)}, nil, false, seven, "[3][1 2 3] [3][4 5 6] [1][7]"},
		// ONNX leaves no last part, and OpenVINO's make_split asks
		// VariadicSplit for lengths adding up to more than the axis.
		{"no last part", 18, []int64{7}, 6, []*onnxpb.AttributeProto{intAttr("num_outputs", 6)}, nil, false, seven, "num_outputs 6 does not split a dim of 7: parts of 2 leave -3 for the last; " +
			`OpenVINO's ONNX frontend refuses it too: it makes a VariadicSplit of 5 parts of 2 and a last of 1 (7 mod 2), which fails with "Total length of splits: 11 must match the length of the chosen axis: 7"`},
		{"no last part of 11 in 5", 18, []int64{11}, 5, []*onnxpb.AttributeProto{intAttr("num_outputs", 5)}, nil, false, eleven, "parts of 3 leave -1 for the last; " +
			`OpenVINO's ONNX frontend refuses it too: it makes a VariadicSplit of 4 parts of 3 and a last of 2 (11 mod 3), which fails with "Total length of splits: 14 must match the length of the chosen axis: 11"`},
		{"huge num_outputs", 18, []int64{7}, 2, []*onnxpb.AttributeProto{intAttr("num_outputs", 1<<40)}, nil, false, seven, "num_outputs is 1099511627776 and the node has 2 outputs"},
		{"zero num_outputs", 18, []int64{7}, 2, []*onnxpb.AttributeProto{intAttr("num_outputs", 0)}, nil, false, seven, "Attribute `num_outputs` value cannot be lower than 1"},
		{"lengths wrap", 13, []int64{4}, 3, nil, []int64{math.MaxInt64, math.MaxInt64, 6}, false, four, "Total length of splits: more than 9223372036854775807 must match the length of the chosen axis: 4"},
		{"lengths wrap at run time", 13, []int64{4}, 3, nil, []int64{math.MaxInt64, math.MaxInt64, 6}, true, four, "Total length of splits: more than 9223372036854775807 must match the length of the chosen axis: 4"},
		{"negative length", 13, []int64{4}, 2, nil, []int64{-1, 5}, false, four, "split length 0 is -1; the lengths must not be negative"},
		{"lengths", 13, []int64{4}, 2, nil, []int64{1, 3}, false, four, "[1][1] [3][2 3 4]"},
		{"lengths attribute", 11, []int64{4}, 2, []*onnxpb.AttributeProto{intsAttr("split", 3, 1)}, nil, false, four, "[3][1 2 3] [1][4]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ins := []port{{"x", ir.F32, tc.dims}}
			inputs := []*ir.Tensor{tc.x}
			if tc.lengths != nil {
				ins = append(ins, port{"split", ir.I64, []int64{int64(len(tc.lengths))}})
			}
			model := nodeModel(tc.opset, "Split", ins, outs(tc.outs), tc.attrs...)
			if tc.lengths != nil && !tc.runtime {
				model.Graph.Input = model.Graph.Input[:1]
				model.Graph.Initializer = []*onnxpb.TensorProto{i64Initializer("split", tc.lengths...)}
			} else if tc.lengths != nil {
				inputs = append(inputs, tensorOf(t, ir.I64, []int64{int64(len(tc.lengths))}, tc.lengths...))
			}
			m, err := convertProto(t, model)
			var ys []*ir.Tensor
			if err == nil {
				ys, err = runAll(m, plugin.Config{}, inputs...)
			} else if !strings.Contains(err.Error(), `node "n" (Split, #0)`) {
				t.Errorf("the error does not name the node: %v", err)
			}
			if err != nil {
				if !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%v, want %q", err, tc.want)
				}
				return
			}
			var got []string
			for _, y := range ys {
				got = append(got, shaped(y))
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("got %s, want %s", strings.Join(got, " "), tc.want)
			}
		})
	}
}

func boolInitializer(name string, v bool) *onnxpb.TensorProto {
	b := []byte{0}
	if v {
		b[0] = 1
	}
	return &onnxpb.TensorProto{Name: proto.String(name), DataType: proto.Int32(dataType(ir.Boolean)), RawData: b}
}

func f32Initializer(name string, v float32) *onnxpb.TensorProto {
	return &onnxpb.TensorProto{Name: proto.String(name), DataType: proto.Int32(dataType(ir.F32)), FloatData: []float32{v}}
}

// TestDropout: Dropout is the identity with a mask of all true where it
// is deterministic (inference mode, or a ratio of 0); in training mode
// with a ratio above 0 it is refused, at import when both are constants,
// at run time otherwise.
func TestDropout(t *testing.T) {
	x := tensorOf(t, ir.F32, []int64{2}, []float32{1.5, -2}...)
	scalarBool := func(v bool) *ir.Tensor {
		b := tensorOf(t, ir.Boolean, []int64{}, []uint8{0}...)
		if v {
			b.Data[0] = 1
		}
		return b
	}
	scalarF32 := func(v float32) *ir.Tensor { return tensorOf(t, ir.F32, []int64{}, v) }
	type arg struct {
		init  *onnxpb.TensorProto // a constant
		input *ir.Tensor          // a graph input
	}
	for _, tc := range []struct {
		name           string
		ratio, mode    *arg
		want, wantMask string // the outputs, or the error
	}{
		{"inference", nil, nil, "[2][1.5 -2]", "[2][1 1]"},
		{"constant false", &arg{init: f32Initializer("r", 0.5)}, &arg{init: boolInitializer("t", false)}, "[2][1.5 -2]", "[2][1 1]"},
		{"training ratio 0", &arg{init: f32Initializer("r", 0)}, &arg{init: boolInitializer("t", true)}, "[2][1.5 -2]", "[2][1 1]"},
		{"training", &arg{init: f32Initializer("r", 0.5)}, &arg{init: boolInitializer("t", true)}, `node "n" (Dropout, #0): opset 13: Dropout in training mode with ratio 0.5 drops elements at random`, ""},
		{"training default ratio", nil, &arg{init: boolInitializer("t", true)}, "Dropout in training mode with ratio 0.5 drops elements at random", ""},
		{"runtime false", &arg{input: scalarF32(0.5)}, &arg{input: scalarBool(false)}, "[2][1.5 -2]", "[2][1 1]"},
		{"runtime ratio 0", &arg{input: scalarF32(0)}, &arg{input: scalarBool(true)}, "[2][1.5 -2]", "[2][1 1]"},
		{"runtime training", &arg{input: scalarF32(0.5)}, &arg{input: scalarBool(true)}, `layer "n/random_in_training_mode_unless_ratio_is_0"`, ""},
		{"runtime mode, constant ratio", &arg{init: f32Initializer("r", 0.25)}, &arg{input: scalarBool(true)}, `layer "n/random_in_training_mode_unless_ratio_is_0"`, ""},
		{"runtime mode, constant ratio 0", &arg{init: f32Initializer("r", 0)}, &arg{input: scalarBool(true)}, "[2][1.5 -2]", "[2][1 1]"},
	} {
		for _, mask := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/mask=%v", tc.name, mask), func(t *testing.T) {
				ins := []port{{"x", ir.F32, []int64{2}}}
				inputs := []*ir.Tensor{x}
				var inits []*onnxpb.TensorProto
				for i, a := range []*arg{tc.ratio, tc.mode} {
					name, typ := []string{"r", "t"}[i], []ir.ElementType{ir.F32, ir.Boolean}[i]
					switch {
					case a == nil:
						ins = append(ins, port{"", typ, nil})
					case a.init != nil:
						ins = append(ins, port{name, typ, []int64{}})
						inits = append(inits, a.init)
					default:
						ins = append(ins, port{name, typ, []int64{}})
						inputs = append(inputs, a.input)
					}
				}
				outs := []port{{"y", ir.F32, nil}}
				if mask {
					outs = append(outs, port{"m", ir.Boolean, nil})
				}
				model := nodeModel(13, "Dropout", ins, outs)
				model.Graph.Initializer = inits
				var kept []*onnxpb.ValueInfoProto
				for _, in := range model.Graph.Input {
					if !slices.ContainsFunc(inits, func(t *onnxpb.TensorProto) bool { return t.GetName() == in.GetName() }) {
						kept = append(kept, in)
					}
				}
				model.Graph.Input = kept
				m, err := convertProto(t, model)
				var ys []*ir.Tensor
				if err == nil {
					ys, err = runAll(m, plugin.Config{}, inputs...)
				}
				if err != nil {
					if tc.wantMask != "" || !strings.Contains(err.Error(), tc.want) {
						t.Fatalf("%v, want %q", err, tc.want)
					}
					return
				}
				if tc.wantMask == "" {
					t.Fatalf("no error, want %q", tc.want)
				}
				if got := shaped(ys[0]); got != tc.want {
					t.Errorf("output %s, want %s", got, tc.want)
				}
				if mask {
					if got := shaped(ys[1]); got != tc.wantMask || ys[1].Type != ir.Boolean {
						t.Errorf("mask %s %s, want boolean %s", ys[1].Type, got, tc.wantMask)
					}
				}
			})
		}
	}
}

// TestClipOmittedBounds: an omitted bound of Clip (opset 11 and later) is
// the type's limit, exactly, in every type: Clip(x, min=0) leaves x above
// 0 alone, even for int64 and uint64.
func TestClipOmittedBounds(t *testing.T) {
	for _, typ := range []ir.ElementType{ir.I8, ir.I16, ir.I32, ir.I64, ir.U8, ir.U16, ir.U32, ir.U64, ir.F16, ir.BF16, ir.F32, ir.F64} {
		t.Run(typ.String(), func(t *testing.T) {
			lo, hi := -7.0, 100.0
			if !typ.IsSigned() && !typ.IsFloat() {
				lo = 1
			}
			switch typ {
			case ir.U64:
				hi = 1<<63 + 2048 // above int64's range, exact in a float64
			case ir.I64:
				hi = 1 << 62
			}
			x, _ := ir.NewTensor(typ, []int64{3})
			x.SetFloat64(0, lo)
			x.SetFloat64(1, 3)
			x.SetFloat64(2, hi)
			if typ == ir.U64 {
				ir.View[uint64](x)[2] = 1<<63 + 2048 // SetFloat64 goes through an int64
			}
			for _, tc := range []struct {
				bound string // the given bound: "min" or "max"
				value float64
				want  []float64
			}{
				{"min", 2, []float64{2, 3, hi}},
				{"max", 5, []float64{lo, 3, 5}},
			} {
				ins := []port{{"x", typ, []int64{3}}, {"", typ, nil}, {"", typ, nil}}
				b, _ := ir.NewTensor(typ, []int64{})
				b.SetFloat64(0, tc.value)
				i := 1
				if tc.bound == "max" {
					i = 2
				}
				ins[i] = port{"b", typ, []int64{}}
				m, err := convertProto(t, nodeModel(13, "Clip", ins, []port{{"y", typ, nil}}))
				if err != nil {
					t.Fatal(err)
				}
				y := run(t, m, x, b)
				for j, w := range tc.want {
					if got := y.Float64At(j); got != w {
						t.Errorf("%s=%g: element %d is %g, want %g", tc.bound, tc.value, j, got, w)
					}
				}
			}
		})
	}
}

// TestComposedReductions: ReduceL1, ReduceL2, ReduceLogSum,
// ReduceLogSumExp and ReduceSumSquare compute ONNX's answers, with their
// axes as an attribute (before 18) or an input that may be empty at run
// time (18). Log and Exp are compared within 4 ulps.
func TestComposedReductions(t *testing.T) {
	x := tensorOf(t, ir.F64, []int64{2, 2}, []float64{3, -4, 0, 1}...)
	none := tensorOf(t, ir.I64, []int64{0}, []int64{}...)
	axis1 := tensorOf(t, ir.I64, []int64{1}, []int64{1}...)
	e := math.Exp
	for _, tc := range []struct {
		op    string
		axes  *ir.Tensor // opset 18 with this axes input; nil: opset 13 with axes=[1]
		noop  bool
		shape string
		want  []float64
	}{
		{"ReduceL1", nil, false, "[2 1]", []float64{7, 1}},
		{"ReduceL1", none, false, "[1 1]", []float64{8}},
		{"ReduceL2", axis1, false, "[2 1]", []float64{5, 1}},
		{"ReduceL2", none, false, "[1 1]", []float64{math.Sqrt(26)}},
		{"ReduceSumSquare", none, false, "[1 1]", []float64{26}},
		{"ReduceSumSquare", nil, false, "[2 1]", []float64{25, 1}},
		{"ReduceLogSum", axis1, false, "[2 1]", []float64{math.NaN(), 0}},
		{"ReduceLogSum", none, false, "[1 1]", []float64{math.Inf(-1)}},
		{"ReduceLogSum", none, true, "[2 2]", []float64{math.Log(3), math.NaN(), math.Inf(-1), 0}},
		{"ReduceLogSumExp", nil, false, "[2 1]", []float64{math.Log(e(3) + e(-4)), math.Log(1 + e(1))}},
	} {
		t.Run(fmt.Sprintf("%s/%v/noop=%v", tc.op, tc.axes, tc.noop), func(t *testing.T) {
			ins := []port{{"x", ir.F64, []int64{2, 2}}}
			inputs := []*ir.Tensor{x}
			attrs := []*onnxpb.AttributeProto{intAttr("keepdims", 1)}
			opset := int64(18)
			if tc.axes == nil {
				opset = 13
				attrs = append(attrs, intsAttr("axes", 1))
			} else {
				ins = append(ins, port{"axes", ir.I64, []int64{-1}})
				inputs = append(inputs, tc.axes)
			}
			if tc.noop {
				attrs = append(attrs, intAttr("noop_with_empty_axes", 1))
			}
			m, err := convertProto(t, nodeModel(opset, tc.op, ins, []port{{"y", ir.F64, nil}}, attrs...))
			if err != nil {
				t.Fatal(err)
			}
			y := run(t, m, inputs...)
			if got := fmt.Sprint(y.Shape); got != tc.shape {
				t.Fatalf("shape %s, want %s", got, tc.shape)
			}
			for i, w := range tc.want {
				g := y.Float64At(i)
				if !(g == w || math.IsNaN(g) && math.IsNaN(w) || math.Abs(g-w) <= 4*math.Abs(math.Nextafter(w, 0)-w)) {
					t.Errorf("element %d is %v, want %v", i, g, w)
				}
			}
		})
	}
}

// TestPoolCeilMode: with ceil_mode, ONNX (and ONNX Runtime) drops a last
// window that would start in the end padding, as OpenVINO's ceil_torch
// does and its plain ceil does not: k3 s3 p1 over 2 elements gives 1
// window, not 2. A false proof of the differential test came from the
// plain ceil.
func TestPoolCeilMode(t *testing.T) {
	for _, op := range []string{"MaxPool", "AveragePool"} {
		for _, tc := range []struct {
			length, want int64
		}{{2, 1}, {3, 2}, {4, 2}, {5, 2}, {7, 3}} {
			model := nodeModel(13, op, []port{{"x", ir.F32, []int64{1, 1, tc.length}}}, []port{{"y", ir.F32, nil}},
				intsAttr("kernel_shape", 3), intsAttr("strides", 3), intsAttr("pads", 1, 1), intAttr("ceil_mode", 1))
			m, err := convertProto(t, model)
			if err != nil {
				t.Fatal(err)
			}
			inf, err := ops.InferModel(m)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, l := range m.Layers {
				if l.Type == "MaxPool" || l.Type == "AvgPool" {
					got = inf.Outputs[l][0].Shape.String()
				}
			}
			if want := fmt.Sprintf("[1,1,%d]", tc.want); got != want {
				t.Errorf("%s of %d: %s, want ONNX's %s", op, tc.length, got, want)
			}
		}
	}
}
