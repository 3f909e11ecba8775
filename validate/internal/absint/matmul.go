package absint

import (
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rule of MatMul: its dims.

func (a *Analysis) matmul(ins []*Value, o *ops.MatMul, t ir.ElementType) *Value {
	x, y := ins[0], ins[1]
	if x.Rank < 1 || y.Rank < 1 {
		return nil
	}
	xd, yd := slices.Clone(x.Dims), slices.Clone(y.Dims)
	if len(xd) == 1 {
		xd = []sym.Expr{sym.Const(1), xd[0]}
	} else if o.TransposeA {
		xd[len(xd)-1], xd[len(xd)-2] = xd[len(xd)-2], xd[len(xd)-1]
	}
	if len(yd) == 1 {
		yd = []sym.Expr{yd[0], sym.Const(1)}
	} else if o.TransposeB {
		yd[len(yd)-1], yd[len(yd)-2] = yd[len(yd)-2], yd[len(yd)-1]
	}
	batch, ok := a.broadcastDims(&Value{Rank: len(xd) - 2, Dims: xd[:len(xd)-2]}, &Value{Rank: len(yd) - 2, Dims: yd[:len(yd)-2]}, shapeinfer.Broadcast{Mode: shapeinfer.Numpy})
	if !ok {
		return nil
	}
	dims := batch
	if x.Rank > 1 {
		dims = append(dims, xd[len(xd)-2])
	}
	if y.Rank > 1 {
		dims = append(dims, yd[len(yd)-1])
	}
	v := &Value{Type: t, Rank: len(dims), Dims: dims}
	return v
}
