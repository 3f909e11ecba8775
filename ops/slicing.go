package ops

import (
	"math"
	"slices"
	"strconv"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// Split is Split-1: NumSplits equal parts along the axis given by the
// second input.
type Split struct{ NumSplits int64 }

// VariadicSplit is VariadicSplit-1: parts of the lengths given by the
// third input (one of them may be -1, the rest of the axis) along the axis
// given by the second.
type VariadicSplit struct{}

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

// Split

func (*Split) OpType() (string, string) { return "Split", "opset1" }

func (s *Split) Attrs() []ir.Attr {
	return []ir.Attr{attr("num_splits", strconv.FormatInt(s.NumSplits, 10))}
}

// splitAxis returns the normalized axis of a Split or VariadicSplit when
// it and the data rank are known.
func splitAxis(data, axis ValueInfo) (int, bool, error) {
	if err := checkIntegral(axis.Type, "Axis"); err != nil {
		return 0, false, err
	}
	if r := axis.Shape.Rank(); r > 0 {
		return 0, false, errorf("%w: Axis should be a scalar. Got: %s", ErrShape, axis.Shape)
	}
	v, ok := constInts(axis)
	if !ok || data.Shape.DynamicRank {
		return 0, false, nil
	}
	a, err := normalizeAxis(v[0], len(data.Shape.Dims))
	return a, err == nil, err
}

func (s *Split) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 2, 2); err != nil {
		return nil, err
	}
	if s.NumSplits <= 0 {
		return nil, errorf("%w: Attribute 'num_splits' must be greater than zero. Got: %d", ErrAttribute, s.NumSplits)
	}
	axis, known, err := splitAxis(in[0], in[1])
	if err != nil {
		return nil, err
	}
	if err := checkOutputCount("num_splits", s.NumSplits); err != nil {
		return nil, err
	}
	shape := in[0].Shape
	switch {
	case shape.DynamicRank:
	case !known:
		shape = dynamicShape(len(shape.Dims))
	default:
		shape = shapeinfer.Shape{Dims: slices.Clone(shape.Dims)}
		d := shape.Dims[axis]
		if d.IsStatic() && d.Min%s.NumSplits != 0 {
			return nil, errorf("%w: Dimension of data input shape along 'axis': %d must be evenly divisible by 'num_splits' attribute value: %d", ErrShape, d.Min, s.NumSplits)
		}
		shape.Dims[axis] = shapeinfer.Dim{Min: ceilDiv(d.Min, s.NumSplits), Max: d.Max}
		if d.Max != unbounded {
			shape.Dims[axis].Max = d.Max / s.NumSplits
		}
	}
	out := make([]ValueInfo, s.NumSplits)
	for i := range out {
		out[i] = ValueInfo{Type: in[0].Type, Shape: shape}
	}
	return out, nil
}

// maxSplitOutputs bounds the outputs of a Split or VariadicSplit, which
// are allocated before anything else is known: OpenVINO sets no bound,
// but a layer of more outputs than this is no model anyone runs.
const maxSplitOutputs = 1 << 16

// checkOutputCount refuses more than maxSplitOutputs outputs.
func checkOutputCount(what string, n int64) error {
	if n > maxSplitOutputs {
		return errorf("%w: %s asks for %d outputs; irdiv makes at most %d", ErrAttribute, what, n, maxSplitOutputs)
	}
	return nil
}

// splitEvaluate copies consecutive parts of src along axis into out.
func splitEvaluate(src *ir.Tensor, axis int, out []*ir.Tensor) {
	outer := 1
	for _, d := range src.Shape[:axis] {
		outer *= int(d)
	}
	inner := 1
	for _, d := range src.Shape[axis+1:] {
		inner *= int(d)
	}
	size := src.Type.Size()
	pos := 0
	for o := range outer {
		for _, t := range out {
			n := int(t.Shape[axis]) * inner
			copyElems(t, o*n, src, pos, n, size)
			pos += n
		}
	}
}

func (s *Split) evaluate(in, out []*ir.Tensor, _ Options) error {
	axis, _ := normalizeAxis(intAt(in[1], 0), len(in[0].Shape))
	splitEvaluate(in[0], axis, out)
	return nil
}

// VariadicSplit

func (*VariadicSplit) OpType() (string, string) { return "VariadicSplit", "opset1" }
func (*VariadicSplit) Attrs() []ir.Attr         { return nil }

func (*VariadicSplit) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 3, 3); err != nil {
		return nil, err
	}
	if err := checkIntegral(in[2].Type, "Split lengths"); err != nil {
		return nil, err
	}
	ls := in[2].Shape
	if r := ls.Rank(); r >= 0 && r != 1 {
		return nil, errorf("%w: Split lengths should be a 1D tensor. Got: %s", ErrShape, ls)
	}
	if !ls.IsStatic() {
		return nil, errorf("%w: the number of VariadicSplit outputs is unknown: split lengths of shape %s", ErrShape, ls)
	}
	if err := checkOutputCount("the split lengths input", ls.Dims[0].Min); err != nil {
		return nil, err
	}
	n := int(ls.Dims[0].Min)
	axis, known, err := splitAxis(in[0], in[1])
	if err != nil {
		return nil, err
	}
	data := in[0].Shape
	out := make([]ValueInfo, n)
	lengths, lengthsKnown := constInts(in[2])
	for i := range out {
		out[i] = ValueInfo{Type: in[0].Type}
		switch {
		case data.DynamicRank:
			out[i].Shape = shapeinfer.DynamicRankShape()
		case !known:
			out[i].Shape = dynamicShape(len(data.Dims))
		default:
			out[i].Shape = shapeinfer.Shape{Dims: slices.Clone(data.Dims)}
			out[i].Shape.Dims[axis] = shapeinfer.Dynamic()
		}
	}
	if !known || !lengthsKnown {
		return out, nil
	}
	minusOne, sum := -1, int64(0)
	for i, l := range lengths {
		switch {
		case l == -1 && minusOne >= 0:
			return nil, errorf("%w: Cannot infer split with multiple -1 values at %d and %d", ErrShape, minusOne, i)
		case l == -1:
			minusOne = i
		case l < -1:
			return nil, errorf("%w: Invalid value %d in split lengths input. Should be >= -1.", ErrShape, l)
		case sum > math.MaxInt64-l:
			// The lengths must add up to the axis: a sum past 2^63-1
			// must not wrap around to it.
			return nil, errorf("%w: Total length of splits: more than %d must match the length of the chosen axis: %s", ErrShape, int64(math.MaxInt64), data.Dims[axis])
		default:
			sum += l
		}
	}
	d := data.Dims[axis]
	if d.IsStatic() && (minusOne < 0 && sum != d.Min || minusOne >= 0 && sum > d.Min) {
		return nil, errorf("%w: Total length of splits: %d must match the length of the chosen axis: %d", ErrShape, sum, d.Min)
	}
	for i, l := range lengths {
		if i == minusOne {
			rest := shapeinfer.Dim{Min: max(d.Min-sum, 0), Max: d.Max}
			if d.Max != unbounded {
				rest.Max = d.Max - sum
			}
			out[i].Shape.Dims[axis] = rest
		} else {
			out[i].Shape.Dims[axis] = shapeinfer.Static(l)
		}
	}
	return out, nil
}

func (*VariadicSplit) evaluate(in, out []*ir.Tensor, _ Options) error {
	axis, _ := normalizeAxis(intAt(in[1], 0), len(in[0].Shape))
	splitEvaluate(in[0], axis, out)
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
