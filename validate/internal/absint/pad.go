package absint

import (
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rule of Pad.

func (a *Analysis) pad(ins []*Value, t ir.ElementType) *Value {
	x := ins[0]
	if len(ins) < 3 || x.Rank < 0 || ins[1].Elems == nil || ins[2].Elems == nil || len(ins[1].Elems) != x.Rank || len(ins[2].Elems) != x.Rank {
		return nil
	}
	dims := make([]sym.Expr, x.Rank)
	for i, d := range x.Dims {
		dims[i] = a.B.Add(a.B.Add(d, ins[1].Elems[i]), ins[2].Elems[i])
	}
	v := a.moved(x, t, dims)
	v.Uniform = false // the fill is among the elements
	if t.IsFloat() {
		// The fill is among the elements (0 where the Pad has no value),
		// whatever the mode: the rule does not know it, and a constant
		// Pad of x in [300, 555] holds a 0.
		fill, declaredFill := &FloatRange{}, &FloatRange{}
		if len(ins) > 3 {
			fill, declaredFill = ins[3].F, ins[3].DeclaredF()
		}
		v.F, v.FD = nil, nil
		if x.F != nil && fill != nil {
			v.F = unionF(x.F, fill)
			if d := x.DeclaredF(); d != nil && declaredFill != nil {
				v.FD = narrowerF(unionF(d, declaredFill), v.F)
			}
		}
	}
	if v.Int {
		fill := sym.Const(0)
		if len(ins) > 3 && ins[3].Int {
			fill = a.All(ins[3])
		}
		v.all = a.B.Select(v.all, fill)
	}
	return v
}
