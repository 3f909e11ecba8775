package absint

import (
	"fmt"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rules of convolutions and poolings: their output dims from the
// affine rules ops states for each (SpatialRules), on symbolic dims.

// spatialRule is the rule of an op whose spatial dims follow ops'
// SpatialRules.
func spatialRule() rule {
	return rule{inputs: 1, values: func(a *Analysis, c *call) []*Value {
		s, ok := c.op.(ops.Spatial)
		if !ok {
			return nil
		}
		return a.spatial(c.l, s, c.ins, c.infos)
	}}
}

// spatial applies the affine rules of convolutions and poolings (ops'
// SpatialRules) to symbolic dims; the batch dim follows the data, the
// channels come from the inference (the weights decide them).
func (a *Analysis) spatial(l *ir.Layer, s ops.Spatial, ins []*Value, infos []ops.ValueInfo) []*Value {
	x := ins[0]
	if x.Rank < 2 || len(infos) == 0 || infos[0].Shape.DynamicRank || len(infos[0].Shape.Dims) != x.Rank {
		return nil
	}
	inInfos := make([]ops.ValueInfo, len(ins))
	for i, src := range a.Sources[l] {
		if src.Layer != nil && i < len(inInfos) {
			inInfos[i] = a.Infos[src.Layer][src.Index]
			if ins[i].Tensor != nil {
				inInfos[i].Value = ins[i].Tensor
			}
		}
	}
	rules, err := s.SpatialRules(inInfos)
	if err != nil {
		return nil
	}
	dims := make([]sym.Expr, x.Rank)
	dims[0] = x.Dims[0]
	// The channels: a pooling keeps its input's, which vary with the
	// input shapes though the declared ones are static (seed 2740: an
	// AveragePool's 16 channels were 16 at every shape); a convolution's
	// are its filter's, constants where the filter's dims are.
	ch := infos[0].Shape.Dims[1]
	_, maxPool := s.(*ops.MaxPool)
	_, avgPool := s.(*ops.AvgPool)
	switch {
	case maxPool || avgPool:
		dims[1] = x.Dims[1]
	case ch.IsStatic() && len(ins) > 1 && constantDims(ins[1]):
		dims[1] = sym.Const(ch.Min)
	default:
		dims[1] = a.opaque(l, 0, infos[0]).Dims[1]
	}
	for i := 2; i < x.Rank; i++ {
		dims[i] = x.Dims[i]
	}
	for _, r := range rules {
		if r.Axis < 0 || r.Axis >= x.Rank || r.Div <= 0 {
			return nil
		}
		if r.MinIn > 0 && r.Axis >= 2 {
			why := "needs its input to hold its window"
			if a.opts.ONNX && (maxPool || avgPool) {
				// ONNX Runtime computes a dim there too (0 or more, its
				// division truncating), where OpenVINO refuses the model:
				// a proof is about what OpenVINO runs, and says so.
				why += " (in OpenVINO; ONNX Runtime also runs some smaller inputs, where OpenVINO fails)"
			}
			a.requireDim(l, x, r.Axis, sym.Range{Lo: sym.Finite(r.MinIn), Hi: sym.PosInf}, why, !a.opts.ONNX)
		}
		in := dims[r.Axis]
		if r.Axis >= 2 {
			in = x.Dims[r.Axis]
		}
		dims[r.Axis] = a.B.Add(a.B.FloorDivK(a.B.Add(a.B.Scale(in, r.Mul), sym.Const(r.Add)), r.Div), sym.Const(r.Off))
		if r.CeilTorch {
			dims[r.Axis] = a.ceilTorch(l, dims[r.Axis], in, r)
		}
		if a.opts.strict && a.opts.ONNX && r.MinIn > 0 && r.Axis >= 2 {
			// The input is not narrowed to OpenVINO's window here (the
			// requirement above does not stop an ONNX model), and below
			// it ONNX Runtime's dim is not OpenVINO's formula (its
			// division truncates): any dim there.
			small := a.fresh(l, anyDim, fmt.Sprintf("dim %d of an input smaller than the window", r.Axis))
			dims[r.Axis] = a.B.Where(a.B.Max(sym.Const(0), a.B.Sub(in, sym.Const(r.MinIn-1))), dims[r.Axis], small)
		}
	}
	out := make([]*Value, len(infos))
	for i, info := range infos {
		out[i] = &Value{Type: info.Type, Rank: x.Rank, Dims: dims}
		if isInt(info.Type) {
			out[i].Int, out[i].all = true, a.fresh(l, typeRange(info.Type), "pooling indices")
		}
	}
	return out
}

// ceilTorch is the dim of a pooling of rounding_type ceil_torch (ONNX's
// ceil_mode, as ONNX Runtime and PyTorch compute it): the ceil formula
// c, less one where its last window would start in the end padding,
// (c-1)*s >= in + pad_begin, which holds exactly where c - b >= 1, b the
// window starts below in + pad_begin, ceil((in + pad_begin) / s). Where
// the prover bounds c - b at every shape, one formula: c where it is
// never positive, c - 1 where it always is, b where it is 0 or 1 (then
// c - 1 = b, or c = b). Otherwise c less a dim of its own, 0 or 1 as the
// prover decides c - b under the declared shapes, in [0, 1] otherwise:
// c - d keeps its relation to in, which max(min(c, b), c - 1), as exact,
// loses in the prover's linear bounds.
func (a *Analysis) ceilTorch(l *ir.Layer, c, in sym.Expr, r ops.SpatialRule) sym.Expr {
	b := a.B.FloorDivK(a.B.Add(in, sym.Const(r.PadBegin+r.Div-1)), r.Div)
	excess := a.boundsOf(a.B.Sub(c, b))
	switch e := excess.any; {
	case e.Hi.AtMost(0):
		return c
	case e.Lo.AtLeast(1):
		return a.B.Sub(c, sym.Const(1))
	case e.Within(sym.R(0, 1)):
		return b
	}
	dropped := func(e sym.Range) sym.Range {
		lo, hi := int64(0), int64(1)
		if e.Lo.AtLeast(1) {
			lo = 1
		}
		if e.Hi.AtMost(0) {
			hi = 0
		}
		return sym.R(lo, hi)
	}
	d := a.newSym(fmt.Sprintf("%s.dropped[%d]", l.Name, r.Axis), false, dropped(excess.declared), dropped(excess.any), Origin{Kind: Derived, Layer: l, Index: r.Axis})
	return a.B.Sub(c, a.B.Var(d))
}
