package values

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// foldBytes bounds the constants the analysis computes.
const foldBytes = 1 << 20

// fresh is a value in r that the analysis does not follow, one for each
// element: an element symbol, so that elements moved elsewhere get
// independent copies. l is the layer that made it: the op that stopped
// the analysis.
func (a *Analysis) fresh(l *ir.Layer, r sym.Range, what string) sym.Expr {
	name := what
	if l != nil {
		name = fmt.Sprintf("%s of %s", what, describe(l))
	}
	return a.B.Var(a.newSym(name, true, r, r, Origin{Kind: Derived, Layer: l, Index: -1}))
}

// transfer computes the values of l's outputs.
func (a *Analysis) transfer(l *ir.Layer) []*Value {
	infos := a.Infos[l]
	fallback := func() []*Value {
		out := make([]*Value, len(infos))
		for i, info := range infos {
			out[i] = a.opaque(l, i, info)
		}
		return out
	}
	op := a.Ops[l]
	switch o := op.(type) {
	case nil:
		return fallback()
	case *ops.Parameter:
		return []*Value{a.input(l, infos[0])}
	case *ops.Const:
		if o.Tensor == nil {
			return fallback()
		}
		return []*Value{a.constant(o.Tensor)}
	case *ops.Result:
		return nil
	}
	ins := make([]*Value, len(l.Inputs))
	for i := range ins {
		ins[i] = a.in(l, i)
	}
	if g, ok := op.(*ops.Gather); ok && len(ins) == 3 {
		a.checkGather(l, ins, g)
	}
	if out := a.fold(l, op, ins); out != nil {
		return out
	}
	if out := a.trace(op, ins, infos); out != nil {
		return out
	}
	out := a.rule(l, op, ins, infos)
	if out == nil {
		return fallback()
	}
	if len(out) == 1 && out[0].Type.IsFloat() && out[0].F == nil {
		out[0].F = a.floatRule(op, ins)
	}
	for i, v := range out {
		if i >= len(infos) || infos[i].Shape.DynamicRank {
			continue
		}
		// Where a rule gives no rank, the inference at the declared
		// shapes may: keep its dims as symbols.
		if v.Rank < 0 {
			o := a.opaque(l, i, infos[i])
			v.Rank, v.Dims = o.Rank, o.Dims
		}
		if static, ok := infos[i].Shape.ToStatic(); ok && len(static) == v.Rank {
			v.Static = static
			if n, err := ir.NumElements(static); v.Elems != nil && (err != nil || n != int64(len(v.Elems))) {
				// A layer that cannot run at the declared shapes (a
				// Reshape to another number of elements) keeps its
				// input's elements: they no longer fit its dims.
				v.all, v.Elems = a.All(v), nil
			}
		}
	}
	return out
}

// fold computes an op of constants, as OpenVINO's constant folding does.
func (a *Analysis) fold(l *ir.Layer, op ops.Op, ins []*Value) []*Value {
	if !ops.Evaluable(op) {
		return nil
	}
	tensors := make([]*ir.Tensor, len(ins))
	for i, v := range ins {
		if v.Tensor == nil {
			return nil
		}
		tensors[i] = v.Tensor
	}
	res, err := ops.Evaluate(op, tensors, ops.Options{MaxTensorBytes: foldBytes})
	if err != nil {
		if !errors.Is(err, ir.ErrTooLarge) && !errors.Is(err, ops.ErrUnsupportedOp) && !errors.Is(err, ops.ErrType) &&
			!errors.Is(err, ops.ErrDivideByZero) && !errors.Is(err, ops.ErrOverflow) {
			a.issue(l, EvaluateFails, "computing it from its constant inputs fails: %v", err)
		}
		return nil
	}
	out := make([]*Value, len(res))
	for i, t := range res {
		out[i] = a.constant(t)
	}
	return out
}

// dataInputs lists, for the ops that only move elements, which inputs are
// data (the others must be constants: indices, axes, shapes).
func dataInputs(op ops.Op, n int) []int {
	switch op.(type) {
	case *ops.Gather, *ops.Slice, *ops.StridedSlice, *ops.Reshape, *ops.Squeeze, *ops.Unsqueeze,
		*ops.Transpose, *ops.Tile, *ops.Broadcast, *ops.Split, *ops.VariadicSplit:
		return []int{0}
	case *ops.Concat:
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		return all
	case *ops.Select:
		return []int{1, 2}
	}
	return nil
}

// trace follows the elements of small tensors through ops that move
// them, by evaluating the op on tensors of element numbers: every output
// element then names the input element it is (0 for a zero filled in, as
// Gather does for an index out of range).
func (a *Analysis) trace(op ops.Op, ins []*Value, infos []ops.ValueInfo) []*Value {
	data := dataInputs(op, len(ins))
	if data == nil {
		return nil
	}
	tensors := make([]*ir.Tensor, len(ins))
	var sources []sym.Expr
	for i, v := range ins {
		if !slices.Contains(data, i) {
			t, ok := a.tensorOf(v)
			if !ok {
				return nil
			}
			tensors[i] = t
			continue
		}
		dims, ok := v.ConstDims()
		if !ok || !v.Int || v.Elems == nil {
			return nil
		}
		t, err := ir.NewTensor(ir.I64, dims)
		if err != nil {
			return nil
		}
		for j := range v.Elems {
			ir.View[int64](t)[j] = int64(len(sources) + j + 1)
		}
		sources = append(sources, v.Elems...)
		tensors[i] = t
	}
	res, err := ops.Evaluate(op, tensors, ops.Options{MaxTensorBytes: MaxElems * 8})
	if err != nil {
		return nil
	}
	var moved []*Value
	for _, i := range data {
		if i < len(ins) {
			moved = append(moved, ins[i])
		}
	}
	shape := shapeOperands(moved...)
	out := make([]*Value, len(res))
	for i, t := range res {
		v := &Value{Type: ir.I64, Rank: len(t.Shape), Int: true, Elems: make([]sym.Expr, t.Len()), Shape: shape, Static: t.Shape}
		if i < len(infos) {
			v.Type = infos[i].Type
		}
		for _, d := range t.Shape {
			v.Dims = append(v.Dims, sym.Const(d))
		}
		for j, k := range ir.View[int64](t) {
			if k == 0 {
				v.Elems[j] = sym.Const(0)
			} else {
				v.Elems[j] = sources[k-1]
			}
		}
		out[i] = v
	}
	return out
}

// tensorOf returns the tensor of a value whose elements are all known
// constants.
func (a *Analysis) tensorOf(v *Value) (*ir.Tensor, bool) {
	if v.Tensor != nil {
		return v.Tensor, true
	}
	dims, ok := v.ConstDims()
	if !ok || !v.Int || v.Elems == nil || !isInt(v.Type) {
		return nil, false
	}
	t, err := ir.NewTensor(v.Type, dims)
	if err != nil {
		return nil, false
	}
	for i, e := range v.Elems {
		c, ok := e.IsConst()
		if !ok {
			return nil, false
		}
		t.SetInt64(i, c)
	}
	return t, true
}

// constInts returns the elements of a value that are all constants.
func constInts(v *Value) ([]int64, bool) {
	if !v.Int {
		return nil, false
	}
	if v.Elems == nil {
		if n, ok := v.NumElems(); ok && n == 1 {
			if c, ok := v.all.IsConst(); ok {
				return []int64{c}, true
			}
		}
		return nil, false
	}
	out := make([]int64, len(v.Elems))
	for i, e := range v.Elems {
		c, ok := e.IsConst()
		if !ok {
			return nil, false
		}
		out[i] = c
	}
	return out, true
}

// rule computes an op's outputs from symbolic inputs.
func (a *Analysis) rule(l *ir.Layer, op ops.Op, ins []*Value, infos []ops.ValueInfo) []*Value {
	one := func(v *Value) []*Value {
		if v == nil {
			return nil
		}
		return []*Value{v}
	}
	out := func(i int) ops.ValueInfo {
		if i < len(infos) {
			return infos[i]
		}
		return ops.ValueInfo{Type: ir.Dynamic, Shape: shapeinfer.DynamicRankShape()}
	}
	t := out(0).Type
	if len(ins) == 0 {
		return nil
	}
	switch o := op.(type) {
	case *ops.Add:
		return one(a.binary(l, ins[0], ins[1], o.Broadcast, t, func(x, y sym.Expr) sym.Expr { return a.wrap(a.B.Add(x, y), t) }))
	case *ops.Subtract:
		return one(a.binary(l, ins[0], ins[1], o.Broadcast, t, func(x, y sym.Expr) sym.Expr { return a.wrap(a.B.Sub(x, y), t) }))
	case *ops.Multiply:
		return one(a.binary(l, ins[0], ins[1], o.Broadcast, t, func(x, y sym.Expr) sym.Expr { return a.wrap(a.B.Mul(x, y), t) }))
	case *ops.Divide:
		return one(a.binary(l, ins[0], ins[1], o.Broadcast, t, func(x, y sym.Expr) sym.Expr {
			q := a.B.Div(x, y, o.PythonDiv || !t.IsSigned())
			if k, ok := y.IsConst(); ok && k != 0 && k != -1 {
				// |x / k| <= |x| for |k| >= 1: the quotient fits the type
				// without a wrap atom, which deep chains of Divides feel.
				return q
			}
			return a.wrap(q, t)
		}))
	case *ops.FloorMod:
		return one(a.binary(l, ins[0], ins[1], o.Broadcast, t, func(x, y sym.Expr) sym.Expr { return a.B.Mod(x, y, true) }))
	case *ops.Mod:
		return one(a.binary(l, ins[0], ins[1], o.Broadcast, t, func(x, y sym.Expr) sym.Expr { return a.B.Mod(x, y, false) }))
	case *ops.Minimum:
		return one(a.binary(l, ins[0], ins[1], o.Broadcast, t, func(x, y sym.Expr) sym.Expr { return a.B.Min(x, y) }))
	case *ops.Maximum:
		return one(a.binary(l, ins[0], ins[1], o.Broadcast, t, func(x, y sym.Expr) sym.Expr { return a.B.Max(x, y) }))
	case *ops.SquaredDifference:
		return one(a.binary(l, ins[0], ins[1], o.Broadcast, t, func(x, y sym.Expr) sym.Expr {
			d := a.B.Sub(x, y)
			return a.wrap(a.B.Mul(d, d), t)
		}))
	case *ops.Power:
		return one(a.binary(l, ins[0], ins[1], o.Broadcast, t, func(x, y sym.Expr) sym.Expr { return a.fresh(l, typeRange(t), "a power") }))
	case *ops.LogicalAnd:
		return one(a.binary(l, ins[0], ins[1], o.Broadcast, t, func(x, y sym.Expr) sym.Expr { return a.B.Min(x, y) }))
	case *ops.LogicalOr:
		return one(a.binary(l, ins[0], ins[1], o.Broadcast, t, func(x, y sym.Expr) sym.Expr { return a.B.Max(x, y) }))
	case *ops.LogicalXor:
		return one(a.binary(l, ins[0], ins[1], o.Broadcast, t, func(x, y sym.Expr) sym.Expr { return a.fresh(l, sym.R(0, 1), "a logical xor") }))
	case *ops.Equal, *ops.NotEqual, *ops.Less, *ops.LessEqual, *ops.Greater, *ops.GreaterEqual:
		bc := broadcastOf(op)
		return one(a.binary(l, ins[0], ins[1], bc, ir.Boolean, func(x, y sym.Expr) sym.Expr { return a.compare(l, op, x, y) }))
	case *ops.Select:
		if len(ins) < 3 {
			return nil
		}
		return one(a.selectOp(l, ins, o.Broadcast, t))
	case *ops.Abs:
		return one(a.unary(ins[0], t, func(x sym.Expr) sym.Expr { return a.wrap(a.B.Abs(x), t) }))
	case *ops.Negative:
		return one(a.unary(ins[0], t, func(x sym.Expr) sym.Expr { return a.wrap(a.B.Neg(x), t) }))
	case *ops.Sign:
		return one(a.unary(ins[0], t, func(x sym.Expr) sym.Expr { return a.B.Min(a.B.Max(x, sym.Const(-1)), sym.Const(1)) }))
	case *ops.Floor, *ops.Ceiling, *ops.Round:
		return one(a.unary(ins[0], t, func(x sym.Expr) sym.Expr { return x }))
	case *ops.Relu:
		return one(a.unary(ins[0], t, func(x sym.Expr) sym.Expr { return a.B.Max(x, sym.Const(0)) }))
	case *ops.LogicalNot:
		return one(a.unary(ins[0], t, func(x sym.Expr) sym.Expr { return a.B.Sub(sym.Const(1), x) }))
	case *ops.Clamp:
		return one(a.clamp(ins[0], o, t))
	case *ops.Convert:
		return one(a.convert(l, ins[0], o.DestinationType))
	case *ops.ShapeOf:
		return one(a.shapeOf(ins[0], o.OutputType))
	case *ops.Gather:
		return one(a.gather(l, ins, o))
	case *ops.Concat:
		return one(a.concat(ins, o.Axis, t))
	case *ops.Reshape:
		return one(a.reshape(ins, o.SpecialZero, t))
	case *ops.Squeeze:
		return one(a.squeeze(ins, out(0), t))
	case *ops.Unsqueeze:
		return one(a.unsqueeze(ins, t))
	case *ops.Transpose:
		return one(a.transpose(ins, t))
	case *ops.Broadcast:
		return one(a.broadcast(ins, o, t))
	case *ops.Tile:
		return one(a.tile(ins, t))
	case *ops.Range:
		return one(a.rangeOp(l, ins, t))
	case *ops.Split:
		return a.split(ins, o.NumSplits, nil, infos)
	case *ops.VariadicSplit:
		lengths, ok := constInts(ins[2])
		if !ok {
			return nil
		}
		return a.split(ins, int64(len(lengths)), lengths, infos)
	case *ops.Slice:
		return one(a.slice(ins, t))
	case *ops.StridedSlice:
		return one(a.stridedSlice(ins, o, t))
	case *ops.Reduce:
		return one(a.reduce(l, ins, o, t))
	case *ops.MatMul:
		return one(a.matmul(ins, o, t))
	case *ops.Pad:
		return one(a.pad(ins, t))
	case *ops.Interpolate:
		return one(a.interpolate(ins, o, infos, t))
	}
	if s, ok := op.(ops.Spatial); ok {
		return a.spatial(l, s, ins, infos)
	}
	if sameShape(op) {
		v := &Value{Type: t, Rank: ins[0].Rank, Dims: ins[0].Dims}
		return []*Value{v}
	}
	return nil
}

// sameShape lists the float ops whose output has their first input's
// shape.
func sameShape(op ops.Op) bool {
	switch op.(type) {
	case *ops.Sqrt, *ops.Exp, *ops.Log, *ops.Sigmoid, *ops.Tanh, *ops.Elu, *ops.Gelu, *ops.HSwish, *ops.HSigmoid,
		*ops.Mish, *ops.SoftPlus, *ops.Swish, *ops.Softmax, *ops.BatchNormInference, *ops.FakeQuantize:
		return true
	}
	return false
}

func broadcastOf(op ops.Op) shapeinfer.Broadcast {
	switch o := op.(type) {
	case *ops.Equal:
		return o.Broadcast
	case *ops.NotEqual:
		return o.Broadcast
	case *ops.Less:
		return o.Broadcast
	case *ops.LessEqual:
		return o.Broadcast
	case *ops.Greater:
		return o.Broadcast
	case *ops.GreaterEqual:
		return o.Broadcast
	}
	return shapeinfer.Broadcast{Mode: shapeinfer.Numpy}
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

// compare is a comparison's boolean where the ranges decide it for every
// input (a dim is never -1, never below 0), else unknown.
func (a *Analysis) compare(l *ir.Layer, op ops.Op, x, y sym.Expr) sym.Expr {
	d := a.decide.Range(a.B.Sub(x, y)) // x - y
	less, greater := d.Hi.AtMost(-1), d.Lo.AtLeast(1)
	equal := d.Lo.AtLeast(0) && d.Hi.AtMost(0)
	var r, known bool
	switch op.(type) {
	case *ops.Equal:
		r, known = equal, equal || less || greater
	case *ops.NotEqual:
		r, known = !equal, equal || less || greater
	case *ops.Less:
		r, known = less, less || d.Lo.AtLeast(0)
	case *ops.LessEqual:
		r, known = d.Hi.AtMost(0), d.Hi.AtMost(0) || greater
	case *ops.Greater:
		r, known = greater, greater || d.Hi.AtMost(0)
	case *ops.GreaterEqual:
		r, known = d.Lo.AtLeast(0), d.Lo.AtLeast(0) || less
	}
	switch {
	case !known:
		return a.fresh(l, sym.R(0, 1), "a comparison")
	case r:
		return sym.Const(1)
	}
	return sym.Const(0)
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

func isOne(e sym.Expr) bool {
	c, ok := e.IsConst()
	return ok && c == 1
}

func sameDims(x []sym.Expr, y []sym.Expr) bool {
	return slices.EqualFunc(x, y, sym.Expr.Equal)
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

func (a *Analysis) unary(x *Value, t ir.ElementType, f func(sym.Expr) sym.Expr) *Value {
	a.shape = x.Shape && isInt(t)
	defer func() { a.shape = false }()
	v := &Value{Type: t, Rank: x.Rank, Dims: x.Dims, Static: x.Static, Shape: a.shape}
	if !isInt(t) || !x.Int {
		return v
	}
	v.Int = true
	if x.Elems != nil {
		v.Elems = make([]sym.Expr, len(x.Elems))
		for i, e := range x.Elems {
			v.Elems[i] = f(e)
		}
		return v
	}
	v.all = f(x.all)
	return v
}

// selectOp picks between then and else element-wise; a condition that
// is constant picks one of them (trace follows it element by element).
func (a *Analysis) selectOp(l *ir.Layer, ins []*Value, bc shapeinfer.Broadcast, t ir.ElementType) *Value {
	cond, x, y := ins[0], ins[1], ins[2]
	pick := func(p, q sym.Expr) sym.Expr { return a.B.Select(p, q) }
	if cs, ok := constInts(cond); ok && len(cs) > 0 {
		allTrue, allFalse := true, true
		for _, c := range cs {
			allTrue, allFalse = allTrue && c != 0, allFalse && c == 0
		}
		switch {
		case allTrue:
			pick = func(p, _ sym.Expr) sym.Expr { return p }
		case allFalse:
			pick = func(_, q sym.Expr) sym.Expr { return q }
		}
	}
	v := a.binary(l, x, y, bc, t, pick)
	// Element by element, a condition known there picks.
	if v.Elems != nil && cond.Int && cond.Elems != nil && len(cond.Elems) == len(v.Elems) && sameDims(cond.Dims, v.Dims) &&
		x.Elems != nil && y.Elems != nil && len(x.Elems) == len(v.Elems) && len(y.Elems) == len(v.Elems) {
		for i, c := range cond.Elems {
			if k, ok := c.IsConst(); ok {
				if k != 0 {
					v.Elems[i] = x.Elems[i]
				} else {
					v.Elems[i] = y.Elems[i]
				}
			}
		}
	}
	if dims, ok := a.broadcastDims(cond, &Value{Rank: v.Rank, Dims: v.Dims}, bc); ok && v.Rank >= 0 {
		if !sameDims(dims, v.Dims) {
			// The condition widens the output: its elements pair with
			// other elements of then and else.
			v.Dims, v.Rank = dims, len(dims)
			if v.Int {
				v.all, v.Elems = a.B.Copy(a.All(v)), nil
			}
		}
	} else {
		v.Rank, v.Dims = -1, nil
	}
	return v
}

// clamp bounds integers by ceil(min) and floor(max), saturated to the
// type, as OpenVINO's Clamp does.
func (a *Analysis) clamp(x *Value, c *ops.Clamp, t ir.ElementType) *Value {
	r := typeRange(t)
	lo := satFloat(math.Ceil(c.Min), r)
	hi := satFloat(math.Floor(c.Max), r)
	return a.unary(x, t, func(e sym.Expr) sym.Expr { return a.B.Min(a.B.Max(e, sym.Const(lo)), sym.Const(hi)) })
}

func satFloat(f float64, r sym.Range) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f <= float64(r.Lo.V):
		return r.Lo.V
	case f >= float64(r.Hi.V):
		return r.Hi.V
	}
	return int64(f)
}

// convert follows integers into another integer type (two's complement
// wrap, as OpenVINO's Convert and ONNX's Cast do) or boolean; a float
// converted to an integer is a value this analysis does not follow.
func (a *Analysis) convert(l *ir.Layer, x *Value, to ir.ElementType) *Value {
	v := &Value{Type: to, Rank: x.Rank, Dims: x.Dims, Static: x.Static}
	if !isInt(to) {
		return v
	}
	if !x.Int {
		v.Int = true
		r, defined := toInt(x.F, to)
		what := "a float converted to " + to.String()
		if r != typeRange(to) {
			what = "a float in " + r.String() + " converted to " + to.String()
		}
		if !defined && r != typeRange(to) {
			// The range holds where the conversion is defined: the
			// symbol says so, and proofs built on it name the layer.
			a.Assumed = append(a.Assumed, l)
		}
		v.all = a.fresh(l, r, what)
		if n, ok := v.NumElems(); ok && n <= MaxElems {
			v.Elems = make([]sym.Expr, n)
			for i := range v.Elems {
				v.Elems[i] = a.fresh(l, r, what)
			}
		}
		return v
	}
	f := func(e sym.Expr) sym.Expr {
		switch {
		case to == ir.Boolean:
			return a.B.Min(a.B.Abs(e), sym.Const(1))
		case to == x.Type:
			return e
		}
		// A narrowing conversion wraps, shape arithmetic included.
		return a.B.Wrap(e, typeRange(to))
	}
	return a.unary(x, to, f)
}

// shapeOf gives the dims as elements.
func (a *Analysis) shapeOf(x *Value, t ir.ElementType) *Value {
	if x.Rank < 0 {
		return nil
	}
	v := &Value{Type: t, Rank: 1, Dims: []sym.Expr{sym.Const(int64(x.Rank))}, Int: true, Elems: make([]sym.Expr, x.Rank), Shape: true}
	copy(v.Elems, x.Dims)
	return v
}
