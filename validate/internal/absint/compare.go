package absint

import (
	"strings"

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
	if pick, ok := a.minOrMax(c); ok {
		return one(a.binary(c.l, c.ins[1], c.ins[2], broadcastOf(c.op), c.t(), pick))
	}
	return one(a.selectOp(c.l, c.ins, broadcastOf(c.op), c.t()))
}

// minOrMax recognises where(p > q, p, q), a maximum, and where(p < q, p,
// q), a minimum (and their swaps, and >=, <=): the condition compares the
// two values the Select picks from, element by element where all three
// broadcast alike. A Select of its own keeps no relation between the
// condition and the values it picks: where(y > len(y), y, len(y)) / 5
// was any int64 over 5, and max(y, len(y)) is at least 0 (seed 491).
func (a *Analysis) minOrMax(c *call) (func(x, y sym.Expr) sym.Expr, bool) {
	srcs := a.Sources[c.l]
	if len(srcs) != 3 || len(c.ins) != 3 || !c.ins[1].Int || !c.ins[2].Int || srcs[0].Layer == nil {
		return nil, false
	}
	cmp := srcs[0].Layer
	operands := a.Sources[cmp]
	if len(operands) != 2 || !sameBroadcast(broadcastOf(c.op), broadcastOf(a.Ops[cmp])) {
		return nil, false
	}
	var greater bool
	switch a.Ops[cmp].(type) {
	case *ops.Greater, *ops.GreaterEqual:
		greater = true
	case *ops.Less, *ops.LessEqual:
	default:
		return nil, false
	}
	maximum := func(x, y sym.Expr) sym.Expr { return a.B.Max(x, y) }
	minimum := func(x, y sym.Expr) sym.Expr { return a.B.Min(x, y) }
	same := func(o ir.Output, i int) bool { return o == srcs[i] || sameElements(a.Values[o], c.ins[i]) }
	switch {
	case same(operands[0], 1) && same(operands[1], 2):
		if greater {
			return maximum, true
		}
		return minimum, true
	case same(operands[0], 2) && same(operands[1], 1):
		if greater {
			return minimum, true
		}
		return maximum, true
	}
	return nil, false
}

// sameElements tells whether two values hold the same elements at the
// same positions: followed one by one (Elems), equal, in equal dims (the
// shape [L] of y and its Gather at [0]).
func sameElements(u, v *Value) bool {
	if u == nil || v == nil || !u.Int || !v.Int || u.Elems == nil || len(u.Elems) != len(v.Elems) || !sameDims(u.Dims, v.Dims) || u.Rank != v.Rank || u.Rank < 0 {
		return false
	}
	for i := range u.Elems {
		if !u.Elems[i].Equal(v.Elems[i]) {
			return false
		}
	}
	return true
}

// sameBroadcast tells whether two ops broadcast alike: both as NumPy
// does, or both not at all.
func sameBroadcast(x, y shapeinfer.Broadcast) bool {
	return x.Mode == y.Mode && (x.Mode == shapeinfer.Numpy || x.Mode == shapeinfer.None)
}

func selectF(_ *Analysis, c *call) *FloatRange {
	return unionF(floatIn(c, 1), floatIn(c, 2))
}

// compare is a comparison's boolean where the ranges decide it for every
// input (a dim is never -1, never below 0), else unknown: a symbol that
// is 0 or 1, which is one of them at the declared shapes where their
// ranges decide it there (len(y) < 6 of y: i64[2] holds at its declared
// shape only; seed 569 of the differential).
func (a *Analysis) compare(l *ir.Layer, op ops.Op, x, y sym.Expr) sym.Expr {
	d := a.B.Sub(x, y)
	r, known := decideComparison(op, a.decide.Range(d))
	switch {
	case !known:
		declared := sym.R(0, 1)
		if a.declared == nil {
			a.declared = sym.NewProver(a.B, &a.Declared)
		}
		if r, known := decideComparison(op, a.declared.Range(d)); known {
			declared = sym.R(0, 0)
			if r {
				declared = sym.R(1, 1)
			}
		}
		c := a.B.Var(a.newSym("a comparison of "+describe(l), true, declared, sym.R(0, 1), Origin{Kind: Derived, Layer: l, Index: -1}))
		if bounds, ok := differenceBounds(op); ok {
			if a.conditions == nil {
				a.conditions = make(map[sym.Sym]condition)
			}
			a.conditions[a.B.Syms(c)[0]] = condition{d: d, holds: bounds[0], fails: bounds[1]}
		}
		return c
	case r:
		return sym.Const(1)
	}
	return sym.Const(0)
}

// decideComparison is a comparison's boolean where x - y lies in d, and
// whether d decides it.
func decideComparison(op ops.Op, d sym.Range) (r, known bool) {
	less, greater := d.Hi.AtMost(-1), d.Lo.AtLeast(1)
	equal := d.Lo.AtLeast(0) && d.Hi.AtMost(0)
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
	return r, known
}

// A condition is what a comparison irdiv could not decide says where it
// holds and where it fails: x - y (d) within holds, or within fails.
type condition struct {
	d            sym.Expr
	holds, fails sym.Range
}

// differenceBounds gives, for a comparison of x and y, the range of x - y
// where it holds and where it fails (NotEqual says nothing where it
// holds).
func differenceBounds(op ops.Op) ([2]sym.Range, bool) {
	below, atMost, atLeast, above := sym.Range{Lo: sym.NegInf, Hi: sym.Finite(-1)}, sym.Range{Lo: sym.NegInf, Hi: sym.Finite(0)},
		sym.Range{Lo: sym.Finite(0), Hi: sym.PosInf}, sym.Range{Lo: sym.Finite(1), Hi: sym.PosInf}
	any, zero := sym.Range{Lo: sym.NegInf, Hi: sym.PosInf}, sym.R(0, 0)
	switch op.(type) {
	case *ops.Less:
		return [2]sym.Range{below, atLeast}, true
	case *ops.LessEqual:
		return [2]sym.Range{atMost, above}, true
	case *ops.Greater:
		return [2]sym.Range{above, atMost}, true
	case *ops.GreaterEqual:
		return [2]sym.Range{atLeast, below}, true
	case *ops.Equal:
		return [2]sym.Range{zero, any}, true
	case *ops.NotEqual:
		return [2]sym.Range{any, zero}, true
	}
	return [2]sym.Range{}, false
}

// assume is e where the comparison that made c holds (or fails): where
// x - y is one atom A (coefficient +-1) and a constant, A clamped to what
// the comparison leaves it. where(x > 0, -x, x) is then never positive,
// and (x < 0 ? x + 8 : x) / 8 has a dividend never negative. e itself
// where c is no such comparison.
func (a *Analysis) assume(e, c sym.Expr, holds bool) sym.Expr {
	cond, ok := a.conditionOf(c)
	if !ok {
		return e
	}
	r := cond.holds
	if !holds {
		r = cond.fails
	}
	atom, k, c0, ok := a.B.OneAtom(cond.d)
	if !ok || k != 1 && k != -1 {
		return e
	}
	// k*A + c0 in [lo, hi]: A in [lo - c0, hi - c0] (k = 1), or
	// [c0 - hi, c0 - lo] (k = -1). An end that overflows bounds nothing.
	var ends [2]sym.Bound
	for i, pair := range [2][2]sym.Bound{{r.Lo, r.Hi}, {r.Hi, r.Lo}} {
		b := pair[0]
		if k == -1 {
			b = pair[1]
		}
		ends[i] = sym.Bound{Inf: 1}
		if !b.IsFinite() {
			continue
		}
		x, y := b.V, c0
		if k == -1 {
			x, y = c0, b.V
		}
		if d := x - y; (y >= 0) == (d <= x) {
			ends[i] = sym.Finite(d)
		}
	}
	clamped := atom
	if ends[0].IsFinite() {
		clamped = a.B.Max(clamped, sym.Const(ends[0].V))
	}
	if ends[1].IsFinite() {
		clamped = a.B.Min(clamped, sym.Const(ends[1].V))
	}
	if clamped.Equal(atom) {
		return e
	}
	return a.B.Replace(e, atom, clamped)
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
	var c sym.Expr
	known := true
	switch {
	case cond.Int && cond.Elems != nil && len(cond.Elems) == 1:
		c = cond.Elems[0]
	case cond.Int && cond.Elems == nil && x.Elems == nil && y.Elems == nil:
		// Three tensors followed as one expression each, at the same
		// positions: the condition's is that of the branches' (as
		// Subtract(x, x) is 0 there).
		c = cond.all
	default:
		known = false
	}
	if known {
		pick = func(p, q sym.Expr) sym.Expr { return a.B.Where(c, a.assume(p, c, true), a.assume(q, c, false)) }
	}
	cs, ok := constInts(cond)
	if k, one := cond.all.IsConst(); !ok && cond.Int && cond.Elems == nil && one {
		// Every element of the condition is one constant, however many
		// (Greater(0 * y, 6) of y: i32[L] is false at every one).
		cs, ok = []int64{k}, true
	}
	if ok && len(cs) > 0 {
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
			v.Elems[i] = a.B.Where(c, a.assume(x.Elems[i], c, true), a.assume(y.Elems[i], c, false))
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

// BranchCondition is, for an If l whose condition is one comparison irdiv
// could not decide, x - y of that comparison and the range it lies in
// where the then branch runs (then) or the else branch: a search for
// inputs under which a branch's Divide divides needs them.
func (a *Analysis) BranchCondition(l *ir.Layer, then bool) (sym.Expr, sym.Range, bool) {
	v := a.In(l, 0)
	var e sym.Expr
	switch {
	case !v.Int:
		return sym.Expr{}, sym.Range{}, false
	case v.Elems == nil:
		e = v.all
	case len(v.Elems) == 1:
		e = v.Elems[0]
	default:
		return sym.Expr{}, sym.Range{}, false
	}
	c, ok := a.conditionOf(e)
	if !ok {
		return sym.Expr{}, sym.Range{}, false
	}
	if then {
		return c.d, c.holds, true
	}
	return c.d, c.fails, true
}

// BranchOf is, for a layer inside a branch of an If of the model (at any
// depth within it: it runs only where that branch does), the condition
// under which the branch runs, as BranchCondition gives it; declaredOnly
// where the condition is computed from values laid out as at the declared
// shapes (Value.DeclaredLayout, DeclaredDims), which it describes there
// only.
func (a *Analysis) BranchOf(l *ir.Layer) (e sym.Expr, r sym.Range, declaredOnly, ok bool) {
	h, inBody := a.Holders[l]
	if !inBody || !strings.EqualFold(h.Type, "If") {
		return e, r, false, false
	}
	for _, x := range h.Extra {
		if x.Body != nil && x.Node != nil && holds(x.Body, l) {
			cond := a.In(h, 0)
			e, r, ok = a.BranchCondition(h, x.Node.Tag == "then_body")
			return e, r, cond.DeclaredLayout || cond.DeclaredDims, ok
		}
	}
	return e, r, false, false
}

// holds tells whether l is a layer of m, or of a body of m at any depth.
func holds(m *ir.Model, l *ir.Layer) bool {
	for _, inner := range m.Layers {
		if inner == l {
			return true
		}
		for _, x := range inner.Extra {
			if x.Body != nil && holds(x.Body, l) {
				return true
			}
		}
	}
	return false
}

// Comparison is, for the symbol of a comparison irdiv could not decide
// (compare), x - y of its operands and the ranges of it where the
// comparison holds and where it fails; ok is false for other symbols,
// and where x - y is made of other symbols than the inputs' dims and
// elements. A search evaluates the comparison at the inputs it chooses.
// A copy of the symbol, which stands for another element of the
// comparison's output, is taken as the one it copies: what the search
// evaluates is a guess, which it confirms by evaluating the model.
func (a *Analysis) Comparison(s sym.Sym) (d sym.Expr, holds, fails sym.Range, ok bool) {
	cond, ok := a.conditions[s]
	if !ok {
		cond, ok = a.conditions[a.B.Info(s).Of]
	}
	if !ok {
		return d, holds, fails, false
	}
	for _, t := range a.B.Syms(cond.d) {
		if int(t) >= len(a.Origins) || a.Origins[t].Input == nil {
			return d, holds, fails, false
		}
	}
	return cond.d, cond.holds, cond.fails, true
}

// conditionOf is what the comparison that made c says, where c is the
// boolean of a comparison irdiv could not decide (one symbol).
func (a *Analysis) conditionOf(c sym.Expr) (condition, bool) {
	syms := a.B.Syms(c)
	if len(syms) != 1 || !c.Equal(a.B.Var(syms[0])) {
		return condition{}, false
	}
	cond, ok := a.conditions[syms[0]]
	return cond, ok
}
