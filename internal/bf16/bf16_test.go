package bf16

import (
	"math"
	"testing"
)

// reference rounds f to bfloat16 in float64 arithmetic, without the bit
// trick: f is a multiple of its quantum (2^(e-7) for a normal, 2^-133
// below 2^-126), so f/quantum is exact and math.RoundToEven rounds it.
func reference(f float32) uint16 {
	x := float64(f)
	if math.IsInf(x, 0) || x == 0 {
		return uint16(math.Float32bits(f) >> 16)
	}
	_, e := math.Frexp(x) // |x| in [2^(e-1), 2^e)
	q := math.Ldexp(1, max(e-1, -126)-7)
	r := math.RoundToEven(x/q) * q
	if math.Abs(r) > math.Ldexp(0xff, 120) { // above (2 - 2^-7) * 2^127
		r = math.Copysign(math.Inf(1), x)
	}
	return uint16(math.Float32bits(float32(r)) >> 16)
}

// TestFromFloat32 checks every f32 whose low 16 bits sit at or around the
// rounding boundary, and every NaN class, against reference.
func TestFromFloat32(t *testing.T) {
	for hi := range uint32(1 << 16) {
		for _, lo := range []uint32{0, 1, 0x7fff, 0x8000, 0x8001, 0xffff} {
			bits := hi<<16 | lo
			f := math.Float32frombits(bits)
			got := FromFloat32(f)
			if f != f {
				if got&0x7fc0 != 0x7fc0 || got>>15 != uint16(bits>>31) || got&0x3f != uint16(bits>>16)&0x3f {
					t.Fatalf("FromFloat32(NaN %#08x) = %#04x, want a quiet NaN with its sign and payload", bits, got)
				}
				continue
			}
			if want := reference(f); got != want {
				t.Fatalf("FromFloat32(%#08x) = %#04x, want %#04x", bits, got, want)
			}
		}
	}
}

func TestToFloat32(t *testing.T) {
	for b := range uint32(1 << 16) {
		f := ToFloat32(uint16(b))
		if got := math.Float32bits(f); got != b<<16 {
			t.Fatalf("ToFloat32(%#04x) has bits %#08x", b, got)
		}
		if f == f && FromFloat32(f) != uint16(b) {
			t.Fatalf("FromFloat32(ToFloat32(%#04x)) = %#04x", b, FromFloat32(f))
		}
	}
}
