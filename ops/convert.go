package ops

import (
	"math"

	"github.com/irdiv/irdiv/ir"
)

// Convert is Convert-1: element-wise conversion of any type to
// DestinationType, the input's shape kept.
//
// Evaluation follows OpenVINO's reference (src/core/reference/include/
// openvino/reference/convert.hpp, detail::convert, and src/core/reference/
// src/op/convert.cpp), which is a C++ static_cast per element, as built by
// GCC for x86-64 (the conversions that C++ leaves undefined are what that
// build does; checked against g++ 12 -O2, see testdata/golden):
//
//   - integer to narrower integer, and signed to unsigned: the low bits
//     are kept (wrap-around modulo 2^N, as the Convert-1 specification says
//     for negative values to unsigned types);
//   - float to integer truncates toward zero (CVTTSS2SI/CVTTSD2SI). For
//     i8, u8, i16, u16 and i32 the value is first truncated to 32 bits and
//     the low bits kept; a NaN, an infinity or a value outside
//     [-2^31, 2^31) gives the 32-bit "integer indefinite" 0x80000000, so 0
//     for the 8- and 16-bit types and -2^31 for i32. For i64, and u32 (whose
//     low 32 bits are kept), the truncation is to 64 bits, NaN and values
//     outside [-2^63, 2^63) giving -2^63 (so 0 in u32). For u64, values
//     below 2^63 and NaN take the i64 path (NaN and -inf give 2^63,
//     -1.5 gives 2^64-1), values from 2^63 up subtract 2^63 first and
//     flip the top bit back (2^64 and more, and +inf, give 0). The JIT
//     kernels OpenVINO uses for f32 and f16 to i8 (VCVTTPS2DQ, low byte)
//     give the same results;
//   - to boolean: 1 for any non-zero value, NaN included; from boolean:
//     the byte's value;
//   - integers to floats round to nearest even; to f16 and bf16 through
//     f32 (float16(float(v)): two roundings), except i32 to f16, which
//     first clamps to the finite range [-65504, 65504] (OpenVINO's
//     convert<int32_t, float16> specialisation, PR #24653); other sources
//     above that range give ±inf;
//   - floats to floats round to nearest even, f64 to f16 and bf16 through
//     f32 as above; f32 to f16 does not clamp (±inf beyond 65504).
//
// OpenVINO rounds f32 to bf16 with ov::bfloat16, which is not quite
// round-to-nearest-even (divide-spec.md C.3); irdiv rounds to nearest
// even, as its Divide does.
type Convert struct {
	DestinationType ir.ElementType
}

func newConvert(l *ir.Layer, _ int) (Op, error) {
	// Without destination_type OpenVINO keeps its default, undefined.
	t, err := attrs{l}.elementType("destination_type", ir.Dynamic)
	if err != nil {
		return nil, err
	}
	return &Convert{DestinationType: t}, nil
}

func (*Convert) OpType() (string, string) { return "Convert", "opset1" }

func (c *Convert) Attrs() []ir.Attr {
	return []ir.Attr{{Name: "destination_type", Value: c.DestinationType.String()}}
}

// Infer gives the input's shape the destination type.
func (c *Convert) Infer(in []ValueInfo) ([]ValueInfo, error) {
	if err := inputCount(in, 1, 1); err != nil {
		return nil, err
	}
	return []ValueInfo{{Type: c.DestinationType, Shape: in[0].Shape}}, nil
}

func (c *Convert) evaluate(in, out []*ir.Tensor, _ Options) error {
	src, dst := in[0], out[0]
	for i := range src.Len() {
		convertElem(dst, i, src, i)
	}
	return nil
}

// convertElem converts src[si] into dst[di] as Convert does.
func convertElem(dst *ir.Tensor, di int, src *ir.Tensor, si int) {
	st, dt := src.Type, dst.Type
	switch {
	case dt == ir.Boolean && st.IsFloat():
		f := src.Float64At(si)
		dst.Data[di] = b2u(f != 0 || math.IsNaN(f))
	case dt == ir.Boolean:
		dst.Data[di] = b2u(intAt(src, si) != 0)
	case !st.IsFloat() && !dt.IsFloat():
		dst.SetInt64(di, intAt(src, si))
	case !st.IsFloat():
		v := intAt(src, si)
		switch {
		case dt == ir.F64 && isU64(st):
			ir.View[float64](dst)[di] = float64(uint64(v))
		case dt == ir.F64:
			ir.View[float64](dst)[di] = float64(v)
		case st == ir.I32 && dt == ir.F16:
			setF32(dst, di, float32(min(max(v, -65504), 65504)))
		case isU64(st):
			setF32(dst, di, float32(uint64(v)))
		default:
			setF32(dst, di, float32(v))
		}
	case !dt.IsFloat():
		dst.SetInt64(di, floatToInt(src.Float64At(si), dt))
	case dt == ir.F64:
		ir.View[float64](dst)[di] = src.Float64At(si)
	default:
		setF32(dst, di, float32(src.Float64At(si)))
	}
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// indefinite32 and indefinite64 are what x86's truncating conversions give
// for NaN and out-of-range values.
const (
	indefinite32 = math.MinInt32
	indefinite64 = math.MinInt64
)

// floatToInt converts f to integer type t as GCC's x86-64 static_cast does
// (see Convert); the result is given as SetInt64 takes it.
func floatToInt(f float64, t ir.ElementType) int64 {
	switch t {
	case ir.I64, ir.U32:
		return cvtt64(f)
	case ir.U64:
		if f < 1<<63 || math.IsNaN(f) {
			return cvtt64(f)
		}
		return cvtt64(f-(1<<63)) ^ math.MinInt64
	}
	if math.IsNaN(f) || f <= -(1<<31)-1 || f >= 1<<31 {
		return indefinite32
	}
	return int64(f)
}

func cvtt64(f float64) int64 {
	if math.IsNaN(f) || f < -(1<<63) || f >= 1<<63 {
		return indefinite64
	}
	return int64(f)
}
