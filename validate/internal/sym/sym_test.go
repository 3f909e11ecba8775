package sym

import (
	"math"
	"math/rand/v2"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

type env map[Sym]Range

func (e env) Range(s Sym) Range { return e[s] }

func dimEnv(syms ...Sym) env {
	e := env{}
	for _, s := range syms {
		e[s] = Range{Finite(0), PosInf}
	}
	return e
}

func TestRelationsSurviveWhereIntervalsDoNot(t *testing.T) {
	b := NewBuilder()
	h, h1, h2 := b.NewSym("H", false), b.NewSym("H1", false), b.NewSym("H2", false)
	H, H1, H2 := b.Var(h), b.Var(h1), b.Var(h2)
	p := NewProver(b, dimEnv(h, h1, h2))
	// MaxPool k=2 s=2 then ConvTranspose s=2: 2*(floor((H-2)/2)+1).
	up := b.Scale(b.Add(b.FloorDivK(b.Add(H, Const(-2)), 2), Const(1)), 2)
	cases := []struct {
		name   string
		e      Expr
		lo, hi Bound
	}{
		{"H - 2*floor(H/2)", b.Sub(H, b.Scale(b.FloorDivK(H, 2), 2)), Finite(0), Finite(1)},
		{"H mod 2", b.Mod(H, Const(2), true), Finite(0), Finite(1)},
		{"H - up(pool(H))", b.Sub(H, up), Finite(0), Finite(1)},
		{"floor(H/2) - floor(H/2)", b.Sub(b.FloorDivK(H, 2), b.FloorDivK(H, 2)), Finite(0), Finite(0)},
		{"floor((2H+1)/2)", b.FloorDivK(b.Add(b.Scale(H, 2), Const(1)), 2), Finite(0), PosInf},
		{"H2 - 2*H1", b.Sub(H2, b.Scale(H1, 2)), NegInf, PosInf},
		{"(H-8) floor 2", b.FloorDivK(b.Add(H, Const(-8)), 2), Finite(-4), PosInf},
		{"max(H-8, 0)", b.Max(b.Add(H, Const(-8)), Const(0)), Finite(0), PosInf},
		{"min(H, 4) - H", b.Sub(b.Min(H, Const(4)), H), NegInf, Finite(0)},
		{"trunc(H/3)*3 - H", b.Sub(b.Scale(b.TruncDivK(H, 3), 3), H), Finite(-2), Finite(0)},
	}
	for _, c := range cases {
		r := p.Range(c.e)
		if r.Lo != c.lo || r.Hi != c.hi {
			t.Errorf("%s = %s: range %s, want [%s, %s]", c.name, b.String(c.e), r, c.lo, c.hi)
		}
	}
}

func TestWrap(t *testing.T) {
	b := NewBuilder()
	x := b.NewSym("x", true)
	i8 := R(-128, 127)
	p := NewProver(b, env{x: i8})
	abs := b.Wrap(b.Abs(b.Var(x)), i8)
	if r := p.Range(abs); r != i8 {
		t.Errorf("wrap(|x|) for i8 x: %s, want the whole type (|-128| wraps to -128)", r)
	}
	if v, ok := b.Eval(abs, func(Sym) int64 { return -128 }); !ok || v != -128 {
		t.Errorf("wrap(|-128|) = %d %v, want -128", v, ok)
	}
	clamped := b.Wrap(b.Abs(b.Max(b.Var(x), Const(-127))), i8)
	if r := p.Range(clamped); r != R(0, 127) {
		t.Errorf("wrap(|max(x,-127)|): %s, want [0, 127]", r)
	}
	// Wrap keeps relations where it provably fits: y - wrap(y) = 0.
	y := b.NewSym("y", true)
	p = NewProver(b, env{x: i8, y: R(0, 100)})
	if r := p.Range(b.Sub(b.Var(y), b.Wrap(b.Var(y), i8))); r != R(0, 0) {
		t.Errorf("y - wrap(y) for y in [0,100]: %s, want 0", r)
	}
	if v, ok := b.Eval(b.Wrap(Const(200), i8), nil); !ok || v != -56 {
		t.Errorf("wrap(200) into i8 = %d %v, want -56", v, ok)
	}
}

func TestCopyIsIndependent(t *testing.T) {
	b := NewBuilder()
	x := b.NewSym("x[*]", true)
	h := b.NewSym("H", false)
	X := b.Add(b.Var(x), b.Var(h))
	p := NewProver(b, env{x: R(-5, 5), h: R(0, 3)})
	if r := p.Range(b.Sub(X, X)); r != R(0, 0) {
		t.Errorf("X - X: %s, want 0", r)
	}
	c := b.Copy(X)
	if r := p.Range(b.Sub(X, c)); r.Lo.AtLeast(0) {
		t.Errorf("X - copy(X) = %s: %s, but other elements are independent", b.String(b.Sub(X, c)), r)
	}
	// The dim is shared: (x + H) - (x' + H) = x - x'.
	if got := b.Syms(b.Sub(X, c)); len(got) != 2 || got[0] == h || got[1] == h {
		t.Errorf("X - copy(X) depends on %v, want the element and its copy only", got)
	}
	if b.Info(b.Syms(c)[0]).Of != x && b.Info(b.Syms(c)[1]).Of != x {
		t.Errorf("the copy does not remember what it copies")
	}
}

// TestCopyOfADeepChain: Copy leaves the atoms without an element symbol
// as they are, so that copying an expression at the end of a long chain
// costs what its element symbols do, not the chain (a model of 10^5
// Divides copies one summary per Divide).
func TestCopyOfADeepChain(t *testing.T) {
	b := NewBuilder()
	x := b.NewSym("x[0]", false)
	deep := b.Var(x)
	for range 10000 {
		deep = b.Add(b.FloorDivK(deep, 3), Const(1))
	}
	if got := b.Copy(deep); !got.Equal(deep) {
		t.Fatalf("a copy of an expression without element symbols changed it: %s", b.String(got))
	}
	if allocs := testing.AllocsPerRun(10, func() { b.Copy(deep) }); allocs > 10 {
		t.Errorf("copying a chain of 10000 atoms without element symbols allocates %.0f times: it rebuilds the chain", allocs)
	}
	e := b.NewSym("x[*]", true)
	mixed := b.Add(deep, b.Var(e))
	c := b.Copy(mixed)
	if got := b.Syms(b.Sub(mixed, c)); len(got) != 2 || got[0] != e || b.Info(got[1]).Of != e {
		t.Errorf("mixed - copy(mixed) depends on %v, want the element and its copy only", got)
	}
}

// TestEvalAcrossStampWrap: evaluations remember atom values by a stamp of
// 32 bits; when it wraps, what earlier evaluations left is not taken for
// the new one's.
func TestEvalAcrossStampWrap(t *testing.T) {
	b := NewBuilder()
	x := b.NewSym("x", false)
	ev := b.NewEvaluator()
	for i, start := range []uint32{math.MaxUint32 - 1, math.MaxUint32, math.MaxUint32} {
		// Atoms made now have slots no evaluation filled: stamp 0.
		k := int64(3 + i)
		e := b.Add(b.FloorDivK(b.Var(x), k), Const(1))
		ev.memo.stamp = start
		for v := int64(-7); v <= 7; v++ {
			got, ok := ev.Eval(e, func(Sym) int64 { return v }, nil)
			if want := floorDiv(v, k) + 1; !ok || got != want {
				t.Fatalf("stamp from %d: x = %d gives %d (%v), want %d", start, v, got, ok, want)
			}
		}
	}
}

// TestBoundsAreSound builds random expressions over symbols of small
// ranges and checks every value the symbols give against the bounds.
func TestBoundsAreSound(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 3000 {
		b := NewBuilder()
		syms := []Sym{b.NewSym("a", true), b.NewSym("b", false), b.NewSym("c", true)}
		ranges := env{}
		for _, s := range syms {
			lo := int64(r.IntN(12) - 6)
			ranges[s] = R(lo, lo+int64(r.IntN(8)))
		}
		e := randomExpr(r, b, syms, 4)
		p := NewProver(b, ranges)
		bounds := p.Range(e)
		var vals [3]int64
		checked := 0
		var walk func(i int)
		walk = func(i int) {
			if i == len(syms) {
				v, ok := b.Eval(e, func(s Sym) int64 { return vals[s] })
				if !ok {
					return
				}
				checked++
				if !bounds.Contains(v) {
					t.Fatalf("round %d: %s = %d at %v, outside %s (ranges %v)", round, b.String(e), v, vals, bounds, ranges)
				}
				return
			}
			for v := ranges[syms[i]].Lo.V; v <= ranges[syms[i]].Hi.V; v++ {
				vals[i] = v
				walk(i + 1)
			}
		}
		walk(0)
	}
}

func randomExpr(r *rand.Rand, b *Builder, syms []Sym, depth int) Expr {
	if depth == 0 || r.IntN(4) == 0 {
		if r.IntN(3) == 0 {
			return Const(int64(r.IntN(9) - 4))
		}
		return b.Var(syms[r.IntN(len(syms))])
	}
	x := randomExpr(r, b, syms, depth-1)
	y := randomExpr(r, b, syms, depth-1)
	k := int64(r.IntN(9) - 4)
	switch r.IntN(14) {
	case 0:
		return b.Add(x, y)
	case 1:
		return b.Sub(x, y)
	case 2:
		return b.Scale(x, k)
	case 3:
		if k == 0 {
			k = 3
		}
		return b.FloorDivK(x, k)
	case 4:
		if k == 0 {
			k = -2
		}
		return b.TruncDivK(x, k)
	case 5:
		return b.Div(x, y, r.IntN(2) == 0)
	case 6:
		return b.Mod(x, y, r.IntN(2) == 0)
	case 7:
		return b.Mul(x, y)
	case 8:
		return b.Min(x, y)
	case 9:
		return b.Max(x, y, Const(k))
	case 10:
		return b.Abs(x)
	case 11:
		return b.Wrap(x, R(-8, 7))
	case 12:
		return b.Where(randomExpr(r, b, syms, 1), x, y)
	}
	return b.Mod(x, Const(k), r.IntN(2) == 0)
}

func TestEvalRefusesWhatHasNoValue(t *testing.T) {
	b := NewBuilder()
	x := b.NewSym("x", true)
	val := func(v int64) func(Sym) int64 { return func(Sym) int64 { return v } }
	if _, ok := b.Eval(b.Div(Const(3), b.Var(x), true), val(0)); ok {
		t.Error("3 / x at x = 0 has a value")
	}
	if _, ok := b.Eval(b.Div(b.Var(x), Const(-1), false), val(math.MinInt64)); ok {
		t.Error("MIN / -1 has a value")
	}
	if _, ok := b.Eval(b.Add(b.Var(x), Const(1)), val(math.MaxInt64)); ok {
		t.Error("MAX + 1 has a value in int64")
	}
	if v, ok := b.Eval(b.Div(Const(-7), Const(2), true), nil); !ok || v != -4 {
		t.Errorf("-7 floor 2 = %d, want -4", v)
	}
	if v, ok := b.Eval(b.Div(Const(-7), Const(2), false), nil); !ok || v != -3 {
		t.Errorf("-7 trunc 2 = %d, want -3", v)
	}
}

func TestString(t *testing.T) {
	b := NewBuilder()
	h := b.Var(b.NewSym("x.shape[2]", false))
	e := b.Sub(h, b.Scale(b.FloorDivK(h, 2), 2))
	if got, want := b.String(e), "x.shape[2] - 2*floor((x.shape[2])/2)"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}

// TestStringBounded: String prints a bounded text of any expression: a
// sum of many terms (the rest counted), a DAG whose atoms use the one
// below twice (2^20 atoms as a tree), and a small one in full.
func TestStringBounded(t *testing.T) {
	b := NewBuilder()
	x := b.Var(b.NewSym("x", false))
	sum := Const(0)
	for i := range 1000 {
		sum = b.Add(sum, b.Var(b.NewSym("s"+strconv.Itoa(i), false)))
	}
	dag := x
	for range 20 {
		dag = b.Mul(dag, b.Add(dag, Const(1)))
	}
	for _, tc := range []struct {
		name string
		e    Expr
		want string
	}{
		{"small", b.FloorDivK(b.Add(x, Const(-8)), 2), "floor((x)/2) - 4"},
		{"sum", sum, "… 992 more terms"},
		{"dag", dag, "…"},
	} {
		got := b.String(tc.e)
		if len(got) > 4096 || !strings.Contains(got, tc.want) {
			t.Errorf("%s: String gives %d bytes %.200q, want at most 4096 with %q", tc.name, len(got), got, tc.want)
		}
	}
}

// TestDeepChainNoRecursion: the prover and the evaluator walk a chain as
// deep as a model (200,000 Abs of an int64) with stacks of their own: run
// on a goroutine stack of 16 MB, recursing an atom per level overflowed
// it (a 300,000-layer model once took the 1 GB default).
func TestDeepChainNoRecursion(t *testing.T) {
	b := NewBuilder()
	s := b.NewSym("x", true)
	e := b.Var(s)
	for range 200000 {
		e = b.Abs(e)
	}
	defer debug.SetMaxStack(debug.SetMaxStack(16 << 20))
	p := NewProver(b, env{s: R(-5, 3)})
	if r := p.Range(e); r != R(0, 5) {
		t.Errorf("Range = %v, want [0, 5]", r)
	}
	if v, ok := b.Eval(e, func(Sym) int64 { return -4 }); !ok || v != 4 {
		t.Errorf("Eval = %d, %v; want 4", v, ok)
	}
}

// TestBoundsAcrossInt64: a sum whose terms' bounds lie beyond int64 on
// the way (-MIN is 2^63) but whose value does not keeps a sound range:
// the upper bound of MIN + (MAX - 1) was -inf, an empty range, because
// the lower bound of -MIN - (MAX - 1) saturated to +inf and stayed there.
func TestBoundsAcrossInt64(t *testing.T) {
	b := NewBuilder()
	x, y := b.NewSym("x", false), b.NewSym("y", false)
	p := NewProver(b, env{x: R(math.MinInt64, math.MinInt64), y: R(math.MaxInt64-1, math.MaxInt64-1)})
	for _, tc := range []struct {
		e    Expr
		want int64
	}{
		{b.Add(b.Var(x), b.Var(y)), -2},
		{b.Sub(b.Var(y), b.Neg(b.Var(x))), -2},
		{b.Add(b.Scale(b.Var(y), 2), b.Scale(b.Var(x), 2)), -4},
	} {
		if r := p.Range(tc.e); !r.Contains(tc.want) {
			t.Errorf("range of %s is %s, which leaves out its value %d", b.String(tc.e), r, tc.want)
		}
	}
}

// TestEvalWrapsLikeTheModel: a wrapped sum or product whose exact value
// leaves int64 evaluates to what two's complement gives (5 * 3*2^61 is
// -2^61 in i64), where it had no value, and the search could not offer
// it.
func TestEvalWrapsLikeTheModel(t *testing.T) {
	b := NewBuilder()
	x, y, m := b.NewSym("x", false), b.NewSym("y", false), b.NewSym("m", false)
	i64 := R(math.MinInt64, math.MaxInt64)
	val := func(s Sym) int64 { return map[Sym]int64{x: 5, y: math.MaxInt64, m: math.MinInt64}[s] }
	for _, tc := range []struct {
		e    Expr
		want int64
	}{
		{b.Wrap(b.Scale(b.Var(x), 3<<61), i64), -1 << 61},
		{b.Wrap(b.Add(b.Var(y), b.Var(y)), i64), -2},
		{b.Wrap(b.Mul(b.Var(x), b.Var(y)), i64), math.MaxInt64 - 4},
		{b.Wrap(b.Scale(b.Var(y), 2), R(math.MinInt32, math.MaxInt32)), -2},
		// |MIN| in i64 is MIN: max(-MIN, MIN) is 2^63, beyond int64
		// before it wraps (the search missed abs(MIN) / 3, seed 299).
		{b.Wrap(b.Max(b.Neg(b.Var(m)), b.Var(m)), i64), math.MinInt64},
		{b.Wrap(b.Add(b.Max(b.Neg(b.Var(m)), b.Var(x)), b.Var(x)), i64), math.MinInt64 + 5},
		{b.Wrap(b.Min(b.Scale(b.Var(y), 4), b.Scale(b.Var(y), 3)), i64), math.MaxInt64 - 2},
	} {
		if got, ok := b.Eval(tc.e, val); !ok || got != tc.want {
			t.Errorf("%s = %d (%v), want %d", b.String(tc.e), got, ok, tc.want)
		}
	}
}

// TestEvaluationsNest: two Evaluators of one Builder keep their own
// memories, so that one evaluation may run inside another (a valuer that
// evaluates) and each gives its own expression's value.
func TestEvaluationsNest(t *testing.T) {
	b := NewBuilder()
	x, y := b.NewSym("x", false), b.NewSym("y", false)
	inner, outer := b.NewEvaluator(), b.NewEvaluator()
	shared := b.FloorDivK(b.Var(x), 2)
	ye := b.Add(shared, Const(1))
	got, ok := outer.Eval(b.Add(shared, b.Var(y)), func(s Sym) int64 {
		if s == y {
			// y's value is an evaluation of its own, at another x.
			v, _ := inner.Eval(ye, func(Sym) int64 { return 10 }, nil)
			return v
		}
		return 7
	}, nil)
	if want := int64(3 + 6); !ok || got != want {
		t.Errorf("floor(7/2) + (floor(10/2) + 1) = %d (%v), want %d", got, ok, want)
	}
}

// TestReplaceKeepsTheValueWhereTheAssumptionHolds: e with an atom x
// replaced by min(x, k) has e's value wherever x <= k.
func TestReplaceKeepsTheValueWhereTheAssumptionHolds(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	replaced := 0
	for round := range 1500 {
		b := NewBuilder()
		syms := []Sym{b.NewSym("a", true), b.NewSym("b", false), b.NewSym("c", true)}
		e := randomExpr(r, b, syms, 4)
		// x: one atom of e, or a symbol.
		x := b.Var(syms[r.IntN(len(syms))])
		var atoms []*Atom
		var walk func(e Expr)
		walk = func(e Expr) {
			for _, t := range e.terms {
				atoms = append(atoms, t.a)
				for _, arg := range t.a.args {
					walk(arg)
				}
			}
		}
		walk(e)
		if len(atoms) > 0 && r.IntN(2) == 0 {
			x = b.of(atoms[r.IntN(len(atoms))])
		}
		k := int64(r.IntN(9) - 4)
		got := b.Replace(e, x, b.Min(x, Const(k)))
		if !got.Equal(e) {
			replaced++
		}
		checkReplaced(t, r, round, b, e, x, k, got)
	}
	if replaced < 500 {
		t.Errorf("only %d of 1500 expressions changed: the test tests little", replaced)
	}
}

// checkReplaced checks, at 50 random values of three symbols, that got,
// e with x replaced by min(x, k), is e wherever x <= k.
func checkReplaced(t *testing.T, r *rand.Rand, round int, b *Builder, e, x Expr, k int64, got Expr) {
	t.Helper()
	vals := [3]int64{}
	val := func(s Sym) int64 { return vals[s] }
	for range 50 {
		for i := range vals {
			vals[i] = int64(r.IntN(13) - 6)
		}
		xv, ok := b.Eval(x, val)
		if !ok || xv > k {
			continue
		}
		want, ok1 := b.Eval(e, val)
		have, ok2 := b.Eval(got, val)
		if ok1 && (!ok2 || have != want) {
			t.Fatalf("round %d: %s with %s <= %d replaced is %s: %d (%v), want %d at %v", round, b.String(e), b.String(x), k, b.String(got), have, ok2, want, vals)
		}
	}
}

// TestReplaceSums: a sum of atoms that Inner lists (W - H of
// trunc((W - H) / 3)), replaced by min(sum, k), leaves every expression
// its value wherever the sum is at most k, and is replaced where it
// occurs with a constant or a multiple of it (W - H + 1, 2W - 2H).
func TestReplaceSums(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	replaced, sums := 0, 0
	for round := range 3000 {
		b := NewBuilder()
		syms := []Sym{b.NewSym("a", true), b.NewSym("b", false), b.NewSym("c", true)}
		e := randomExpr(r, b, syms, 4)
		var xs []Expr
		for _, x := range b.Inner(e) {
			if len(x.terms) > 1 {
				xs = append(xs, x)
			}
		}
		if len(xs) == 0 {
			continue
		}
		sums++
		x := xs[r.IntN(len(xs))]
		k := int64(r.IntN(9) - 4)
		got := b.Replace(e, x, b.Min(x, Const(k)))
		if !got.Equal(e) {
			replaced++
		}
		checkReplaced(t, r, round, b, e, x, k, got)
	}
	if sums < 300 || replaced < sums/2 {
		t.Errorf("%d expressions held a sum, %d changed: the test tests little", sums, replaced)
	}
	// W - H + 1 and 2W - 2H hold W - H.
	b := NewBuilder()
	w, h := b.Var(b.NewSym("W", false)), b.Var(b.NewSym("H", false))
	d := b.Sub(w, h)
	v := b.Var(b.NewSym("v", false))
	for _, c := range []struct{ e, want Expr }{
		{b.FloorDivK(b.Add(d, Const(1)), 3), b.FloorDivK(b.Add(v, Const(1)), 3)},
		{b.Min(b.Scale(d, 2), Const(5)), b.Min(b.Scale(v, 2), Const(5))},
		{b.Min(b.Add(d, w), Const(5)), b.Min(b.Add(d, w), Const(5))},
	} {
		if got := b.Replace(c.e, d, v); !got.Equal(c.want) {
			t.Errorf("%s with W - H replaced by v is %s, want %s", b.String(c.e), b.String(got), b.String(c.want))
		}
	}
}

// TestProverReset: a prover Reset to another env ranges every expression
// as a new prover under that env does, whatever it ranged before (its
// memory of the atoms' ranges is of the first env).
func TestProverReset(t *testing.T) {
	b := NewBuilder()
	h, y := b.NewSym("H", false), b.NewSym("y", true)
	H, Y := b.Var(h), b.Var(y)
	m := b.Min(H, Const(8))
	es := []Expr{
		b.Sub(b.Mul(m, m), b.Scale(m, 2)),
		b.FloorDivK(b.Add(H, Const(-3)), 2),
		b.Wrap(b.Abs(Y), R(-128, 127)),
		b.Max(b.Sub(Y, H), Const(-5)),
		b.Mod(b.Add(Y, m), Const(3), true),
	}
	envs := []env{
		{h: R(0, 1<<40), y: R(-128, 127)},
		{h: R(3, 3), y: R(-128, -128)},
		{h: R(9, 20), y: R(0, 5)},
		{h: R(0, 2), y: R(-3, 3)},
	}
	p := NewProver(b, envs[0])
	for _, e := range es {
		p.Range(e)
	}
	for i, en := range envs[1:] {
		p.Reset(en)
		fresh := NewProver(b, en)
		for _, e := range es {
			if got, want := p.Range(e), fresh.Range(e); got != want {
				t.Errorf("env %d: %s: reset %s, new %s", i+1, b.String(e), got, want)
			}
		}
	}
}

// TestConstantMinInt64: the upper end of max(MinInt64, y), a Clip
// without a minimum, is y's: a constant's range is itself, which its
// negation, wrapping at MinInt64, lost (min(max(MinInt64, y), 7) of y =
// 4 ranged over [4, 7], and 4 / -2 went unproven; seed 940 of the
// differential).
func TestConstantMinInt64(t *testing.T) {
	b := NewBuilder()
	y := b.NewSym("y", false)
	p := NewProver(b, env{y: R(4, 4)})
	clipped := b.Min(b.Max(Const(math.MinInt64), b.Var(y)), Const(7))
	if r := p.Range(clipped); r != R(4, 4) {
		t.Errorf("%s: range %s, want 4", b.String(clipped), r)
	}
	if r := p.Range(Const(math.MinInt64)); r != R(math.MinInt64, math.MinInt64) {
		t.Errorf("MinInt64: range %s", r)
	}
	if u := p.Upper(Const(math.MinInt64)); u != Finite(math.MinInt64) {
		t.Errorf("MinInt64: upper bound %s", u)
	}
}

// TestWrappedSumsPastInt64: a sum whose exact value leaves int64 before
// its type wraps it (a dim of 1 plus 2^63 - 1, seed 1127 of the
// differential; 4 plus 2^63 - 3, seed 2434) ranges where it lands, not
// over the whole type, while its ends lie in one turn of the type; and
// every value the symbols give lies in the range (random sums of large
// constants and coefficients, symbols of small ranges).
func TestWrappedSumsPastInt64(t *testing.T) {
	i64, i32 := R(math.MinInt64, math.MaxInt64), R(math.MinInt32, math.MaxInt32)
	b := NewBuilder()
	h := b.NewSym("H", false)
	H := b.Var(h)
	for _, tc := range []struct {
		e    Expr
		h    Range
		want Range
	}{
		{b.Wrap(b.Add(H, Const(math.MaxInt64)), i64), R(1, 1), R(math.MinInt64, math.MinInt64)},
		{b.Wrap(b.Add(H, Const(math.MaxInt64-2)), i64), R(4, 6), R(math.MinInt64+1, math.MinInt64+3)},
		{b.Wrap(b.Sub(Const(math.MinInt64), H), i64), R(1, 3), R(math.MaxInt64-2, math.MaxInt64)},
		{b.Wrap(b.Add(b.Scale(H, 1<<62), Const(1<<62)), i64), R(1, 1), R(math.MinInt64, math.MinInt64)},
		{b.Wrap(b.Add(H, Const(math.MaxInt64)), i32), R(1, 1), R(0, 0)},
		// Ends in two turns: the whole type.
		{b.Wrap(b.Add(H, Const(math.MaxInt64)), i64), R(0, 2), i64},
		{b.Wrap(b.Scale(H, 1<<62), i64), R(1, 3), i64},
	} {
		if got := NewProver(b, env{h: tc.h}).Range(tc.e); got != tc.want {
			t.Errorf("%s at H in %s: range %s, want %s", b.String(tc.e), tc.h, got, tc.want)
		}
	}

	r := rand.New(rand.NewPCG(7, 27))
	bigs := []int64{math.MaxInt64, math.MaxInt64 - 3, math.MinInt64, math.MinInt64 + 5, 1 << 62, -(1 << 62), 3 << 61, 1<<63 - 1<<40}
	for round := range 3000 {
		b := NewBuilder()
		syms := []Sym{b.NewSym("a", true), b.NewSym("b", false)}
		ranges := env{}
		for _, s := range syms {
			lo := int64(r.IntN(12) - 6)
			ranges[s] = R(lo, lo+int64(r.IntN(6)))
		}
		e := Const(bigs[r.IntN(len(bigs))])
		for _, s := range syms {
			switch r.IntN(3) {
			case 0:
				e = b.Add(e, b.Scale(b.Var(s), bigs[r.IntN(len(bigs))]))
			case 1:
				e = b.Add(e, b.Scale(b.Var(s), int64(r.IntN(7)-3)))
			}
		}
		typ := i64
		if r.IntN(3) == 0 {
			typ = i32
		}
		w := b.Wrap(e, typ)
		bounds := NewProver(b, ranges).Range(w)
		for va := ranges[syms[0]].Lo.V; va <= ranges[syms[0]].Hi.V; va++ {
			for vb := ranges[syms[1]].Lo.V; vb <= ranges[syms[1]].Hi.V; vb++ {
				v, ok := b.Eval(w, func(s Sym) int64 { return map[Sym]int64{syms[0]: va, syms[1]: vb}[s] })
				if !ok {
					continue
				}
				if !bounds.Contains(v) {
					t.Fatalf("round %d: %s = %d at a = %d, b = %d, outside %s (ranges %v)", round, b.String(w), v, va, vb, bounds, ranges)
				}
			}
		}
	}
}

// TestClampsFold: a Min or Max of a constant that the other argument's
// form already keeps to (Clip(Clip(x, -8, 8), -8, 8), seed 303 of the
// differential, whose Range of a start and an equal stop was then known
// empty) is that argument, or the constant where the argument always
// passes it; and random chains of them, built so, evaluate as they do
// step by step.
func TestClampsFold(t *testing.T) {
	b := NewBuilder()
	x := b.Var(b.NewSym("x", true))
	clip := func(e Expr, lo, hi int64) Expr { return b.Min(b.Max(e, Const(lo)), Const(hi)) }
	once := clip(x, -8, 8)
	for _, tc := range []struct {
		name      string
		got, want Expr
	}{
		{"clip of a clip", clip(once, -8, 8), once},
		{"wider clip of a clip", clip(once, -9, 9), once},
		{"max below a clip", b.Max(once, Const(-20)), once},
		{"min above a max", b.Min(b.Max(x, Const(10)), Const(5)), Const(5)},
		{"wrapped into i8", b.Min(b.Wrap(x, R(-128, 127)), Const(127)), b.Wrap(x, R(-128, 127))},
		{"narrower clip", clip(once, -3, 3), b.Min(b.Max(once, Const(-3)), Const(3))},
	} {
		if !tc.got.Equal(tc.want) {
			t.Errorf("%s: %s, want %s", tc.name, b.String(tc.got), b.String(tc.want))
		}
	}

	type step struct {
		op int
		c  int64
	}
	r := rand.New(rand.NewPCG(3, 303))
	for round := range 2000 {
		b := NewBuilder()
		xs := b.NewSym("x", true)
		e := b.Var(xs)
		var steps []step
		for range 1 + r.IntN(6) {
			s := step{r.IntN(5), int64(r.IntN(25) - 12)}
			steps = append(steps, s)
			switch s.op {
			case 0:
				e = b.Min(e, Const(s.c))
			case 1:
				e = b.Max(Const(s.c), e)
			case 2:
				e = b.Add(e, Const(s.c))
			case 3:
				e = b.Wrap(e, R(-8, 7))
			case 4:
				e = b.Neg(e)
			}
		}
		for v := int64(-40); v <= 40; v++ {
			want := v
			for _, s := range steps {
				switch s.op {
				case 0:
					want = min(want, s.c)
				case 1:
					want = max(want, s.c)
				case 2:
					want += s.c
				case 3:
					want = (want+8)&15 - 8
				case 4:
					want = -want
				}
			}
			if got, ok := b.Eval(e, func(Sym) int64 { return v }); !ok || got != want {
				t.Fatalf("round %d: %s at x = %d is %d (%v), want %d (steps %v)", round, b.String(e), v, got, ok, want, steps)
			}
		}
	}
}

// TestFacts: a prover told that min(W - H, 6) is 0 or more bounds W - H
// from below by 0, and -(W - H) from above, as a sum and inside atoms
// (floor((W - H) / 3)); told max(y, -2) is at most 5, y is at most 5;
// told W + H is at most 10, its upper end, which a bound of its negation
// gives, is 10.
// Without facts, nothing changes.
func TestFacts(t *testing.T) {
	b := NewBuilder()
	w, h, y := b.NewSym("W", false), b.NewSym("H", false), b.NewSym("y", true)
	W, H, Y := b.Var(w), b.Var(h), b.Var(y)
	d := b.Sub(W, H)
	en := env{w: R(0, 1<<40), h: R(0, 1<<40), y: R(math.MinInt64, math.MaxInt64)}
	plain, told := NewProver(b, en), NewProver(b, en)
	told.AddFact(b.Min(d, Const(6)), Range{Finite(0), PosInf})
	told.AddFact(b.Max(Y, Const(-2)), Range{NegInf, Finite(5)})
	told.AddFact(b.Add(W, H), Range{NegInf, Finite(10)})
	for _, tc := range []struct {
		e          Expr
		plain, got Range
	}{
		{d, R(-1<<40, 1<<40), R(0, 1<<40)},
		{b.Neg(d), R(-1<<40, 1<<40), R(-1<<40, 0)},
		{b.Add(d, Const(7)), R(-1<<40+7, 1<<40+7), R(7, 1<<40+7)},
		{b.FloorDivK(d, 3), R(-366503875926, 366503875925), R(0, 366503875925)},
		{Y, R(math.MinInt64, math.MaxInt64), R(math.MinInt64, 5)},
		{b.Add(W, H), R(0, 1<<41), R(0, 10)},
	} {
		if r := plain.Range(tc.e); r != tc.plain {
			t.Errorf("%s without facts: %s, want %s", b.String(tc.e), r, tc.plain)
		}
		if r := told.Range(tc.e); r != tc.got {
			t.Errorf("%s with facts: %s, want %s", b.String(tc.e), r, tc.got)
		}
	}
}
