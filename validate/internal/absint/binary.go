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

// wrapExact is f(x, y) wrapped into t, where f is exact; where f's
// coefficients leave int64 (a dim times 2^40 + 3, twice), operands that
// have one value at every input (H / H, of H at least 1) are that value,
// and two of them give concrete's result, which wraps in int64 as t does
// (signed, or unsigned below 64 bits): the value itself, where the
// expression knew nothing.
func (a *Analysis) wrapExact(t ir.ElementType, x, y sym.Expr, f func(x, y sym.Expr) sym.Expr, concrete func(p, q int64) int64) sym.Expr {
	e := f(x, y)
	if !a.B.LeftInt64(e) || a.shape || !t.IsInteger() || t == ir.U64 {
		return a.wrap(e, t)
	}
	p, ok1 := a.point(x)
	q, ok2 := a.point(y)
	if ok1 && ok2 {
		return a.wrap(sym.Const(concrete(p, q)), t)
	}
	// Each operand is an element of t, so wrapped into t it is itself;
	// as one atom, its terms' coefficients are not multiplied out:
	// (d % 4) * (2^61 + 1) is d * (2^61 + 1) - floor(d / 4) * (2^63 +
	// 4) expanded, but at most 3 * (2^61 + 1) (seed 2873).
	r := typeRange(t)
	return a.wrap(f(a.B.Wrap(x, r), a.B.Wrap(y, r)), t)
}

// point is the one value e has at every input, if it has one.
func (a *Analysis) point(e sym.Expr) (int64, bool) {
	if c, ok := e.IsConst(); ok {
		return c, true
	}
	r := a.decide.Range(e)
	return r.Lo.V, r.Lo == r.Hi && r.Lo.IsFinite()
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

// subtract is the rule of Subtract: x - y in the output's type, or the
// floor division of PyTorch's fix-up where the pattern is exactly right
// (floorFixup).
func subtract(a *Analysis, c *call) []*Value {
	if v := a.floorFixup(c); v != nil {
		return one(v)
	}
	t := c.t()
	return one(a.binary(c.l, c.ins[0], c.ins[1], broadcastOf(c.op), t, func(x, y sym.Expr) sym.Expr { return a.wrap(a.B.Sub(x, y), t) }))
}

func subtractFloats(_ *Analysis, c *call) *FloatRange { return subF(floatIn(c, 0), floatIn(c, 1)) }

// floorFixup recognises the floor division PyTorch exports as a
// truncating Div and a fix-up (opset 9's x // k):
//
//	q = Div(x, k)                                   truncation
//	r = Sub(x, Mul(q, k))                           the remainder, sign of x
//	fix = And(Xor(Less(x, 0), Less(k, 0)), Not(Equal(r, 0)))
//	floordiv = Sub(q, Cast(fix))
//
// (or Less(r, 0) for Less(x, 0): r has x's sign where it is not 0)
//
// fix is 1 exactly where the operands have opposite signs and the
// division is not exact, where floor is truncation minus one: floordiv
// is floor(x / k) for every k but 0 (where Div fails) and -1 (where x /
// -1 can overflow). It gives floor(x / k) of the Div's operands, element
// by element as the Div pairs them, only where every part matches: the
// same x and k (through Converts that keep every value and Multiplies by
// a constant 1; k or a constant of k's one value), Xor's other operand
// Less(k, 0) or the constant k < 0 is (no Xor for a k >= 0: Xor with
// false folded), comparisons with constant 0, a
// Div that truncates (any Divide of a model from ONNX, whose values the
// analysis takes as ONNX's, else m_pythondiv false: after a flooring
// Divide the fix-up over-corrects), a divisor of known sign (>= 0, or
// <= -2), numpy broadcasting everywhere with constants of one element
// (each output element then pairs the Div's operands as the Div does),
// and the output's rank the Div's. Else nil: the generic rule.
func (a *Analysis) floorFixup(c *call) *Value {
	t := c.t()
	src := a.Sources[c.l]
	if !t.IsSigned() || !numpyLike(c.op) || len(src) != 2 {
		return nil
	}
	q := a.peel(src[0])
	div, ok := a.Ops[q.Layer].(*ops.Divide)
	if !ok || q.Index != 0 || a.floors(div) || div.Broadcast.Mode == shapeinfer.PDPD || len(a.Sources[q.Layer]) != 2 {
		return nil
	}
	X, K := a.In(q.Layer, 0), a.In(q.Layer, 1)
	if !X.Int || !K.Int || !X.Type.IsSigned() || X.Type != K.Type {
		return nil
	}
	x, k := a.peel(a.Sources[q.Layer][0]), a.peel(a.Sources[q.Layer][1])
	var kNeg bool
	switch kr := a.decide.Range(a.All(K)); {
	case kr.Lo.AtLeast(0):
	case kr.Hi.AtMost(-2):
		kNeg = true
	default:
		return nil
	}
	isK := func(o ir.Output) bool {
		if a.peel(o) == k {
			return true
		}
		ck, ok1 := oneValue(K)
		return ok1 && a.isConst(o, ck)
	}
	// fix = And(Xor(Less(x, 0), k < 0), Not(Equal(r, 0))).
	and := a.peel(src[1])
	if !isOp[*ops.LogicalAnd](a, and, 2) {
		return nil
	}
	as := a.Sources[and.Layer]
	// r = Sub(x, Mul(q, k)): the remainder of the truncation.
	isR := func(o ir.Output) bool {
		o = a.peel(o)
		if !isOp[*ops.Subtract](a, o, 2) {
			return false
		}
		rs := a.Sources[o.Layer]
		if a.peel(rs[0]) != x {
			return false
		}
		m := a.peel(rs[1])
		if !isOp[*ops.Multiply](a, m, 2) {
			return false
		}
		ms := a.Sources[m.Layer]
		return a.peel(ms[0]) == q && isK(ms[1]) || a.peel(ms[1]) == q && isK(ms[0])
	}
	// The sign tested is x's, or r's (the floor twins gen.py writes):
	// with r != 0 beside it, r < 0 is x < 0.
	isX := func(p ir.Output) bool { return a.peel(p) == x || isR(p) }
	xorOK := func(o ir.Output) bool {
		o = a.peel(o)
		if !kNeg && a.lessThanZero(o, isX) {
			return true // Xor(x < 0, false), folded
		}
		if !isOp[*ops.LogicalXor](a, o, 2) {
			return false
		}
		xs := a.Sources[o.Layer]
		return a.lessThanZero(xs[0], isX) && a.isKNeg(xs[1], kNeg, isK) || a.lessThanZero(xs[1], isX) && a.isKNeg(xs[0], kNeg, isK)
	}
	nonZeroR := func(o ir.Output) bool {
		o = a.peel(o)
		switch {
		case isOp[*ops.LogicalNot](a, o, 1):
			e := a.peel(a.Sources[o.Layer][0])
			return isOp[*ops.Equal](a, e, 2) && a.comparesWithZero(e, isR)
		case isOp[*ops.NotEqual](a, o, 2):
			return a.comparesWithZero(o, isR)
		}
		return false
	}
	if !(xorOK(as[0]) && nonZeroR(as[1]) || xorOK(as[1]) && nonZeroR(as[0])) {
		return nil
	}
	// Every leaf of the pattern is x, k or a constant of one element, and
	// numpy's broadcasting pairs a leaf's elements the same way whatever
	// the ops between: the output's shape is the Div's, the constants
	// aside, which add no dim but may add leading 1s; of the same rank, the
	// output pairs x and k as the Div does.
	dims, ok := a.broadcastDims(c.ins[0], c.ins[1], broadcastOf(c.op))
	w := a.binary(c.l, X, K, div.Broadcast, t, func(p, d sym.Expr) sym.Expr { return a.B.Div(p, d, true) })
	if !ok || !w.Int || w.Rank != len(dims) {
		return nil
	}
	return w
}

// isOp tells whether o is output 0 of a layer of op type T with n
// inputs and numpy's broadcasting (or none).
func isOp[T ops.Op](a *Analysis, o ir.Output, n int) bool {
	if o.Layer == nil || o.Index != 0 || len(a.Sources[o.Layer]) != n {
		return false
	}
	op, ok := a.Ops[o.Layer].(T)
	return ok && numpyLike(op)
}

// peel follows o back through the ops that keep every value: Converts
// to a type that holds every value of their input's (a boolean into an
// integer type as 0 and 1), Multiplies by a constant 1 of one element.
// Two outputs that peel to one output have the same values.
func (a *Analysis) peel(o ir.Output) ir.Output {
	for range 64 {
		if o.Layer == nil || o.Index != 0 {
			return o
		}
		src := a.Sources[o.Layer]
		switch op := a.Ops[o.Layer].(type) {
		case *ops.Convert:
			if len(src) != 1 || !keepsValues(a.In(o.Layer, 0).Type, op.DestinationType) {
				return o
			}
			o = src[0]
		case *ops.Multiply:
			switch {
			case len(src) != 2 || !numpyLike(op):
				return o
			case a.isConst(src[1], 1):
				o = src[0]
			case a.isConst(src[0], 1):
				o = src[1]
			default:
				return o
			}
		default:
			return o
		}
	}
	return o
}

// keepsValues tells whether converting from one type to another keeps
// every value: an integer type into one that holds all of its values, a
// boolean into an integer type.
func keepsValues(from, to ir.ElementType) bool {
	bits := func(t ir.ElementType) (int, bool, bool) {
		switch t {
		case ir.I8, ir.I16, ir.I32, ir.I64:
			return t.Bits(), true, true
		case ir.U8, ir.U16, ir.U32, ir.U64:
			return t.Bits(), false, true
		}
		return 0, false, false
	}
	tb, tSigned, tOK := bits(to)
	if from == to || from == ir.Boolean {
		return from == to || tOK
	}
	fb, fSigned, fOK := bits(from)
	switch {
	case !fOK || !tOK:
		return false
	case fSigned:
		return tSigned && tb >= fb
	case tSigned:
		return tb > fb
	}
	return tb >= fb
}

// oneValue is the one value of every element of a constant (computed or
// not): ok only where the value holds at every input shape.
func oneValue(v *Value) (int64, bool) {
	if v == nil || v.DeclaredLayout || v.DeclaredDims {
		return 0, false
	}
	cs, ok := constInts(v)
	if !ok || len(cs) == 0 {
		return 0, false
	}
	for _, c := range cs[1:] {
		if c != cs[0] {
			return 0, false
		}
	}
	return cs[0], true
}

// isConst tells whether o is a constant c of one element at every input
// shape: broadcast against anything, it changes no dim but the rank.
func (a *Analysis) isConst(o ir.Output, c int64) bool {
	v, ok := a.Values[o]
	if !ok || !constantDims(v) {
		return false
	}
	if n, ok := v.NumElems(); !ok || n != 1 {
		return false
	}
	got, ok := oneValue(v)
	return ok && got == c
}

// lessThanZero tells whether o is Less(p, 0) with is(p).
func (a *Analysis) lessThanZero(o ir.Output, is func(ir.Output) bool) bool {
	o = a.peel(o)
	if !isOp[*ops.Less](a, o, 2) {
		return false
	}
	s := a.Sources[o.Layer]
	return is(s[0]) && a.isConst(s[1], 0)
}

// comparesWithZero tells whether the comparison o compares some p with
// is(p) with 0, in either order.
func (a *Analysis) comparesWithZero(o ir.Output, is func(ir.Output) bool) bool {
	s := a.Sources[o.Layer]
	return is(s[0]) && a.isConst(s[1], 0) || is(s[1]) && a.isConst(s[0], 0)
}

// isKNeg tells whether o is k < 0: Less(k, 0), or the constant it is
// for a divisor of the sign known.
func (a *Analysis) isKNeg(o ir.Output, kNeg bool, isK func(ir.Output) bool) bool {
	want := int64(0)
	if kNeg {
		want = 1
	}
	return a.isConst(o, want) || a.lessThanZero(o, isK)
}

// numpyLike tells whether an op pairs elements by numpy's broadcasting
// (or needs equal shapes): not PDPD's.
func numpyLike(op ops.Op) bool { return broadcastOf(op).Mode != shapeinfer.PDPD }
