package sym

// Monotone tells how e varies with its one symbol s under the prover's
// ranges: +1 where e never decreases as s grows, -1 where it never
// increases, 0 where e does not depend on s; ok is false where e depends
// on something else, or on s in a way this package does not show to be
// monotone (a product of two expressions, a division by an expression, a
// wrap that may not fit, a choice or an unknown). What it reports holds
// for every value of s in its range.
func (p *Prover) Monotone(e Expr, s Sym) (dir int, ok bool) {
	p.steps = stepBudget
	return p.monotone(e, s, 0)
}

// maxMonotoneDepth bounds the atoms nested in an expression Monotone
// looks into: the facts it serves are a few operations deep.
const maxMonotoneDepth = 64

func (p *Prover) monotone(e Expr, s Sym, depth int) (dir int, ok bool) {
	if depth > maxMonotoneDepth {
		return 0, false
	}
	for _, t := range e.terms {
		d, ok := p.atomMonotone(t.a, s, depth+1)
		if !ok {
			return 0, false
		}
		if t.k < 0 {
			d = -d
		}
		if dir, ok = agreeing(dir, d); !ok {
			return 0, false
		}
	}
	return dir, true
}

// agreeing combines the directions of two parts of a sum, or of the
// arguments of a minimum or maximum.
func agreeing(x, y int) (int, bool) {
	switch {
	case x == 0:
		return y, true
	case y == 0 || x == y:
		return x, true
	}
	return 0, false
}

func (p *Prover) atomMonotone(a *Atom, s Sym, depth int) (int, bool) {
	switch a.kind {
	case kSym:
		if a.symbol() == s {
			return 1, true
		}
		return 0, false
	case kFloorDiv, kTruncDiv:
		// The divisor is positive (FloorDivK and TruncDivK make it so);
		// rounding in either direction keeps the order.
		if a.divisor() <= 0 {
			return 0, false
		}
		return p.monotone(a.args[0], s, depth)
	case kMin, kMax:
		dir := 0
		for _, arg := range a.args {
			d, ok := p.monotone(arg, s, depth)
			if !ok {
				return 0, false
			}
			if dir, ok = agreeing(dir, d); !ok {
				return 0, false
			}
		}
		return dir, true
	case kWrap:
		// A wrap that its argument fits for every value is the argument.
		if !p.exprRange(a.args[0]).Within(a.r()) {
			return 0, false
		}
		return p.monotone(a.args[0], s, depth)
	}
	return 0, false
}
