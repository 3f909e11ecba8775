package ops

import (
	"slices"
	"strconv"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// Gather and the slices: ops that pick elements of their data by index.

// Gather is Gather-1, Gather-7 or Gather-8: data[..., indices, ...] along
// the axis given by the third input, with BatchDims leading dimensions in
// common (Gather-7 and -8). Negative indices count from the end and an
// index out of range gives zeros: OpenVINO's reference does both for every
// version (src/core/reference/include/openvino/reference/gather.hpp), as
// the Gather-8 specification documents.
type Gather struct {
	Version   int
	BatchDims int64
}

// StridedSlice is StridedSlice-1: begin, end and optional strides inputs,
// with the five masks (a 1 at position i sets the mask for slice index i):
// BeginMask and EndMask ignore begin[i] or end[i], NewAxisMask inserts a
// dimension of 1, ShrinkAxisMask takes the single index begin[i] and drops
// the dimension (out of range: an error, as OpenVINO's slice plan
// asserts), EllipsisMask stands for the dimensions not otherwise named.
type StridedSlice struct {
	BeginMask, EndMask, NewAxisMask, ShrinkAxisMask, EllipsisMask []int64
}

// Slice is Slice-8: start, stop and step inputs and an optional axes input
// (default 0, 1, ...), with Python's clipping of out-of-range bounds.
type Slice struct{}

func registerGatherSlice() {
	register("Gather", []int{1, 7, 8}, func(l *ir.Layer, v int) (Op, error) {
		g := &Gather{Version: v}
		if v > 1 {
			g.BatchDims = attrs{l}.int("batch_dims", 0)
		}
		return g, nil
	})
	register("StridedSlice", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		a := attrs{l}
		return &StridedSlice{
			BeginMask: a.ints("begin_mask"), EndMask: a.ints("end_mask"), NewAxisMask: a.ints("new_axis_mask"),
			ShrinkAxisMask: a.ints("shrink_axis_mask"), EllipsisMask: a.ints("ellipsis_mask"),
		}, nil
	}))
	register("Slice", []int{8}, unversioned(func(*ir.Layer) (Op, error) { return &Slice{}, nil }))
}

// Gather

func (g *Gather) OpType() (string, string) { return "Gather", opset(g.Version) }

func (g *Gather) Attrs() []ir.Attr {
	if g.Version == 1 {
		return nil
	}
	return []ir.Attr{attr("batch_dims", strconv.FormatInt(g.BatchDims, 10))}
}

// gatherAxes resolves the axis (when known) and batch_dims of a Gather.
func (g *Gather) gatherAxes(in []ValueInfo) (axis, batchDims int64, axisKnown bool, err error) {
	dataRank, dataStatic := rankOf(in[0].Shape)
	idxRank, idxStatic := rankOf(in[1].Shape)
	batchDims = g.BatchDims
	if batchDims < 0 && idxStatic {
		batchDims += int64(idxRank)
	}
	if v, ok := constInts(in[2]); ok && len(v) > 0 {
		axis, axisKnown = v[0], true
		if dataStatic {
			n, err := normalizeAxis(axis, dataRank)
			if err != nil {
				return 0, 0, false, err
			}
			axis = int64(n)
		}
		if !(batchDims <= axis || batchDims < 0 || axis < 0) {
			return 0, 0, false, errorf("%w: After normalization batch_dims must be <= axis. But instead got: batch_dims = %d, axis = %d", ErrAttribute, batchDims, axis)
		}
	}
	if idxStatic && batchDims < 0 {
		return 0, 0, false, errorf("%w: The batch_dims must be >= -indices_rank. But instead got: batch_dims = %d, indices_rank = %d", ErrAttribute, g.BatchDims, idxRank)
	}
	if idxStatic && batchDims >= 0 && batchDims > int64(idxRank) {
		return 0, 0, false, errorf("%w: The batch_dims must be <= indices_rank. But instead got: batch_dims = %d, indices_rank = %d", ErrAttribute, batchDims, idxRank)
	}
	return axis, batchDims, axisKnown, nil
}

func (g *Gather) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 3, 3); err != nil {
		return nil, err
	}
	if err := checkIntegral(in[1].Type, "Indices"); err != nil {
		return nil, err
	}
	if err := checkIntegral(in[2].Type, "Axis"); err != nil {
		return nil, err
	}
	if s := in[2].Shape; s.IsStatic() {
		if !(len(s.Dims) == 0 || len(s.Dims) == 1 && s.Dims[0].Min == 1) {
			return nil, errorf("%w: Axis input must be scalar or have 1 element. But instead got axis_shape = %s", ErrShape, s)
		}
	}
	axis, batchDims, axisKnown, err := g.gatherAxes(in)
	if err != nil {
		return nil, err
	}
	data, idx := in[0].Shape, in[1].Shape
	if data.DynamicRank || idx.DynamicRank {
		return []ValueInfo{{Type: in[0].Type, Shape: shapeinfer.DynamicRankShape()}}, nil
	}
	if batchDims >= int64(len(data.Dims)) {
		return nil, errorf("%w: The batch_dims must be < data_rank. But instead got: batch_dims = %d, data_rank = %d", ErrAttribute, batchDims, len(data.Dims))
	}
	outRank := len(data.Dims) + len(idx.Dims) - 1 - int(batchDims)
	if outRank < 0 {
		return nil, errorf("%w: Gather output rank %d is negative (data %s, indices %s, batch_dims %d)", ErrShape, outRank, data, idx, batchDims)
	}
	out := dynamicShape(outRank)
	i := 0
	for ; i < int(batchDims); i++ {
		if i >= len(data.Dims) {
			return nil, errorf("%w: batch_dims %d is larger than the data rank %d", ErrShape, batchDims, len(data.Dims))
		}
		d, ok := shapeinfer.Merge(data.Dims[i], idx.Dims[i])
		if !ok {
			return nil, errorf("%w: Shapes %s and %s are not consistent. data and indices must have equal or intersecting sizes until batch_dims", ErrShape, data, idx)
		}
		out.Dims[i] = d
	}
	if axisKnown {
		a, idxRank := int(axis), len(idx.Dims)
		for ; i < a; i++ {
			out.Dims[i] = data.Dims[i]
		}
		for ; i < a+idxRank-int(batchDims); i++ {
			out.Dims[i] = idx.Dims[int(batchDims)-a+i]
		}
		for ; i < outRank; i++ {
			out.Dims[i] = data.Dims[int(batchDims)+1-idxRank+i]
		}
	}
	return []ValueInfo{{Type: in[0].Type, Shape: out}}, nil
}

func (g *Gather) evaluate(in, out []*ir.Tensor, _ Options) error {
	infos := []ValueInfo{
		{Shape: staticDims(in[0].Shape)}, {Shape: staticDims(in[1].Shape)}, {Shape: staticDims(in[2].Shape), Value: in[2]},
	}
	a64, b64, _, err := g.gatherAxes(infos)
	if err != nil {
		return err
	}
	data, indices, dst := in[0], in[1], out[0]
	dd, id := data.Shape, indices.Shape
	axis, batch := int(a64), int(b64)
	prod := func(s []int64) int {
		n := 1
		for _, d := range s {
			n *= int(d)
		}
		return n
	}
	batchSize := prod(dd[:batch])
	outerSize := prod(dd[batch:axis])
	idxSize := prod(id[batch:])
	innerSize := prod(dd[axis+1:])
	axisSize := int64(dd[axis])
	batchData, batchOut, batchIdx := prod(dd[batch:]), prod(dst.Shape[batch:]), idxSize
	size := data.Type.Size()
	for b := range batchSize {
		for o := range outerSize {
			dataOff := batchData*b + innerSize*int(axisSize)*o
			outOff := batchOut*b + idxSize*innerSize*o
			for i := range idxSize {
				k := intAt(indices, i+batchIdx*b)
				if isU64(indices.Type) && k < 0 {
					continue // beyond 2^63: out of range
				}
				if k < 0 {
					k += axisSize
				}
				if k < 0 || k >= axisSize {
					continue // zeros, as NewTensor left them
				}
				copyElems(dst, outOff+innerSize*i, data, dataOff+innerSize*int(k), innerSize, size)
			}
		}
	}
	return nil
}

// slicedValue is OpenVINO's slice::get_sliced_value: the length of
// dim[start:stop:step] (dim -1 for an unbounded one, then -1 for an
// unbounded result).
func slicedValue(dim, start, stop, step int64) int64 {
	rev := step < 0
	normDim := dim
	if dim == -1 {
		normDim = maxInt64
	}
	dimMax := normDim == maxInt64
	startNeg := start < 0
	diffSign := startNeg != (stop < 0)
	startMax, stopMax := start == maxInt64, stop == maxInt64
	startLimit := startMax || start == minInt64
	anyMax := startMax || stopMax
	var lb, ub int64
	if dimMax && (diffSign || anyMax || startLimit) {
		switch {
		case rev && (startNeg || anyMax):
			ub = -1
		case rev:
			ub = -1 - start
		case startNeg && !startLimit && stopMax:
			ub = -start
		case startNeg && !startLimit:
			ub = stop
		default:
			ub = -1
		}
	} else {
		lowerMax, upperMin := normDim, int64(0)
		if rev {
			lowerMax, upperMin = normDim-1, -1
		}
		norm := func(v int64) int64 {
			if v < 0 {
				return v + normDim
			}
			return v
		}
		lb = clip(norm(start), 0, lowerMax)
		ub = clip(norm(stop), upperMin, normDim)
	}
	if dimMax && lb == 0 && ub == -1 {
		return -1
	}
	var v int64
	if rev {
		v = min(0, ub-lb)
	} else {
		v = max(0, ub-lb)
	}
	switch {
	case step == -1:
		v = -v
	case v != 0 && step != 1:
		if rev {
			v++
		} else {
			v--
		}
		v = v/step + 1
	}
	return v
}

// slicedDim is slice::make_dim for known start and stop values.
func slicedDim(d shapeinfer.Dim, start, stop, step int64) shapeinfer.Dim {
	maxLen := d.Max
	if maxLen == unbounded {
		maxLen = -1
	}
	return shapeinfer.Interval(slicedValue(d.Min, start, stop, step), slicedValue(maxLen, start, stop, step))
}

// sliceIndex is where a slice starts in a static dimension, and its step:
// element c of the slice is begin + c*step.
func sliceIndex(dim, start, step int64) int64 {
	if start < 0 {
		start += dim
	}
	if step < 0 {
		return clip(start, 0, dim-1)
	}
	return clip(start, 0, dim)
}

// StridedSlice

func (*StridedSlice) OpType() (string, string) { return "StridedSlice", "opset1" }

func (s *StridedSlice) Attrs() []ir.Attr {
	return []ir.Attr{
		attr("begin_mask", formatInts(s.BeginMask)), attr("end_mask", formatInts(s.EndMask)),
		attr("new_axis_mask", formatInts(s.NewAxisMask)), attr("shrink_axis_mask", formatInts(s.ShrinkAxisMask)),
		attr("ellipsis_mask", formatInts(s.EllipsisMask)),
	}
}

func maskSet(mask []int64, i int) bool { return i < len(mask) && mask[i] == 1 }

func maskCount(mask []int64) int {
	n := 0
	for _, m := range mask {
		if m == 1 {
			n++
		}
	}
	return n
}

func (s *StridedSlice) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 3, 4); err != nil {
		return nil, err
	}
	for i, name := range []string{"Begin", "End", "Strides"}[:len(in)-1] {
		if err := checkIntegral(in[i+1].Type, name); err != nil {
			return nil, err
		}
		if r := in[i+1].Shape.Rank(); r >= 0 && r != 1 {
			return nil, errorf("%w: %s input must be 1D (has rank: %d)", ErrShape, name, r)
		}
	}
	input := in[0].Shape
	result := func(shape shapeinfer.Shape) ([]ValueInfo, error) {
		return []ValueInfo{{Type: in[0].Type, Shape: shape}}, nil
	}
	if input.DynamicRank {
		return result(shapeinfer.DynamicRankShape())
	}
	begin, beginKnown := constInts(in[1])
	end, endKnown := constInts(in[2])
	var strides []int64
	stridesKnown := false
	if len(in) > 3 {
		strides, stridesKnown = constInts(in[3])
	} else if beginKnown {
		strides, stridesKnown = slices.Repeat([]int64{1}, len(begin)), true
	}
	length := func(v ValueInfo) int {
		if v.Shape.IsStatic() {
			return int(v.Shape.Dims[0].Min)
		}
		return -1
	}
	n, endN := length(in[1]), length(in[2])
	if n >= 0 && endN >= 0 && n != endN {
		return nil, errorf("%w: Begin and end need to have same number of values.", ErrShape)
	} else if endN >= 0 {
		n = endN
	}
	stridesN := -1
	if stridesKnown {
		stridesN = len(strides)
	}
	if n >= 0 && stridesN >= 0 && n != stridesN {
		return nil, errorf("%w: Stride needs to have same number of values as begin and end.", ErrShape)
	} else if stridesN >= 0 {
		n = stridesN
	}
	if n < 0 {
		return result(shapeinfer.DynamicRankShape())
	}
	if maskCount(s.EllipsisMask) > 1 {
		return nil, errorf("%w: At most one ellipsis is allowed.", ErrAttribute)
	}
	rank := len(input.Dims)
	if maskCount(s.EllipsisMask) == 0 && rank+maskCount(s.NewAxisMask) < n {
		return nil, errorf("%w: Input rank plus number of new axis has to be at least the size of Lower and Upper bounds vector.", ErrShape)
	}
	out := shapeinfer.Shape{Dims: []shapeinfer.Dim{}}
	idx := 0
	for axis := range n {
		switch {
		case maskSet(s.EllipsisMask, axis):
			before, newAfter := 0, 0
			for i := range axis {
				if !maskSet(s.NewAxisMask, i) {
					before++
				}
			}
			if beginKnown {
				for i := axis + 1; i < len(begin); i++ {
					if maskSet(s.NewAxisMask, i) {
						newAfter++
					}
				}
			}
			after := n - axis - newAfter - 1
			for range rank - after - before {
				if idx >= rank {
					return nil, errorf("%w: StridedSlice names more axes than the input's %d", ErrShape, rank)
				}
				out.Dims = append(out.Dims, input.Dims[idx])
				idx++
			}
		case maskSet(s.NewAxisMask, axis):
			out.Dims = append(out.Dims, shapeinfer.Static(1))
		case idx >= rank:
			return nil, errorf("%w: StridedSlice names more axes than the input's %d", ErrShape, rank)
		case maskSet(s.ShrinkAxisMask, axis):
			idx++
		case beginKnown && endKnown && stridesKnown:
			d := input.Dims[idx]
			step := int64(1)
			if axis < len(strides) {
				step = strides[axis]
			}
			if step == 0 {
				return nil, errorf("%w: Stride must be non-zero", ErrAttribute)
			}
			normDim := d.Max
			start, stop := begin[axis], end[axis]
			if maskSet(s.BeginMask, axis) {
				start = 0
				if step < 0 {
					start = normDim
				}
			}
			if maskSet(s.EndMask, axis) {
				stop = normDim
				if step < 0 {
					stop = -1 - normDim
				}
			}
			out.Dims = append(out.Dims, slicedDim(d, start, stop, step))
			idx++
		default:
			out.Dims = append(out.Dims, shapeinfer.Interval(0, maxOrInf(input.Dims[idx])))
			idx++
		}
	}
	out.Dims = append(out.Dims, input.Dims[min(idx, rank):]...)
	return result(out)
}

// maxOrInf returns a dimension's upper bound, -1 when unbounded.
func maxOrInf(d shapeinfer.Dim) int64 {
	if d.Max == unbounded {
		return -1
	}
	return d.Max
}

// slicePlan is one input axis of a slice: where it starts, its step and
// how many elements it takes.
type slicePlan struct{ begin, step, count int64 }

// plan desugars the slice on a static input shape as OpenVINO's
// make_slice_plan does (src/core/src/op/util/slice_plan.cpp).
func (s *StridedSlice) plan(shape []int64, begin, end, strides []int64) ([]slicePlan, error) {
	n := len(begin)
	real := 0
	for i := range n {
		if !maskSet(s.EllipsisMask, i) && !maskSet(s.NewAxisMask, i) {
			real++
		}
	}
	if real > len(shape) {
		return nil, errorf("%w: StridedSlice names %d axes of a rank %d input", ErrShape, real, len(shape))
	}
	ellipsis := len(shape) - real
	var p []slicePlan
	expand := func() {
		for range ellipsis {
			d := shape[len(p)]
			p = append(p, slicePlan{0, 1, d})
		}
	}
	found := false
	for i := range n {
		switch {
		case maskSet(s.NewAxisMask, i):
		case maskSet(s.ShrinkAxisMask, i):
			d := shape[len(p)]
			b := begin[i]
			if b < -d || b >= d {
				return nil, errorf("%w: StridedSlice shrinks axis %d of size %d at index %d, out of range", ErrShape, len(p), d, b)
			}
			if b < 0 {
				b += d
			}
			p = append(p, slicePlan{b, 1, 1})
		case maskSet(s.EllipsisMask, i):
			if !found {
				found = true
				expand()
			}
		default:
			d := shape[len(p)]
			st := strides[i]
			if st == 0 {
				return nil, errorf("%w: Stride must be non-zero", ErrAttribute)
			}
			rev := st < 0
			b, e := begin[i], end[i]
			switch {
			case maskSet(s.BeginMask, i) && rev:
				b = d - 1
			case maskSet(s.BeginMask, i):
				b = 0
			case b < 0:
				b += d
			}
			switch {
			case maskSet(s.EndMask, i) && rev:
				e = -1
			case maskSet(s.EndMask, i):
				e = d
			case e < 0:
				e += d
			}
			var count int64
			if rev {
				b, e = clip(b, 0, d-1), clip(e, -1, d)
				if b > e {
					count = (b-e-1)/-st + 1
				}
			} else {
				b, e = clip(b, 0, d), clip(e, 0, d)
				if e > b {
					count = (e-b-1)/st + 1
				}
			}
			p = append(p, slicePlan{b, st, count})
		}
	}
	if !found {
		expand()
	}
	return p, nil
}

func (s *StridedSlice) evaluate(in, out []*ir.Tensor, _ Options) error {
	begin, end := ints(in[1]), ints(in[2])
	strides := slices.Repeat([]int64{1}, len(begin))
	if len(in) > 3 {
		strides = ints(in[3])
	}
	p, err := s.plan(in[0].Shape, begin, end, strides)
	if err != nil {
		return err
	}
	return gatherPlan(in[0], out[0], p)
}

// gatherPlan copies the elements a plan selects, in row-major order of
// the plan's axes, which is the output's order.
func gatherPlan(src, dst *ir.Tensor, p []slicePlan) error {
	counts := make([]int64, len(p))
	n := int64(1)
	for i, a := range p {
		counts[i] = max(a.count, 0)
		n *= counts[i]
	}
	if n != int64(dst.Len()) {
		return errorf("slice of %d elements for an output of shape %v", n, dst.Shape)
	}
	strides := rowMajor(src.Shape)
	size := src.Type.Size()
	coord := make([]int, len(p))
	for o := range dst.Len() {
		unflatten(o, counts, coord)
		s := int64(0)
		for i, c := range coord {
			s += (p[i].begin + int64(c)*p[i].step) * int64(strides[i])
		}
		copyElems(dst, o, src, int(s), 1, size)
	}
	return nil
}

// Slice

func (*Slice) OpType() (string, string) { return "Slice", "opset8" }
func (*Slice) Attrs() []ir.Attr         { return nil }

// sliceAxes returns the axes of a Slice (0.. by default) when known.
func sliceAxes(in []ValueInfo, n, rank int) ([]int, bool, error) {
	if len(in) < 5 {
		axes := make([]int, n)
		for i := range axes {
			axes[i] = i
		}
		if n > rank {
			return nil, false, errorf("%w: Slice has %d starts for a rank %d input", ErrShape, n, rank)
		}
		return axes, true, nil
	}
	v, ok := constInts(in[4])
	if !ok {
		return nil, false, nil
	}
	axes, err := normalizeAxes(v, rank)
	if err != nil {
		return nil, false, err
	}
	if hasDuplicates(axes) {
		return nil, false, errorf("%w: Slice values in `axes` input must be unique.", ErrAttribute)
	}
	return axes, true, nil
}

func (*Slice) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 4, 5); err != nil {
		return nil, err
	}
	names := []string{"start", "stop", "step", "axes"}
	length := -1
	for i := 1; i < len(in); i++ {
		if err := checkIntegral(in[i].Type, "Slice `"+names[i-1]+"`"); err != nil {
			return nil, err
		}
		s := in[i].Shape
		if r := s.Rank(); r >= 0 && r != 1 {
			return nil, errorf("%w: Slice `%s` input must be a 1D tensor. Got rank: %d", ErrShape, names[i-1], r)
		}
		if s.IsStatic() {
			if length >= 0 && int(s.Dims[0].Min) != length {
				return nil, errorf("%w: Slice `start`, `stop`, `step` inputs must have compatible shapes.", ErrShape)
			}
			length = int(s.Dims[0].Min)
		}
	}
	data := in[0].Shape
	result := func(shape shapeinfer.Shape) ([]ValueInfo, error) {
		return []ValueInfo{{Type: in[0].Type, Shape: shape}}, nil
	}
	if data.DynamicRank {
		return result(data)
	}
	start, startOK := constInts(in[1])
	stop, stopOK := constInts(in[2])
	step, stepOK := constInts(in[3])
	if stepOK && slices.Contains(step, 0) {
		return nil, errorf("%w: Slice step cannot be zero.", ErrAttribute)
	}
	out := shapeinfer.Shape{Dims: slices.Clone(data.Dims)}
	if length < 0 {
		for i, d := range out.Dims {
			out.Dims[i] = shapeinfer.Interval(0, maxOrInf(d))
		}
		return result(out)
	}
	axes, axesOK, err := sliceAxes(in, length, len(data.Dims))
	if err != nil {
		return nil, err
	}
	if !axesOK {
		for i, d := range out.Dims {
			out.Dims[i] = shapeinfer.Interval(0, maxOrInf(d))
		}
		return result(out)
	}
	for i, a := range axes {
		d := data.Dims[a]
		if startOK && stopOK && stepOK {
			out.Dims[a] = slicedDim(d, start[i], stop[i], step[i])
		} else {
			out.Dims[a] = shapeinfer.Interval(0, maxOrInf(d))
		}
	}
	return result(out)
}

func (*Slice) evaluate(in, out []*ir.Tensor, _ Options) error {
	start, step := ints(in[1]), ints(in[3])
	infos := make([]ValueInfo, len(in))
	for i, t := range in {
		infos[i] = ValueInfo{Type: t.Type, Shape: staticDims(t.Shape), Value: t}
	}
	axes, _, err := sliceAxes(infos, len(start), len(in[0].Shape))
	if err != nil {
		return err
	}
	p := make([]slicePlan, len(in[0].Shape))
	for i, d := range in[0].Shape {
		p[i] = slicePlan{0, 1, d}
	}
	for i, a := range axes {
		d := in[0].Shape[a]
		p[a] = slicePlan{sliceIndex(d, start[i], step[i]), step[i], out[0].Shape[a]}
	}
	return gatherPlan(in[0], out[0], p)
}
