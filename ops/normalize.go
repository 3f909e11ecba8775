package ops

import (
	"slices"
	"strconv"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// The normalizations, which irdiv infers and does not evaluate (Evaluate
// gives ErrUnsupportedOp).

// Softmax is Softmax-1 (a non-negative Axis) or Softmax-8 (negative axes
// count from the end).
type Softmax struct {
	Version int
	Axis    int64
}

// BatchNormInference is BatchNormInference-1 (inputs gamma, beta, data,
// mean, variance) or BatchNormInference-5 (data, gamma, beta, mean,
// variance).
type BatchNormInference struct {
	Version int
	Epsilon float64
}

func registerNormalize() {
	register("Softmax", []int{1, 8}, func(l *ir.Layer, v int) (Op, error) {
		return &Softmax{Version: v, Axis: attrs{l}.int("axis", 1)}, nil
	})
	register("BatchNormInference", []int{1, 5}, func(l *ir.Layer, v int) (Op, error) {
		return &BatchNormInference{Version: v, Epsilon: attrs{l}.float("epsilon", 0)}, nil
	})
}

// Softmax

func (s *Softmax) OpType() (string, string) { return "Softmax", opset(s.Version) }

func (s *Softmax) Attrs() []ir.Attr { return []ir.Attr{attr("axis", strconv.FormatInt(s.Axis, 10))} }

func (s *Softmax) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 1, 1); err != nil {
		return nil, err
	}
	if r := in[0].Shape.Rank(); r >= 0 {
		if s.Version == 1 && (s.Axis < 0 || s.Axis >= int64(r)) {
			return nil, errorf("%w: Reduction axis (%d) is out of bounds (argument shape: %s).", ErrAttribute, s.Axis, in[0].Shape)
		}
		if _, err := normalizeAxis(s.Axis, r); err != nil {
			return nil, err
		}
	}
	return []ValueInfo{{Type: in[0].Type, Shape: in[0].Shape}}, nil
}

// BatchNormInference

func (b *BatchNormInference) OpType() (string, string) { return "BatchNormInference", opset(b.Version) }

func (b *BatchNormInference) Attrs() []ir.Attr {
	return []ir.Attr{attr("epsilon", formatFloat(b.Epsilon))}
}

func (b *BatchNormInference) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 5, 5); err != nil {
		return nil, err
	}
	data, channels := in[0], []ValueInfo{in[1], in[2], in[3], in[4]}
	if b.Version == 1 {
		data, channels = in[2], []ValueInfo{in[0], in[1], in[3], in[4]}
	}
	if !(b.Epsilon >= 0) {
		return nil, errorf("%w: Attribute 'epsilon' must be a floating-point value greater than or equal to zero. Got: %v", ErrAttribute, b.Epsilon)
	}
	t := data.Type
	for _, c := range channels {
		var ok bool
		if t, ok = mergeTypes(t, c.Type); !ok {
			return nil, errorf("%w: Input element types do not match.", ErrType)
		}
	}
	if t != ir.Dynamic && !t.IsFloat() {
		return nil, errorf("%w: Input element types must be floating-point. Got: %s", ErrType, t)
	}
	ch := shapeinfer.Dynamic()
	for _, c := range channels {
		if c.Shape.DynamicRank {
			continue
		}
		if len(c.Shape.Dims) != 1 {
			return nil, errorf("%w: Shape for gamma/beta/mean/variance (%s) does not have rank 1.", ErrShape, c.Shape)
		}
		var ok bool
		if ch, ok = shapeinfer.Merge(ch, c.Shape.Dims[0]); !ok {
			return nil, errorf("%w: Shapes for gamma/beta/mean/variance do not match.", ErrShape)
		}
	}
	out := data.Shape
	if !out.DynamicRank {
		if len(out.Dims) < 2 {
			return nil, errorf("%w: Input argument must have rank of at least 2 (input argument shape: %s).", ErrShape, out)
		}
		out = shapeinfer.Shape{Dims: slices.Clone(out.Dims)}
		var ok bool
		if out.Dims[1], ok = shapeinfer.Merge(out.Dims[1], ch); !ok {
			return nil, errorf("%w: Input channel dimension (%s) does not match shape for gamma/beta/mean/variance (%s).", ErrShape, data.Shape.Dims[1], ch)
		}
	}
	return []ValueInfo{{Type: t, Shape: out}}, nil
}
