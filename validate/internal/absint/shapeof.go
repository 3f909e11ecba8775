package absint

import (
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rule of ShapeOf: the dims as elements.

// shapeOf gives the dims as elements.
func (a *Analysis) shapeOf(x *Value, t ir.ElementType) *Value {
	if x.Rank < 0 {
		return nil
	}
	v := &Value{Type: t, Rank: 1, Dims: []sym.Expr{sym.Const(int64(x.Rank))}, Int: true, Elems: make([]sym.Expr, x.Rank), Shape: true}
	for i, d := range x.Dims {
		// A tensor that exists has no negative dim: where a dim comes
		// from values (a Resize to sizes computed from floats), the op
		// that made it ran only if they were not negative, so max(d, 0)
		// is d wherever the model gets here.
		if !a.decide.Range(d).Lo.AtLeast(0) {
			d = a.B.Max(d, sym.Const(0))
		}
		v.Elems[i] = d
	}
	return v
}
