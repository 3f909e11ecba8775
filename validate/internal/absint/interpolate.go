package absint

import (
	"math"
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rule of Interpolate: its dims from sizes or scales.

func (a *Analysis) interpolate(ins []*Value, o *ops.Interpolate, t ir.ElementType) *Value {
	x := ins[0]
	if x.Rank < 0 || o.Version != 11 || len(ins) < 2 {
		return nil
	}
	axes := make([]int64, x.Rank)
	for i := range axes {
		axes[i] = int64(i)
	}
	if len(ins) > 2 {
		var ok bool
		if axes, ok = constInts(ins[2]); !ok {
			return nil
		}
	}
	dims := slices.Clone(x.Dims)
	for i := range dims {
		if i < len(o.PadsBegin) {
			dims[i] = a.B.Add(dims[i], sym.Const(o.PadsBegin[i]))
		}
		if i < len(o.PadsEnd) {
			dims[i] = a.B.Add(dims[i], sym.Const(o.PadsEnd[i]))
		}
	}
	target := ins[1]
	for k, ax := range axes {
		j, ok := NormAxis(ax, x.Rank)
		if !ok {
			return nil
		}
		switch {
		case o.ShapeCalculationMode == "sizes" && target.Int && target.Elems != nil && k < len(target.Elems):
			dims[j] = target.Elems[k]
		case o.ShapeCalculationMode == "scales" && target.Tensor != nil && k < target.Tensor.Len():
			s := target.Tensor.Float64At(k)
			if s != math.Trunc(s) || s < 1 || s > 1<<20 {
				return nil
			}
			dims[j] = a.B.Scale(dims[j], int64(s))
		default:
			return nil
		}
	}
	return &Value{Type: t, Rank: len(dims), Dims: dims}
}
