package ops

import (
	"math"
	"math/big"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// The binary element-wise ops: arithmetic (the element type of both
// inputs, numbers only), comparisons (boolean output) and logical ops
// (boolean inputs and output). Each has the attribute auto_broadcast
// (none, numpy or pdpd; numpy by default) and infers its shape with
// shapeinfer.Elementwise, as OpenVINO's eltwise_shape_infer does.
//
// The zero value of their Broadcast is auto_broadcast none; OpenVINO's
// default, when a layer has no auto_broadcast, is numpy
// (shapeinfer.Broadcast{Mode: shapeinfer.Numpy}).
//
// Evaluation follows OpenVINO's reference kernels: integers wrap around
// (two's complement); f32 is computed in f32 and f64 in f64, one IEEE
// operation at a time as the C++ is written; f16 and bf16 are computed in
// f32 and rounded to nearest even.

// Add is Add-1: A + B.
type Add struct{ Broadcast shapeinfer.Broadcast }

// Subtract is Subtract-1: A - B.
type Subtract struct{ Broadcast shapeinfer.Broadcast }

// Multiply is Multiply-1: A * B.
type Multiply struct{ Broadcast shapeinfer.Broadcast }

// Minimum is Minimum-1: std::min(A, B), so B < A ? B : A (a NaN in A
// wins, one in B loses; of 0 and -0 the first is kept).
type Minimum struct{ Broadcast shapeinfer.Broadcast }

// Maximum is Maximum-1: std::max(A, B), so A < B ? B : A.
type Maximum struct{ Broadcast shapeinfer.Broadcast }

// SquaredDifference is SquaredDifference-1: (A - B) * (A - B), each
// operation rounded (and wrapped for integers).
type SquaredDifference struct{ Broadcast shapeinfer.Broadcast }

// Power is Power-1: static_cast<T>(std::pow(A, B)). Integers are raised in
// double precision, as OpenVINO's reference does, and the result is
// converted back as Convert converts a float (so 2^-1 is 0, and results
// beyond 2^53 carry the rounding of the double).
type Power struct{ Broadcast shapeinfer.Broadcast }

// FloorMod is FloorMod-1: the remainder of floor division, with the sign
// of B. Integers are exact: a zero divisor is a *DivideError
// (ErrDivideByZero) and MIN mod -1 is 0. (OpenVINO computes signed
// integers as A - B*floor(A/double(B)), which agrees wherever the operands
// are exact in a double, |x| <= 2^53, and gives an unspecified value for
// a zero divisor.) Floats are A - B*floor(A/B) computed in f64, as
// OpenVINO's reference writes it, then rounded.
type FloorMod struct{ Broadcast shapeinfer.Broadcast }

// Mod is Mod-1: the remainder of truncating division, with the sign of A.
// Integers are C++'s A % B: a zero divisor is a *DivideError
// (ErrDivideByZero) and MIN % -1 is 0 (where x86 would trap). Floats are
// A - trunc(A/B)*B in the type's arithmetic (f32 for f16 and bf16), as
// OpenVINO's reference writes it: not C's fmod, which is exact.
type Mod struct{ Broadcast shapeinfer.Broadcast }

// Equal is Equal-1: A == B, a boolean.
type Equal struct{ Broadcast shapeinfer.Broadcast }

// NotEqual is NotEqual-1: A != B, a boolean.
type NotEqual struct{ Broadcast shapeinfer.Broadcast }

// Less is Less-1: A < B, a boolean.
type Less struct{ Broadcast shapeinfer.Broadcast }

// LessEqual is LessEqual-1: A <= B, a boolean.
type LessEqual struct{ Broadcast shapeinfer.Broadcast }

// Greater is Greater-1: A > B, a boolean.
type Greater struct{ Broadcast shapeinfer.Broadcast }

// GreaterEqual is GreaterEqual-1: A >= B, a boolean.
type GreaterEqual struct{ Broadcast shapeinfer.Broadcast }

// LogicalAnd is LogicalAnd-1 on booleans.
type LogicalAnd struct{ Broadcast shapeinfer.Broadcast }

// LogicalOr is LogicalOr-1 on booleans.
type LogicalOr struct{ Broadcast shapeinfer.Broadcast }

// LogicalXor is LogicalXor-1 on booleans.
type LogicalXor struct{ Broadcast shapeinfer.Broadcast }

func registerElementwise() {
	reg := func(name string, make func(shapeinfer.Broadcast) Op) {
		register(name, []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
			bc, err := attrs{l}.broadcast(shapeinfer.Numpy)
			if err != nil {
				return nil, err
			}
			return make(bc), nil
		}))
	}
	reg("Add", func(bc shapeinfer.Broadcast) Op { return &Add{bc} })
	reg("Subtract", func(bc shapeinfer.Broadcast) Op { return &Subtract{bc} })
	reg("Multiply", func(bc shapeinfer.Broadcast) Op { return &Multiply{bc} })
	reg("Minimum", func(bc shapeinfer.Broadcast) Op { return &Minimum{bc} })
	reg("Maximum", func(bc shapeinfer.Broadcast) Op { return &Maximum{bc} })
	reg("SquaredDifference", func(bc shapeinfer.Broadcast) Op { return &SquaredDifference{bc} })
	reg("Power", func(bc shapeinfer.Broadcast) Op { return &Power{bc} })
	reg("FloorMod", func(bc shapeinfer.Broadcast) Op { return &FloorMod{bc} })
	reg("Mod", func(bc shapeinfer.Broadcast) Op { return &Mod{bc} })
	reg("Equal", func(bc shapeinfer.Broadcast) Op { return &Equal{bc} })
	reg("NotEqual", func(bc shapeinfer.Broadcast) Op { return &NotEqual{bc} })
	reg("Less", func(bc shapeinfer.Broadcast) Op { return &Less{bc} })
	reg("LessEqual", func(bc shapeinfer.Broadcast) Op { return &LessEqual{bc} })
	reg("Greater", func(bc shapeinfer.Broadcast) Op { return &Greater{bc} })
	reg("GreaterEqual", func(bc shapeinfer.Broadcast) Op { return &GreaterEqual{bc} })
	reg("LogicalAnd", func(bc shapeinfer.Broadcast) Op { return &LogicalAnd{bc} })
	reg("LogicalOr", func(bc shapeinfer.Broadcast) Op { return &LogicalOr{bc} })
	reg("LogicalXor", func(bc shapeinfer.Broadcast) Op { return &LogicalXor{bc} })
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

// inferComparison is BinaryElementwiseComparison's: a boolean output.
func inferComparison(bc shapeinfer.Broadcast, in []ValueInfo) ([]ValueInfo, error) {
	_, shape, err := elementwiseArgs(bc, in)
	if err != nil {
		return nil, err
	}
	return []ValueInfo{{Type: ir.Boolean, Shape: shape}}, nil
}

// inferLogical is BinaryElementwiseLogical's: boolean inputs and output.
func inferLogical(bc shapeinfer.Broadcast, in []ValueInfo) ([]ValueInfo, error) {
	t, shape, err := elementwiseArgs(bc, in)
	if err != nil {
		return nil, err
	}
	if t != ir.Dynamic && t != ir.Boolean {
		return nil, errorf("%w: Operands for logical operators must have boolean element type but have element type %s.", ErrType, t)
	}
	return []ValueInfo{{Type: ir.Boolean, Shape: shape}}, nil
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

// compare is the computation of a comparison: integers as intAt reads
// them (unsigned says to compare them as uint64), floats as float64 (every
// float widens exactly).
type compare struct {
	i func(a, b int64, unsigned bool) bool
	f func(a, b float64) bool
}

func evalCompare(bc shapeinfer.Broadcast, in, out []*ir.Tensor, f compare) error {
	a, b, dst := in[0], in[1], out[0]
	aDims, bDims := alignDims(bc, a.Shape, b.Shape, len(dst.Shape))
	t := a.Type
	walk(dst.Shape, [][]int64{aDims, bDims}, func(o int, idx []int) {
		var r bool
		if t.IsFloat() {
			r = f.f(a.Float64At(idx[0]), b.Float64At(idx[1]))
		} else {
			r = f.i(intAt(a, idx[0]), intAt(b, idx[1]), isU64(t))
		}
		dst.Data[o] = b2u(r)
	})
	return nil
}

func evalLogical(bc shapeinfer.Broadcast, in, out []*ir.Tensor, f func(a, b bool) bool) error {
	a, b, dst := in[0], in[1], out[0]
	aDims, bDims := alignDims(bc, a.Shape, b.Shape, len(dst.Shape))
	walk(dst.Shape, [][]int64{aDims, bDims}, func(o int, idx []int) {
		dst.Data[o] = b2u(f(a.Data[idx[0]] != 0, b.Data[idx[1]] != 0))
	})
	return nil
}

func ordered(a, b int64, unsigned bool) int {
	switch {
	case a == b:
		return 0
	case unsigned && uint64(a) < uint64(b), !unsigned && a < b:
		return -1
	}
	return 1
}

var (
	addArith = arith{
		i:   func(_ ir.ElementType, a, b int64) (int64, error) { return a + b, nil },
		f32: func(a, b float32) float32 { return a + b },
		f64: func(a, b float64) float64 { return a + b },
	}
	subtractArith = arith{
		i:   func(_ ir.ElementType, a, b int64) (int64, error) { return a - b, nil },
		f32: func(a, b float32) float32 { return a - b },
		f64: func(a, b float64) float64 { return a - b },
	}
	multiplyArith = arith{
		i:   func(_ ir.ElementType, a, b int64) (int64, error) { return a * b, nil },
		f32: func(a, b float32) float32 { return a * b },
		f64: func(a, b float64) float64 { return a * b },
	}
	minimumArith = arith{
		i: func(t ir.ElementType, a, b int64) (int64, error) {
			if lessInt(t, b, a) {
				return b, nil
			}
			return a, nil
		},
		f32: func(a, b float32) float32 {
			if b < a {
				return b
			}
			return a
		},
		f64: func(a, b float64) float64 {
			if b < a {
				return b
			}
			return a
		},
	}
	maximumArith = arith{
		i: func(t ir.ElementType, a, b int64) (int64, error) {
			if lessInt(t, a, b) {
				return b, nil
			}
			return a, nil
		},
		f32: func(a, b float32) float32 {
			if a < b {
				return b
			}
			return a
		},
		f64: func(a, b float64) float64 {
			if a < b {
				return b
			}
			return a
		},
	}
	squaredDifferenceArith = arith{
		i: func(_ ir.ElementType, a, b int64) (int64, error) { return (a - b) * (a - b), nil },
		// The conversions round the difference before the product, so
		// that the two are never fused.
		f32: func(a, b float32) float32 { d := float32(a - b); return float32(d * d) },
		f64: func(a, b float64) float64 { d := float64(a - b); return float64(d * d) },
	}
	powerArith = arith{
		i: func(t ir.ElementType, a, b int64) (int64, error) {
			return floatToInt(pow(intToFloat64(t, a), intToFloat64(t, b)), t), nil
		},
		f32: func(a, b float32) float32 { return float32(pow(float64(a), float64(b))) },
		f64: pow,
	}
	floorModArith = arith{
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
	}
	modArith = arith{
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
	}
)

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

var (
	equalCompare = compare{
		i: func(a, b int64, _ bool) bool { return a == b },
		f: func(a, b float64) bool { return a == b },
	}
	notEqualCompare = compare{
		i: func(a, b int64, _ bool) bool { return a != b },
		f: func(a, b float64) bool { return a != b },
	}
	lessCompare = compare{
		i: func(a, b int64, u bool) bool { return ordered(a, b, u) < 0 },
		f: func(a, b float64) bool { return a < b },
	}
	lessEqualCompare = compare{
		i: func(a, b int64, u bool) bool { return ordered(a, b, u) <= 0 },
		f: func(a, b float64) bool { return a <= b },
	}
	greaterCompare = compare{
		i: func(a, b int64, u bool) bool { return ordered(a, b, u) > 0 },
		f: func(a, b float64) bool { return a > b },
	}
	greaterEqualCompare = compare{
		i: func(a, b int64, u bool) bool { return ordered(a, b, u) >= 0 },
		f: func(a, b float64) bool { return a >= b },
	}
)

func (*Add) OpType() (string, string)               { return "Add", "opset1" }
func (*Subtract) OpType() (string, string)          { return "Subtract", "opset1" }
func (*Multiply) OpType() (string, string)          { return "Multiply", "opset1" }
func (*Minimum) OpType() (string, string)           { return "Minimum", "opset1" }
func (*Maximum) OpType() (string, string)           { return "Maximum", "opset1" }
func (*SquaredDifference) OpType() (string, string) { return "SquaredDifference", "opset1" }
func (*Power) OpType() (string, string)             { return "Power", "opset1" }
func (*FloorMod) OpType() (string, string)          { return "FloorMod", "opset1" }
func (*Mod) OpType() (string, string)               { return "Mod", "opset1" }
func (*Equal) OpType() (string, string)             { return "Equal", "opset1" }
func (*NotEqual) OpType() (string, string)          { return "NotEqual", "opset1" }
func (*Less) OpType() (string, string)              { return "Less", "opset1" }
func (*LessEqual) OpType() (string, string)         { return "LessEqual", "opset1" }
func (*Greater) OpType() (string, string)           { return "Greater", "opset1" }
func (*GreaterEqual) OpType() (string, string)      { return "GreaterEqual", "opset1" }
func (*LogicalAnd) OpType() (string, string)        { return "LogicalAnd", "opset1" }
func (*LogicalOr) OpType() (string, string)         { return "LogicalOr", "opset1" }
func (*LogicalXor) OpType() (string, string)        { return "LogicalXor", "opset1" }

func (o *Add) Attrs() []ir.Attr               { return broadcastAttrs(o.Broadcast) }
func (o *Subtract) Attrs() []ir.Attr          { return broadcastAttrs(o.Broadcast) }
func (o *Multiply) Attrs() []ir.Attr          { return broadcastAttrs(o.Broadcast) }
func (o *Minimum) Attrs() []ir.Attr           { return broadcastAttrs(o.Broadcast) }
func (o *Maximum) Attrs() []ir.Attr           { return broadcastAttrs(o.Broadcast) }
func (o *SquaredDifference) Attrs() []ir.Attr { return broadcastAttrs(o.Broadcast) }
func (o *Power) Attrs() []ir.Attr             { return broadcastAttrs(o.Broadcast) }
func (o *FloorMod) Attrs() []ir.Attr          { return broadcastAttrs(o.Broadcast) }
func (o *Mod) Attrs() []ir.Attr               { return broadcastAttrs(o.Broadcast) }
func (o *Equal) Attrs() []ir.Attr             { return broadcastAttrs(o.Broadcast) }
func (o *NotEqual) Attrs() []ir.Attr          { return broadcastAttrs(o.Broadcast) }
func (o *Less) Attrs() []ir.Attr              { return broadcastAttrs(o.Broadcast) }
func (o *LessEqual) Attrs() []ir.Attr         { return broadcastAttrs(o.Broadcast) }
func (o *Greater) Attrs() []ir.Attr           { return broadcastAttrs(o.Broadcast) }
func (o *GreaterEqual) Attrs() []ir.Attr      { return broadcastAttrs(o.Broadcast) }
func (o *LogicalAnd) Attrs() []ir.Attr        { return broadcastAttrs(o.Broadcast) }
func (o *LogicalOr) Attrs() []ir.Attr         { return broadcastAttrs(o.Broadcast) }
func (o *LogicalXor) Attrs() []ir.Attr        { return broadcastAttrs(o.Broadcast) }

func (o *Add) Infer(in []ValueInfo) ([]ValueInfo, error) { return inferArithmetic(o.Broadcast, in) }
func (o *Subtract) Infer(in []ValueInfo) ([]ValueInfo, error) {
	return inferArithmetic(o.Broadcast, in)
}
func (o *Multiply) Infer(in []ValueInfo) ([]ValueInfo, error) {
	return inferArithmetic(o.Broadcast, in)
}
func (o *Minimum) Infer(in []ValueInfo) ([]ValueInfo, error) { return inferArithmetic(o.Broadcast, in) }
func (o *Maximum) Infer(in []ValueInfo) ([]ValueInfo, error) { return inferArithmetic(o.Broadcast, in) }
func (o *SquaredDifference) Infer(in []ValueInfo) ([]ValueInfo, error) {
	return inferArithmetic(o.Broadcast, in)
}
func (o *Power) Infer(in []ValueInfo) ([]ValueInfo, error) { return inferArithmetic(o.Broadcast, in) }
func (o *FloorMod) Infer(in []ValueInfo) ([]ValueInfo, error) {
	return inferArithmetic(o.Broadcast, in)
}
func (o *Mod) Infer(in []ValueInfo) ([]ValueInfo, error)   { return inferArithmetic(o.Broadcast, in) }
func (o *Equal) Infer(in []ValueInfo) ([]ValueInfo, error) { return inferComparison(o.Broadcast, in) }
func (o *NotEqual) Infer(in []ValueInfo) ([]ValueInfo, error) {
	return inferComparison(o.Broadcast, in)
}
func (o *Less) Infer(in []ValueInfo) ([]ValueInfo, error) { return inferComparison(o.Broadcast, in) }
func (o *LessEqual) Infer(in []ValueInfo) ([]ValueInfo, error) {
	return inferComparison(o.Broadcast, in)
}
func (o *Greater) Infer(in []ValueInfo) ([]ValueInfo, error) { return inferComparison(o.Broadcast, in) }
func (o *GreaterEqual) Infer(in []ValueInfo) ([]ValueInfo, error) {
	return inferComparison(o.Broadcast, in)
}
func (o *LogicalAnd) Infer(in []ValueInfo) ([]ValueInfo, error) { return inferLogical(o.Broadcast, in) }
func (o *LogicalOr) Infer(in []ValueInfo) ([]ValueInfo, error)  { return inferLogical(o.Broadcast, in) }
func (o *LogicalXor) Infer(in []ValueInfo) ([]ValueInfo, error) { return inferLogical(o.Broadcast, in) }

func (o *Add) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalArithmetic(o.Broadcast, in, out, addArith)
}
func (o *Subtract) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalArithmetic(o.Broadcast, in, out, subtractArith)
}
func (o *Multiply) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalArithmetic(o.Broadcast, in, out, multiplyArith)
}
func (o *Minimum) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalArithmetic(o.Broadcast, in, out, minimumArith)
}
func (o *Maximum) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalArithmetic(o.Broadcast, in, out, maximumArith)
}
func (o *SquaredDifference) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalArithmetic(o.Broadcast, in, out, squaredDifferenceArith)
}
func (o *Power) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalArithmetic(o.Broadcast, in, out, powerArith)
}
func (o *FloorMod) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalArithmetic(o.Broadcast, in, out, floorModArith)
}
func (o *Mod) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalArithmetic(o.Broadcast, in, out, modArith)
}
func (o *Equal) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalCompare(o.Broadcast, in, out, equalCompare)
}
func (o *NotEqual) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalCompare(o.Broadcast, in, out, notEqualCompare)
}
func (o *Less) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalCompare(o.Broadcast, in, out, lessCompare)
}
func (o *LessEqual) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalCompare(o.Broadcast, in, out, lessEqualCompare)
}
func (o *Greater) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalCompare(o.Broadcast, in, out, greaterCompare)
}
func (o *GreaterEqual) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalCompare(o.Broadcast, in, out, greaterEqualCompare)
}
func (o *LogicalAnd) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalLogical(o.Broadcast, in, out, func(a, b bool) bool { return a && b })
}
func (o *LogicalOr) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalLogical(o.Broadcast, in, out, func(a, b bool) bool { return a || b })
}
func (o *LogicalXor) evaluate(in, out []*ir.Tensor, _ Options) error {
	return evalLogical(o.Broadcast, in, out, func(a, b bool) bool { return a != b })
}
