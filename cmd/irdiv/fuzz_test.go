package main

import (
	"testing"

	"github.com/irdiv/irdiv/ir"
)

// FuzzLiteral: no command-line literal crashes the parser or the
// conversion to a tensor, and a literal that converts has one value per
// element of its shape.
func FuzzLiteral(f *testing.F) {
	for _, s := range []string{"5", "-2.5", "inf", "[[1,2],[3,4]]", "[]", "[[1],[2,3]]", "[1,", "[[[[1]]]]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lit, err := parseLiteral(s)
		if err != nil {
			return
		}
		for _, typ := range []ir.ElementType{ir.F32, ir.BF16, ir.I8, ir.U64} {
			tensor, err := lit.tensor(typ)
			if err != nil {
				continue
			}
			if tensor.Len() != len(lit.values) {
				t.Fatalf("%q: %d values for shape %v", s, len(lit.values), tensor.Shape)
			}
		}
	})
}
