package ops

import (
	"slices"
	"strconv"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// Ops irdiv infers but does not evaluate (Evaluate gives
// ErrUnsupportedOp): MatMul, Pad, Interpolate, Softmax and
// BatchNormInference, besides the convolutions, the poolings and the float
// activations.

// MatMul is MatMul-1 with TransposeA and TransposeB; 1D operands are
// promoted to matrices and their dimension removed again, batch
// dimensions broadcast as numpy does.
type MatMul struct{ TransposeA, TransposeB bool }

// Pad is Pad-1 or Pad-12 (which allows negative pads): inputs data,
// pads_begin, pads_end and an optional pad_value, with PadMode constant,
// edge, reflect or symmetric.
type Pad struct {
	Version int
	PadMode string
}

// Interpolate is Interpolate-4 (inputs data, sizes, scales, optional
// axes) or Interpolate-11 (data, sizes or scales, optional axes); the
// output is the padded input with the axes resized per
// ShapeCalculationMode ("sizes" or "scales"). The other attributes are
// kept for Attrs.
type Interpolate struct {
	Version              int
	Mode                 string
	ShapeCalculationMode string
	CoordinateTransform  string
	NearestMode          string
	Antialias            bool
	PadsBegin, PadsEnd   []int64
	CubeCoeff            float64
}

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

func registerShapeOnly() {
	register("MatMul", []int{1}, unversioned(func(l *ir.Layer) (Op, error) {
		a := attrs{l}
		return &MatMul{TransposeA: a.bool("transpose_a", false), TransposeB: a.bool("transpose_b", false)}, nil
	}))
	register("Pad", []int{1, 12}, func(l *ir.Layer, v int) (Op, error) {
		m, err := attrs{l}.enum("pad_mode", "ov::op::PadMode", padModes, 0)
		return &Pad{Version: v, PadMode: padModes[m]}, err
	})
	register("Interpolate", []int{1, 4, 11}, func(l *ir.Layer, v int) (Op, error) {
		if v == 1 {
			return nil, unsupportedVersion("Interpolate", v)
		}
		a := attrs{l}
		i := &Interpolate{
			Version: v, Mode: a.str("mode", "nearest"), CoordinateTransform: a.str("coordinate_transformation_mode", "half_pixel"),
			NearestMode: a.str("nearest_mode", "round_prefer_floor"), Antialias: a.bool("antialias", false),
			PadsBegin: a.ints("pads_begin"), PadsEnd: a.ints("pads_end"), CubeCoeff: a.float("cube_coeff", -0.75),
		}
		m, err := a.enum("shape_calculation_mode", "ov::op::util::InterpolateBase::ShapeCalcMode", []string{"sizes", "scales"}, 0)
		i.ShapeCalculationMode = []string{"sizes", "scales"}[m]
		return i, err
	})
	register("Softmax", []int{1, 8}, func(l *ir.Layer, v int) (Op, error) {
		return &Softmax{Version: v, Axis: attrs{l}.int("axis", 1)}, nil
	})
	register("BatchNormInference", []int{1, 5}, func(l *ir.Layer, v int) (Op, error) {
		return &BatchNormInference{Version: v, Epsilon: attrs{l}.float("epsilon", 0)}, nil
	})
}

var padModes = []string{"constant", "edge", "reflect", "symmetric"}

// MatMul

func (*MatMul) OpType() (string, string) { return "MatMul", "opset1" }

func (m *MatMul) Attrs() []ir.Attr {
	return []ir.Attr{attr("transpose_a", formatBool(m.TransposeA)), attr("transpose_b", formatBool(m.TransposeB))}
}

func (m *MatMul) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 2, 2); err != nil {
		return nil, err
	}
	t, ok := mergeTypes(in[0].Type, in[1].Type)
	if !ok {
		return nil, errorf("%w: Arguments do not have the same element type (arg0 element type: %s, arg1 element type: %s).", ErrType, in[0].Type, in[1].Type)
	}
	a, b := in[0].Shape, in[1].Shape
	if a.DynamicRank || b.DynamicRank {
		return []ValueInfo{{Type: t, Shape: shapeinfer.DynamicRankShape()}}, nil
	}
	if len(a.Dims) == 0 || len(b.Dims) == 0 {
		return nil, errorf("%w: Scalar input is not supported. Got: %s and %s", ErrShape, a, b)
	}
	ad, bd := slices.Clone(a.Dims), slices.Clone(b.Dims)
	aVec, bVec := len(ad) == 1, len(bd) == 1
	if aVec {
		ad = []shapeinfer.Dim{shapeinfer.Static(1), ad[0]}
	} else if m.TransposeA {
		ad[len(ad)-1], ad[len(ad)-2] = ad[len(ad)-2], ad[len(ad)-1]
	}
	if bVec {
		bd = []shapeinfer.Dim{bd[0], shapeinfer.Static(1)}
	} else if m.TransposeB {
		bd[len(bd)-1], bd[len(bd)-2] = bd[len(bd)-2], bd[len(bd)-1]
	}
	ka, kb := ad[len(ad)-1], bd[len(bd)-2]
	if _, ok := shapeinfer.Merge(ka, kb); !ok {
		return nil, errorf("%w: Incompatible MatMul matrix dimension. First input dimension=%s at COL_INDEX_DIM=%d doesn't match the second input dimension=%s at ROW_INDEX_DIM=%d", ErrShape, ka, len(ad)-1, kb, len(bd)-2)
	}
	batch, err := shapeinfer.Elementwise(shapeinfer.Shape{Dims: ad[:len(ad)-2]}, shapeinfer.Shape{Dims: bd[:len(bd)-2]}, shapeinfer.Broadcast{Mode: shapeinfer.Numpy})
	if err != nil {
		return nil, errorf("%w: Incompatible MatMul batch dimension. Can't merge first input dimension with second input dimension (%s and %s)", ErrShape, a, b)
	}
	out := batch.Dims
	if !aVec {
		out = append(out, ad[len(ad)-2])
	}
	if !bVec {
		out = append(out, bd[len(bd)-1])
	}
	return []ValueInfo{{Type: t, Shape: shapeinfer.Shape{Dims: out}}}, nil
}

// Pad

func (p *Pad) OpType() (string, string) { return "Pad", opset(p.Version) }
func (p *Pad) Attrs() []ir.Attr         { return []ir.Attr{attr("pad_mode", p.PadMode)} }

// padDim is dim::padded: a result below zero is an unknown dimension.
func padDim(d shapeinfer.Dim, pad int64) shapeinfer.Dim {
	if pad == 0 {
		return d
	}
	f := func(x int64) int64 {
		if x == unbounded || x+pad < 0 {
			return -1
		}
		return satAdd(x, pad)
	}
	if d.IsStatic() {
		if v := f(d.Max); v >= 0 {
			return shapeinfer.Static(v)
		}
		return shapeinfer.Dynamic()
	}
	return shapeinfer.Interval(f(d.Min), f(d.Max))
}

func (p *Pad) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 3, 4); err != nil {
		return nil, err
	}
	for i, name := range []string{"pads_begin", "pads_end"} {
		if err := checkIntegral(in[1+i].Type, name); err != nil {
			return nil, err
		}
		if r := in[1+i].Shape.Rank(); r >= 0 && r != 1 {
			return nil, errorf("%w: Argument for %s is not 1D (shape: %s).", ErrShape, name, in[1+i].Shape)
		}
	}
	if len(in) == 4 {
		if r := in[3].Shape.Rank(); r > 0 {
			return nil, errorf("%w: Argument for padding value is not a scalar (shape: %s).", ErrShape, in[3].Shape)
		}
		if _, ok := mergeTypes(in[0].Type, in[3].Type); !ok {
			return nil, errorf("%w: Argument element types do not match (input arg element type: %s, arg_pad_value element type: %s).", ErrType, in[0].Type, in[3].Type)
		}
	}
	data := in[0].Shape
	result := func(s shapeinfer.Shape) ([]ValueInfo, error) { return []ValueInfo{{Type: in[0].Type, Shape: s}}, nil }
	if data.DynamicRank {
		return result(data)
	}
	rules, known, err := p.rules(in)
	if err != nil {
		return nil, err
	}
	if !known {
		return result(dynamicShape(len(data.Dims)))
	}
	out := shapeinfer.Shape{Dims: make([]shapeinfer.Dim, len(data.Dims))}
	for i, r := range rules {
		out.Dims[i] = padDim(data.Dims[i], r.Add)
	}
	return result(out)
}

// rules reads and checks the pads (known is false without their values).
func (p *Pad) rules(in []ValueInfo) (rules []SpatialRule, known bool, err error) {
	data := in[0].Shape
	begin, ok1 := constInts(in[1])
	end, ok2 := constInts(in[2])
	if data.DynamicRank || !ok1 || !ok2 {
		return nil, false, nil
	}
	rank := len(data.Dims)
	if len(begin) != rank || len(end) != rank {
		return nil, false, errorf("%w: Number of elements of pads_begin (%d) and pads_end (%d) must equal the input rank %d", ErrShape, len(begin), len(end), rank)
	}
	for i, d := range data.Dims {
		b, e := begin[i], end[i]
		if p.Version == 1 && (b < 0 || e < 0) {
			return nil, false, errorf("%w: Pad-1 pads must be non-negative, got pads_begin %v and pads_end %v", ErrAttribute, begin, end)
		}
		if d.IsStatic() {
			switch p.PadMode {
			case "edge":
				if (b > 0 || e > 0) && d.Min < 1 {
					return nil, false, errorf("%w: EDGE padding mode requires an input of dimension of at least 1 at each spatial axis.", ErrShape)
				}
			case "reflect":
				if b >= d.Min || e >= d.Min {
					return nil, false, errorf("%w: REFLECT padding mode requires that 'pads_begin[D]' and 'pads_end[D]' be at most one less than the dimension of the input at axis D.", ErrShape)
				}
			case "symmetric":
				if b > d.Min || e > d.Min {
					return nil, false, errorf("%w: SYMMETRIC padding mode requires that 'pads_begin[D]' and 'pads_end[D]' be at most the dimension of the input at axis D.", ErrShape)
				}
			}
		}
		rules = append(rules, SpatialRule{Axis: i, Mul: 1, Add: b + e, Div: 1, MinIn: max(-(b + e), 0)})
	}
	return rules, true, nil
}

// SpatialRules are out = in + pads_begin + pads_end on every axis.
func (p *Pad) SpatialRules(in []ValueInfo) ([]SpatialRule, error) {
	if err := inputCount(in, 3, 4); err != nil {
		return nil, err
	}
	rules, known, err := p.rules(in)
	if err == nil && !known {
		err = errorf("%w: Pad rules need the pads' values and the data rank", ErrShape)
	}
	return rules, err
}

// Interpolate

func (i *Interpolate) OpType() (string, string) { return "Interpolate", opset(i.Version) }

func (i *Interpolate) Attrs() []ir.Attr {
	attrs := []ir.Attr{
		attr("mode", i.Mode), attr("shape_calculation_mode", i.ShapeCalculationMode),
		attr("coordinate_transformation_mode", i.CoordinateTransform), attr("nearest_mode", i.NearestMode),
		attr("antialias", formatBool(i.Antialias)), attr("pads_begin", formatInts(i.PadsBegin)),
		attr("pads_end", formatInts(i.PadsEnd)), attr("cube_coeff", formatFloat(i.CubeCoeff)),
	}
	return attrs
}

func (i *Interpolate) Infer(in []ValueInfo) ([]ValueInfo, error) {
	scales := i.ShapeCalculationMode == "scales"
	valuesPort, axesPort := 1, 2
	if i.Version == 4 {
		if err := inputCount(in, 3, 4); err != nil {
			return nil, err
		}
		axesPort = 3
		if scales {
			valuesPort = 2
		}
	} else if err := inputCount(in, 2, 3); err != nil {
		return nil, err
	}
	for p := 1; p < len(in); p++ {
		if i.Version == 4 && p != valuesPort && p != axesPort {
			continue
		}
		if r := in[p].Shape.Rank(); r >= 0 && r != 1 {
			return nil, errorf("%w: Input [%d] is not rank 1", ErrShape, p)
		}
	}
	data := in[0].Shape
	result := func(s shapeinfer.Shape) ([]ValueInfo, error) { return []ValueInfo{{Type: in[0].Type, Shape: s}}, nil }
	if data.DynamicRank {
		return result(data)
	}
	rank := len(data.Dims)
	var axes []int64
	if len(in) > axesPort {
		v, ok := constInts(in[axesPort])
		if !ok {
			return result(dynamicShape(rank))
		}
		for _, a := range v {
			if a < 0 || a >= int64(rank) {
				return nil, errorf("%w: All axes values should less than input rank: %d", ErrAttribute, rank)
			}
		}
		axes = v
	} else {
		for a := range rank {
			axes = append(axes, int64(a))
		}
	}
	pad := func(p []int64, a int) int64 {
		if a < len(p) {
			return p[a]
		}
		return 0
	}
	out := shapeinfer.Shape{Dims: make([]shapeinfer.Dim, rank)}
	for a, d := range data.Dims {
		out.Dims[a] = padDim(d, pad(i.PadsBegin, a)+pad(i.PadsEnd, a))
	}
	if scales {
		s, ok := constFloats(in[valuesPort])
		if ok && len(s) < len(axes) {
			return nil, errorf("%w: The number of elements in the 'scales' input does not match the number of axes %d", ErrShape, len(axes))
		}
		for k, a := range axes {
			if !ok {
				out.Dims[a] = shapeinfer.Dynamic()
			} else {
				out.Dims[a] = scaleDim(out.Dims[a], float32(s[k]))
			}
		}
		return result(out)
	}
	sizes, ok := constInts(in[valuesPort])
	if ok && len(sizes) < len(axes) {
		return nil, errorf("%w: The number of elements in the 'sizes' input does not match the number of axes %d", ErrShape, len(axes))
	}
	for k, a := range axes {
		if !ok {
			out.Dims[a] = shapeinfer.Dynamic()
		} else {
			out.Dims[a] = shapeinfer.Interval(sizes[k], sizes[k])
		}
	}
	return result(out)
}

// scaleDim is dim::scale: in float arithmetic, the scale plus 1e-6 times
// the bounds, truncated; a scale of exactly 1 keeps the dimension.
func scaleDim(d shapeinfer.Dim, scale float32) shapeinfer.Dim {
	if scale == 1 {
		return d
	}
	scale += 1e-6
	f := func(x int64) int64 {
		if x == unbounded {
			return -1
		}
		return floatToInt(float64(float32(float32(x)*scale)), ir.I64)
	}
	if d.IsStatic() {
		return shapeinfer.Interval(f(d.Max), f(d.Max))
	}
	return shapeinfer.Interval(f(d.Min), f(d.Max))
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
