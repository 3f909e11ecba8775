package sym

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestExactByRemainder: x - x % f (truncated remainder) is recognised as a
// multiple of f, wrapped into the type's range or not, and nothing else
// is: the floor remainder, another divisor, x + x % f. The claim is
// checked by evaluating the expression on random values, edges included.
func TestExactByRemainder(t *testing.T) {
	b := NewBuilder()
	xs, fs, gs := b.NewSym("x", true), b.NewSym("f", true), b.NewSym("g", true)
	i32 := R(math.MinInt32, math.MaxInt32)
	p := NewProver(b, env{xs: i32, fs: i32, gs: i32})
	x, f, g := b.Var(xs), b.Var(fs), b.Var(gs)
	trunc := b.Sub(x, b.Mod(x, f, false))
	for _, c := range []struct {
		name string
		e, d Expr
		want bool
	}{
		{"x - x % f", trunc, f, true},
		{"wrap(x - x % f)", b.Wrap(trunc, i32), f, true},
		{"x - floormod(x, f)", b.Sub(x, b.Mod(x, f, true)), f, false},
		{"x - x % f over g", trunc, g, false},
		{"x + x % f", b.Add(x, b.Mod(x, f, false)), f, false},
		{"x - x % f - 1", b.Add(trunc, Const(-1)), f, false},
		{"x", x, f, false},
		{"wrap(x - x % 4)", b.Wrap(b.Sub(x, b.Mod(x, Const(4), false)), i32), Const(4), true},
		{"wrap(x - x % 4) over 3", b.Wrap(b.Sub(x, b.Mod(x, Const(4), false)), i32), Const(3), false},
		{"wrap(2x) over 2", b.Wrap(b.Add(x, x), i32), Const(2), false},
	} {
		if got := p.ExactByRemainder(c.e, c.d); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// A wrap whose argument can leave its range is not the identity.
	wide := b.Add(x, x) // 2x leaves i32
	if p.ExactByRemainder(b.Wrap(b.Sub(wide, b.Mod(wide, f, false)), i32), f) {
		t.Error("a wrap of (2x) - (2x) % f was taken as exact")
	}
	r := rand.New(rand.NewPCG(1, 2))
	edges := []int32{math.MinInt32, math.MinInt32 + 1, -7, -1, 1, 2, 7, math.MaxInt32}
	for i := range 100000 {
		xv, fv := r.Int32(), r.Int32N(64)-32
		if i < len(edges)*len(edges) {
			xv, fv = edges[i/len(edges)], edges[i%len(edges)]
		}
		if fv == 0 || xv == math.MinInt32 && fv == -1 {
			continue
		}
		val := func(s Sym) int64 {
			if s == xs {
				return int64(xv)
			}
			return int64(fv)
		}
		e, ok := b.Eval(b.Wrap(trunc, i32), val)
		if !ok || e%int64(fv) != 0 || e != int64(xv-xv%fv) {
			t.Fatalf("x = %d, f = %d: x - x %% f evaluates to %d (%v), not a multiple of f", xv, fv, e, ok)
		}
	}
}
