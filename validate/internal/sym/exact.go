package sym

// ExactByRemainder reports whether e is x - x % f, with % the remainder
// of truncation (the sign of x, OpenVINO's Mod and ONNX's Mod with fmod
// = 1), possibly wrapped into the range of its type: then e is a
// multiple of f, e / f is exact wherever f is not 0, and floor and
// truncation give the same quotient. This is how irdiv fix writes a
// truncating division that both readings of Div compute alike.
//
// The subtraction never overflows: x % f has the sign of x and is no
// larger than it. A wrap around it is therefore the identity, as long as
// x itself lies in the wrap's range, which the prover checks.
func (p *Prover) ExactByRemainder(e, f Expr) bool {
	if inner, r, ok := p.b.Unwrap(e); ok {
		e = inner
		return p.exactByRemainder(e, f, &r)
	}
	return p.exactByRemainder(e, f, nil)
}

func (p *Prover) exactByRemainder(e, f Expr, wrap *Range) bool {
	for _, t := range e.terms {
		a := t.a
		if t.k != -1 || a.kind != kMod || a.flag || len(a.args) != 2 || !a.args[1].Equal(f) {
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
