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

// TestMultipleThroughChoices: a choice among multiples of k (Where, Min,
// Max, Select) is a multiple of k; one branch that is not makes it not.
// And on random expressions, whatever ExactByRemainder claims of a
// constant divisor holds at every value of the symbols.
func TestMultipleThroughChoices(t *testing.T) {
	b := NewBuilder()
	xs := b.NewSym("x", true)
	p := NewProver(b, env{xs: R(-9, 9)})
	x := b.Var(xs)
	cond := b.Add(x, Const(-3))
	for _, c := range []struct {
		name string
		e    Expr
		k    int64
		want bool
	}{
		{"where(x - 3, 6, 2) over -2", b.Where(cond, Const(6), Const(2)), -2, true},
		{"where(x - 3, 6, 3) over 2", b.Where(cond, Const(6), Const(3)), 2, false},
		{"min(2x, 4) over 2", b.Min(b.Scale(x, 2), Const(4)), 2, true},
		{"max(2x, 3) over 2", b.Max(b.Scale(x, 2), Const(3)), 2, false},
		{"3*where(x, 2, 4) + 6 over 2", b.Add(b.Scale(b.Where(x, Const(2), Const(4)), 3), Const(6)), 2, true},
		{"where(2x, x, 4) over 2: the condition is no value", b.Where(b.Scale(x, 2), x, Const(4)), 2, false},
	} {
		if got := p.ExactByRemainder(c.e, Const(c.k)); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	claimed := 0
	for round := range 20000 {
		b := NewBuilder()
		syms := []Sym{b.NewSym("a", true), b.NewSym("b", false)}
		ranges := env{syms[0]: R(-6, 6), syms[1]: R(-3, 5)}
		e := randomExpr(r, b, syms, 3)
		k := []int64{2, 3, -2, 4}[r.IntN(4)]
		if r.IntN(2) == 0 {
			e = b.Where(randomExpr(r, b, syms, 1), b.Scale(e, k), randomExpr(r, b, syms, 2))
		}
		if !NewProver(b, ranges).ExactByRemainder(e, Const(k)) {
			continue
		}
		claimed++
		for va := int64(-6); va <= 6; va++ {
			for vb := int64(-3); vb <= 5; vb++ {
				v, ok := b.Eval(e, func(s Sym) int64 { return []int64{va, vb}[s] })
				if ok && v%k != 0 {
					t.Fatalf("round %d: %s = %d at a=%d b=%d, claimed a multiple of %d", round, b.String(e), v, va, vb, k)
				}
			}
		}
	}
	if claimed < 100 {
		t.Errorf("only %d random expressions claimed multiples: the test checks little", claimed)
	}
}

// TestDivisionByItself: e / e is 1 and e % e is 0 wherever e is not 0
// (where it is, the model divides by zero and has no value), for both
// roundings; a Divide of a dim by itself was any value in [0, 2^40].
func TestDivisionByItself(t *testing.T) {
	b := NewBuilder()
	xs := b.NewSym("x", true)
	e := b.Add(b.Scale(b.Var(xs), 3), Const(-7))
	for _, floor := range []bool{false, true} {
		q, r := b.Div(e, e, floor), b.Mod(e, e, floor)
		for _, x := range []int64{math.MinInt32, -5, -1, 1, 2, 5, math.MaxInt32} {
			val := func(Sym) int64 { return x }
			ev, _ := b.Eval(e, val)
			if ev == 0 {
				continue
			}
			if v, ok := b.Eval(q, val); !ok || v != 1 {
				t.Errorf("floor %v: (%s) / itself at x = %d is %d (%v), want 1", floor, b.String(e), x, v, ok)
			}
			if v, ok := b.Eval(r, val); !ok || v != 0 {
				t.Errorf("floor %v: (%s) %% itself at x = %d is %d (%v), want 0", floor, b.String(e), x, v, ok)
			}
		}
		if c, ok := q.IsConst(); !ok || c != 1 {
			t.Errorf("floor %v: e / e is %s, not the constant 1", floor, b.String(q))
		}
	}
}

// TestMultipleOfPow2IsSound builds random expressions of scalings by
// powers of two, wraps into ranges of 2^m values, products and divisions
// by powers of two, minimums and maximums, and checks every value the symbols give is a
// multiple of 2^j wherever MultipleOfPow2 says so.
func TestMultipleOfPow2IsSound(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var gen func(b *Builder, syms []Sym, depth int) Expr
	gen = func(b *Builder, syms []Sym, depth int) Expr {
		if depth == 0 || r.IntN(5) == 0 {
			if r.IntN(4) == 0 {
				return Const(int64(r.IntN(33) - 16))
			}
			return b.Var(syms[r.IntN(len(syms))])
		}
		x := gen(b, syms, depth-1)
		switch r.IntN(8) {
		case 0:
			return b.Scale(x, int64(1)<<r.IntN(5)*int64(1+2*r.IntN(2)))
		case 1:
			lo := int64(r.IntN(9) - 8)
			return b.Wrap(x, R(lo, lo+int64(1)<<(2+r.IntN(4))-1))
		case 2:
			return b.Mul(x, gen(b, syms, depth-1))
		case 3:
			return b.FloorDivK(x, int64(1)<<r.IntN(3)*int64(1-2*r.IntN(2)))
		case 4:
			return b.TruncDivK(x, int64(1)<<r.IntN(3)*int64(1-2*r.IntN(2)))
		case 5:
			return b.Add(x, gen(b, syms, depth-1))
		case 6:
			if r.IntN(2) == 0 {
				return b.Min(x, gen(b, syms, depth-1))
			}
			return b.Max(x, gen(b, syms, depth-1), Const(int64(r.IntN(9)-4)*2))
		}
		return randomExpr(r, b, syms, 2)
	}
	positives := 0
	for round := range 1500 {
		b := NewBuilder()
		syms := []Sym{b.NewSym("a", true), b.NewSym("b", true)}
		e := gen(b, syms, 4)
		for j := 1; j <= 5; j++ {
			if !b.MultipleOfPow2(e, j) {
				continue
			}
			positives++
			for x := int64(-12); x <= 12; x++ {
				for y := int64(-12); y <= 12; y++ {
					v, ok := b.Eval(e, func(s Sym) int64 { return []int64{x, y}[s] })
					if ok && v%(int64(1)<<j) != 0 {
						t.Fatalf("round %d: %s = %d at a = %d, b = %d, not a multiple of 2^%d", round, b.String(e), v, x, y, j)
					}
				}
			}
		}
	}
	if positives < 300 {
		t.Fatalf("only %d expressions found multiples: the test checks too little", positives)
	}
	t.Logf("%d expressions found multiples of a power of two, each checked at 625 points", positives)
}
