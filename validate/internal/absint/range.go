package absint

import (
	"math"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rule of Range.

// rangeOp: the length of Range with a constant step, and its elements
// start + step*i.
func (a *Analysis) rangeOp(l *ir.Layer, ins []*Value, t ir.ElementType) *Value {
	if len(ins) < 3 || !ins[0].Int || !ins[1].Int || !ins[2].Int || !isInt(t) {
		return nil
	}
	start, stop := a.All(ins[0]), a.All(ins[1])
	if start.Equal(stop) && !ins[0].DeclaredLayout && !ins[1].DeclaredLayout {
		// Empty whatever the step, where the Range runs (a step of 0
		// fails): a Gather of it then reads out of range (seed 48). Its
		// elements, which do not exist, are left any value rather than
		// none, so that what reads them proves nothing of the
		// contradiction.
		return &Value{Type: t, Rank: 1, Dims: []sym.Expr{sym.Const(0)}, Int: true, all: a.fresh(l, typeRange(t), "an element of an empty Range")}
	}
	k, ok := a.All(ins[2]).IsConst()
	if !ok {
		return a.rangeBetween(l, start, stop, t)
	}
	if k == 0 || k == math.MinInt64 {
		return nil
	}
	var n sym.Expr
	if k > 0 {
		n = a.B.Max(sym.Const(0), a.B.FloorDivK(a.B.Add(a.B.Sub(stop, start), sym.Const(k-1)), k))
	} else {
		n = a.B.Max(sym.Const(0), a.B.FloorDivK(a.B.Add(a.B.Sub(start, stop), sym.Const(-k-1)), -k))
	}
	// The index is below the length: bounded so, start + step*i stays
	// between start and stop, where it would otherwise reach past the
	// type and wrap (an i32 Range's elements were any i32).
	index := func(p *sym.Prover) sym.Range {
		hi := p.Range(n).Hi
		if !hi.IsFinite() || hi.V > MaxDim {
			return anyDim
		}
		return sym.R(0, max(hi.V-1, 0))
	}
	i := a.B.Var(a.newSym("a Range index of "+describe(l), true, index(a.Prover(false)), index(a.Prover(true)), Origin{Kind: Derived, Layer: l, Index: -1}))
	// An element is also between start and stop (start <= e <= stop - 1
	// for a step above 0, stop + 1 <= e <= start below), which the
	// index's range alone does not say: clamped there, every element is
	// itself, and a proof sees that Range(start, 1, -1) is 2 or more
	// (seed 2473 of the differential).
	e := a.B.Add(start, a.B.Scale(i, k))
	if k > 0 {
		e = a.B.Max(start, a.B.Min(e, a.B.Add(stop, sym.Const(-1))))
	} else {
		e = a.B.Min(start, a.B.Max(e, a.B.Add(stop, sym.Const(1))))
	}
	return &Value{Type: t, Rank: 1, Dims: []sym.Expr{n}, Int: true, all: a.wrap(e, t)}
}

// rangeBetween is a Range of a step that is not a constant: its length
// unknown (the dims inference gives), each element between start and
// stop, whichever the step's sign (start <= e < stop for a step above 0,
// stop < e <= start below), and so within the type, where it exists.
func (a *Analysis) rangeBetween(l *ir.Layer, start, stop sym.Expr, t ir.ElementType) *Value {
	b := hullBounds(a.boundsOf(start), a.boundsOf(stop))
	e := a.freshIn(l, b.declared, b.any, "an element of a Range of a step irdiv does not know, between its start and stop")
	return &Value{Type: t, Rank: -1, Int: true, all: e}
}

// rangeRequires records that a Range's step is not 0 where that stops
// the model: ONNX Runtime refuses it ("delta in Range operator can not be
// zero"), and so does OpenVINO's Range-1; OpenVINO's Range-4 makes no
// elements of it (its length, ceil(span / 0) held in 32 bits, is 0), and
// its CPU plugin's integer kernel divides by it, so an IR's Range-4 is
// not said to stop there. The walk calls it for every Range, folded,
// traced or not.
func (a *Analysis) rangeRequires(l *ir.Layer, ins []*Value, r *ops.Range) {
	if len(ins) < 3 || ins[2] == nil || !ins[2].Int || !a.opts.ONNX && r.Version != 1 {
		return
	}
	a.requireNonZero(l, ins[2], a.All(ins[2]), "takes a step that is not 0")
}
