package absint

import (
	"math"
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rules of the ops that pick elements: Gather, Slice and
// StridedSlice. Elements that move are copies of the input's (trace
// follows small tensors exactly).

func (a *Analysis) gather(l *ir.Layer, ins []*Value, o *ops.Gather) *Value {
	if len(ins) < 3 || o.BatchDims != 0 {
		return nil
	}
	data, idx := ins[0], ins[1]
	axes, ok := constInts(ins[2])
	if !ok || len(axes) != 1 || data.Rank < 0 || idx.Rank < 0 {
		return nil
	}
	axis, ok := NormAxis(axes[0], data.Rank)
	if !ok {
		return nil
	}
	dims := append(append(slices.Clone(data.Dims[:axis]), idx.Dims...), data.Dims[axis+1:]...)
	return a.moved(data, data.Type, dims)
}

// checkGather reports constant indices outside the axis they index, at
// the declared shapes: OpenVINO's Gather gives zeros there where ONNX
// Runtime fails, so the model has no one meaning.
func (a *Analysis) checkGather(l *ir.Layer, ins []*Value, o *ops.Gather) {
	data, idx := ins[0], ins[1]
	axes, ok := constInts(ins[2])
	dims, ok2 := data.ConstDims()
	is, ok3 := constInts(idx)
	if !ok || !ok2 || !ok3 || len(axes) != 1 || o.BatchDims != 0 {
		return
	}
	axis, ok := NormAxis(axes[0], len(dims))
	if !ok {
		return
	}
	d := dims[axis]
	for _, i := range is {
		if i < -d || i >= d {
			a.issue(l, GatherIndex, "index %d is outside [%d, %d] of axis %d (dim %d): OpenVINO gives zeros there, ONNX Runtime fails", i, -d, d-1, axis, d)
			return
		}
	}
}

// gatherRequires records what ONNX requires of a Gather's indices: each
// within [-d, d-1] of the axis of dim d (ONNX Runtime fails outside).
// Where the dim is a constant, that bounds each index; where an index is
// a constant, the dim.
func (a *Analysis) gatherRequires(l *ir.Layer, ins []*Value, o *ops.Gather) {
	data, idx := ins[0], ins[1]
	axes, ok := constInts(ins[2])
	if !ok || len(axes) != 1 || o.BatchDims != 0 || data.Rank < 0 {
		return
	}
	axis, ok := NormAxis(axes[0], data.Rank)
	if !ok {
		return
	}
	d := data.Dims[axis]
	if c, ok := d.IsConst(); ok && !data.DeclaredDims {
		for _, e := range idx.Elems {
			a.require(l, idx, e, sym.R(-c, c-1), "takes indices within its axis, as ONNX requires", true)
		}
		return
	}
	is, ok := constInts(idx)
	if !ok {
		if data.DeclaredDims {
			return
		}
		// Neither a constant: each index i within [-d, d-1] is i - d
		// below 0 and i + d not below 0 (an index of d itself, seed
		// 1204, is never within its axis).
		for _, e := range idx.Elems {
			a.require(l, idx, a.B.Sub(e, d), sym.Range{Lo: sym.NegInf, Hi: sym.Finite(-1)}, "takes indices within its axis, as ONNX requires", true)
			a.require(l, idx, a.B.Add(e, d), sym.Range{Lo: sym.Finite(0), Hi: sym.PosInf}, "takes indices within its axis, as ONNX requires", true)
		}
		return
	}
	least := int64(0)
	for _, i := range is {
		switch {
		case i >= 0:
			least = max(least, i+1)
		case i > math.MinInt64:
			least = max(least, -i)
		}
	}
	a.requireDim(l, data, axis, sym.Range{Lo: sym.Finite(least), Hi: sym.PosInf}, "takes indices within its axis, as ONNX requires", true)
}

// clampIndex is where an index lands on an axis of dim d: counted from the
// end when negative, clipped to [0, d]; for a negative step, which walks
// down, a start to [0, d-1] and a stop to [-1, d-1] (ONNX's Slice, and
// OpenVINO's slice::get_sliced_value: [3, 2, 1][-6::-1] is [3]).
func (a *Analysis) clampIndex(v, d sym.Expr, down, start bool) sym.Expr {
	lo, hi := sym.Const(0), d
	if down {
		lo, hi = sym.Const(-1), a.B.Add(d, sym.Const(-1))
		if start {
			lo = sym.Const(0)
		}
	}
	clip := func(e sym.Expr) sym.Expr { return a.B.Min(a.B.Max(e, lo), hi) }
	if c, ok := v.IsConst(); ok {
		switch {
		case c == math.MaxInt64 || c >= 0 && !down:
			return clip(v)
		case c == math.MinInt64:
			return lo
		case c >= 0:
			return clip(v)
		}
		return clip(a.B.Add(d, v))
	}
	// An index the prover places on one side of 0 at every input counts
	// from that end alone: a start of floor((L + 2) / 3) is never
	// negative, and a choice of both ends would let the search take the
	// other (seed 1454).
	switch r := a.decide.Range(v); {
	case r.Lo.AtLeast(0):
		return clip(v)
	case r.Hi.AtMost(-1):
		return clip(a.B.Add(d, v))
	}
	return a.B.Select(clip(v), clip(a.B.Add(d, v)))
}

// sliceLen is the length of start:stop:step on an axis of dim d.
func (a *Analysis) sliceLen(d, start, stop sym.Expr, step int64) sym.Expr {
	if step > 0 {
		s, e := a.clampIndex(start, d, false, true), a.clampIndex(stop, d, false, false)
		return a.B.Max(sym.Const(0), a.B.FloorDivK(a.B.Add(a.B.Sub(e, s), sym.Const(step-1)), step))
	}
	s, e := a.clampIndex(start, d, true, true), a.clampIndex(stop, d, true, false)
	return a.B.Max(sym.Const(0), a.B.FloorDivK(a.B.Add(a.B.Sub(s, e), sym.Const(-step-1)), -step))
}

func (a *Analysis) slice(ins []*Value, t ir.ElementType) *Value {
	x := ins[0]
	if len(ins) < 4 || x.Rank < 0 || ins[1].Elems == nil || ins[2].Elems == nil {
		return a.moved(x, t, nil)
	}
	steps, ok := constInts(ins[3])
	if !ok || len(steps) != len(ins[1].Elems) || len(steps) != len(ins[2].Elems) {
		return a.moved(x, t, nil)
	}
	axes := make([]int64, len(steps))
	for i := range axes {
		axes[i] = int64(i)
	}
	if len(ins) > 4 {
		if axes, ok = constInts(ins[4]); !ok || len(axes) != len(steps) {
			return a.moved(x, t, nil)
		}
	}
	dims := slices.Clone(x.Dims)
	for i, ax := range axes {
		j, ok := NormAxis(ax, x.Rank)
		if !ok || steps[i] == 0 || steps[i] == math.MinInt64 {
			return a.moved(x, t, nil)
		}
		dims[j] = a.sliceLen(x.Dims[j], ins[1].Elems[i], ins[2].Elems[i], steps[i])
	}
	return a.moved(x, t, dims)
}

func bit(mask []int64, i int) bool { return i < len(mask) && mask[i] != 0 }

func (a *Analysis) stridedSlice(ins []*Value, o *ops.StridedSlice, t ir.ElementType) *Value {
	x := ins[0]
	if x.Rank < 0 || slices.Contains(o.EllipsisMask, 1) || slices.Contains(o.NewAxisMask, 1) ||
		ins[1].Elems == nil || ins[2].Elems == nil || len(ins[1].Elems) > x.Rank {
		return a.moved(x, t, nil)
	}
	k := len(ins[1].Elems)
	steps := make([]int64, k)
	for i := range steps {
		steps[i] = 1
	}
	if len(ins) > 3 {
		var ok bool
		if steps, ok = constInts(ins[3]); !ok || len(steps) != k {
			return a.moved(x, t, nil)
		}
	}
	var dims []sym.Expr
	for j, d := range x.Dims {
		if j >= k {
			dims = append(dims, d)
			continue
		}
		if bit(o.ShrinkAxisMask, j) {
			continue
		}
		if steps[j] == 0 || steps[j] == math.MinInt64 {
			return a.moved(x, t, nil)
		}
		start, stop := ins[1].Elems[j], ins[2].Elems[j]
		if bit(o.BeginMask, j) {
			start = sym.Const(0)
			if steps[j] < 0 {
				start = sym.Const(math.MaxInt64)
			}
		}
		if bit(o.EndMask, j) {
			stop = sym.Const(math.MaxInt64)
			if steps[j] < 0 {
				stop = sym.Const(math.MinInt64)
			}
		}
		dims = append(dims, a.sliceLen(d, start, stop, steps[j]))
	}
	if dims == nil {
		dims = []sym.Expr{}
	}
	return a.moved(x, t, dims)
}
