package sym

import "math/big"

// Wrapped is a wrap an expression depends on: the argument wrapped, and
// the range it wraps into (an integer type's).
type Wrapped struct {
	Arg Expr
	R   Range
}

// Wraps lists the wraps e depends on, nearest first: those among the
// atoms within maxConstAtoms of e, as Consts looks, at most maxWraps.
// A search looks there for the inputs where shape arithmetic leaves its
// type (a dim times 2^40 + 3 wraps at a dim of 2^23).
func (b *Builder) Wraps(e Expr) []Wrapped {
	var out []Wrapped
	seen := make(map[*Atom]bool)
	var queue []*Atom
	for _, t := range e.terms {
		queue = append(queue, t.a)
	}
	for len(queue) > 0 && len(seen) < maxConstAtoms && len(out) < maxWraps {
		a := queue[0]
		queue = queue[1:]
		if seen[a] {
			continue
		}
		seen[a] = true
		if a.kind == kWrap {
			out = append(out, Wrapped{a.args[0], a.r()})
		}
		for _, arg := range a.args {
			for _, t := range arg.terms {
				queue = append(queue, t.a)
			}
		}
	}
	return out
}

// maxWraps bounds the wraps Wraps lists.
const maxWraps = 8

// Leaves tells whether e, computed exactly (beyond int64 where its sums,
// products, minima and maxima leave it), lies outside r for the given
// values of its symbols; ok is false where e has no such value (see
// Eval) or the budget runs out.
func (ev *Evaluator) Leaves(e Expr, r Range, val func(Sym) int64, budget *int) (leaves, ok bool) {
	ev.budget = budget
	defer func() { ev.budget = nil }()
	ev.memo.next()
	ev.modCalls = 0
	x, ok := ev.evalExact(e, val)
	if !ok {
		return false, false
	}
	below := r.Lo.Inf > 0 || r.Lo.IsFinite() && x.Cmp(big.NewInt(r.Lo.V)) < 0
	above := r.Hi.Inf < 0 || r.Hi.IsFinite() && x.Cmp(big.NewInt(r.Hi.V)) > 0
	return below || above, true
}
