package ir

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/x448/float16"
)

// TestSetFloat64RoundsOnce: f16 and bf16 are rounded from the float64 in
// one step. Values that are float32s are checked against conversions
// from float32 (one rounding there too); midpoints between two half
// values, nudged by less than a float32 can hold, tell one rounding from
// two.
func TestSetFloat64RoundsOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	f16, _ := NewTensor(F16, []int64{1})
	bf16, _ := NewTensor(BF16, []int64{1})
	for range 200_000 {
		f := math.Float32frombits(r.Uint32())
		if f != f {
			continue
		}
		f16.SetFloat64(0, float64(f))
		bf16.SetFloat64(0, float64(f))
		if got, want := View[uint16](f16)[0], float16.Fromfloat32(f).Bits(); got != want {
			t.Fatalf("f16 of %g: %#04x, want %#04x", f, got, want)
		}
		if got, want := View[uint16](bf16)[0], BF16FromFloat32(f); got != want {
			t.Fatalf("bf16 of %g: %#04x, want %#04x", f, got, want)
		}
	}
	for _, tc := range []struct {
		f    float64
		want uint16
	}{
		{1 + 0x1p-11, 0x3c00},           // halfway, even below
		{1 + 0x1p-11 + 0x1p-40, 0x3c01}, // just above halfway: up (via float32 it would tie down)
		{1 + 3*0x1p-11, 0x3c02},         // halfway, even above
		{65520, 0x7c00},                 // rounds to inf
		{65519.99, 0x7bff},
		{0x1p-24, 0x0001},                // smallest subnormal
		{0x1p-25, 0x0000},                // half of it: ties to even, zero
		{0x1p-25 + 0x1p-60, 0x0001},      // just above: up
		{-0x1p-14 * 1023 / 1024, 0x83ff}, // largest negative subnormal
		{math.Inf(-1), 0xfc00},
		{math.NaN(), 0x7e00},
		{math.Copysign(0, -1), 0x8000},
	} {
		f16.SetFloat64(0, tc.f)
		if got := View[uint16](f16)[0]; got != tc.want {
			t.Errorf("f16 of %g: %#04x, want %#04x", tc.f, got, tc.want)
		}
	}
}

func TestTensorOfChecksTheGoType(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func() (*Tensor, error)
		ok   bool
	}{
		{"i64 from int32", func() (*Tensor, error) { return TensorOf(I64, []int64{2}, []int32{1, 2}) }, false},
		{"f32 from int32", func() (*Tensor, error) { return TensorOf(F32, []int64{2}, []int32{1, 2}) }, false},
		{"f16 from float16", func() (*Tensor, error) { return TensorOf(F16, []int64{1}, []float16.Float16{0x3c00}) }, true},
		{"u4 from uint8", func() (*Tensor, error) { return TensorOf(U4, []int64{2}, []uint8{1}) }, false},
		{"i32 from int32", func() (*Tensor, error) { return TensorOf(I32, []int64{2}, []int32{1, 2}) }, true},
		{"count", func() (*Tensor, error) { return TensorOf(I32, []int64{3}, []int32{1, 2}) }, false},
	} {
		got, err := tc.make()
		if (err == nil) != tc.ok || err != nil && !strings.HasPrefix(err.Error(), "ir: TensorOf: ") {
			t.Errorf("%s: %v, %v", tc.name, got, err)
		}
	}
}

func TestTensorString(t *testing.T) {
	x, _ := TensorOf(I32, []int64{2, 3}, []int32{1, -2, 3, 4, 5, 6})
	if s := x.String(); s != "i32[2,3] [1 -2 3 4 5 6]" {
		t.Errorf("String() = %q", s)
	}
	y, _ := NewTensor(F16, []int64{20})
	if s := y.String(); s != "f16[20] [0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 ...]" {
		t.Errorf("String() = %q", s)
	}
	if s := (&Tensor{Type: F32, Shape: []int64{4}, Data: make([]byte, 3)}).String(); s != "f32[4] [3 bytes]" {
		t.Errorf("inconsistent tensor: %q", s)
	}
}
