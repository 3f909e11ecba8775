package ops

import (
	"cmp"
	"errors"
	"math"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/x448/float16"
)

// evaluator is implemented by the ops irdiv can compute. Evaluate has
// already run the op's inference on the inputs (with their values) and
// allocated out with the inferred types and static shapes.
type evaluator interface {
	evaluate(in, out []*ir.Tensor, o Options) error
}

// dynamicEvaluator is implemented by the ops whose output shapes only
// running them tells (If, Loop, TensorIterator: the branch taken, the iterations run):
// they check their inputs and allocate their outputs themselves, and
// Evaluate then bounds each output by the tensor cap.
type dynamicEvaluator interface {
	evaluateDynamic(in []*ir.Tensor, o Options) ([]*ir.Tensor, error)
}

// dataIgnorer is implemented by ops that read only some inputs' shapes,
// never their data (ShapeOf), so that those inputs may be of any type.
type dataIgnorer interface {
	ignoresData(input int) bool
}

// Evaluate computes the outputs of op from input tensors of static shape,
// as OpenVINO's evaluate does. It first runs the op's inference with the
// inputs as values (so every type, shape and attribute check of Infer
// applies), then bounds each output by o.MaxTensorBytes (0 means
// ir.MaxTensorBytes) before allocating it: an output over the cap is an
// error wrapping ir.ErrTooLarge, however small the inputs. If and Loop,
// whose output shapes only running them tells, check their inputs and
// allocate their outputs themselves (a Loop's scan outputs bounded as they
// grow); their outputs are then held to the same cap.
//
// Ops irdiv infers but cannot compute fail with an error wrapping
// ErrUnsupportedOp; element types other than the twelve numeric ones and
// boolean fail with ErrType.
func Evaluate(op Op, inputs []*ir.Tensor, o Options) ([]*ir.Tensor, error) {
	e, ok := op.(evaluator)
	d, dynamic := op.(dynamicEvaluator)
	if !ok && !dynamic || !Evaluable(op) {
		typ, version := op.OpType()
		return nil, errorf("%w: irdiv infers %s-%s but cannot evaluate it", ErrUnsupportedOp, typ, versionNumber(version))
	}
	infos := make([]ValueInfo, len(inputs))
	ignorer, _ := op.(dataIgnorer)
	for i, t := range inputs {
		if t == nil {
			return nil, errorf("input %d has no tensor", i)
		}
		if !fits(t) {
			return nil, errorf("input %d: %d bytes of data do not hold a %s%v tensor", i, len(t.Data), t.Type, t.Shape)
		}
		if ignorer == nil || !ignorer.ignoresData(i) {
			if err := evaluable(t.Type); err != nil {
				return nil, err
			}
		}
		infos[i] = ValueInfo{Type: t.Type, Shape: shapeinfer.StaticShape(t.Shape...), Value: t}
	}
	maxBytes := cmp.Or(o.MaxTensorBytes, ir.MaxTensorBytes)
	if dynamic {
		out, err := d.evaluateDynamic(inputs, o)
		if err != nil {
			return nil, err
		}
		for _, t := range out {
			if err := checkSize(t.Type, t.Shape, maxBytes); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	outInfos, err := op.Infer(infos)
	if err != nil {
		return nil, err
	}
	out := make([]*ir.Tensor, len(outInfos))
	for i, info := range outInfos {
		if err := evaluable(info.Type); err != nil {
			return nil, err
		}
		dims, ok := info.Shape.ToStatic()
		if !ok {
			// Inference with every input known gives static shapes; a
			// dynamic one here is a bug in the op's Infer.
			return nil, errorf("output %d has the non-static shape %s although every input is known", i, info.Shape)
		}
		if err := checkSize(info.Type, dims, maxBytes); err != nil {
			return nil, err
		}
		if out[i], err = ir.NewTensor(info.Type, dims); err != nil {
			return nil, errorf("%w", err)
		}
	}
	if err := e.evaluate(inputs, out, o); err != nil {
		return nil, err
	}
	return out, nil
}

// EvaluateLayer is Evaluate for the op of layer l: its errors name the
// layer, after this package's prefix.
func EvaluateLayer(l *ir.Layer, op Op, inputs []*ir.Tensor, o Options) ([]*ir.Tensor, error) {
	out, err := Evaluate(op, inputs, o)
	if err != nil {
		return nil, &LayerError{l, err}
	}
	return out, nil
}

// CheckInputs checks that layer l has as many input ports as its op
// takes, before its inputs are gathered: OpenVINO's "Incorrect number of
// inputs" naming the layer.
func CheckInputs(l *ir.Layer, op Op) error {
	if _, err := op.Infer(make([]ValueInfo, len(l.Inputs))); errors.Is(err, ir.ErrGraph) {
		return &LayerError{l, err}
	}
	return nil
}

// checkSize refuses a tensor of more than maxBytes bytes (or more
// elements than an int counts) before anything is allocated.
func checkSize(t ir.ElementType, dims []int64, maxBytes int64) error {
	n, err := ir.NumElements(dims)
	var size int64
	if err == nil {
		size, err = ir.ByteSize(t, n)
	}
	if err != nil || size > maxBytes || n > math.MaxInt {
		return errorf("%w: the output %s%v is larger than the %d bytes allowed (MaxTensorBytes)", ir.ErrTooLarge, t, dims, maxBytes)
	}
	return nil
}

// evaluable accepts the twelve numeric types and boolean.
func evaluable(t ir.ElementType) error {
	if t.IsNumeric() || t == ir.Boolean {
		return nil
	}
	return errorf("%w: irdiv evaluates boolean, f16, bf16, f32, f64, i8-i64 and u8-u64 tensors, not %s", ErrType, t)
}

// intAt returns element i of an integer or boolean tensor: sign-extended
// for the signed types, zero-extended otherwise (a u64 above 2^63-1 comes
// back negative with its bits kept).
func intAt(t *ir.Tensor, i int) int64 {
	switch t.Type {
	case ir.I8:
		return int64(int8(t.Data[i]))
	case ir.U8, ir.Boolean:
		return int64(t.Data[i])
	case ir.I16:
		return int64(ir.View[int16](t)[i])
	case ir.U16:
		return int64(ir.View[uint16](t)[i])
	case ir.I32:
		return int64(ir.View[int32](t)[i])
	case ir.U32:
		return int64(ir.View[uint32](t)[i])
	case ir.I64, ir.U64:
		return ir.View[int64](t)[i]
	}
	panic("ops: intAt of a " + t.Type.String() + " tensor")
}

// f32At returns element i of an f16, bf16 or f32 tensor as float32
// (exactly).
func f32At(t *ir.Tensor, i int) float32 {
	switch t.Type {
	case ir.F16:
		return float16.Frombits(ir.View[uint16](t)[i]).Float32()
	case ir.BF16:
		return ir.BF16ToFloat32(ir.View[uint16](t)[i])
	}
	return ir.View[float32](t)[i]
}

// setF32 stores an f32 result into an f16, bf16 or f32 tensor, rounding
// to nearest even for the 16-bit types.
func setF32(t *ir.Tensor, i int, f float32) {
	switch t.Type {
	case ir.F16:
		ir.View[uint16](t)[i] = float16.Fromfloat32(f).Bits()
	case ir.BF16:
		ir.View[uint16](t)[i] = ir.BF16FromFloat32(f)
	default:
		ir.View[float32](t)[i] = f
	}
}

// isF64 tells the f64 tensors, computed in float64, from the f16, bf16
// and f32 ones, computed in float32 as OpenVINO's reference does.
func isF64(t ir.ElementType) bool { return t == ir.F64 }

// isU64 tells the one type whose values intAt cannot give as their
// int64 value: a u64 must be compared and divided as uint64.
func isU64(t ir.ElementType) bool { return t == ir.U64 }

// lessInt compares two values read by intAt for their type.
func lessInt(t ir.ElementType, a, b int64) bool {
	if isU64(t) {
		return uint64(a) < uint64(b)
	}
	return a < b
}

// strides returns the row-major strides of dims, with 0 where a dimension
// is 1, so that a broadcast operand can be walked with the output's
// coordinates.
func strides(dims []int64) []int {
	s := make([]int, len(dims))
	step := 1
	for i := len(dims) - 1; i >= 0; i-- {
		if dims[i] != 1 {
			s[i] = step
		}
		step *= int(dims[i])
	}
	return s
}

// walk calls f for every element of a static output shape with the flat
// indices of the operands, whose dims are aligned to the output's rank
// (1 where an operand is broadcast). It allocates a few slices, whatever
// the size.
func walk(out []int64, operands [][]int64, f func(o int, idx []int)) {
	n := 1
	for _, d := range out {
		n *= int(d)
	}
	if n == 0 {
		return
	}
	st := make([][]int, len(operands))
	for k, dims := range operands {
		st[k] = strides(dims)
	}
	idx := make([]int, len(operands))
	coord := make([]int64, len(out))
	for o := range n {
		f(o, idx)
		for d := len(out) - 1; d >= 0; d-- {
			coord[d]++
			for k := range idx {
				idx[k] += st[k][d]
			}
			if coord[d] < out[d] {
				break
			}
			for k := range idx {
				idx[k] -= st[k][d] * int(out[d])
			}
			coord[d] = 0
		}
	}
}

// alignDims gives two operands the output's rank for broadcasting: numpy
// pads on the left; pdpd places B at the axis and pads both sides (the
// reference kernel also trims B's trailing 1s first, which gives the same
// dims); none has equal shapes already.
func alignDims(bc shapeinfer.Broadcast, a, b []int64, rank int) (aDims, bDims []int64) {
	if bc.Mode == shapeinfer.PDPD {
		axis := shapeinfer.PDPDAxis(len(a), len(b), bc.Axis)
		bDims = append(append(ones(axis), b...), ones(rank-axis-len(b))...)
		return a, bDims
	}
	return append(ones(rank-len(a)), a...), append(ones(rank-len(b)), b...)
}

func ones(n int) []int64 {
	s := make([]int64, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

// ints returns the values of an integer tensor (an axes, shape or index
// input) as int64; a u64 above 2^63-1 becomes negative, as OpenVINO's
// cast to int64_t makes it (a u64 axis 2^64-1 is -1, the last axis).
func ints(t *ir.Tensor) []int64 {
	v := make([]int64, t.Len())
	for i := range v {
		v[i] = intAt(t, i)
	}
	return v
}

// copyElems copies n elements of size bytes from src[si:] to dst[di:].
func copyElems(dst *ir.Tensor, di int, src *ir.Tensor, si, n, size int) {
	copy(dst.Data[di*size:(di+n)*size], src.Data[si*size:(si+n)*size])
}
