package ops

import (
	"math"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// Range is Range-1 (the output type of its inputs) or Range-4
// (OutputType): start, start+step, ... up to stop, exclusive. The length
// is ceil(|stop - start| / |step|) in double precision, 0 when step points
// away from stop, after truncating the bounds toward zero for integer
// outputs; OpenVINO stores it as a uint32 (static_cast<uint32_t>), so a
// length of 2^32 or more keeps its low 32 bits. Integer outputs add step
// repeatedly (wrapping); float outputs are start + T(i) * step in the type.
type Range struct {
	Version    int
	OutputType ir.ElementType
}

func newRange(l *ir.Layer, v int) (Op, error) {
	r := &Range{Version: v}
	if v == 4 {
		t, err := attrs{l}.elementType("output_type", ir.Dynamic)
		if err != nil {
			return nil, err
		}
		r.OutputType = t
	}
	return r, nil
}

func registerRange() { register("Range", []int{1, 4}, newRange) }

func (r *Range) OpType() (string, string) { return "Range", opset(r.Version) }

func (r *Range) Attrs() []ir.Attr {
	if r.Version == 4 {
		return []ir.Attr{attr("output_type", r.OutputType.String())}
	}
	return nil
}

func (r *Range) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 3, 3); err != nil {
		return nil, err
	}
	t := r.OutputType
	if r.Version == 4 {
		if !t.IsNumeric() {
			return nil, errorf("%w: output tensor type should be a numeric type. Got: %s", ErrType, t)
		}
		for i, name := range []string{"start", "stop", "step"} {
			if et := in[i].Type; et != ir.Dynamic && !et.IsNumeric() {
				return nil, errorf("%w: '%s' input scalar should be a numeric type. Got: %s", ErrType, name, et)
			}
		}
	} else {
		t = ir.Dynamic
		for _, v := range in {
			var ok bool
			if t, ok = mergeTypes(t, v.Type); !ok {
				return nil, errorf("%w: Element types for start, stop, and step do not match.", ErrType)
			}
		}
		if t == ir.Boolean {
			return nil, errorf("%w: Element type for start, stop, and step, must not be boolean.", ErrType)
		}
		if t == ir.Dynamic {
			return []ValueInfo{{Type: t, Shape: dynamicShape(1)}}, nil
		}
	}
	vals := [3]float64{}
	known := true
	for i, name := range []string{"start", "stop", "step"} {
		if in[i].Shape.Rank() > 0 {
			return nil, errorf("%w: '%s' input is not a scalar", ErrShape, name)
		}
		v, ok := constFloats(in[i])
		if !ok {
			known = false
			continue
		}
		vals[i] = v[0]
		if math.IsInf(v[0], 0) || math.IsNaN(v[0]) {
			return nil, errorf("%w: '%s' cannot be nan or infinite.", ErrAttribute, name)
		}
		if i == 2 && r.Version == 1 && v[0] == 0 {
			return nil, errorf("%w: 'step' cannot be zero, nan, or infinite.", ErrAttribute)
		}
	}
	if !known {
		return []ValueInfo{{Type: t, Shape: dynamicShape(1)}}, nil
	}
	start, stop, step := vals[0], vals[1], vals[2]
	if t.IsInteger() {
		start, stop, step = math.Trunc(start), math.Trunc(stop), math.Trunc(step)
	}
	span := stop - start
	if step > 0 && start >= stop || step < 0 && start <= stop {
		span = 0
	}
	n := uint32(floatToInt(math.Ceil(math.Abs(span)/math.Abs(step)), ir.U32))
	return []ValueInfo{{Type: t, Shape: shapeinfer.StaticShape(int64(n))}}, nil
}

func (r *Range) evaluate(in, out []*ir.Tensor, _ Options) error {
	dst := out[0]
	t := dst.Type
	if t.IsInteger() {
		var start, step int64
		if r.Version == 1 {
			start, step = intAt(in[0], 0), intAt(in[2], 0)
		} else {
			s, _ := constFloats(ValueInfo{Value: in[0]})
			d, _ := constFloats(ValueInfo{Value: in[2]})
			start, step = floatToInt(s[0], t), floatToInt(d[0], t)
		}
		v := start
		for i := range dst.Len() {
			dst.SetInt64(i, v)
			v += step
		}
		return nil
	}
	s, _ := constFloats(ValueInfo{Value: in[0]})
	d, _ := constFloats(ValueInfo{Value: in[2]})
	if isF64(t) {
		for i := range dst.Len() {
			ir.View[float64](dst)[i] = s[0] + float64(float64(i)*d[0])
		}
		return nil
	}
	start, step := float32(s[0]), float32(d[0])
	if t != ir.F32 && r.Version == 1 {
		// Range-1 adds in the type itself (ov::float16 arithmetic goes
		// through float and rounds back at each store).
		start, step = f32At(in[0], 0), f32At(in[2], 0)
	}
	for i := range dst.Len() {
		setF32(dst, i, start+float32(float32(i)*step))
	}
	return nil
}
