package validate

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/testutil"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/absint"
)

// builder makes small IR models with the ops of shape sub-graphs.
type builder struct {
	t testing.TB
	m *ir.Model
}

func newBuilder(t testing.TB, framework string) *builder {
	m := &ir.Model{Name: "t", Version: 11}
	if framework != "" {
		m.Meta = []*ir.Node{{Tag: "rt_info", Children: []*ir.Node{{Tag: "conversion_parameters", Children: []*ir.Node{
			{Tag: "framework", Attrs: []ir.Attr{{Name: "value", Value: framework}}}}}}}}
	}
	return &builder{t, m}
}

func (b *builder) param(name string, t ir.ElementType, shape string) ir.Output {
	return ir.Output{Layer: b.m.AddParameter(name, t, shapeinfer.MustParseShape(shape))}
}

func (b *builder) ints(t ir.ElementType, shape []int64, vals ...int64) ir.Output {
	tensor, err := ir.NewTensor(t, shape)
	if err != nil {
		b.t.Fatal(err)
	}
	for i, v := range vals {
		tensor.SetInt64(i, v)
	}
	return ir.Output{Layer: b.m.AddConst(fmt.Sprintf("c%d", len(b.m.Layers)), tensor)}
}

// op adds a layer irdiv does not execute, declaring its output port.
func (b *builder) op(typ, version string, data []ir.Attr, t ir.ElementType, dims []int64, ins ...ir.Output) ir.Output {
	l := b.m.AddLayer(typ, version, fmt.Sprintf("%s_%d", strings.ToLower(typ), len(b.m.Layers)), data, ins, []*ir.Port{{Type: t, Dims: dims}})
	return ir.Output{Layer: l}
}

func (b *builder) divide(name string, a, x ir.Output, floor bool) *ir.Layer {
	l, err := ops.AddDivide(b.m, name, a, x, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, floor))
	if err != nil {
		b.t.Fatal(err)
	}
	b.m.AddResult(name+"_out", ir.Output{Layer: l})
	return l
}

func attrs(kv ...string) []ir.Attr {
	var out []ir.Attr
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, ir.Attr{Name: kv[i], Value: kv[i+1]})
	}
	return out
}

// TestFoldedOps: each op the folding evaluates gives the exact result on
// constants, worked out by hand from OpenVINO's op specifications.
func TestFoldedOps(t *testing.T) {
	b := newBuilder(t, "")
	x := b.param("x", ir.F32, "1,3,270,480")
	dyn := b.param("d", ir.F32, "?,3,2..224")
	shape := b.op("ShapeOf", "opset3", attrs("output_type", "i64"), ir.I64, []int64{4}, x)
	shape32 := b.op("ShapeOf", "opset3", attrs("output_type", "i32"), ir.I32, []int64{4}, x)
	shapeV1 := b.op("ShapeOf", "opset1", nil, ir.I64, []int64{3}, dyn)
	idx, axis0 := b.ints(ir.I32, []int64{}, 2), b.ints(ir.I64, []int64{}, 0)
	gathered := b.op("Gather", "opset8", attrs("batch_dims", "0"), ir.I64, []int64{}, shape, idx, axis0)
	gatherNeg := b.op("Gather", "opset8", attrs("batch_dims", "0"), ir.I64, []int64{2}, shape, b.ints(ir.I64, []int64{2}, -1, 1), axis0)
	sliced := b.op("StridedSlice", "opset1", attrs("begin_mask", "0", "end_mask", "0", "new_axis_mask", "0", "shrink_axis_mask", "0", "ellipsis_mask", "0"),
		ir.I64, []int64{2}, shape, b.ints(ir.I64, []int64{1}, 1), b.ints(ir.I64, []int64{1}, 3), b.ints(ir.I64, []int64{1}, 1))
	slicedMask := b.op("StridedSlice", "opset1", attrs("begin_mask", "1", "end_mask", "0", "shrink_axis_mask", "0"),
		ir.I64, []int64{3}, shape, b.ints(ir.I64, []int64{1}, 3), b.ints(ir.I64, []int64{1}, -1), b.ints(ir.I64, []int64{1}, 1))
	shrunk := b.op("StridedSlice", "opset1", attrs("shrink_axis_mask", "1"),
		ir.I64, []int64{}, shape, b.ints(ir.I64, []int64{1}, -2), b.ints(ir.I64, []int64{1}, -1), b.ints(ir.I64, []int64{1}, 1))
	squeezed := b.op("Squeeze", "opset1", nil, ir.I64, []int64{}, b.op("StridedSlice", "opset1", nil, ir.I64, []int64{1}, shape,
		b.ints(ir.I64, []int64{1}, 2), b.ints(ir.I64, []int64{1}, 3), b.ints(ir.I64, []int64{1}, 1)), b.ints(ir.I64, []int64{1}, 0))
	unsqueezed := b.op("Unsqueeze", "opset1", nil, ir.I64, []int64{1}, gathered, b.ints(ir.I64, []int64{1}, 0))
	concat := b.op("Concat", "opset1", attrs("axis", "0"), ir.I64, []int64{4}, unsqueezed, sliced, b.ints(ir.I64, []int64{1}, -5))
	reshaped := b.op("Reshape", "opset1", attrs("special_zero", "false"), ir.I64, []int64{2, 2}, concat, b.ints(ir.I64, []int64{2}, 2, 2))
	converted := b.op("Convert", "opset1", attrs("destination_type", "i32"), ir.I32, []int64{2, 2}, reshaped)
	narrowed := b.op("Convert", "opset1", attrs("destination_type", "u8"), ir.U8, []int64{4}, shape)
	sum := b.op("Add", "opset1", attrs("auto_broadcast", "numpy"), ir.I64, []int64{2, 2}, reshaped, b.ints(ir.I64, []int64{2}, 10, 20))
	diff := b.op("Subtract", "opset1", nil, ir.I64, []int64{}, b.op("Gather", "opset7", nil, ir.I64, []int64{}, shape, b.ints(ir.I32, []int64{}, 1), axis0), gathered)
	prod := b.op("Multiply", "opset1", nil, ir.I64, []int64{4}, shape, b.ints(ir.I64, []int64{}, -2))
	quot := b.divide("q", diff, b.ints(ir.I64, []int64{}, 2), true)
	b.m.AddResult("all", concat)
	v := analyze(b.m, "t", Options{})
	for _, tc := range []struct {
		name string
		o    ir.Output
		want string
	}{
		{"ShapeOf", shape, "= [1,3,270,480]"},
		{"ShapeOf i32", shape32, "= [1,3,270,480]"},
		{"ShapeOf of dynamic dims", shapeV1, "[in [0, 2^40] = 3 in [2, 224]]"},
		{"Gather", gathered, "= 270"},
		{"Gather negative indices", gatherNeg, "= [480,3]"},
		{"StridedSlice", sliced, "= [3,270]"},
		{"StridedSlice begin_mask", slicedMask, "= [1,3,270]"},
		{"StridedSlice shrink", shrunk, "= 270"},
		{"Squeeze", squeezed, "= 270"},
		{"Unsqueeze", unsqueezed, "= [270]"},
		{"Concat", concat, "= [270,3,270,-5]"},
		{"Reshape", reshaped, "= [270,3,270,-5]"},
		{"Convert", converted, "= [270,3,270,-5]"},
		{"Convert wraps", narrowed, "= [1,3,14,224]"},
		{"Add", sum, "= [280,23,280,15]"},
		{"Subtract", diff, "= -267"},
		{"Multiply", prod, "= [-2,-6,-540,-960]"},
		{"Divide", ir.Output{Layer: quot}, "= -134"},
	} {
		if got := v.show(tc.o); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	// For any input shape the dims are free: x's height is any size.
	if r := v.anyShape.Range(v.an.Values[gathered].Elems[0]); r.Lo.V != 0 || r.Hi.V != absint.MaxDim {
		t.Errorf("the height for any input shape: %v", r)
	}
}

// show prints a value at the declared shapes: its constants, or the range
// of each element.
func (v *validator) show(o ir.Output) string {
	val := v.an.Values[o]
	if text := v.constText(val); text != "" {
		return text
	}
	var parts []string
	for _, e := range val.Elems {
		parts = append(parts, rangeText(v.declared.Range(e)))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func findings(r *Report) map[Code][]Finding {
	out := make(map[Code][]Finding)
	for _, f := range r.Findings {
		out[f.Code] = append(out[f.Code], f)
	}
	return out
}

// TestFindingCodes: each check gives its finding, with the evidence.
func TestFindingCodes(t *testing.T) {
	t.Run("floor-trunc error with a counter-example", func(t *testing.T) {
		b := newBuilder(t, "onnx")
		div := b.divide("d", b.param("x", ir.I32, "4"), b.param("y", ir.I32, "4"), true)
		f := findings(Model(b.m, "t", Options{}))[FloorTrunc]
		if len(f) != 1 || f[0].Severity != Error || f[0].Layer != div || f[0].Evidence.Get("counter_example") != "-3 / 2: ONNX gives -1, this IR gives -2" {
			t.Errorf("%+v", f)
		}
	})
	t.Run("no floor-trunc finding outside ONNX", func(t *testing.T) {
		b := newBuilder(t, "pytorch")
		b.divide("d", b.param("x", ir.I32, "4"), b.param("y", ir.I32, "4"), true)
		fs := findings(Model(b.m, "t", Options{}))
		if len(fs[FloorTrunc]) != 0 || len(fs[CPUPythonDivIgnore]) != 1 {
			t.Errorf("%v", fs)
		}
	})
	t.Run("truncating Divide is right", func(t *testing.T) {
		b := newBuilder(t, "onnx")
		b.divide("d", b.param("x", ir.I32, "4"), b.param("y", ir.I32, "4"), false)
		fs := findings(Model(b.m, "t", Options{}))
		if len(fs[FloorTrunc])+len(fs[FloorTruncAgree])+len(fs[CPUPythonDivIgnore]) != 0 {
			t.Errorf("%v", fs)
		}
	})
	t.Run("agree: shape values", func(t *testing.T) {
		b := newBuilder(t, "onnx")
		x := b.param("x", ir.F32, "1,3,270,480")
		dim := b.op("Gather", "opset8", nil, ir.I64, []int64{}, b.op("ShapeOf", "opset3", nil, ir.I64, []int64{4}, x), b.ints(ir.I64, []int64{}, 2), b.ints(ir.I64, []int64{}, 0))
		b.divide("d", dim, b.ints(ir.I64, []int64{}, 4), true)
		f := findings(Model(b.m, "t", Options{}))[FloorTruncAgree]
		if len(f) != 1 || f[0].Severity != Note || !strings.Contains(f[0].Message, "never have opposite signs whatever the input shapes (A = 270, B = 4)") ||
			f[0].Evidence.Get("expression") != `Divide(Gather(ShapeOf("x") = [1,3,270,480], Const = 2, Const = 0) = 270, Const = 4) = 67` {
			t.Errorf("%+v", f)
		}
	})
	t.Run("agree at the declared shapes only", func(t *testing.T) {
		// U-Net's padding: (H1 - H2) / 2 is 8 / 2 as declared, but a
		// reshape could make H2 the larger.
		b := newBuilder(t, "onnx")
		dim := func(name, shape string) ir.Output {
			return b.op("Gather", "opset8", nil, ir.I64, []int64{}, b.op("ShapeOf", "opset3", nil, ir.I64, []int64{4}, b.param(name, ir.F32, shape)), b.ints(ir.I64, []int64{}, 2), b.ints(ir.I64, []int64{}, 0))
		}
		diff := b.op("Subtract", "opset1", nil, ir.I64, []int64{}, dim("big", "1,64,40,40"), dim("small", "1,64,32,32"))
		b.divide("pad", diff, b.ints(ir.I64, []int64{}, 2), true)
		fs := findings(Model(b.m, "t", Options{}))
		f := fs[FloorTruncReshape]
		if len(f) != 1 || f[0].Severity != Warning || len(fs[FloorTruncAgree]) != 0 ||
			!strings.Contains(f[0].Message, "at the declared input shapes they agree (the operands never have opposite signs: A = 8, B = 2)") ||
			f[0].Evidence.Get("a_value").(int64) >= 0 || f[0].Evidence.Get("b_value") != int64(2) || f[0].Evidence.Get("confirmed") != "outputs" {
			t.Errorf("%+v", fs)
		}
		// The counter-example is the model's inputs: a big smaller than small.
		in := f[0].Evidence.Get("inputs").(map[string]any)
		big, small := in["big"].(map[string]any)["shape"].([]int64), in["small"].(map[string]any)["shape"].([]int64)
		if big[2] >= small[2] {
			t.Errorf("counter-example inputs %v", in)
		}
	})
	t.Run("agree: exact division", func(t *testing.T) {
		b := newBuilder(t, "onnx")
		b.divide("d", b.ints(ir.I64, []int64{2}, -6, 8), b.ints(ir.I64, []int64{2}, 3, -4), true)
		f := findings(Model(b.m, "t", Options{}))[FloorTruncAgree]
		if len(f) != 1 || f[0].Evidence.Get("reason") != "every division is exact" {
			t.Errorf("%+v", f)
		}
	})
	t.Run("differ: constants", func(t *testing.T) {
		b := newBuilder(t, "onnx")
		b.divide("d", b.ints(ir.I64, []int64{2}, 6, -7), b.ints(ir.I64, []int64{}, 2), true)
		f := findings(Model(b.m, "t", Options{}))[FloorTrunc]
		if len(f) != 1 || f[0].Evidence.Get("counter_example") != "-7 / 2: ONNX gives -3, this IR gives -4" || f[0].Evidence.Get("index") != 1 {
			t.Errorf("%+v", f)
		}
	})
	t.Run("differ: a dynamic dimension shifted by a constant", func(t *testing.T) {
		b := newBuilder(t, "onnx")
		height := b.op("Gather", "opset8", nil, ir.I64, []int64{}, b.op("ShapeOf", "opset3", nil, ir.I64, []int64{2}, b.param("x", ir.F32, "1,1..100")), b.ints(ir.I64, []int64{}, 1), b.ints(ir.I64, []int64{}, 0))
		b.divide("d", b.op("Subtract", "opset1", nil, ir.I64, []int64{}, height, b.ints(ir.I64, []int64{}, 50)), b.ints(ir.I64, []int64{}, 4), true)
		f := findings(Model(b.m, "t", Options{}))[FloorTrunc]
		if len(f) != 1 || !strings.Contains(f[0].Message, "the model admits inputs where they differ") {
			t.Errorf("%+v", f)
		}
	})
	t.Run("agree: operands that depend on the same input", func(t *testing.T) {
		// (H - 5) / (5 - H) is -1 (or 0 / 0) for every H: the operands'
		// ranges hold -3 and 2, but never at once.
		b := newBuilder(t, "onnx")
		height := b.op("Gather", "opset8", nil, ir.I64, []int64{}, b.op("ShapeOf", "opset3", nil, ir.I64, []int64{2}, b.param("x", ir.F32, "1,1..10")), b.ints(ir.I64, []int64{}, 1), b.ints(ir.I64, []int64{}, 0))
		five := b.ints(ir.I64, []int64{}, 5)
		b.divide("d", b.op("Subtract", "opset1", nil, ir.I64, []int64{}, height, five), b.op("Subtract", "opset1", nil, ir.I64, []int64{}, five, height), true)
		fs := findings(Model(b.m, "t", Options{}))
		if f := fs[FloorTruncAgree]; len(f) != 1 || f[0].Evidence.Get("reason") != "every division is exact whatever the input shapes" {
			t.Errorf("%v", fs)
		}
	})
	t.Run("agree: an even dividend", func(t *testing.T) {
		b := newBuilder(t, "onnx")
		height := b.op("Gather", "opset8", nil, ir.I64, []int64{}, b.op("ShapeOf", "opset3", nil, ir.I64, []int64{2}, b.param("x", ir.F32, "1,1..100")), b.ints(ir.I64, []int64{}, 1), b.ints(ir.I64, []int64{}, 0))
		even := b.op("Multiply", "opset1", nil, ir.I64, []int64{}, b.op("Subtract", "opset1", nil, ir.I64, []int64{}, height, b.ints(ir.I64, []int64{}, 50)), b.ints(ir.I64, []int64{}, 2))
		b.divide("d", even, b.ints(ir.I64, []int64{}, 2), true)
		fs := findings(Model(b.m, "t", Options{}))
		if len(fs[FloorTruncAgree]) != 1 {
			t.Errorf("an even dividend over 2 never differs, yet %v", fs)
		}
	})
	t.Run("possible: ranges that over-approximate", func(t *testing.T) {
		b := newBuilder(t, "onnx")
		x := b.param("x", ir.F32, "?,3")
		unknownOp := b.op("TopK", "opset11", nil, ir.I64, []int64{}, x)
		b.divide("d", unknownOp, b.ints(ir.I64, []int64{}, 2), true)
		fs := findings(Model(b.m, "t", Options{}))
		if f := fs[FloorTruncPossible]; len(f) != 1 || f[0].Severity != Warning {
			t.Errorf("%v", fs)
		}
		if len(fs[Overflow]) != 0 {
			t.Errorf("an unknown range warned of overflow: %v", fs[Overflow])
		}
	})
	t.Run("zero divisor", func(t *testing.T) {
		b := newBuilder(t, "")
		b.divide("d", b.param("x", ir.I32, "3"), b.ints(ir.I32, []int64{3}, 1, 2, 0), false)
		f := findings(Model(b.m, "t", Options{}))[ZeroDivisor]
		if len(f) != 1 || f[0].Severity != Error || f[0].Evidence.Get("index") != 2 {
			t.Errorf("%+v", f)
		}
	})
	t.Run("overflow", func(t *testing.T) {
		b := newBuilder(t, "")
		b.divide("d", b.param("x", ir.I16, "3"), b.param("y", ir.I16, "3"), false)
		f := findings(Model(b.m, "t", Options{}))[Overflow]
		if len(f) != 1 || f[0].Severity != Warning || f[0].Evidence.Get("example") != "-32768 / -1" {
			t.Errorf("%+v", f)
		}
	})
	t.Run("overflow: a constant divisor under a dynamic shape", func(t *testing.T) {
		// The output's layout is unknown, yet each divisor element is
		// known: only a -1 among them makes MIN / -1 possible.
		for _, tc := range []struct {
			divisor []int64
			warn    bool
		}{{[]int64{3, -3, 4, -7}, false}, {[]int64{3, -1, 4, -7}, true}} {
			b := newBuilder(t, "")
			b.divide("d", b.param("x", ir.I32, "?,4"), b.ints(ir.I32, []int64{4}, tc.divisor...), false)
			if f := findings(Model(b.m, "t", Options{}))[Overflow]; (len(f) == 1) != tc.warn || len(f) > 1 {
				t.Errorf("divisor %v: %+v", tc.divisor, f)
			}
		}
	})
	t.Run("cpu float32 and narrowing", func(t *testing.T) {
		b := newBuilder(t, "")
		b.divide("d32", b.param("x", ir.I32, "3"), b.ints(ir.I32, []int64{}, 5), false)
		b.divide("d64", b.param("y", ir.I64, "3"), b.ints(ir.I64, []int64{}, 11), false)
		small := b.op("Gather", "opset8", nil, ir.I64, []int64{}, b.op("ShapeOf", "opset3", nil, ir.I64, []int64{1}, b.param("z", ir.F32, "7")), b.ints(ir.I64, []int64{}, 0), b.ints(ir.I64, []int64{}, 0))
		b.divide("dsmall", small, b.ints(ir.I64, []int64{}, 3), false)
		fs := findings(Model(b.m, "t", Options{}))
		if f := fs[CPUI32Float32]; len(f) != 1 || f[0].Evidence.Get("example") != "1073741825 / 5: exact 214748365, CPU plugin 214748368" {
			t.Errorf("%+v", f)
		}
		if f := fs[CPUI64Narrowed]; len(f) != 1 || f[0].Evidence.Get("example") != "2147483648 / 11: exact 195225786, CPU plugin -195225792" {
			t.Errorf("%+v", f)
		}
	})
	t.Run("structure", func(t *testing.T) {
		b := newBuilder(t, "")
		div := b.divide("d", b.param("x", ir.I32, "?,4"), b.ints(ir.I32, []int64{4}, 1, 2, 3, 4), false)
		div.Outputs[0].Dims = []int64{-1, 5}
		div.Outputs[0].Type = ir.F32
		b.m.AddParameter("unused", ir.F32, shapeinfer.MustParseShape("1"))
		b.m.AddConst("dead", func() *ir.Tensor { x, _ := ir.TensorOf(ir.I32, []int64{}, []int32{1}); return x }())
		fs := findings(Model(b.m, "t", Options{}))
		if f := fs[StructurePortShape]; len(f) != 1 || f[0].Evidence.Get("declared") != "[?,5]" || f[0].Evidence.Get("inferred") != "[?,4]" {
			t.Errorf("port shape: %+v", f)
		}
		if f := fs[StructurePortType]; len(f) != 1 || f[0].Evidence.Get("declared") != "FP32" || f[0].Evidence.Get("inferred") != "i32" {
			t.Errorf("port type: %+v", f)
		}
		if f := fs[StructureUnreachable]; len(f) != 1 || f[0].Evidence.Get("count") != 2 {
			t.Errorf("unreachable: %+v", f)
		}
	})
	t.Run("walk", func(t *testing.T) {
		// The errors of ops.Walk, each with its code, the walk going on
		// past every one of them.
		b := newBuilder(t, "")
		x := b.param("x", ir.I32, "4")
		bad := b.op("Divide", "opset1", []ir.Attr{{Name: "auto_broadcast", Value: "sideways"}}, ir.I32, []int64{4}, x, x)
		half := b.op("Relu", "opset1", nil, ir.I32, []int64{4}, bad)
		half.Layer.Inputs = append(half.Layer.Inputs, &ir.Port{ID: 99, Type: ir.I32})
		ports := b.op("Relu", "opset1", nil, ir.I32, []int64{4}, x)
		ports.Layer.Outputs = append(ports.Layer.Outputs, &ir.Port{ID: 98, Type: ir.I32, Dims: []int64{4}})
		wrong := b.op("Add", "opset1", nil, ir.I32, []int64{4}, x, b.param("y", ir.I32, "3"))
		for _, o := range []ir.Output{half, ports, wrong} {
			b.m.AddResult("r_"+o.Layer.Name, o)
		}
		fs := findings(Model(b.m, "t", Options{}))
		for _, tc := range []struct {
			code  Code
			layer ir.Output
			text  string
		}{
			{StructureLayer, bad, `layer "divide_1" (id 1): shapeinfer: "sideways" is not a member of enum ov::op::AutoBroadcastType (auto_broadcast must be one of none, explicit, numpy, pdpd)`},
			{StructureUnconnected, half, "input 1 is not connected"},
			{StructurePorts, ports, "invalid graph: Relu has 1 output, but the layer declares 2 output ports"},
			{StructureInference, wrong, "shapeinfer: Argument shapes are inconsistent."},
		} {
			if f := fs[tc.code]; len(f) != 1 || f[0].Layer != tc.layer.Layer || !strings.HasPrefix(f[0].Message, tc.text) {
				t.Errorf("%s: %+v; want %q at %s", tc.code, f, tc.text, tc.layer.Layer)
			}
		}
	})
	t.Run("v10", func(t *testing.T) {
		b := newBuilder(t, "")
		b.m.Version = 10
		b.divide("d", b.param("x", ir.I64, "3"), b.ints(ir.I64, []int64{}, 2), false)
		f := findings(Model(b.m, "t", Options{}))[CPUV10Output]
		if len(f) != 1 || f[0].Evidence.Get("returned") != "i32" {
			t.Errorf("%+v", f)
		}
	})
	t.Run("JSON", func(t *testing.T) {
		b := newBuilder(t, "onnx")
		b.divide("d", b.param("x", ir.I32, "4"), b.param("y", ir.I32, "4"), true)
		data, err := json.Marshal(Model(b.m, "m.xml", Options{}))
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Model    string `json:"model"`
			Findings []struct {
				Severity string         `json:"severity"`
				Code     string         `json:"code"`
				Layer    *layerJSON     `json:"layer"`
				Message  string         `json:"message"`
				Evidence map[string]any `json:"evidence"`
			} `json:"findings"`
			Summary Summary `json:"summary"`
		}
		if err := json.Unmarshal(data, &out); err != nil || out.Model != "m.xml" || out.Summary.Errors != 1 || out.Findings[0].Severity != "error" ||
			out.Findings[0].Layer == nil || out.Findings[0].Layer.Name != "d" || out.Findings[0].Evidence["counter_example"] == nil {
			t.Errorf("%v %s", err, data)
		}
	})
}

// TestSharedModels: no real model of ../shared/ir-models gets an error;
// the super-resolution and U-Net Divides are proven to agree for any
// input shape; the YOLO ones, from PyTorch, get no floor/truncation
// finding.
func TestSharedModels(t *testing.T) {
	files := testutil.SharedFiles(t, "ir-models/*/*.xml")
	more, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(files[0])), "_xml_only_bin_unavailable/*/*.xml"))
	for _, path := range append(files, more...) {
		m, err := ir.ReadFile(path, ir.ReadOptions{MaxConstBytes: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		r := Model(m, path, Options{})
		fs := findings(r)
		name := filepath.Base(filepath.Dir(path))
		if s := r.Summary(); s.Errors > 0 {
			t.Errorf("%s: %d errors: %+v", name, s.Errors, r.Findings[0])
		}
		switch {
		case strings.Contains(name, "sisr") || strings.Contains(name, "unet44"):
			divides := 0
			for _, l := range m.Layers {
				if l.Type == "Divide" && strings.HasPrefix(l.Outputs[0].Precision, "I") {
					divides++
				}
			}
			// U-Net's padding, a dim minus 2*floor((dim-2)/2)+2 after
			// MaxPool and ConvTranspose, is never negative.
			code := FloorTruncAgree
			if len(fs[code]) != divides || divides == 0 {
				t.Errorf("%s: %d of %d integer Divides have %s", name, len(fs[code]), divides, code)
			}
		case strings.Contains(name, "yolo"):
			for _, code := range []Code{FloorTrunc, FloorTruncPossible, FloorTruncAgree} {
				if len(fs[code]) > 0 {
					t.Errorf("%s: %s on a PyTorch model", name, code)
				}
			}
		}
	}
}

// TestONNXComparison: the IR OpenVINO writes for test_div_int32_trunc
// (m_pythondiv=true) fails against its ONNX model with the test data as
// counter-example; irdiv's own conversion agrees.
func TestONNXComparison(t *testing.T) {
	path := filepath.Join(testutil.SharedDir(t, "onnx-div-tests/test_div_int32_trunc"), "model.onnx")
	om, err := onnx.ReadFile(path, onnx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	good, err := onnx.Convert(om)
	if err != nil {
		t.Fatal(err)
	}
	r := Model(good, "good.xml", Options{ONNX: om})
	if fs := findings(r); r.HasErrors() || len(fs[ONNXAgree]) != 1 {
		t.Errorf("irdiv's conversion: %+v", r.Findings)
	}
	good.LayerByName("z").SetDataAttr("m_pythondiv", "true")
	testData := make(map[string]*ir.Tensor)
	for i, in := range om.Graph.Inputs {
		x, _, err := onnx.ReadTensorFile(filepath.Join(filepath.Dir(path), "test_data_set_0", fmt.Sprintf("input_%d.pb", i)), onnx.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		testData[in.Name] = x
	}
	fs := findings(Model(good, "ov.xml", Options{ONNX: om, ONNXTestData: testData}))
	if f := fs[ONNXSemantics]; len(f) != 1 || f[0].Evidence.Get("counter_example") != "[-3,3,-3,3] / [2,2,-2,-2]: ONNX gives [-1,1,1,-1], this IR gives [-2,1,1,-2]" {
		t.Errorf("OpenVINO's conversion: %+v", f)
	}
	// A Div the IR lacks, and a Divide the ONNX model lacks.
	good.LayerByName("z").Outputs[0].Names = []string{"other"}
	good.LayerByName("z").Name = "renamed"
	fs = findings(Model(good, "ov.xml", Options{ONNX: om}))
	if len(fs[ONNXMissingDivide]) != 1 || len(fs[ONNXExtraDivide]) != 1 {
		t.Errorf("matching: %v", fs)
	}
}

// TestReportSort: findings come worst first, then in layer order, and
// keep the order they were found in otherwise, as a stable sort gives.
func TestReportSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	layers := make([]*ir.Layer, 20)
	position := make(map[*ir.Layer]int)
	for i := range layers {
		layers[i] = &ir.Layer{ID: uint64(i)}
		position[layers[i]] = rng.IntN(1000)
	}
	for _, n := range []int{0, 1, 2, 7, 1000} {
		r := &Report{}
		for i := range n {
			var l *ir.Layer
			if k := rng.IntN(len(layers) + 1); k < len(layers) {
				l = layers[k]
			}
			r.Findings = append(r.Findings, Finding{Severity: Severity(rng.IntN(3)), Layer: l, Message: strconv.Itoa(i)})
		}
		want := slices.Clone(r.Findings)
		slices.SortStableFunc(want, func(a, b Finding) int {
			pa, pb := -1, -1
			if a.Layer != nil {
				pa = position[a.Layer]
			}
			if b.Layer != nil {
				pb = position[b.Layer]
			}
			return cmp.Or(cmp.Compare(b.Severity, a.Severity), cmp.Compare(pa, pb))
		})
		r.sort(position)
		for i := range want {
			if r.Findings[i].Message != want[i].Message {
				t.Fatalf("%d findings: at %d finding %s, want %s", n, i, r.Findings[i].Message, want[i].Message)
			}
		}
	}
}

// TestModZeroDivisor: an integer Mod or FloorMod whose divisor is a
// constant 0 somewhere is an error, as a Divide's is, whatever feeds its
// dividend; the Divide after it is not said to have operands in an empty
// range ("in [1, -1]"); a divisor that is 0 nowhere, or floats, give none.
func TestModZeroDivisor(t *testing.T) {
	for _, tc := range []struct {
		name    string
		typ     string
		t       ir.ElementType
		divisor []int64
		want    int // the flat output index of the error, -1 for none
	}{
		{"Mod by scalar 0", "Mod", ir.I64, []int64{0}, 0},
		{"FloorMod by scalar 0", "FloorMod", ir.I32, []int64{0}, 0},
		{"FloorMod by 0 in a vector", "FloorMod", ir.I64, []int64{3, 2, 0, 1}, 2},
		{"Mod by no 0", "Mod", ir.I64, []int64{3, -2, 5, 1}, -1},
		{"FloorMod of floats by 0", "FloorMod", ir.F32, []int64{0}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBuilder(t, "onnx")
			x := b.param("x", tc.t, "4")
			shape := []int64{int64(len(tc.divisor))}
			if len(tc.divisor) == 1 {
				shape = []int64{}
			}
			m := b.op(tc.typ, "opset1", attrs("auto_broadcast", "numpy"), tc.t, []int64{4}, x, b.ints(tc.t, shape, tc.divisor...))
			var div *ir.Layer
			if tc.t.IsInteger() {
				div = b.divide("d", x, m, true)
			}
			r := Model(b.m, "t", Options{})
			f := findings(r)[ModZeroDivisor]
			switch {
			case tc.want < 0 && len(f) != 0:
				t.Errorf("%+v", f)
			case tc.want >= 0 && (len(f) != 1 || f[0].Severity != Error || f[0].Layer != m.Layer || f[0].Evidence.Get("index") != tc.want ||
				!strings.Contains(f[0].Message, "integer division by zero")):
				t.Errorf("%+v", f)
			}
			for _, f := range r.Findings {
				if f.Layer == div && strings.Contains(f.Message, "B in [1, -1]") {
					t.Errorf("the Divide after the Mod: %s", f.Message)
				}
			}
		})
	}
}
