package absint

import (
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rules of comparisons, logic and Select: booleans decided where the
// ranges decide them, and choices between expressions.

// comparison is the rule of a comparison: a boolean for each pair of
// elements.
func comparison() rule {
	return rule{inputs: 2, values: func(a *Analysis, c *call) []*Value {
		return one(a.binary(c.l, c.ins[0], c.ins[1], broadcastOf(c.op), ir.Boolean, func(x, y sym.Expr) sym.Expr { return a.compare(c.l, c.op, x, y) }))
	}}
}

func logicalXor(a *Analysis, c *call) []*Value {
	return one(a.binary(c.l, c.ins[0], c.ins[1], broadcastOf(c.op), c.t(), func(x, y sym.Expr) sym.Expr { return a.fresh(c.l, sym.R(0, 1), "a logical xor") }))
}

func selectRule(a *Analysis, c *call) []*Value {
	return one(a.selectOp(c.l, c.ins, broadcastOf(c.op), c.t()))
}

func selectF(_ *Analysis, c *call) *FloatRange {
	return unionF(floatIn(c, 1), floatIn(c, 2))
}

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

// selectOp picks between then and else element-wise; a condition that
// is constant picks one of them (trace follows it element by element).
func (a *Analysis) selectOp(l *ir.Layer, ins []*Value, bc shapeinfer.Broadcast, t ir.ElementType) *Value {
	cond, x, y := ins[0], ins[1], ins[2]
	// Each element is picked by its own condition: where that is not
	// known element by element, a condition of its own (an element
	// symbol, which a copy of the element copies too), never the
	// arguments alone: Select(x, y) is one atom wherever it is made, and
	// where(x < 0, x, y) - where(y < 0, x, y) is not 0 (it is -3 at x = -3,
	// y = 0).
	pick := func(p, q sym.Expr) sym.Expr { return a.B.Where(a.fresh(l, sym.R(0, 1), "a condition"), p, q) }
	if cond.Int && cond.Elems != nil && len(cond.Elems) == 1 {
		pick = func(p, q sym.Expr) sym.Expr { return a.B.Where(cond.Elems[0], p, q) }
	}
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
			v.Elems[i] = a.B.Where(c, x.Elems[i], y.Elems[i])
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
