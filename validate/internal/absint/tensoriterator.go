package absint

import (
	"slices"

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
	if _, nested := a.Holders[c.l]; !nested {
		a.unrollParts(c, b)
	}
	res, ranges, known, _, _ := a.iterate(c, b, func(p, ext int) *Value {
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

// unrollParts walks the body of a TensorIterator of the model once per
// iteration, where its sliced inputs hold the same number of parts at
// every input shape, at most unrolledIterations, and irdiv follows
// their elements: each walk given its parts' own elements and the
// loop-carried values the walk before gave back. The walks keep the
// operands of the body's Divides at each iteration (recordIteration), so
// that a Divide is proven where every iteration's operands agree: (s +
// 2) / 2 of each element s of min([N, -2y], 6) divides a number at least
// 2 or an even one, where the walk for every iteration at once sees a
// part anywhere below 6 (bodies_test's scan-each-part, after seed 62 of
// the differential). The analysis keeps the values of the walks that
// follow, for every iteration at once.
func (a *Analysis) unrollParts(c *call, b ops.Body) {
	n := int64(-1)
	for p, ext := range b.Feeds {
		if !b.Sliced[p] {
			continue
		}
		if ext < 0 || ext >= len(c.ins) {
			return
		}
		k, ok := partsOf(c.ins[ext], b, p)
		if !ok || n >= 0 && k != n {
			return
		}
		n = k
	}
	if n <= 0 || n > unrolledIterations || a.bodyWalks+int(n) > maxBodyWalks {
		return
	}
	ranges, known := a.initialRanges(c, b)
	a.unroll(c, b, n, ranges, known, func(iteration bounds) func(p, ext int) *Value {
		k := iteration.any.Lo.V
		return func(p, ext int) *Value {
			if !b.Sliced[p] {
				return c.ins[ext]
			}
			return part(c.ins[ext], b, p, k, n)
		}
	})
}

// partsOf counts the parts of v, the input of sliced Parameter p: its
// dims constants at every input shape and its elements followed one by
// one.
func partsOf(v *Value, b ops.Body, p int) (int64, bool) {
	dims, ok := v.ConstDims()
	if !ok || !v.Int || v.DeclaredLayout || v.DeclaredDims || len(dims) == 0 || len(v.Elems) == 0 || int64(len(v.Elems)) != product(dims) {
		return 0, false
	}
	axis, ok := NormAxis(b.SliceAxis[p], len(dims))
	if !ok || b.SlicePart[p] <= 0 || dims[axis]%b.SlicePart[p] != 0 {
		return 0, false
	}
	return dims[axis] / b.SlicePart[p], true
}

// part is the part v gives Parameter p at iteration k of n: its elements
// (nil where the Parameter's shape is not the part's).
func part(v *Value, b ops.Body, p int, k, n int64) *Value {
	dims, _ := v.ConstDims()
	axis, _ := NormAxis(b.SliceAxis[p], len(dims))
	size := b.SlicePart[p]
	j := k
	if b.SliceReverse[p] {
		j = n - 1 - k
	}
	partDims := slices.Clone(dims)
	partDims[axis] = size
	if want, ok := b.Params[p].Shape.ToStatic(); !ok || !slices.Equal(want, partDims) {
		return nil
	}
	outer, inner := product(dims[:axis]), product(dims[axis+1:])
	elems := make([]sym.Expr, 0, product(partDims))
	for o := range outer {
		for at := j * size; at < (j+1)*size; at++ {
			start := (o*dims[axis] + at) * inner
			elems = append(elems, v.Elems[start:start+inner]...)
		}
	}
	out := &Value{Type: v.Type, Rank: len(partDims), Static: partDims, Int: true, Elems: elems, Shape: v.Shape}
	for _, d := range partDims {
		out.Dims = append(out.Dims, sym.Const(d))
	}
	return out
}

// product multiplies dims: -1 where that leaves int64.
func product(dims []int64) int64 {
	n, err := ir.NumElements(dims)
	if err != nil {
		return -1
	}
	return n
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
