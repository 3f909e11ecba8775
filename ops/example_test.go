package ops_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// Floor and truncating division of i32 tensors, and the error for a zero
// divisor naming the first offending output element.
func ExampleDivide() {
	a, _ := ir.TensorOf(ir.I32, []int64{4}, []int32{-10, -10, 10, 10})
	b, _ := ir.TensorOf(ir.I32, []int64{4}, []int32{-3, 3, -3, 3})

	floor, _ := ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true).Evaluate(a, b)
	trunc, _ := ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, false).Evaluate(a, b)
	fmt.Println(ir.View[int32](floor), ir.View[int32](trunc))

	zero, _ := ir.TensorOf(ir.I32, []int64{2}, []int32{1, 0})
	_, err := ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true).Evaluate(zero, zero)
	fmt.Println(err, errors.Is(err, ops.ErrDivideByZero))
	// Output:
	// [3 -4 -4 3] [3 -3 -3 3]
	// ops: integer division by zero at flat output index 1 true
}

// Evaluating one op: OpenVINO's FloorMod and Convert on edge values. A
// float out of an integer type's range converts as x86 does (to the
// "integer indefinite" value, here 0 in i8), NaN converts to true.
func ExampleEvaluate() {
	numpy := shapeinfer.Broadcast{Mode: shapeinfer.Numpy} // OpenVINO's default; the zero value is none
	a, _ := ir.TensorOf(ir.I32, []int64{4}, []int32{-7, 7, -2147483648, 5})
	b, _ := ir.TensorOf(ir.I32, []int64{4}, []int32{3, -3, -1, 5})
	out, _ := ops.Evaluate(&ops.FloorMod{Broadcast: numpy}, []*ir.Tensor{a, b}, ops.Options{})
	fmt.Println(ir.View[int32](out[0]))

	f, _ := ir.TensorOf(ir.F32, []int64{4}, []float32{-1.5, 300.7, 1e10, float32(math.NaN())})
	i8, _ := ops.Evaluate(&ops.Convert{DestinationType: ir.I8}, []*ir.Tensor{f}, ops.Options{})
	bools, _ := ops.Evaluate(&ops.Convert{DestinationType: ir.Boolean}, []*ir.Tensor{f}, ops.Options{})
	fmt.Println(ir.View[int8](i8[0]), bools[0].Data)

	zero, _ := ir.TensorOf(ir.I32, []int64{1}, []int32{0})
	_, err := ops.Evaluate(&ops.Mod{Broadcast: numpy}, []*ir.Tensor{a, zero}, ops.Options{})
	fmt.Println(err)
	// Output:
	// [2 -2 0 0]
	// [-1 44 0 0] [1 1 1 1]
	// ops: integer division by zero at flat output index 0
}

// Building a model as OpenVINO's ONNX frontend does: each Layer infers its
// outputs from the infos of its inputs, folds what constants determine and
// writes typed, shaped output ports.
func ExampleLayer() {
	m := &ir.Model{}
	x := m.AddParameter("x", ir.F32, shapeinfer.MustParseShape("1,3,224,224"))
	xInfo := ops.ValueInfo{Type: ir.F32, Shape: shapeinfer.MustParseShape("1,3,224,224")}
	shape, shapeInfo, _ := ops.Layer(m, "shape", &ops.ShapeOf{Version: 3, OutputType: ir.I64},
		[]ir.Output{{Layer: x}}, []ops.ValueInfo{xInfo})

	idx, _ := ir.TensorOf(ir.I64, nil, []int64{-1})
	axis, _ := ir.TensorOf(ir.I64, nil, []int64{0})
	idxLayer, axisLayer := m.AddConst("idx", idx), m.AddConst("axis", axis)
	width, widthInfo, _ := ops.Layer(m, "width", &ops.Gather{Version: 8},
		[]ir.Output{{Layer: shape}, {Layer: idxLayer}, {Layer: axisLayer}},
		[]ops.ValueInfo{shapeInfo[0], {Type: ir.I64, Value: idx}, {Type: ir.I64, Value: axis}})

	fmt.Println(width.Type, width.Version, width.Data, widthInfo[0], widthInfo[0].Value)
	// Output:
	// Gather opset8 [{batch_dims 0}] i64[] i64[] [224]
}

// Inference of a file's model folds a Reshape pattern computed from the
// input's shape, so that the Reshape's output is static, as in OpenVINO.
func ExampleInferModel() {
	m := &ir.Model{}
	x := m.AddParameter("x", ir.F32, shapeinfer.MustParseShape("2,3,4"))
	shape := m.AddLayer("ShapeOf", "opset3", "shape", []ir.Attr{{Name: "output_type", Value: "i64"}}, []ir.Output{{Layer: x}}, []*ir.Port{{Type: ir.I64, Dims: []int64{3}}})
	idx, _ := ir.TensorOf(ir.I64, []int64{1}, []int64{0})
	axis, _ := ir.TensorOf(ir.I64, nil, []int64{0})
	first := m.AddLayer("Gather", "opset8", "first", nil, []ir.Output{{Layer: shape}, {Layer: m.AddConst("idx", idx)}, {Layer: m.AddConst("axis", axis)}}, []*ir.Port{{Type: ir.I64, Dims: []int64{1}}})
	rest, _ := ir.TensorOf(ir.I64, []int64{1}, []int64{-1})
	pattern := m.AddLayer("Concat", "opset1", "pattern", []ir.Attr{{Name: "axis", Value: "0"}}, []ir.Output{{Layer: first}, {Layer: m.AddConst("rest", rest)}}, []*ir.Port{{Type: ir.I64, Dims: []int64{2}}})
	r := m.AddLayer("Reshape", "opset1", "r", []ir.Attr{{Name: "special_zero", Value: "false"}}, []ir.Output{{Layer: x}, {Layer: pattern}}, []*ir.Port{{Type: ir.F32, Dims: []int64{-1, -1}}})
	m.AddResult("out", ir.Output{Layer: r})

	inf, err := ops.InferModel(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(inf.Outputs[pattern][0].Value, inf.Outputs[r][0])
	// Output:
	// i64[2] [2 -1] f32[2,12]
}

// A whole model evaluated by a Program, the evaluator If and Loop run
// their bodies with: y = x // 2, flooring.
func ExampleNewProgram() {
	m := &ir.Model{}
	x := m.AddParameter("x", ir.I32, shapeinfer.StaticShape(3))
	two, _ := ir.TensorOf(ir.I32, []int64{}, []int32{2})
	half, _ := ops.AddDivide(m, "half", ir.Output{Layer: x}, ir.Output{Layer: m.AddConst("two", two)}, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
	m.AddResult("y", ir.Output{Layer: half})

	p, err := ops.NewProgram(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	in, _ := ir.TensorOf(ir.I32, []int64{3}, []int32{-3, 3, 7})
	out, err := p.Run([]*ir.Tensor{in}, ops.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ir.View[int32](out[0]))
	// Output: [-2 1 3]
}
