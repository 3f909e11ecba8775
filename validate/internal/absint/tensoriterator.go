package absint

import (
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rule of TensorIterator (ops' tensoriterator.go), a Loop's (in
// controlflow.go) but for what it feeds its body: its body stands for
// every iteration at once (iterate), its invariant inputs as they are,
// its loop-carried integers of a range every iteration keeps, and each
// sliced Parameter a new symbol within the range of the whole input it
// is cut from: every part's elements are among the input's, whichever
// iteration reads it. Its outputs are within what the body gives; a last
// value joins the initial one only where no iteration may run (an empty
// sliced axis).

// tensorIteratorValues walks a TensorIterator's body for every iteration.
func tensorIteratorValues(a *Analysis, c *call) []*Value {
	ti := c.op.(*ops.TensorIterator)
	bodies := ti.Bodies(a.inputInfos(c.l))
	if len(bodies) != 1 {
		return nil
	}
	b := bodies[0]
	var out []*Value
	a.walkingDead(a.slicedAxisEmpty(c, b), func() { out = a.tensorIteratorBody(c, b) })
	return out
}

// tensorIteratorBody walks a TensorIterator's body as
// tensorIteratorValues says and returns its outputs.
func (a *Analysis) tensorIteratorBody(c *call, b ops.Body) []*Value {
	res, ranges, known, _ := a.iterate(c, b, func(p, ext int) *Value {
		in := c.ins[ext]
		if !b.Sliced[p] {
			return in
		}
		if !in.Int {
			return nil // any value of its type
		}
		part := a.loopValue(b, p, a.valueBounds(in), "a part of a sliced input")
		// A range of elements laid out at the declared shapes holds
		// there only, and so does the part's.
		part.DeclaredLayout = in.DeclaredLayout
		return part
	})
	b.AtLeastOnce = b.AtLeastOnce || a.slicedAxisNotEmpty(c, b)
	return a.loopOutputs(c, b, res, ranges, known)
}

// slicedAxisNotEmpty tells whether some sliced input of a TensorIterator
// has an axis of at least one element at every input shape (dims that
// hold at the declared shapes only do not tell): then the body runs at
// least once.
func (a *Analysis) slicedAxisNotEmpty(c *call, b ops.Body) bool {
	for _, axis := range a.slicedAxes(c, b) {
		if a.decide.Range(axis).Lo.AtLeast(1) {
			return true
		}
	}
	return false
}

// slicedAxisEmpty says why a TensorIterator's body never runs ("" where
// it may): a sliced input's axis is empty at every input shape, so there
// is no iteration (a Scan over nothing: ONNX Runtime 1.30 fails the
// model, OpenVINO runs no iteration; either way no Divide of the body
// divides).
func (a *Analysis) slicedAxisEmpty(c *call, b ops.Body) string {
	for _, axis := range a.slicedAxes(c, b) {
		if r := a.decide.Range(axis); r.Hi.IsFinite() && !r.Hi.AtLeast(1) {
			return "the TensorIterator's sliced axis is empty" + a.whereItRuns(axis)
		}
	}
	return ""
}

// slicedAxes are the dims of a TensorIterator's sliced inputs along
// their axes of slicing, where known at every input shape (dims that
// hold at the declared shapes only are left out).
func (a *Analysis) slicedAxes(c *call, b ops.Body) []sym.Expr {
	var axes []sym.Expr
	for p, ext := range b.Feeds {
		if !b.Sliced[p] || ext < 0 || ext >= len(c.ins) {
			continue
		}
		v := c.ins[ext]
		if v.Rank <= 0 || len(v.Dims) != v.Rank || v.DeclaredDims {
			continue
		}
		axis := b.SliceAxis[p]
		if axis < 0 {
			axis += int64(v.Rank)
		}
		if axis >= 0 && axis < int64(v.Rank) {
			axes = append(axes, v.Dims[axis])
		}
	}
	return axes
}

// scanRequires records that each sliced input of a TensorIterator of an
// ONNX model (its import of Scan, the one op it makes one of) has an
// axis of at least one element: ONNX Runtime 1.30 fails a Scan over
// nothing ("Invalid dim0_offset of 0. Dimension 0 is 0"), where OpenVINO
// runs no iteration.
func (a *Analysis) scanRequires(l *ir.Layer, ins []*Value, ti *ops.TensorIterator) {
	bodies := ti.Bodies(a.inputInfos(l))
	if len(bodies) != 1 {
		return
	}
	b := bodies[0]
	for p, ext := range b.Feeds {
		if !b.Sliced[p] || ext < 0 || ext >= len(ins) {
			continue
		}
		v := ins[ext]
		axis := b.SliceAxis[p]
		if axis < 0 {
			axis += int64(v.Rank)
		}
		if v.Rank > 0 && len(v.Dims) == v.Rank && axis >= 0 && axis < int64(v.Rank) {
			a.requireDim(l, v, int(axis), sym.Range{Lo: sym.Finite(1), Hi: sym.PosInf}, "scans an axis of at least one element, as ONNX Runtime requires", true)
		}
	}
}
