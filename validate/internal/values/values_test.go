package values

import (
	"testing"

	"github.com/irdiv/irdiv/validate/internal/sym"
)

// TestCopyRangesAsItsSymbol: a copy of an element symbol ranges as the
// symbol it copies, also when a symbol made after the copy was given a
// range of its own (the slot of the copy below it must not read [0, 0]).
func TestCopyRangesAsItsSymbol(t *testing.T) {
	a := &Analysis{B: sym.NewBuilder()}
	a.Declared.b, a.Any.b = a.B, a.B
	x := a.newSym("y[*]", true, sym.R(-5, 5), sym.R(-5, 5), Origin{Kind: InputElem, Index: -1})
	for _, tc := range []struct {
		name  string
		later bool // a symbol is made after the copy
	}{
		{"copy made last", false},
		{"a symbol made after the copy", true},
	} {
		c := a.B.Syms(a.B.Copy(a.B.Var(x)))[0]
		if c == x {
			t.Fatalf("%s: Copy made no symbol", tc.name)
		}
		if tc.later {
			a.newSym("H", false, sym.R(0, 9), sym.R(0, 9), Origin{Kind: InputDim})
		}
		for _, r := range []*Ranges{&a.Declared, &a.Any} {
			if got := r.Range(c); got != sym.R(-5, 5) {
				t.Errorf("%s: the copy ranges %s, want [-5, 5] as the symbol it copies", tc.name, got)
			}
		}
	}
}
