package absint

import (
	"math"
	"testing"

	"github.com/irdiv/irdiv/validate/internal/sym"
)

// TestSolveAcrossInt64: the bisection that narrows an input symbol to
// what a layer requires works over the symbol's whole int64 range, where
// MAX - MIN does not fit (seed 2234: y >= -1 narrowed y to MAX alone,
// and the proof that rested on it was wrong).
func TestSolveAcrossInt64(t *testing.T) {
	a := &Analysis{B: sym.NewBuilder()}
	s := a.B.NewSym("y", false)
	y := a.B.Var(s)
	whole := sym.R(math.MinInt64, math.MaxInt64)
	for _, c := range []struct {
		name   string
		e      sym.Expr
		dir    int
		r      sym.Range
		lo, hi int64
		cur    sym.Range // whole when zero
	}{
		{"y >= -1", y, 1, sym.Range{Lo: sym.Finite(-1), Hi: sym.PosInf}, -1, math.MaxInt64, sym.Range{}},
		{"y in [3, 5]", y, 1, sym.R(3, 5), 3, 5, sym.Range{}},
		{"-y >= -1", a.B.Neg(y), -1, sym.Range{Lo: sym.Finite(-1), Hi: sym.PosInf}, math.MinInt64 + 1, 1, sym.R(math.MinInt64+1, math.MaxInt64)},
		{"floor(y / 4) in [MIN, 2]", a.B.FloorDivK(y, 4), 1, sym.R(math.MinInt64, 2), math.MinInt64, 11, sym.Range{}},
	} {
		cur := c.cur
		if cur == (sym.Range{}) {
			cur = whole
		}
		lo, hi, ok := a.solve(c.e, s, c.dir, cur, c.r)
		if !ok || lo != c.lo || hi != c.hi {
			t.Errorf("%s: [%d, %d] (ok %v), want [%d, %d]", c.name, lo, hi, ok, c.lo, c.hi)
		}
	}
}
