package sym

// ExactByRemainder reports whether e is provably a multiple of f, so that
// e / f is exact wherever f is not 0 and floor and truncation give the
// same quotient: a multiple of a constant f, or x - x % f with % the
// remainder of truncation (the sign of x: OpenVINO's Mod, ONNX's Mod with
// fmod = 1), which is how irdiv fix writes a division that both readings
// of Div compute alike. A wrap of such an e into its type's range counts
// where it is provably the identity.
//
// x - x % f never overflows: x % f has the sign of x and is no larger
// than it, so a wrap around it is the identity as long as x itself lies
// in the wrap's range.
func (p *Prover) ExactByRemainder(e, f Expr) bool {
	var wrap *Range
	if inner, r, ok := p.b.Unwrap(e); ok {
		if p.Range(inner).Within(r) {
			e = inner
		} else {
			e, wrap = inner, &r
		}
	}
	if c, ok := f.IsConst(); ok && wrap == nil && multipleOf(e, c, maxChoiceDepth) {
		return true
	}
	for _, t := range e.terms {
		a := t.a
		if t.k != -1 || a.kind != kMod || a.floors() || len(a.args) != 2 || !a.args[1].Equal(f) {
			continue
		}
		x := a.args[0]
		if !p.b.Add(e, p.b.of(a)).Equal(x) {
			continue
		}
		if wrap == nil || p.Range(x).Within(*wrap) {
			return true
		}
	}
	return false
}

// maxChoiceDepth bounds how deep multipleOf looks into choices.
const maxChoiceDepth = 8

// multipleOf reports whether e is a multiple of k at every value of its
// symbols: each term's coefficient is, or its atom is a choice among
// values that all are (Where(c, 6, 2) over -2; a Min, Max or Select
// alike), and so is the constant.
func multipleOf(e Expr, k int64, depth int) bool {
	if k == 0 || e.c%k != 0 {
		return false
	}
	for _, t := range e.terms {
		if t.k%k == 0 {
			continue
		}
		a := t.a
		var choices []Expr
		switch a.kind {
		case kMin, kMax, kSelect:
			choices = a.args
		case kWhere:
			choices = a.args[1:]
		}
		if len(choices) == 0 || depth == 0 {
			return false
		}
		for _, x := range choices {
			if !multipleOf(x, k, depth-1) {
				return false
			}
		}
	}
	return true
}
