package ops

import (
	"math"
	"slices"
	"strconv"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// The normalizations, which irdiv infers and, but for MVN, does not
// evaluate (Evaluate gives ErrUnsupportedOp).

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

// MVN is MVN-6: data minus its mean over the axes of input 1, divided by
// the square root of the variance plus Eps (EpsMode "inside_sqrt") or by
// the square root plus Eps ("outside_sqrt") when NormalizeVariance is
// set. OpenVINO's ONNX frontend writes InstanceNormalization with it.
type MVN struct {
	NormalizeVariance bool
	Eps               float64
	EpsMode           string
}

func registerNormalize() {
	register("MVN", []int{6}, unversioned(func(l *ir.Layer) (Op, error) {
		a := attrs{l}
		m := &MVN{NormalizeVariance: a.bool("normalize_variance", true), Eps: a.float("eps", 0)}
		mode, err := a.enum("eps_mode", "ov::op::MVNEpsMode", []string{"inside_sqrt", "outside_sqrt"}, 0)
		m.EpsMode = []string{"inside_sqrt", "outside_sqrt"}[mode]
		return m, err
	}))
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

// MVN

func (*MVN) OpType() (string, string) { return "MVN", "opset6" }

func (m *MVN) Attrs() []ir.Attr {
	return []ir.Attr{attr("eps", formatFloat(m.Eps)), attr("eps_mode", m.EpsMode), attr("normalize_variance", formatBool(m.NormalizeVariance))}
}

func (m *MVN) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 2, 2); err != nil {
		return nil, err
	}
	if t := in[0].Type; t != ir.Dynamic && !t.IsFloat() {
		return nil, errorf("%w: Input element type must be floating-point. Got: %s", ErrType, t)
	}
	if t := in[1].Type; t != ir.Dynamic && t != ir.I32 && t != ir.I64 {
		return nil, errorf("%w: Expected axes element type to be i32 or i64 tensor. Got: %s", ErrType, t)
	}
	if r := in[1].Shape.Rank(); r >= 0 && r != 1 {
		return nil, errorf("%w: Expected 1D tensor for the 'axes' input. Got: %s", ErrShape, in[1].Shape)
	}
	if r := in[0].Shape.Rank(); r >= 0 {
		if axes, ok := constInts(in[1]); ok {
			if _, err := normalizeAxes(axes, r); err != nil {
				return nil, err
			}
		}
	}
	return []ValueInfo{{Type: in[0].Type, Shape: in[0].Shape}}, nil
}

// evaluate computes each group's mean, variance and outputs in float64,
// each output rounded once to the type (OpenVINO's reference computes in
// the type itself, so f32 results may differ from it in the last bits).
func (m *MVN) evaluate(in, out []*ir.Tensor, _ Options) error {
	src, dst := in[0], out[0]
	axes, err := normalizeAxes(ints(in[1]), len(src.Shape))
	if err != nil {
		return err
	}
	reduced := make([]bool, len(src.Shape))
	for _, a := range axes {
		reduced[a] = true
	}
	// The group of each element: its coordinates on the axes kept.
	groupDims := slices.Clone(src.Shape)
	for i := range groupDims {
		if reduced[i] {
			groupDims[i] = 1
		}
	}
	strides := rowMajor(groupDims)
	groups := 1
	for _, d := range groupDims {
		groups *= int(d)
	}
	group := make([]int, src.Len())
	coord := make([]int, len(src.Shape))
	for i := range group {
		unflatten(i, src.Shape, coord)
		for d, c := range coord {
			if !reduced[d] {
				group[i] += c * strides[d]
			}
		}
	}
	sum, sq, count := make([]float64, groups), make([]float64, groups), make([]float64, groups)
	for i, g := range group {
		sum[g] += src.Float64At(i)
		count[g]++
	}
	for g := range sum {
		sum[g] /= count[g] // the mean
	}
	for i, g := range group {
		d := src.Float64At(i) - sum[g]
		sq[g] += d * d
	}
	for i, g := range group {
		v := src.Float64At(i) - sum[g]
		if m.NormalizeVariance {
			variance := sq[g] / count[g]
			if m.EpsMode == "inside_sqrt" {
				v /= math.Sqrt(variance + m.Eps)
			} else {
				v /= math.Sqrt(variance) + m.Eps
			}
		}
		dst.SetFloat64(i, v)
	}
	return nil
}
