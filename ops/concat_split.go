package ops

import (
	"math"
	"slices"
	"strconv"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// Concat joins tensors along an axis; Split and VariadicSplit cut one into
// parts along an axis.

// Concat is Concat-1 along Axis (negative counts from the end).
type Concat struct{ Axis int64 }

// Split is Split-1: NumSplits equal parts along the axis given by the
// second input.
type Split struct{ NumSplits int64 }

// VariadicSplit is VariadicSplit-1: parts of the lengths given by the
// third input (one of them may be -1, the rest of the axis) along the axis
// given by the second.
type VariadicSplit struct{}

func registerConcatSplit() {
	register("Concat", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		return &Concat{Axis: attrs{l}.int("axis", 0)}, nil
	}))
	register("Split", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		return &Split{NumSplits: attrs{l}.int("num_splits", 0)}, nil
	}))
	register("VariadicSplit", []int{1}, unversioned(func(*ir.Layer) (Op, error) { return &VariadicSplit{}, nil }))
}

// Concat

func (*Concat) OpType() (string, string) { return "Concat", "opset1" }

func (c *Concat) Attrs() []ir.Attr {
	return []ir.Attr{attr("axis", strconv.FormatInt(c.Axis, 10))}
}

func (c *Concat) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if len(in) == 0 {
		return nil, errorf("%w: At least one argument required.", ir.ErrGraph)
	}
	t := ir.Dynamic
	for _, v := range in {
		var ok bool
		if t, ok = mergeTypes(t, v.Type); !ok {
			return nil, errorf("%w: Argument element types are inconsistent.", ErrType)
		}
	}
	out := shapeinfer.DynamicRankShape()
	axis := 0
	concat := shapeinfer.Static(0)
	for i, v := range in {
		if v.Shape.DynamicRank {
			concat = dimAdd(concat, shapeinfer.Dynamic())
			continue
		}
		rank := len(v.Shape.Dims)
		a := c.Axis
		if a < 0 {
			a += int64(rank)
		}
		if a < 0 || a >= int64(rank) || !out.DynamicRank && rank != len(out.Dims) {
			return nil, errorf("%w: Concatenation axis (%d) is out of bounds [%d, %d] for argument %d, which has shape %s.", ErrShape, c.Axis, -rank, rank-1, i, v.Shape)
		}
		axis = int(a)
		concat = dimAdd(concat, v.Shape.Dims[axis])
		if out.DynamicRank {
			out = shapeinfer.Shape{Dims: slices.Clone(v.Shape.Dims)}
			continue
		}
		for d := range out.Dims {
			if d == axis {
				continue
			}
			m, ok := shapeinfer.Merge(out.Dims[d], v.Shape.Dims[d])
			if !ok {
				return nil, errorf("%w: Argument shapes are inconsistent; they must have the same rank, and must have equal dimension everywhere except on the concatenation axis (axis %d).", ErrShape, axis)
			}
			out.Dims[d] = m
		}
	}
	if !out.DynamicRank {
		out.Dims[axis] = concat
	}
	return []ValueInfo{{Type: t, Shape: out}}, nil
}

func (c *Concat) evaluate(in, out []*ir.Tensor, _ Options) error {
	axis, _ := normalizeAxis(c.Axis, len(out[0].Shape))
	copyAlongAxis(out[0], in, axis, true)
	return nil
}

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

// copyAlongAxis copies between whole and its consecutive parts along
// axis: into whole when join is true (Concat), out of it otherwise
// (Split, VariadicSplit).
func copyAlongAxis(whole *ir.Tensor, parts []*ir.Tensor, axis int, join bool) {
	outer := 1
	for _, d := range whole.Shape[:axis] {
		outer *= int(d)
	}
	inner := 1
	for _, d := range whole.Shape[axis+1:] {
		inner *= int(d)
	}
	size := whole.Type.Size()
	pos := 0
	for o := range outer {
		for _, t := range parts {
			n := int(t.Shape[axis]) * inner
			if join {
				copyElems(whole, pos, t, o*n, n, size)
			} else {
				copyElems(t, o*n, whole, pos, n, size)
			}
			pos += n
		}
	}
}

func (s *Split) evaluate(in, out []*ir.Tensor, _ Options) error {
	axis, _ := normalizeAxis(intAt(in[1], 0), len(in[0].Shape))
	copyAlongAxis(in[0], out, axis, false)
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
	copyAlongAxis(in[0], out, axis, false)
	return nil
}
