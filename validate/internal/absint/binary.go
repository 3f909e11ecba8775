package absint

import (
	"math"
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rules of binary arithmetic: element-wise on the operands' elements
// (with numpy's broadcasting), in the output's type with its wrap (shape
// arithmetic aside, which never wraps).

// arith is the rule of an element-wise binary op computing f of each
// pair of elements, and fl of float ranges (nil: unknown).
func arith(f func(a *Analysis, t ir.ElementType, x, y sym.Expr) sym.Expr, fl func(x, y *FloatRange) *FloatRange) rule {
	r := rule{inputs: 2, values: func(a *Analysis, c *call) []*Value {
		t := c.t()
		return one(a.binary(c.l, c.ins[0], c.ins[1], broadcastOf(c.op), t, func(x, y sym.Expr) sym.Expr { return f(a, t, x, y) }))
	}}
	if fl != nil {
		r.floats = func(_ *Analysis, c *call) *FloatRange { return fl(floatIn(c, 0), floatIn(c, 1)) }
	}
	return r
}

func squaredDifference(a *Analysis, t ir.ElementType, x, y sym.Expr) sym.Expr {
	d := a.B.Sub(x, y)
	return a.wrap(a.B.Mul(d, d), t)
}

// power of integers is not followed: a fresh value of the type for each
// element.
func power(a *Analysis, c *call) []*Value {
	t := c.t()
	return one(a.binary(c.l, c.ins[0], c.ins[1], broadcastOf(c.op), t, func(x, y sym.Expr) sym.Expr { return a.fresh(c.l, typeRange(t), "a power") }))
}

// broadcastOf is the auto_broadcast of an element-wise op (numpy for
// the others).
func broadcastOf(op ops.Op) shapeinfer.Broadcast {
	if b, ok := op.(ops.Broadcaster); ok {
		return b.AutoBroadcast()
	}
	return shapeinfer.Broadcast{Mode: shapeinfer.Numpy}
}

// floatIn is the range of input i's elements (anything when unknown).
func floatIn(c *call, i int) *FloatRange {
	if i < len(c.ins) {
		return orAny(c.ins[i].F)
	}
	return anyFloat
}

func addF(x, y *FloatRange) *FloatRange {
	return span(x, y, func(p, q float64) float64 { return p + q })
}

func subF(x, y *FloatRange) *FloatRange {
	return span(x, y, func(p, q float64) float64 { return p - q })
}

func mulF(x, y *FloatRange) *FloatRange {
	return span(x, y, func(p, q float64) float64 { return p * q })
}

func minF(x, y *FloatRange) *FloatRange { return span(x, y, math.Min) }

func maxF(x, y *FloatRange) *FloatRange { return span(x, y, math.Max) }

// powerF follows x^-1 of a positive x (a reciprocal exported as Pow).
func powerF(_ *Analysis, c *call) *FloatRange {
	x, y := floatIn(c, 0), floatIn(c, 1)
	if y.Lo == -1 && y.Hi == -1 && !y.NaN && x.Lo > 0 {
		return &FloatRange{Lo: 1 / x.Hi, Hi: 1 / x.Lo, NaN: x.NaN}
	}
	return nil
}

// binary applies f element-wise: element by element where both operands
// are tracked and the output's dims are constants, else on the operands'
// summaries (copies of them where broadcasting pairs other elements).
func (a *Analysis) binary(l *ir.Layer, x, y *Value, bc shapeinfer.Broadcast, t ir.ElementType, f func(x, y sym.Expr) sym.Expr) *Value {
	shape := shapeOperands(x, y) && isInt(t)
	a.shape = shape
	defer func() { a.shape = false }()
	dims, ok := a.broadcastDims(x, y, bc)
	v := &Value{Type: t, Rank: -1, Shape: shape}
	if ok {
		v.Rank, v.Dims = len(dims), dims
		v.Static = staticBroadcast(x, y, len(dims))
	}
	if !isInt(t) || !x.Int || !y.Int {
		return v
	}
	v.Int = true
	if n, known := v.NumElems(); known && x.Elems != nil && y.Elems != nil && n <= MaxElems {
		outDims, _ := v.ConstDims()
		xDims, _ := x.ConstDims()
		yDims, _ := y.ConstDims()
		v.Elems = make([]sym.Expr, n)
		coord := make([]int64, len(outDims))
		for flat := range int(n) {
			rem := flat
			for i := len(outDims) - 1; i >= 0; i-- {
				coord[i] = int64(rem) % outDims[i]
				rem /= int(outDims[i])
			}
			xi := shapeinfer.BroadcastIndex(coord, xDims, len(outDims)-len(xDims))
			yi := shapeinfer.BroadcastIndex(coord, yDims, len(outDims)-len(yDims))
			v.Elems[flat] = f(x.Elems[xi], y.Elems[yi])
		}
		return v
	}
	xs, ys := a.All(x), a.All(y)
	if !ok || !sameDims(x.Dims, dims) {
		xs = a.B.Copy(xs)
	}
	if !ok || !sameDims(y.Dims, dims) {
		ys = a.B.Copy(ys)
	}
	v.all = f(xs, ys)
	return v
}

// broadcastDims are the dims of an element-wise op's output: numpy
// aligns on the right; a dim of 1 stretches; two dims neither known to be
// 1 are one of the two (equal, in a model that runs).
func (a *Analysis) broadcastDims(x, y *Value, bc shapeinfer.Broadcast) ([]sym.Expr, bool) {
	if x.Rank < 0 || y.Rank < 0 || bc.Mode == shapeinfer.PDPD {
		return nil, false
	}
	if bc.Mode == shapeinfer.None {
		if x.Rank != y.Rank {
			return nil, false
		}
	}
	r := max(x.Rank, y.Rank)
	out := make([]sym.Expr, r)
	for i := range r {
		var dx, dy sym.Expr
		hx, hy := i-(r-x.Rank) >= 0, i-(r-y.Rank) >= 0
		if hx {
			dx = x.Dims[i-(r-x.Rank)]
		}
		if hy {
			dy = y.Dims[i-(r-y.Rank)]
		}
		switch {
		case !hx:
			out[i] = dy
		case !hy:
			out[i] = dx
		case isOne(dx):
			out[i] = dy
		case isOne(dy) || dx.Equal(dy):
			out[i] = dx
		default:
			out[i] = a.B.Select(dx, dy)
		}
	}
	return out, true
}

// staticBroadcast is numpy's broadcast of two static shapes, or nil.
func staticBroadcast(x, y *Value, rank int) []int64 {
	xd, ok1 := x.ConstDims()
	yd, ok2 := y.ConstDims()
	if !ok1 || !ok2 || max(len(xd), len(yd)) != rank {
		return nil
	}
	out := make([]int64, rank)
	for i := range out {
		dx, dy := int64(1), int64(1)
		if j := i - (rank - len(xd)); j >= 0 {
			dx = xd[j]
		}
		if j := i - (rank - len(yd)); j >= 0 {
			dy = yd[j]
		}
		switch {
		case dx == 1:
			out[i] = dy
		case dy == 1 || dx == dy:
			out[i] = dx
		default:
			return nil
		}
	}
	return out
}

func isOne(e sym.Expr) bool {
	c, ok := e.IsConst()
	return ok && c == 1
}

func sameDims(x []sym.Expr, y []sym.Expr) bool {
	return slices.EqualFunc(x, y, sym.Expr.Equal)
}

// wrap keeps an integer result in its type, as two's complement does;
// shape arithmetic (a.shape) does not wrap.
func (a *Analysis) wrap(e sym.Expr, t ir.ElementType) sym.Expr {
	if !t.IsInteger() || a.shape {
		return e
	}
	return a.B.Wrap(e, typeRange(t))
}

// shapeOperands tells whether an op of these inputs computes shape
// arithmetic: some input is, and the others are too or constants that
// keep it a size. A constant beyond maxSizeFactor (a dim times 2^62, a
// dim plus 2^63-1) is not: such arithmetic leaves int64, and wraps.
func shapeOperands(vs ...*Value) bool {
	some := false
	for _, v := range vs {
		if v.Shape {
			some = true
			continue
		}
		cs, ok := constInts(v)
		if !ok {
			return false
		}
		for _, c := range cs {
			if c > maxSizeFactor || c < -maxSizeFactor {
				return false
			}
		}
	}
	return some
}

// maxSizeFactor is the largest constant that multiplies any dim (at most
// MaxDim) within int64.
const maxSizeFactor = math.MaxInt64 / MaxDim

// span is the range of f over the corners of two ranges, NaN where f gives
// one (inf - inf, 0 * inf, 0 / 0).
func span(x, y *FloatRange, f func(a, b float64) float64) *FloatRange {
	out := &FloatRange{Lo: math.Inf(1), Hi: math.Inf(-1), NaN: x.NaN || y.NaN}
	for _, p := range []float64{x.Lo, x.Hi} {
		for _, q := range []float64{y.Lo, y.Hi} {
			v := f(p, q)
			if math.IsNaN(v) {
				out.NaN = true
				continue
			}
			out.Lo, out.Hi = math.Min(out.Lo, v), math.Max(out.Hi, v)
		}
	}
	if out.Lo > out.Hi {
		out.Lo, out.Hi = math.Inf(-1), math.Inf(1)
	}
	return out
}
