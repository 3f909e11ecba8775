package absint

import (
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
)

// deepCase is x, then Subtract(Abs(v), y) 800 times: expressions 2,400
// atoms deep, past the depth of 1,024 TestDeepExpressionsAreCut sets.
var deepCase = propertyCase{"flatten", "abs-subtract chain", func(b *propModel) []ir.Output {
	x, y := b.param(ir.I8, "2"), b.param(ir.I8, "2")
	v := x
	for range 800 {
		v = b.one("Subtract", []string{"auto_broadcast", "numpy"}, b.one("Abs", nil, v), y)
	}
	return []ir.Output{v}
}}

// TestDeepExpressionsAreCut: no value the analysis keeps is deeper than
// Options.MaxExprDepth, however deep the model (a chain of 300,000 Abs made
// expressions as deep, and walks of them overflowed the stack or took
// time quadratic in the model); the symbols that replace deeper ones
// hold every value the model computes (checkProperty).
func TestDeepExpressionsAreCut(t *testing.T) {
	b := &propModel{m: &ir.Model{}}
	b.m.AddResult("out", deepCase.build(b)[0])
	inf, err := ops.InferModel(b.m)
	if err != nil {
		t.Fatal(err)
	}
	const depth = 1024
	a := Analyze(b.m, inf, Options{MaxExprDepth: depth})
	deepest, cuts := 0, 0
	for _, v := range a.Values {
		for _, e := range append(append(v.Dims[:len(v.Dims):len(v.Dims)], v.Elems...), v.all) {
			deepest = max(deepest, a.B.Depth(e))
		}
	}
	for _, o := range a.Origins {
		if o.Deep {
			cuts++
		}
	}
	if deepest > depth || cuts == 0 {
		t.Fatalf("the deepest expression is %d atoms deep (at most %d wanted), %d cut", deepest, depth, cuts)
	}
	t.Logf("deepest expression %d atoms, %d symbols for cut expressions", deepest, cuts)
	checkProperty(t, deepCase, Options{MaxExprDepth: depth})
}
