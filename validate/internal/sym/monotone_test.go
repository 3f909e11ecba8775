package sym

import (
	"math/rand/v2"
	"testing"
)

// TestMonotoneIsSound builds random expressions of one symbol and checks
// that where Monotone reports a direction, the expression's values over
// the symbol's range follow it (an analysis narrows input dims by
// bisection on what Monotone reports).
func TestMonotoneIsSound(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	decided := 0
	for round := range 20000 {
		b := NewBuilder()
		s := b.NewSym("a", true)
		lo := int64(r.IntN(40) - 20)
		ranges := env{s: R(lo, lo+int64(r.IntN(30)))}
		e := randomExpr(r, b, []Sym{s}, 4)
		dir, ok := NewProver(b, ranges).Monotone(e, s)
		if !ok {
			continue
		}
		decided++
		prev, have := int64(0), false
		for v := ranges[s].Lo.V; v <= ranges[s].Hi.V; v++ {
			x, ok := b.Eval(e, func(Sym) int64 { return v })
			if !ok {
				have = false
				continue
			}
			if have && (dir > 0 && x < prev || dir < 0 && x > prev || dir == 0 && x != prev) {
				t.Fatalf("round %d: %s reported %+d in a on %s, but is %d at a = %d after %d", round, b.String(e), dir, ranges[s], x, v, prev)
			}
			prev, have = x, true
		}
	}
	if decided < 2000 {
		t.Errorf("Monotone decided %d expressions of 20000: the test checks little", decided)
	}
}
