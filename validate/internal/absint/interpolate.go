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
	axes, ok := interpolateAxes(x, ins)
	if !ok {
		return nil
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

// resizeRequires records what ONNX Runtime's Resize needs of the sizes
// it is given (ONNX's Resize, imported as Interpolate-11 of "sizes"):
// each scale it works out, size / input dim, greater than 0, and for an
// input dim of 0, where it takes a scale of 1, a size of 0 ("Input dim
// is zero but required output dim is non-zero"). That is
// Where(dim, size, Where(size, 0, 1)) of 1 or more. The walk calls it for
// every Interpolate of an ONNX model, folded, traced or not.
func (a *Analysis) resizeRequires(l *ir.Layer, ins []*Value, o *ops.Interpolate) {
	x := ins[0]
	if x.Rank < 0 || o.Version != 11 || len(ins) < 2 || o.ShapeCalculationMode != "sizes" || !ins[1].Int || ins[1].Elems == nil ||
		slices.ContainsFunc(o.PadsBegin, func(p int64) bool { return p != 0 }) || slices.ContainsFunc(o.PadsEnd, func(p int64) bool { return p != 0 }) {
		return
	}
	axes, ok := interpolateAxes(x, ins)
	if !ok {
		return
	}
	sizes := ins[1]
	for k, ax := range axes {
		j, ok := NormAxis(ax, x.Rank)
		if !ok || k >= len(sizes.Elems) {
			return
		}
		size := sizes.Elems[k]
		e := a.B.Where(x.Dims[j], size, a.B.Where(size, sym.Const(0), sym.Const(1)))
		a.require(l, sizes, e, sym.Range{Lo: sym.Finite(1), Hi: sym.PosInf}, "resizes by a scale greater than 0, as ONNX Runtime requires (a size of 1 or more, or 0 of a dim of 0)", true)
	}
}

// interpolateAxes are the axes an Interpolate-11 resizes: its third
// input, a constant, or every axis of x.
func interpolateAxes(x *Value, ins []*Value) ([]int64, bool) {
	if len(ins) > 2 {
		return constInts(ins[2])
	}
	axes := make([]int64, x.Rank)
	for i := range axes {
		axes[i] = int64(i)
	}
	return axes, true
}
