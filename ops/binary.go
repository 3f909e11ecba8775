package ops

import (
	"math"
	"math/big"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// The binary element-wise ops: arithmetic (the element type of both
// inputs, numbers only; this file), comparisons (boolean output) and
// logical ops (boolean inputs and output; compare.go). Each has the
// attribute auto_broadcast (none, numpy or pdpd; numpy by default) and
// infers its shape with shapeinfer.Elementwise, as OpenVINO's
// eltwise_shape_infer does.
//
// Evaluation follows OpenVINO's reference kernels: integers wrap around
// (two's complement); f32 is computed in f32 and f64 in f64, one IEEE
// operation at a time as the C++ is written; f16 and bf16 are computed in
// f32 and rounded to nearest even.

// binaryOp is the one definition of the binary element-wise ops: each op
// is binaryOp of its own kind K, a type without fields whose def names the
// op and says what it computes. Each op stays a type of its own, so that
// callers switch on *Add or *Equal and build one as Add{Broadcast: bc}
// (an embedded struct would forbid that literal).
type binaryOp[K binaryKind] struct{ Broadcast shapeinfer.Broadcast }

// binaryKind is the kind of a binary op: its def is a package variable,
// so that the ops' methods read it without building it again.
type binaryKind interface{ def() *binaryDef }

// binaryDef is what sets a binary op apart: its name, and the computation
// of its family, exactly one of arith, compare and logical.
type binaryDef struct {
	name    string
	arith   *arith
	compare *compare
	logical func(a, b bool) bool
}

func (*binaryOp[K]) OpType() (string, string) {
	var k K
	return k.def().name, "opset1"
}

func (o *binaryOp[K]) Attrs() []ir.Attr { return broadcastAttrs(o.Broadcast) }

// AutoBroadcast returns the op's auto_broadcast (Broadcaster).
func (o *binaryOp[K]) AutoBroadcast() shapeinfer.Broadcast { return o.Broadcast }

func (o *binaryOp[K]) Infer(in []ValueInfo) ([]ValueInfo, error) {
	var k K
	switch d := k.def(); {
	case d.arith != nil:
		return inferArithmetic(o.Broadcast, in)
	case d.compare != nil:
		return inferComparison(o.Broadcast, in)
	}
	return inferLogical(o.Broadcast, in)
}

func (o *binaryOp[K]) evaluate(in, out []*ir.Tensor, _ Options) error {
	var k K
	d := k.def()
	switch {
	case d.arith != nil:
		return evalArithmetic(o.Broadcast, in, out, *d.arith)
	case d.compare != nil:
		return evalCompare(o.Broadcast, in, out, *d.compare)
	}
	return evalLogical(o.Broadcast, in, out, d.logical)
}

// The arithmetic ops.
type (
	// Add is Add-1: A + B.
	//
	// Add, like every binary element-wise op (the arithmetic ops, the
	// comparisons and the logical ops), is a struct with the one field
	// Broadcast, its auto_broadcast attribute, and the methods of Op. The
	// zero value of Broadcast is auto_broadcast none; OpenVINO's default,
	// when a layer has no auto_broadcast, is numpy
	// (shapeinfer.Broadcast{Mode: shapeinfer.Numpy}).
	Add = binaryOp[add]

	// Subtract is Subtract-1: A - B. A binary op, like Add.
	Subtract = binaryOp[subtract]

	// Multiply is Multiply-1: A * B. A binary op, like Add.
	Multiply = binaryOp[multiply]

	// Minimum is Minimum-1: std::min(A, B), so B < A ? B : A (a NaN in A
	// wins, one in B loses; of 0 and -0 the first is kept). A binary op, like Add.
	Minimum = binaryOp[minimum]

	// Maximum is Maximum-1: std::max(A, B), so A < B ? B : A. A binary op, like Add.
	Maximum = binaryOp[maximum]

	// SquaredDifference is SquaredDifference-1: (A - B) * (A - B), each
	// operation rounded (and wrapped for integers). A binary op, like Add.
	SquaredDifference = binaryOp[squaredDifference]

	// Power is Power-1: static_cast<T>(std::pow(A, B)). Integers are raised in
	// double precision, as OpenVINO's reference does, and the result is
	// converted back as Convert converts a float (so 2^-1 is 0, and results
	// beyond 2^53 carry the rounding of the double). A binary op, like Add.
	Power = binaryOp[power]

	// FloorMod is FloorMod-1: the remainder of floor division, with the sign
	// of B. Integers are exact: a zero divisor is a *DivideError
	// (ErrDivideByZero) and MIN mod -1 is 0. (OpenVINO computes signed
	// integers as A - B*floor(A/double(B)), which agrees wherever the operands
	// are exact in a double, |x| <= 2^53, and gives an unspecified value for
	// a zero divisor.) Floats are A - B*floor(A/B) computed in f64, as
	// OpenVINO's reference writes it, then rounded. A binary op, like Add.
	FloorMod = binaryOp[floorMod]

	// Mod is Mod-1: the remainder of truncating division, with the sign of A.
	// Integers are C++'s A % B: a zero divisor is a *DivideError
	// (ErrDivideByZero) and MIN % -1 is 0 (where x86 would trap). Floats are
	// A - trunc(A/B)*B in the type's arithmetic (f32 for f16 and bf16), as
	// OpenVINO's reference writes it: not C's fmod, which is exact. A binary op, like Add.
	Mod = binaryOp[mod]
)

// The kinds of the arithmetic ops.
type (
	add               struct{}
	subtract          struct{}
	multiply          struct{}
	minimum           struct{}
	maximum           struct{}
	squaredDifference struct{}
	power             struct{}
	floorMod          struct{}
	mod               struct{}
)

func (add) def() *binaryDef               { return &addDef }
func (subtract) def() *binaryDef          { return &subtractDef }
func (multiply) def() *binaryDef          { return &multiplyDef }
func (minimum) def() *binaryDef           { return &minimumDef }
func (maximum) def() *binaryDef           { return &maximumDef }
func (squaredDifference) def() *binaryDef { return &squaredDifferenceDef }
func (power) def() *binaryDef             { return &powerDef }
func (floorMod) def() *binaryDef          { return &floorModDef }
func (mod) def() *binaryDef               { return &modDef }

// registerBinary registers the arithmetic, comparison and logical ops.
func registerBinary() {
	registerBinaryOp[add]()
	registerBinaryOp[subtract]()
	registerBinaryOp[multiply]()
	registerBinaryOp[minimum]()
	registerBinaryOp[maximum]()
	registerBinaryOp[squaredDifference]()
	registerBinaryOp[power]()
	registerBinaryOp[floorMod]()
	registerBinaryOp[mod]()
	registerBinaryOp[equal]()
	registerBinaryOp[notEqual]()
	registerBinaryOp[less]()
	registerBinaryOp[lessEqual]()
	registerBinaryOp[greater]()
	registerBinaryOp[greaterEqual]()
	registerBinaryOp[logicalAnd]()
	registerBinaryOp[logicalOr]()
	registerBinaryOp[logicalXor]()
}

// registerBinaryOp registers a binaryOp under the name its kind gives,
// with its auto_broadcast (numpy by default).
func registerBinaryOp[K binaryKind]() {
	var k K
	register(k.def().name, []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		bc, err := attrs{l}.broadcast(shapeinfer.Numpy)
		if err != nil {
			return nil, err
		}
		return &binaryOp[K]{bc}, nil
	}))
}

// elementwiseArgs checks two inputs of one element type (OpenVINO's
// validate_and_infer_elementwise_args) and infers the broadcast shape.
func elementwiseArgs(bc shapeinfer.Broadcast, in []ValueInfo) (ir.ElementType, shapeinfer.Shape, error) {
	if len(in) != 2 {
		return 0, shapeinfer.Shape{}, errorf("%w: Incorrect number of inputs. Required: 2, got %d", ir.ErrGraph, len(in))
	}
	t, ok := mergeTypes(in[0].Type, in[1].Type)
	if !ok {
		return 0, shapeinfer.Shape{}, errorf("%w: Arguments do not have the same element type (arg0 element type: %s, arg1 element type: %s).", ErrType, in[0].Type, in[1].Type)
	}
	shape, err := shapeinfer.Elementwise(in[0].Shape, in[1].Shape, bc)
	return t, shape, err
}

// mergeTypes is element::Type::merge: dynamic takes the other type.
func mergeTypes(a, b ir.ElementType) (ir.ElementType, bool) {
	switch {
	case a == ir.Dynamic:
		return b, true
	case b == ir.Dynamic || a == b:
		return a, true
	}
	return 0, false
}

// inferArithmetic is BinaryElementwiseArithmetic's inference: input count,
// element type agreement, shapes, then the boolean/string rejection.
func inferArithmetic(bc shapeinfer.Broadcast, in []ValueInfo) ([]ValueInfo, error) {
	t, shape, err := elementwiseArgs(bc, in)
	if err != nil {
		return nil, err
	}
	if t == ir.Boolean || t == ir.String {
		return nil, errorf("%w: This operation does not support inputs with element type: %s", ErrType, t)
	}
	return []ValueInfo{{Type: t, Shape: shape}}, nil
}

// arith is the computation of an arithmetic op for each kind of element:
// integers as intAt reads them (the result is cut to the type's width),
// f32 (also for f16 and bf16) and f64. An integer error stops the
// evaluation at that output element.
type arith struct {
	i   func(t ir.ElementType, a, b int64) (int64, error)
	f32 func(a, b float32) float32
	f64 func(a, b float64) float64
}

// evalArithmetic evaluates out = f(in[0], in[1]) with broadcasting.
func evalArithmetic(bc shapeinfer.Broadcast, in, out []*ir.Tensor, f arith) error {
	a, b, dst := in[0], in[1], out[0]
	aDims, bDims := alignDims(bc, a.Shape, b.Shape, len(dst.Shape))
	t := dst.Type
	var err error
	walk(dst.Shape, [][]int64{aDims, bDims}, func(o int, idx []int) {
		if err != nil {
			return
		}
		switch {
		case t.IsInteger():
			var v int64
			v, err = f.i(t, intAt(a, idx[0]), intAt(b, idx[1]))
			if err != nil {
				err = &DivideError{Index: o, Err: err}
				return
			}
			dst.SetInt64(o, v)
		case isF64(t):
			ir.View[float64](dst)[o] = f.f64(ir.View[float64](a)[idx[0]], ir.View[float64](b)[idx[1]])
		default:
			setF32(dst, o, f.f32(f32At(a, idx[0]), f32At(b, idx[1])))
		}
	})
	return err
}

var (
	addDef = binaryDef{name: "Add", arith: &arith{
		i:   func(_ ir.ElementType, a, b int64) (int64, error) { return a + b, nil },
		f32: func(a, b float32) float32 { return a + b },
		f64: func(a, b float64) float64 { return a + b },
	}}
	subtractDef = binaryDef{name: "Subtract", arith: &arith{
		i:   func(_ ir.ElementType, a, b int64) (int64, error) { return a - b, nil },
		f32: func(a, b float32) float32 { return a - b },
		f64: func(a, b float64) float64 { return a - b },
	}}
	multiplyDef = binaryDef{name: "Multiply", arith: &arith{
		i:   func(_ ir.ElementType, a, b int64) (int64, error) { return a * b, nil },
		f32: func(a, b float32) float32 { return a * b },
		f64: func(a, b float64) float64 { return a * b },
	}}
	minimumDef = binaryDef{name: "Minimum", arith: &arith{
		i: func(t ir.ElementType, a, b int64) (int64, error) {
			if lessInt(t, b, a) {
				return b, nil
			}
			return a, nil
		},
		f32: stdMin[float32],
		f64: stdMin[float64],
	}}
	maximumDef = binaryDef{name: "Maximum", arith: &arith{
		i: func(t ir.ElementType, a, b int64) (int64, error) {
			if lessInt(t, a, b) {
				return b, nil
			}
			return a, nil
		},
		f32: stdMax[float32],
		f64: stdMax[float64],
	}}
	squaredDifferenceDef = binaryDef{name: "SquaredDifference", arith: &arith{
		i: func(_ ir.ElementType, a, b int64) (int64, error) { return (a - b) * (a - b), nil },
		// The conversions round the difference before the product, so
		// that the two are never fused.
		f32: func(a, b float32) float32 { d := float32(a - b); return float32(d * d) },
		f64: func(a, b float64) float64 { d := float64(a - b); return float64(d * d) },
	}}
	powerDef = binaryDef{name: "Power", arith: &arith{
		i: func(t ir.ElementType, a, b int64) (int64, error) {
			return floatToInt(pow(intToFloat64(t, a), intToFloat64(t, b)), t), nil
		},
		f32: func(a, b float32) float32 { return float32(pow(float64(a), float64(b))) },
		f64: pow,
	}}
	floorModDef = binaryDef{name: "FloorMod", arith: &arith{
		i: func(t ir.ElementType, a, b int64) (int64, error) {
			if b == 0 {
				return 0, ErrDivideByZero
			}
			if isU64(t) {
				return int64(uint64(a) % uint64(b)), nil
			}
			r := a % b // Go defines MIN % -1 as 0
			if r != 0 && (r < 0) != (b < 0) {
				r += b
			}
			return r, nil
		},
		f32: func(a, b float32) float32 { return float32(floorMod64(float64(a), float64(b))) },
		f64: floorMod64,
	}}
	modDef = binaryDef{name: "Mod", arith: &arith{
		i: func(t ir.ElementType, a, b int64) (int64, error) {
			if b == 0 {
				return 0, ErrDivideByZero
			}
			if isU64(t) {
				return int64(uint64(a) % uint64(b)), nil
			}
			return a % b, nil
		},
		f32: func(a, b float32) float32 {
			q := float32(math.Trunc(float64(float32(a / b))))
			return a - float32(q*b)
		},
		f64: func(a, b float64) float64 { return a - float64(math.Trunc(a/b)*b) },
	}}
)

// stdMin is std::min(a, b): b < a ? b : a, so a NaN in a wins and one in
// b loses (Go's min gives NaN for either).
func stdMin[T float32 | float64](a, b T) T {
	if b < a {
		return b
	}
	return a
}

// stdMax is std::max(a, b): a < b ? b : a.
func stdMax[T float32 | float64](a, b T) T {
	if a < b {
		return b
	}
	return a
}

// pow is the C library's pow as closely as Go allows: for an integer
// exponent it is correctly rounded (x^n is computed in 256-bit floats),
// as glibc's is; other exponents use math.Pow, which may differ from
// glibc in the last place. (Go's math.Pow multiplies repeatedly for
// integer exponents and can be several units off.)
func pow(x, y float64) float64 {
	if y != math.Trunc(y) || math.Abs(y) > 1<<31 || x == 0 || math.IsInf(x, 0) || math.IsNaN(x) || math.IsInf(y, 0) {
		return math.Pow(x, y)
	}
	n := int64(math.Abs(y))
	r, b := big.NewFloat(1).SetPrec(256), new(big.Float).SetPrec(256).SetFloat64(x)
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			r.Mul(r, b)
		}
		b.Mul(b, b)
	}
	if y < 0 {
		r.Quo(big.NewFloat(1).SetPrec(256), r)
	}
	f, _ := r.Float64()
	return f
}

// floorMod64 is OpenVINO's x - y * floor(x / y) in double.
func floorMod64(x, y float64) float64 { return x - float64(y*math.Floor(x/y)) }

// intToFloat64 converts an integer read by intAt to double, as C++
// promotes it.
func intToFloat64(t ir.ElementType, v int64) float64 {
	if isU64(t) {
		return float64(uint64(v))
	}
	return float64(v)
}
