package absint

import (
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rules of Broadcast and Tile: new dims from constant or symbolic
// inputs.

func (a *Analysis) broadcast(l *ir.Layer, ins []*Value, o *ops.Broadcast, t ir.ElementType) *Value {
	x, target := ins[0], ins[1]
	for _, e := range target.Elems {
		// Where a negative dim stops the model, broadcastRequires
		// said so; this narrows the others (an IR's [0, -4]), and need
		// not stop the model.
		a.require(l, target, e, sym.Range{Lo: sym.Finite(0), Hi: sym.PosInf}, "makes a tensor of these dims, none negative", false)
	}
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
	v := a.moved(x, t, dims)
	if v.Int && x.atMostOneElem() && !x.DeclaredLayout {
		// Every element is x's one element (none: the output is empty).
		v.all, v.Uniform = a.All(x), true
	}
	return v
}

// broadcastRequires records that a dim of a Broadcast's target (an
// ONNX Expand or ConstantOfShape) is not negative where that stops the
// model. ONNX Runtime 1.30 refuses every negative dim of their output
// ([0, -4] and [-2, -2] too: its shape's size is -1 then), and Expand's
// output has each negative dim of its target (broadcast with an input
// dim of 1; any other fails). OpenVINO refuses a negative target dim in
// its shape inference, but for an IR only where every other dim of the
// output is 1 or more, so that their product is negative, is it said to
// stop the model: the target's other dims, and the input's where the
// mode broadcasts both ways. The walk calls it for every Broadcast,
// folded, traced or not.
func (a *Analysis) broadcastRequires(l *ir.Layer, ins []*Value, o *ops.Broadcast) {
	if len(ins) < 2 || !ins[1].Int || ins[1].Elems == nil {
		return
	}
	x, target := ins[0], ins[1]
	why := "makes a tensor of these dims, none negative"
	if a.opts.ONNX {
		for _, e := range target.Elems {
			a.require(l, target, e, sym.Range{Lo: sym.Finite(0), Hi: sym.PosInf}, why+", as ONNX Runtime requires", true)
		}
		return
	}
	positive := func(e sym.Expr) bool { return a.decide.Range(e).Lo.AtLeast(1) }
	switch o.Mode {
	case ops.BroadcastNumpy:
	case ops.BroadcastBidirectional:
		if x.Rank < 0 || slices.ContainsFunc(x.Dims, func(d sym.Expr) bool { return !positive(d) }) {
			return
		}
	default:
		return
	}
	for i, e := range target.Elems {
		others := slices.Delete(slices.Clone(target.Elems), i, i+1)
		if !slices.ContainsFunc(others, func(d sym.Expr) bool { return !positive(d) }) {
			a.require(l, target, e, sym.Range{Lo: sym.Finite(0), Hi: sym.PosInf}, why+" (the others are 1 or more, so that their product is negative)", true)
		}
	}
}

func (a *Analysis) tile(l *ir.Layer, ins []*Value, t ir.ElementType) *Value {
	x := ins[0]
	if a.opts.ONNX {
		for _, e := range ins[1].Elems {
			a.require(l, ins[1], e, sym.Range{Lo: sym.Finite(0), Hi: sym.PosInf}, "repeats its input a number of times that ONNX requires not to be negative", false)
		}
	}
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
