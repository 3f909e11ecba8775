package ops

import (
	"math"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// vi is an input info without a value.
func vi(t ir.ElementType, shape string) ValueInfo {
	return ValueInfo{Type: t, Shape: shapeinfer.MustParseShape(shape)}
}

// known is an i64 input info whose value inference knows.
func known(shape []int64, values ...int64) ValueInfo {
	v, err := ir.TensorOf(ir.I64, shape, values)
	if err != nil {
		panic(err)
	}
	return ValueInfo{Type: ir.I64, Shape: shapeinfer.StaticShape(shape...), Value: v}
}

// vec and scalar are known i64 vectors and scalars.
func vec(values ...int64) ValueInfo { return known([]int64{int64(len(values))}, values...) }
func scalar(v int64) ValueInfo      { return known(nil, v) }

func knownF32(v float32) ValueInfo {
	t, _ := ir.TensorOf(ir.F32, nil, []float32{v})
	return ValueInfo{Type: ir.F32, Shape: shapeinfer.StaticShape(), Value: t}
}

func op(typ, version string, data ...string) Op {
	o, err := New(layerOf(typ, version, data...))
	if err != nil {
		panic(err)
	}
	return o
}

func infos(out []ValueInfo) string {
	s := make([]string, len(out))
	for i, o := range out {
		s[i] = o.String()
	}
	return strings.Join(s, " ")
}

type shapeCase struct {
	name string
	op   Op
	in   []ValueInfo
	want string // the outputs, or an error's text
}

func runShapeCases(t *testing.T, cases []shapeCase) {
	t.Helper()
	for _, tc := range cases {
		out, err := tc.op.Infer(tc.in)
		got := infos(out)
		if err != nil {
			got = err.Error()
		}
		if got != tc.want && (err == nil || !strings.Contains(got, tc.want)) {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// The expected shapes below follow OpenVINO's shape inference rules,
// worked by hand (or in NumPy for the slicing).

func TestElementwiseShapes(t *testing.T) {
	i32, f32, b := ir.I32, ir.F32, ir.Boolean
	runShapeCases(t, []shapeCase{
		{"numpy", op("Add", "opset1"), []ValueInfo{vi(i32, "2,1,3"), vi(i32, "4,1")}, "i32[2,4,3]"},
		{"numpy interval", op("Multiply", "opset1"), []ValueInfo{vi(f32, "1..5,3"), vi(f32, "2..8,3")}, "f32[2..8,3]"},
		{"dynamic rank", op("Subtract", "opset1"), []ValueInfo{vi(i32, "..."), vi(i32, "3")}, "i32[...]"},
		{"none", op("Maximum", "opset1", "auto_broadcast", "none"), []ValueInfo{vi(i32, "2,3"), vi(i32, "2,?")}, "i32[2,3]"},
		{"none mismatch", op("Minimum", "opset1", "auto_broadcast", "none"), []ValueInfo{vi(i32, "2,3"), vi(i32, "3")}, "Argument shapes are inconsistent."},
		{"pdpd", op("FloorMod", "opset1", "auto_broadcast", "pdpd", AxisAttr, "1"), []ValueInfo{vi(i32, "2,3,4"), vi(i32, "3")}, "i32[2,3,4]"},
		{"types", op("Power", "opset1"), []ValueInfo{vi(i32, "2"), vi(ir.I64, "2")}, "Arguments do not have the same element type (arg0 element type: i32, arg1 element type: i64)."},
		{"dynamic type", op("Mod", "opset1"), []ValueInfo{vi(ir.Dynamic, "2"), vi(ir.U8, "2")}, "u8[2]"},
		{"boolean arithmetic", op("Add", "opset1"), []ValueInfo{vi(b, "2"), vi(b, "2")}, "This operation does not support inputs with element type: boolean"},
		{"comparison", op("Less", "opset1"), []ValueInfo{vi(f32, "2,?"), vi(f32, "1")}, "boolean[2,?]"},
		{"comparison of booleans", op("Equal", "opset1"), []ValueInfo{vi(b, "2"), vi(b, "2")}, "boolean[2]"},
		{"logical", op("LogicalXor", "opset1"), []ValueInfo{vi(b, "3,1"), vi(b, "4")}, "boolean[3,4]"},
		{"logical of numbers", op("LogicalAnd", "opset1"), []ValueInfo{vi(i32, "3"), vi(i32, "3")}, "Operands for logical operators must have boolean element type but have element type i32."},
		{"one input", op("Add", "opset1"), []ValueInfo{vi(i32, "2")}, "Incorrect number of inputs. Required: 2, got 1"},
		{"select numpy", op("Select", "opset1"), []ValueInfo{vi(b, "2,1"), vi(f32, "3"), vi(f32, "1,1")}, "f32[2,3]"},
		{"select cond type", op("Select", "opset1"), []ValueInfo{vi(i32, "2"), vi(f32, "2"), vi(f32, "2")}, "Argument 0 must have boolean element type (element type: i32)."},
		{"select branches", op("Select", "opset1"), []ValueInfo{vi(b, "2"), vi(f32, "2"), vi(i32, "2")}, "Argument 1 and 2 element types must match."},
		{"select cond shape", op("Select", "opset1"), []ValueInfo{vi(b, "4"), vi(f32, "2,3"), vi(f32, "3")}, "'Cond' tensor shape is not broadcastable."},
	})
}

func TestUnaryShapes(t *testing.T) {
	i32, f32 := ir.I32, ir.F32
	runShapeCases(t, []shapeCase{
		{"abs", op("Abs", "opset1"), []ValueInfo{vi(i32, "2,?")}, "i32[2,?]"},
		{"boolean", op("Negative", "opset1"), []ValueInfo{vi(ir.Boolean, "2")}, "This operation does not support input with element type: boolean"},
		{"logical not keeps any type", op("LogicalNot", "opset1"), []ValueInfo{vi(f32, "...")}, "f32[...]"},
		{"convert", op("Convert", "opset1", "destination_type", "i64"), []ValueInfo{vi(f32, "1..3,?")}, "i64[1..3,?]"},
		{"clamp", op("Clamp", "opset1", "min", "0", "max", "6"), []ValueInfo{vi(f32, "4")}, "f32[4]"},
		{"clamp min above max", op("Clamp", "opset1", "min", "7", "max", "6"), []ValueInfo{vi(f32, "4")}, "Attribute 'min' must be less or equal than 'max'. Got: 7 and 6"},
		{"clamp boolean", op("Clamp", "opset1", "min", "0", "max", "6"), []ValueInfo{vi(ir.Boolean, "4")}, "Input element type must be numeric. Got: boolean"},
		{"round", op("Round", "opset5"), []ValueInfo{vi(ir.BF16, "3")}, "bf16[3]"},
		{"swish beta", op("Swish", "opset4"), []ValueInfo{vi(f32, "2,3"), vi(f32, "")}, "f32[2,3]"},
		{"swish beta vector", op("Swish", "opset4"), []ValueInfo{vi(f32, "2,3"), vi(f32, "2")}, "Swish input with beta must be scalar but it has shape: [2]"},
		{"gelu integer", op("Gelu", "opset7"), []ValueInfo{vi(i32, "2")}, "Input element type must be float. Got: i32"},
		{"elu", op("Elu", "opset1", "alpha", "1"), []ValueInfo{vi(ir.F16, "?,2")}, "f16[?,2]"},
	})
}

func TestShapeOpShapes(t *testing.T) {
	i32, f32, i64 := ir.I32, ir.F32, ir.I64
	runShapeCases(t, []shapeCase{
		// ShapeOf
		{"shapeof-1", op("ShapeOf", "opset1"), []ValueInfo{vi(f32, "2,?,3")}, "i64[3]"},
		{"shapeof-3 i32", op("ShapeOf", "opset3", "output_type", "i32"), []ValueInfo{vi(f32, "...")}, "i32[?]"},
		{"shapeof-3 f32", op("ShapeOf", "opset3", "output_type", "f32"), []ValueInfo{vi(f32, "2")}, "Output type must be i32 or i64"},
		// Gather
		{"gather", op("Gather", "opset8"), []ValueInfo{vi(f32, "2,3,4"), vi(i32, "5,6"), scalar(1)}, "f32[2,5,6,4]"},
		{"gather negative axis", op("Gather", "opset7"), []ValueInfo{vi(f32, "2,3,4"), vi(i32, ""), vec(-1)}, "f32[2,3]"},
		{"gather batch_dims", op("Gather", "opset8", "batch_dims", "1"), []ValueInfo{vi(f32, "2,3,4"), vi(i32, "2..4,5"), scalar(2)}, "f32[2,3,5]"},
		{"gather negative batch_dims", op("Gather", "opset8", "batch_dims", "-1"), []ValueInfo{vi(f32, "2,3,4"), vi(i32, "2,3"), scalar(2)}, "f32[2,3,3]"},
		{"gather unknown axis", op("Gather", "opset8"), []ValueInfo{vi(f32, "2,3,4"), vi(i32, "5"), vi(i64, "")}, "f32[?,?,?]"},
		{"gather dynamic rank", op("Gather", "opset1"), []ValueInfo{vi(f32, "..."), vi(i32, "5"), scalar(0)}, "f32[...]"},
		{"gather axis out of range", op("Gather", "opset8"), []ValueInfo{vi(f32, "2,3"), vi(i32, "5"), scalar(2)}, "Parameter axis 2 out of the tensor rank range [-2, 1]."},
		{"gather batch above axis", op("Gather", "opset8", "batch_dims", "2"), []ValueInfo{vi(f32, "2,3,4"), vi(i32, "2,3"), scalar(1)}, "After normalization batch_dims must be <= axis. But instead got: batch_dims = 2, axis = 1"},
		{"gather float indices", op("Gather", "opset8"), []ValueInfo{vi(f32, "2"), vi(f32, "1"), scalar(0)}, "Indices element type must be of an integral number type"},
		{"gather axis shape", op("Gather", "opset8"), []ValueInfo{vi(f32, "2"), vi(i32, "1"), vi(i64, "2")}, "Axis input must be scalar or have 1 element. But instead got axis_shape = [2]"},
		// Concat
		{"concat", op("Concat", "opset1", "axis", "-1"), []ValueInfo{vi(f32, "2,?,3"), vi(f32, "2,4,1..5"), vi(f32, "...")}, "f32[2,4,4..]"},
		{"concat intervals", op("Concat", "opset1", "axis", "0"), []ValueInfo{vi(f32, "2..3"), vi(f32, "1..4")}, "f32[3..7]"},
		{"concat ranks", op("Concat", "opset1", "axis", "0"), []ValueInfo{vi(f32, "2"), vi(f32, "1,2")}, "Concatenation axis (0) is out of bounds [-2, 1] for argument 1, which has shape [1,2]."},
		{"concat dims", op("Concat", "opset1", "axis", "0"), []ValueInfo{vi(f32, "2,3"), vi(f32, "1,2")}, "Argument shapes are inconsistent; they must have the same rank"},
		{"concat types", op("Concat", "opset1"), []ValueInfo{vi(f32, "2"), vi(i32, "1")}, "Argument element types are inconsistent."},
		// Reshape
		{"reshape", op("Reshape", "opset1"), []ValueInfo{vi(f32, "2,3,4"), vec(4, -1)}, "f32[4,6]"},
		{"reshape special zero", op("Reshape", "opset1", "special_zero", "true"), []ValueInfo{vi(f32, "2,3,4"), vec(0, 0, -1, 2)}, "f32[2,3,2,2]"},
		{"reshape zero without special", op("Reshape", "opset1"), []ValueInfo{vi(f32, "2,0"), vec(0, 5)}, "f32[0,5]"},
		{"reshape interval", op("Reshape", "opset1", "special_zero", "true"), []ValueInfo{vi(f32, "1..8,6"), vec(0, -1, 3)}, "f32[1..8,2,3]"},
		{"reshape dynamic -1", op("Reshape", "opset1"), []ValueInfo{vi(f32, "?,6"), vec(-1, 3)}, "f32[?,3]"},
		{"reshape bounded -1", op("Reshape", "opset1"), []ValueInfo{vi(f32, "2..10,6"), vec(-1, 4)}, "f32[3..15,4]"},
		{"reshape scalar", op("Reshape", "opset1"), []ValueInfo{vi(f32, "1,1"), known(nil, 1)}, "f32[]"},
		{"reshape unknown pattern", op("Reshape", "opset1"), []ValueInfo{vi(f32, "2,3"), vi(i64, "3")}, "f32[?,?,?]"},
		{"reshape two -1", op("Reshape", "opset1"), []ValueInfo{vi(f32, "2,3"), vec(-1, -1)}, "More than one dimension has size of -1"},
		{"reshape -2", op("Reshape", "opset1"), []ValueInfo{vi(f32, "2,3"), vec(-2, 3)}, "Output pattern dim[0] has invalid bounds: -2,-2"},
		{"reshape indivisible", op("Reshape", "opset1"), []ValueInfo{vi(f32, "7"), vec(2, -1)}, "Non-'-1' output dimensions do not evenly divide the input dimensions"},
		{"reshape count", op("Reshape", "opset1"), []ValueInfo{vi(f32, "2,3"), vec(4, 2)}, "Requested output shape [4,2] is incompatible with input shape"},
		{"reshape special zero count", op("Reshape", "opset1", "special_zero", "true"), []ValueInfo{vi(f32, "0,3,4"), vec(3, 4, 0)}, "Requested output shape [3,4,4] is incompatible with input shape"},
		{"reshape special zero copies", op("Reshape", "opset1", "special_zero", "true"), []ValueInfo{vi(f32, "0,3,4"), vec(0, 4, 3)}, "f32[0,4,3]"},
		{"reshape zero kept", op("Reshape", "opset1"), []ValueInfo{vi(f32, "0,3,4"), vec(3, 4, 0)}, "f32[3,4,0]"},
		{"reshape empty of huge dims", op("Reshape", "opset1"), []ValueInfo{vi(f32, "4611686018427387904,4,0"), vec(0)}, "f32[0]"},
		{"reshape zero -1", op("Reshape", "opset1"), []ValueInfo{vi(f32, "2,3"), vec(0, -1)}, "Cannot infer '-1' dimension with zero-size output dimension unless at least one input dimension is also zero-size"},
		{"reshape special zero range", op("Reshape", "opset1", "special_zero", "true"), []ValueInfo{vi(f32, "6"), vec(2, 0, 3)}, "'0' dimension is out of range"},
		{"reshape float pattern", op("Reshape", "opset1"), []ValueInfo{vi(f32, "6"), vi(f32, "1")}, "PAttern must be an integral number."},
		// Squeeze and Unsqueeze
		{"squeeze all", op("Squeeze", "opset1"), []ValueInfo{vi(f32, "1,2,1,3")}, "f32[2,3]"},
		{"squeeze dynamic", op("Squeeze", "opset1"), []ValueInfo{vi(f32, "1,?,3")}, "f32[...]"},
		{"squeeze axes", op("Squeeze", "opset1"), []ValueInfo{vi(f32, "1,2,1,3"), vec(-2)}, "f32[1,2,3]"},
		{"squeeze skips non-1", op("Squeeze", "opset1"), []ValueInfo{vi(f32, "1,2,1,3"), vec(1, 2)}, "f32[1,2,3]"},
		{"squeeze interval axis", op("Squeeze", "opset1"), []ValueInfo{vi(f32, "1..3,2"), vec(0)}, "f32[2]"},
		{"squeeze-15 allow skip", op("Squeeze", "opset15", "allow_axis_skip", "true"), []ValueInfo{vi(f32, "1..3,2"), vec(0)}, "f32[...]"},
		{"squeeze unknown axis", op("Squeeze", "opset1"), []ValueInfo{vi(f32, "1,2,3"), vi(i64, "1")}, "f32[?,?]"},
		{"squeeze axis range", op("Squeeze", "opset1"), []ValueInfo{vi(f32, "1,2"), vec(2)}, "Parameter axis 2 out of the tensor rank range [-2, 1]."},
		{"unsqueeze", op("Unsqueeze", "opset1"), []ValueInfo{vi(f32, "2,3"), vec(0, -1)}, "f32[1,2,3,1]"},
		{"unsqueeze repeated", op("Unsqueeze", "opset1"), []ValueInfo{vi(f32, "2,3"), vec(1, 1)}, "f32[2,1,3]"},
		{"unsqueeze unknown", op("Unsqueeze", "opset1"), []ValueInfo{vi(f32, "2,3"), vi(i64, "1")}, "f32[?,?,?]"},
		{"unsqueeze empty", op("Unsqueeze", "opset1"), []ValueInfo{vi(f32, "2"), known([]int64{0})}, "'axes' input is mandatory"},
		// Transpose, Tile, Broadcast
		{"transpose", op("Transpose", "opset1"), []ValueInfo{vi(f32, "2,?,4"), vec(2, 0, 1)}, "f32[4,2,?]"},
		{"transpose empty", op("Transpose", "opset1"), []ValueInfo{vi(f32, "2,3,4"), known([]int64{0})}, "f32[4,3,2]"},
		{"transpose unknown", op("Transpose", "opset1"), []ValueInfo{vi(f32, "2,3"), vi(i64, "2")}, "f32[?,?]"},
		{"transpose invalid", op("Transpose", "opset1"), []ValueInfo{vi(f32, "2,3,4"), vec(0, 0, 1)}, "Permutation [0 0 1] is not valid for input shape [2,3,4]"},
		{"tile", op("Tile", "opset1"), []ValueInfo{vi(f32, "2,3"), vec(2, 1, 3)}, "f32[2,2,9]"},
		{"tile negative", op("Tile", "opset1"), []ValueInfo{vi(f32, "2,3"), vec(-1, 2)}, "f32[0,6]"},
		{"tile unknown", op("Tile", "opset1"), []ValueInfo{vi(f32, "2,3"), vi(i64, "3")}, "f32[?,?,?]"},
		{"broadcast numpy", op("Broadcast", "opset3"), []ValueInfo{vi(f32, "3,1"), vec(2, 3, 4)}, "f32[2,3,4]"},
		{"broadcast numpy bad", op("Broadcast", "opset3"), []ValueInfo{vi(f32, "3,2"), vec(3, 4)}, "Input shape dimension equal 2 cannot be broadcasted (numpy mode) to 4. Allowed input dimension value would be 1 or 4"},
		{"broadcast rank", op("Broadcast", "opset1"), []ValueInfo{vi(f32, "1,1,1"), vec(3, 4)}, "Broadcast target_shape has smaller rank 2 than arg shape 3"},
		{"broadcast bidirectional", op("Broadcast", "opset3", "mode", "bidirectional"), []ValueInfo{vi(f32, "3,1"), vec(4, 1, 5)}, "f32[4,3,5]"},
		{"broadcast bidirectional unknown", op("Broadcast", "opset3", "mode", "bidirectional"), []ValueInfo{vi(f32, "3,1"), vi(i64, "3")}, "f32[?,3,?]"},
		{"broadcast explicit", op("Broadcast", "opset1", "mode", "explicit"), []ValueInfo{vi(f32, "3"), vec(2, 3), vec(1)}, "f32[2,3]"},
		{"broadcast explicit bad", op("Broadcast", "opset3", "mode", "explicit"), []ValueInfo{vi(f32, "3"), vec(2, 4), vec(1)}, "Broadcast target[axes_mapping[0]] Expected 3. Got 4"},
		{"broadcast explicit missing", op("Broadcast", "opset3", "mode", "explicit"), []ValueInfo{vi(f32, "3"), vec(2, 4)}, "axes_mapping input should be provided if explicit mode is used"},
		{"broadcast unknown", op("Broadcast", "opset3"), []ValueInfo{vi(f32, "3"), vi(i64, "4")}, "f32[?,?,?,?]"},
		// Range
		{"range-4", op("Range", "opset4", "output_type", "i32"), []ValueInfo{scalar(10), scalar(-3), scalar(-4)}, "i32[4]"},
		{"range-4 float to int", op("Range", "opset4", "output_type", "i64"), []ValueInfo{knownF32(2.9), knownF32(9.7), knownF32(2.2)}, "i64[4]"},
		{"range-4 float", op("Range", "opset4", "output_type", "f32"), []ValueInfo{knownF32(0.5), knownF32(3.2), knownF32(0.3)}, "f32[9]"},
		{"range-4 zero step", op("Range", "opset4", "output_type", "i64"), []ValueInfo{scalar(0), scalar(5), scalar(0)}, "i64[0]"},
		{"range-4 away", op("Range", "opset4", "output_type", "i64"), []ValueInfo{scalar(5), scalar(0), scalar(1)}, "i64[0]"},
		{"range-4 uint32 length", op("Range", "opset4", "output_type", "i64"), []ValueInfo{scalar(0), scalar(1<<32 + 5), scalar(1)}, "i64[5]"},
		{"range-1", op("Range", "opset1"), []ValueInfo{scalar(-5), scalar(5), scalar(3)}, "i64[4]"},
		{"range-1 zero step", op("Range", "opset1"), []ValueInfo{scalar(0), scalar(5), scalar(0)}, "'step' cannot be zero, nan, or infinite."},
		{"range-1 types", op("Range", "opset1"), []ValueInfo{scalar(0), knownF32(1), scalar(1)}, "Element types for start, stop, and step do not match."},
		{"range unknown", op("Range", "opset4", "output_type", "i64"), []ValueInfo{vi(i64, ""), scalar(1), scalar(1)}, "i64[?]"},
		{"range not scalar", op("Range", "opset4", "output_type", "i64"), []ValueInfo{vec(0), scalar(1), scalar(1)}, "'start' input is not a scalar"},
		// Split and VariadicSplit
		{"split", op("Split", "opset1", "num_splits", "3"), []ValueInfo{vi(f32, "2,6"), scalar(-1)}, "f32[2,2] f32[2,2] f32[2,2]"},
		{"split interval", op("Split", "opset1", "num_splits", "2"), []ValueInfo{vi(f32, "3..9"), scalar(0)}, "f32[2..4] f32[2..4]"},
		{"split indivisible", op("Split", "opset1", "num_splits", "4"), []ValueInfo{vi(f32, "6"), scalar(0)}, "Dimension of data input shape along 'axis': 6 must be evenly divisible by 'num_splits' attribute value: 4"},
		{"split unknown axis", op("Split", "opset1", "num_splits", "2"), []ValueInfo{vi(f32, "6,4"), vi(i64, "")}, "f32[?,?] f32[?,?]"},
		{"variadic", op("VariadicSplit", "opset1"), []ValueInfo{vi(f32, "2,9"), scalar(1), vec(2, -1, 3)}, "f32[2,2] f32[2,4] f32[2,3]"},
		{"variadic interval", op("VariadicSplit", "opset1"), []ValueInfo{vi(f32, "5..9"), scalar(0), vec(2, -1)}, "f32[2] f32[3..7]"},
		{"variadic sum", op("VariadicSplit", "opset1"), []ValueInfo{vi(f32, "9"), scalar(0), vec(2, 3)}, "Total length of splits: 5 must match the length of the chosen axis: 9"},
		{"variadic sum wraps", op("VariadicSplit", "opset1"), []ValueInfo{vi(f32, "4"), scalar(0), vec(math.MaxInt64, math.MaxInt64, 6)}, "Total length of splits: more than 9223372036854775807 must match the length of the chosen axis: 4"},
		{"variadic sum wraps dynamic", op("VariadicSplit", "opset1"), []ValueInfo{vi(f32, "?"), scalar(0), vec(math.MaxInt64, 1)}, "Total length of splits: more than 9223372036854775807"},
		{"variadic too many", op("VariadicSplit", "opset1"), []ValueInfo{vi(f32, "4"), scalar(0), vi(i64, "1099511627776")}, "the split lengths input asks for 1099511627776 outputs; irdiv makes at most 65536"},
		{"split too many", op("Split", "opset1", "num_splits", "1099511627776"), []ValueInfo{vi(f32, "0"), scalar(0)}, "num_splits asks for 1099511627776 outputs; irdiv makes at most 65536"},
		{"variadic two -1", op("VariadicSplit", "opset1"), []ValueInfo{vi(f32, "9"), scalar(0), vec(-1, -1)}, "Cannot infer split with multiple -1 values at 0 and 1"},
		{"variadic unknown lengths", op("VariadicSplit", "opset1"), []ValueInfo{vi(f32, "3,9"), scalar(1), vi(i64, "2")}, "f32[3,?] f32[3,?]"},
		// Reductions
		{"reduce", op("ReduceSum", "opset1"), []ValueInfo{vi(f32, "2,3,4"), vec(0, -1)}, "f32[3]"},
		{"reduce keep", op("ReduceMax", "opset1", "keep_dims", "true"), []ValueInfo{vi(i32, "2,?,4"), vec(1)}, "i32[2,1,4]"},
		{"reduce empty axes", op("ReduceProd", "opset1"), []ValueInfo{vi(i32, "2,3"), known([]int64{0})}, "i32[2,3]"},
		{"reduce unknown keep", op("ReduceMin", "opset1", "keep_dims", "true"), []ValueInfo{vi(i32, "2,3"), vi(i64, "1")}, "i32[?,?]"},
		{"reduce unknown", op("ReduceMin", "opset1"), []ValueInfo{vi(i32, "2,3"), vi(i64, "1")}, "i32[...]"},
		{"reduce axis range", op("ReduceSum", "opset1"), []ValueInfo{vi(i32, "2,3"), vec(2)}, "Reduction axis ([2]) is out of bounds (argument shape rank 2)."},
		{"reduce logical", op("ReduceLogicalOr", "opset1"), []ValueInfo{vi(f32, "2"), vec(0)}, "Element type of data input must be boolean."},
	})
}

func TestSliceShapes(t *testing.T) {
	f32, i64 := ir.F32, ir.I64
	ss := func(masks ...string) Op { return op("StridedSlice", "opset1", masks...) }
	runShapeCases(t, []shapeCase{
		// Expected values from NumPy slicing of arrays of the input shapes.
		{"plain", ss(), []ValueInfo{vi(f32, "2,3,4,5"), vec(0, 1, -3, 0), vec(2, 3, -1, 5), vec(1, 1, 1, 2)}, "f32[2,2,2,3]"},
		{"reverse", ss(), []ValueInfo{vi(f32, "2,3,4,5"), vec(1, -1, 10, 0), vec(0, -10, -10, 5), vec(-1, -1, -2, 1)}, "f32[1,3,2,5]"},
		{"masks", ss("begin_mask", "1,0,1,0", "end_mask", "0,1,1,0"), []ValueInfo{vi(f32, "2,3,4,5"), vec(1, 2, 3, 1), vec(2, 0, 0, 4), vec(1, 1, 1, 2)}, "f32[2,1,4,2]"},
		{"new and shrink", ss("new_axis_mask", "1", "shrink_axis_mask", "0,1,0,1"), []ValueInfo{vi(f32, "2,3,4,5"), vec(0, 1, 0, -2), vec(0, 2, 0, 0), vec(1, 1, 1, 1)}, "f32[1,0,5]"},
		{"ellipsis", ss("ellipsis_mask", "1", "begin_mask", "0,0,1", "end_mask", "0,0,1"), []ValueInfo{vi(f32, "2,3,4,5"), vec(0, 1, 0), vec(0, 3, 0), vec(1, 1, 1)}, "f32[2,3,2,5]"},
		{"default strides", ss(), []ValueInfo{vi(f32, "6,4"), vec(1), vec(-1)}, "f32[4,4]"},
		{"interval", ss(), []ValueInfo{vi(f32, "2..10"), vec(1), vec(5), vec(2)}, "f32[1..2]"},
		{"unbounded", ss(), []ValueInfo{vi(f32, "?"), vec(1), vec(5), vec(1)}, "f32[..4]"},
		{"unknown begin", ss(), []ValueInfo{vi(f32, "3,4"), vi(i64, "1"), vec(2), vec(1)}, "f32[..3,4]"},
		{"zero stride", ss(), []ValueInfo{vi(f32, "3"), vec(0), vec(2), vec(0)}, "Stride must be non-zero"},
		{"lengths", ss(), []ValueInfo{vi(f32, "3"), vec(0, 0), vec(2), vec(1)}, "Begin and end need to have same number of values."},
		{"dynamic rank", ss(), []ValueInfo{vi(f32, "..."), vec(0), vec(2), vec(1)}, "f32[...]"},
		// Slice-8
		{"slice axes", op("Slice", "opset8"), []ValueInfo{vi(f32, "2,3,4,5"), vec(-1, 3), vec(-4, 100), vec(-1, 2), vec(2, -1)}, "f32[2,3,3,1]"},
		{"slice default axes", op("Slice", "opset8"), []ValueInfo{vi(f32, "2,3,4,5"), vec(1, -100), vec(2, 100), vec(1, 1)}, "f32[1,3,4,5]"},
		{"slice interval", op("Slice", "opset8"), []ValueInfo{vi(f32, "4..8"), vec(-2), vec(100), vec(1)}, "f32[2]"},
		{"slice unknown axes", op("Slice", "opset8"), []ValueInfo{vi(f32, "4,8"), vec(0), vec(2), vec(1), vi(i64, "1")}, "f32[..4,..8]"},
		{"slice zero step", op("Slice", "opset8"), []ValueInfo{vi(f32, "4"), vec(0), vec(2), vec(0)}, "Slice step cannot be zero."},
		{"slice repeated axes", op("Slice", "opset8"), []ValueInfo{vi(f32, "4,4"), vec(0, 0), vec(2, 2), vec(1, 1), vec(1, -1)}, "Slice values in `axes` input must be unique."},
	})
}

func TestConvolutionShapes(t *testing.T) {
	f32 := ir.F32
	conv := func(attrs ...string) Op { return op("Convolution", "opset1", attrs...) }
	c2 := []string{"strides", "2,2", "dilations", "1,1", "pads_begin", "1,1", "pads_end", "1,1"}
	runShapeCases(t, []shapeCase{
		// out = floor((in + pads - dilated kernel) / stride) + 1
		{"conv", conv(c2...), []ValueInfo{vi(f32, "1,3,224,225"), vi(f32, "16,3,3,3")}, "f32[1,16,112,113]"},
		{"conv dilated", conv("strides", "1", "dilations", "2", "pads_begin", "0", "pads_end", "0"), []ValueInfo{vi(f32, "2,4,10"), vi(f32, "8,4,3")}, "f32[2,8,6]"},
		{"conv same", conv("strides", "2,2", "dilations", "1,1", "pads_begin", "0,0", "pads_end", "0,0", "auto_pad", "same_upper"), []ValueInfo{vi(f32, "1,3,15,16"), vi(f32, "8,3,3,3")}, "f32[1,8,8,8]"},
		{"conv valid", conv("strides", "1,1", "dilations", "1,1", "pads_begin", "5,5", "pads_end", "5,5", "auto_pad", "valid"), []ValueInfo{vi(f32, "1,3,8,8"), vi(f32, "8,3,3,3")}, "f32[1,8,6,6]"},
		{"conv interval", conv(c2...), []ValueInfo{vi(f32, "?,3,10..20,?"), vi(f32, "16,3,3,3")}, "f32[?,16,5..10,1..]"},
		// A dynamic dim gives [0,inf) + 2 - 3, clipped at 0, halved, plus 1.
		{"conv dynamic rank", conv(c2...), []ValueInfo{vi(f32, "..."), vi(f32, "16,3,3,3")}, "f32[?,16,1..,1..]"},
		{"conv kernel too big", conv("strides", "1", "dilations", "1", "pads_begin", "0", "pads_end", "0"), []ValueInfo{vi(f32, "1,1,2"), vi(f32, "1,1,3")}, "Kernel after dilation has size (dim: 3) larger than the data shape after padding (dim: 2) at axis 0."},
		{"conv channels", conv(c2...), []ValueInfo{vi(f32, "1,4,8,8"), vi(f32, "16,3,3,3")}, "Data batch channel count (4) does not match filter input channel count (3)."},
		{"conv ranks", conv(c2...), []ValueInfo{vi(f32, "1,3,8,8"), vi(f32, "16,3,3")}, "Data batch and filters rank do not match"},
		{"conv strides", conv("strides", "1", "dilations", "1,1", "pads_begin", "0,0", "pads_end", "0,0"), []ValueInfo{vi(f32, "1,3,8,8"), vi(f32, "16,3,3,3")}, "Strides should be defined for all and only spatial dimensions."},
		{"conv zero stride", conv("strides", "0,1", "dilations", "1,1", "pads_begin", "0,0", "pads_end", "0,0"), []ValueInfo{vi(f32, "1,3,8,8"), vi(f32, "16,3,3,3")}, "Strides has zero dimension(s). [0 1]"},
		{"conv rank 2", conv(c2...), []ValueInfo{vi(f32, "3,8"), vi(f32, "16,3")}, "Expected a 3D, 4D or 5D tensor for the input. Got: [3,8]"},
		{"group conv", op("GroupConvolution", "opset1", c2...), []ValueInfo{vi(f32, "1,32,16,16"), vi(f32, "32,1,1,3,3")}, "f32[1,32,8,8]"},
		{"group conv channels", op("GroupConvolution", "opset1", c2...), []ValueInfo{vi(f32, "1,30,16,16"), vi(f32, "32,1,1,3,3")}, "Input channels dimension of data batch has incompatible value with filter shape."},
		// out = stride*(in-1) + dilated kernel - pads + output_padding
		{"deconv", op("ConvolutionBackpropData", "opset1", "strides", "2,2", "dilations", "1,1", "pads_begin", "1,0", "pads_end", "1,0", "output_padding", "1,0"), []ValueInfo{vi(f32, "1,16,7,7"), vi(f32, "16,8,3,3")}, "f32[1,8,14,15]"},
		{"deconv output shape", op("ConvolutionBackpropData", "opset1", "strides", "2,2", "dilations", "1,1", "pads_begin", "0,0", "pads_end", "0,0", "auto_pad", "same_upper"), []ValueInfo{vi(f32, "1,16,7,7"), vi(f32, "16,8,3,3"), vec(14, 15)}, "f32[1,8,14,15]"},
		{"deconv interval", op("ConvolutionBackpropData", "opset1", "strides", "2", "dilations", "1", "pads_begin", "0", "pads_end", "0"), []ValueInfo{vi(f32, "1,16,1..4"), vi(f32, "16,8,3")}, "f32[1,8,3..9]"},
		{"group deconv", op("GroupConvolutionBackpropData", "opset1", "strides", "2,2", "dilations", "1,1", "pads_begin", "0,0", "pads_end", "0,0", "output_padding", "0,0"), []ValueInfo{vi(f32, "1,8,4,4"), vi(f32, "4,2,3,2,2")}, "f32[1,12,8,8]"},
		{"deconv channels", op("ConvolutionBackpropData", "opset1", "strides", "2,2", "dilations", "1,1", "pads_begin", "0,0", "pads_end", "0,0"), []ValueInfo{vi(f32, "1,4,4,4"), vi(f32, "16,8,3,3")}, "Data batch channel count (4) does not match filter input channel count (16)."},
	})
}

func TestPoolingShapes(t *testing.T) {
	f32 := ir.F32
	pool := func(typ, version string, attrs ...string) Op { return op(typ, version, attrs...) }
	k3s2 := []string{"strides", "2,2", "pads_begin", "0,0", "pads_end", "0,0", "kernel", "3,3"}
	runShapeCases(t, []shapeCase{
		// floor: (7-3)/2+1 = 3; ceil: ceil(4/2)+1 = 3 and ceil(5/2)+1 = 4 for 8
		{"max floor", pool("MaxPool", "opset1", k3s2...), []ValueInfo{vi(f32, "1,3,7,8")}, "f32[1,3,3,3]"},
		{"max ceil", pool("MaxPool", "opset1", append(k3s2, "rounding_type", "ceil")...), []ValueInfo{vi(f32, "1,3,7,8")}, "f32[1,3,3,4]"},
		// ceil_torch: with pads_end 1 on 5: ceil((5+1-3)/2)+1 = 3, but the last window
		// would start at 4 >= 5+0? no: (3-1)*2 = 4 < 5, kept. On 4: ceil((4+1-3)/2)+1 = 2,
		// (2-1)*2 = 2 < 4, kept; with stride 3 on 4, pads 0,2: ceil((4+2-3)/3)+1 = 2,
		// (2-1)*3 = 3 < 4 kept; on 3 with pads 0,2 kernel 2 stride 3: ceil(3/3)+1 = 2,
		// (2-1)*3 = 3 >= 3: dropped, 1.
		{"max ceil_torch", pool("MaxPool", "opset14", "strides", "3", "dilations", "1", "pads_begin", "0", "pads_end", "2", "kernel", "2", "rounding_type", "ceil_torch"), []ValueInfo{vi(f32, "1,1,3")}, "f32[1,1,1] i64[1,1,1]"},
		{"max ceil same input", pool("MaxPool", "opset14", "strides", "3", "dilations", "1", "pads_begin", "0", "pads_end", "2", "kernel", "2", "rounding_type", "ceil"), []ValueInfo{vi(f32, "1,1,3")}, "f32[1,1,2] i64[1,1,2]"},
		{"max-8 dilations", pool("MaxPool", "opset8", "strides", "1", "dilations", "2", "pads_begin", "0", "pads_end", "0", "kernel", "3", "index_element_type", "i32"), []ValueInfo{vi(f32, "2,3,9")}, "f32[2,3,5] i32[2,3,5]"},
		{"max same", pool("MaxPool", "opset8", "strides", "2,2", "dilations", "1,1", "pads_begin", "0,0", "pads_end", "0,0", "kernel", "3,3", "auto_pad", "same_lower"), []ValueInfo{vi(f32, "1,3,7,?")}, "f32[1,3,4,?] i64[1,3,4,?]"},
		{"max interval", pool("MaxPool", "opset1", k3s2...), []ValueInfo{vi(f32, "?,3,3..9,?")}, "f32[?,3,1..4,1..]"},
		{"max dynamic rank", pool("MaxPool", "opset1", k3s2...), []ValueInfo{vi(f32, "...")}, "f32[?,?,?,?]"},
		{"max kernel size", pool("MaxPool", "opset1", k3s2...), []ValueInfo{vi(f32, "1,3,7")}, "Expected kernel size to be equal to input size - 2. Got: 2"},
		{"max index type", pool("MaxPool", "opset8", append(k3s2, "dilations", "1,1", "index_element_type", "f32")...), []ValueInfo{vi(f32, "1,3,7,7")}, "Index element type must be i32 or i64"},
		{"max zero batch", pool("MaxPool", "opset1", k3s2...), []ValueInfo{vi(f32, "0,3,7,7")}, "Batch size is zero."},
		{"avg", pool("AvgPool", "opset1", "strides", "1,1", "pads_begin", "1,1", "pads_end", "1,1", "kernel", "3,3", "exclude-pad", "true"), []ValueInfo{vi(f32, "1,3,7,8")}, "f32[1,3,7,8]"},
		{"avg kernel in padding", pool("AvgPool", "opset1", "strides", "1", "pads_begin", "2", "pads_end", "0", "kernel", "2", "exclude-pad", "true"), []ValueInfo{vi(f32, "1,3,7")}, "Kernel after dilation is sometimes entirely in the padding area for axis 0 (dilated kernel dimension: 2, padding below dimension: 2, padding above dimension: 0) and this is not allowed."},
	})
}

func TestOtherShapes(t *testing.T) {
	f32 := ir.F32
	runShapeCases(t, []shapeCase{
		{"matmul", op("MatMul", "opset1"), []ValueInfo{vi(f32, "2,1,3,4"), vi(f32, "5,4,6")}, "f32[2,5,3,6]"},
		{"matmul transposed", op("MatMul", "opset1", "transpose_a", "true", "transpose_b", "true"), []ValueInfo{vi(f32, "4,3"), vi(f32, "6,4")}, "f32[3,6]"},
		{"matmul vectors", op("MatMul", "opset1"), []ValueInfo{vi(f32, "4"), vi(f32, "4")}, "f32[]"},
		{"matmul vector matrix", op("MatMul", "opset1"), []ValueInfo{vi(f32, "4"), vi(f32, "2,4,5")}, "f32[2,5]"},
		{"matmul k", op("MatMul", "opset1"), []ValueInfo{vi(f32, "2,3"), vi(f32, "4,5")}, "Incompatible MatMul matrix dimension. First input dimension=3 at COL_INDEX_DIM=1 doesn't match the second input dimension=4 at ROW_INDEX_DIM=0"},
		{"matmul dynamic", op("MatMul", "opset1"), []ValueInfo{vi(f32, "?,?"), vi(f32, "3,1..4")}, "f32[?,1..4]"},
		{"pad", op("Pad", "opset12"), []ValueInfo{vi(f32, "1,3,4"), vec(0, -1, 2), vec(1, 1, 0)}, "f32[2,3,6]"},
		{"pad below zero", op("Pad", "opset12"), []ValueInfo{vi(f32, "2"), vec(-3), vec(0)}, "f32[?]"},
		{"pad-1 negative", op("Pad", "opset1"), []ValueInfo{vi(f32, "2"), vec(-1), vec(0)}, "Pad-1 pads must be non-negative"},
		{"pad reflect", op("Pad", "opset1", "pad_mode", "reflect"), []ValueInfo{vi(f32, "3"), vec(3), vec(0)}, "REFLECT padding mode requires"},
		{"pad unknown", op("Pad", "opset12"), []ValueInfo{vi(f32, "3,4"), vi(ir.I64, "2"), vec(0, 0)}, "f32[?,?]"},
		{"pad interval", op("Pad", "opset12"), []ValueInfo{vi(f32, "2..5"), vec(1), vec(1)}, "f32[4..7]"},
		{"interpolate-11 scales", op("Interpolate", "opset11", "shape_calculation_mode", "scales"), []ValueInfo{vi(f32, "1,3,20,30"), ValueInfo{Type: f32, Shape: shapeinfer.StaticShape(2), Value: f32Tensor(2, 0.5)}, vec(2, 3)}, "f32[1,3,40,15]"},
		{"interpolate-11 sizes", op("Interpolate", "opset11"), []ValueInfo{vi(f32, "1,3,?,30"), vec(7, 9), vec(2, 3)}, "f32[1,3,7,9]"},
		{"interpolate-4 pads", op("Interpolate", "opset4", "shape_calculation_mode", "sizes", "pads_begin", "0,0,1,1", "pads_end", "0,0,1,1"), []ValueInfo{vi(f32, "1,3,4,4"), vec(8), ValueInfo{Type: f32, Shape: shapeinfer.StaticShape(1), Value: f32Tensor(2)}, vec(3)}, "f32[1,3,6,8]"},
		{"interpolate-4 scales", op("Interpolate", "opset4", "shape_calculation_mode", "scales"), []ValueInfo{vi(f32, "1,3,5,2..4"), vec(1, 1), ValueInfo{Type: f32, Shape: shapeinfer.StaticShape(2), Value: f32Tensor(1.5, 2)}, vec(2, 3)}, "f32[1,3,7,4..8]"},
		{"interpolate unknown", op("Interpolate", "opset11"), []ValueInfo{vi(f32, "1,3,4,4"), vi(ir.I64, "2"), vec(2, 3)}, "f32[1,3,?,?]"},
		{"interpolate axis", op("Interpolate", "opset11"), []ValueInfo{vi(f32, "1,3"), vec(2), vec(-1)}, "All axes values should less than input rank: 2"},
		{"softmax-8", op("Softmax", "opset8", "axis", "-1"), []ValueInfo{vi(f32, "2,?")}, "f32[2,?]"},
		{"softmax-1 negative", op("Softmax", "opset1", "axis", "-1"), []ValueInfo{vi(f32, "2,3")}, "Reduction axis (-1) is out of bounds (argument shape: [2,3])."},
		{"batchnorm-5", op("BatchNormInference", "opset5", "epsilon", "1e-5"), []ValueInfo{vi(f32, "1,?,4"), vi(f32, "3"), vi(f32, "?"), vi(f32, "3"), vi(f32, "3")}, "f32[1,3,4]"},
		{"batchnorm-1 order", op("BatchNormInference", "opset1", "epsilon", "1e-5"), []ValueInfo{vi(f32, "3"), vi(f32, "3"), vi(f32, "1,?,4"), vi(f32, "3"), vi(f32, "3")}, "f32[1,3,4]"},
		{"batchnorm channels", op("BatchNormInference", "opset5", "epsilon", "1e-5"), []ValueInfo{vi(f32, "1,2,4"), vi(f32, "3"), vi(f32, "3"), vi(f32, "3"), vi(f32, "3")}, "Input channel dimension (2) does not match shape for gamma/beta/mean/variance (3)."},
		{"batchnorm epsilon", op("BatchNormInference", "opset5", "epsilon", "-1"), []ValueInfo{vi(f32, "1,3"), vi(f32, "3"), vi(f32, "3"), vi(f32, "3"), vi(f32, "3")}, "Attribute 'epsilon' must be a floating-point value greater than or equal to zero. Got: -1"},
	})
}

func f32Tensor(v ...float32) *ir.Tensor {
	t, err := ir.TensorOf(ir.F32, []int64{int64(len(v))}, v)
	if err != nil {
		panic(err)
	}
	return t
}
