package absint

import (
	"math"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rules of Broadcast, Tile, Range and Pad: new dims from constant
// or symbolic inputs.

func (a *Analysis) broadcast(ins []*Value, o *ops.Broadcast, t ir.ElementType) *Value {
	x, target := ins[0], ins[1]
	if o.Mode != ops.BroadcastNumpy && o.Mode != ops.BroadcastBidirectional || !target.Int || target.Elems == nil || x.Rank < 0 {
		return a.moved(x, t, nil)
	}
	r := max(len(target.Elems), x.Rank)
	if o.Mode == ops.BroadcastNumpy {
		r = len(target.Elems)
	}
	dims := make([]sym.Expr, r)
	for i := range r {
		ti, xi := i-(r-len(target.Elems)), i-(r-x.Rank)
		switch {
		case ti < 0:
			dims[i] = x.Dims[xi]
		case xi < 0 || o.Mode == ops.BroadcastNumpy:
			dims[i] = target.Elems[ti]
		case isOne(x.Dims[xi]):
			dims[i] = target.Elems[ti]
		case isOne(target.Elems[ti]) || x.Dims[xi].Equal(target.Elems[ti]):
			dims[i] = x.Dims[xi]
		default:
			dims[i] = a.B.Select(x.Dims[xi], target.Elems[ti])
		}
	}
	if sameDims(dims, x.Dims) {
		return a.kept(x, t, dims)
	}
	return a.moved(x, t, dims)
}

func (a *Analysis) tile(ins []*Value, t ir.ElementType) *Value {
	x := ins[0]
	reps, ok := constInts(ins[1])
	if !ok || x.Rank < 0 {
		return a.moved(x, t, nil)
	}
	r := max(len(reps), x.Rank)
	dims := make([]sym.Expr, r)
	for i := range r {
		d := sym.Const(1)
		if xi := i - (r - x.Rank); xi >= 0 {
			d = x.Dims[xi]
		}
		k := int64(1)
		if ri := i - (r - len(reps)); ri >= 0 {
			k = max(reps[ri], 0)
		}
		dims[i] = a.B.Scale(d, k)
	}
	return a.moved(x, t, dims)
}

// rangeOp: the length of Range with a constant step, and its elements
// start + step*i.
func (a *Analysis) rangeOp(l *ir.Layer, ins []*Value, t ir.ElementType) *Value {
	if len(ins) < 3 || !ins[0].Int || !ins[1].Int || !ins[2].Int || !isInt(t) {
		return nil
	}
	start, stop := a.All(ins[0]), a.All(ins[1])
	k, ok := a.All(ins[2]).IsConst()
	if !ok || k == 0 || k == math.MinInt64 {
		return nil
	}
	var n sym.Expr
	if k > 0 {
		n = a.B.Max(sym.Const(0), a.B.FloorDivK(a.B.Add(a.B.Sub(stop, start), sym.Const(k-1)), k))
	} else {
		n = a.B.Max(sym.Const(0), a.B.FloorDivK(a.B.Add(a.B.Sub(start, stop), sym.Const(-k-1)), -k))
	}
	i := a.B.Var(a.newSym("a Range index of "+describe(l), true, anyDim, anyDim, Origin{Kind: Derived, Layer: l, Index: -1}))
	return &Value{Type: t, Rank: 1, Dims: []sym.Expr{n}, Int: true, all: a.wrap(a.B.Add(start, a.B.Scale(i, k)), t)}
}

func (a *Analysis) pad(ins []*Value, t ir.ElementType) *Value {
	x := ins[0]
	if len(ins) < 3 || x.Rank < 0 || ins[1].Elems == nil || ins[2].Elems == nil || len(ins[1].Elems) != x.Rank || len(ins[2].Elems) != x.Rank {
		return nil
	}
	dims := make([]sym.Expr, x.Rank)
	for i, d := range x.Dims {
		dims[i] = a.B.Add(a.B.Add(d, ins[1].Elems[i]), ins[2].Elems[i])
	}
	v := a.moved(x, t, dims)
	if v.Int {
		fill := sym.Const(0)
		if len(ins) > 3 && ins[3].Int {
			fill = a.All(ins[3])
		}
		v.all = a.B.Select(v.all, fill)
	}
	return v
}
