package ops

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/irdiv/irdiv/internal/testutil"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// forEachLevel runs f once per SIMD level this machine and build can run.
func forEachLevel(t *testing.T, f func(t *testing.T, level SIMD)) {
	testutil.ForEach(t, AvailableSIMD(), f)
}

func divideAt(level SIMD, d *Divide, a, b *ir.Tensor) (*ir.Tensor, error) {
	call, err := d.Prepare(a, b, Options{SIMD: level})
	if err != nil {
		return nil, err
	}
	return call.Evaluate(a, b)
}

func mustTensor[T ir.Scalar](t testing.TB, et ir.ElementType, shape []int64, vals []T) *ir.Tensor {
	t.Helper()
	tensor, err := ir.TensorOf(et, shape, vals)
	if err != nil {
		t.Fatal(err)
	}
	return tensor
}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

func bigOf[T integer](v T) *big.Int {
	var zero T
	if zero-1 > 0 { // unsigned
		return new(big.Int).SetUint64(uint64(v))
	}
	return big.NewInt(int64(v))
}

// bigDiv is the exact oracle: truncation, or floor when the remainder is
// non-zero and its sign differs from the divisor's.
func bigDiv(a, b *big.Int, floor bool) *big.Int {
	q, r := new(big.Int).QuoRem(a, b, new(big.Int))
	if floor && r.Sign() != 0 && r.Sign() != b.Sign() {
		q.Sub(q, big.NewInt(1))
	}
	return q
}

// checkIntegerPairs divides every valid pair in both modes at every level
// and compares each quotient with the big-integer oracle.
func checkIntegerPairs[T integer](t *testing.T, et ir.ElementType, as, bs []T) {
	var va, vb []T
	for i := range as {
		isMin := as[i] < 0 && as[i]-1 > 0 // only MIN wraps when decremented
		if bs[i] == 0 || et.IsSigned() && isMin && bs[i]+1 == 0 {
			continue // zero divisors and MIN / -1 are covered by the error tests
		}
		va, vb = append(va, as[i]), append(vb, bs[i])
	}
	n := int64(len(va))
	a, b := mustTensor(t, et, []int64{n}, va), mustTensor(t, et, []int64{n}, vb)
	forEachLevel(t, func(t *testing.T, level SIMD) {
		for _, floor := range []bool{false, true} {
			out, err := divideAt(level, NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, floor), a, b)
			if err != nil {
				t.Fatalf("floor=%v: %v", floor, err)
			}
			got := ir.View[T](out)
			mismatches := 0
			for i := range va {
				want := bigDiv(bigOf(va[i]), bigOf(vb[i]), floor)
				if bigOf(got[i]).Cmp(want) != 0 {
					if mismatches++; mismatches <= 5 {
						t.Errorf("%s floor=%v: %d / %d = %d, want %s", et, floor, va[i], vb[i], got[i], want)
					}
				}
			}
			if mismatches > 0 {
				t.Fatalf("%s floor=%v: %d mismatches of %d", et, floor, mismatches, len(va))
			}
		}
	})
}

func allPairs[T int8 | uint8]() (as, bs []T) {
	for x := range 256 {
		for y := range 256 {
			as, bs = append(as, T(x)), append(bs, T(y))
		}
	}
	return as, bs
}

func TestExhaustive8Bit(t *testing.T) {
	t.Run("i8", func(t *testing.T) {
		as, bs := allPairs[int8]()
		checkIntegerPairs(t, ir.I8, as, bs)
	})
	t.Run("u8", func(t *testing.T) {
		as, bs := allPairs[uint8]()
		checkIntegerPairs(t, ir.U8, as, bs)
	})
}

// edgeAndRandom returns all pairs of the type's edge values and n random
// pairs of mixed magnitudes and signs.
func edgeAndRandom[T integer](n int, edges []T) (as, bs []T) {
	for _, x := range edges {
		for _, y := range edges {
			as, bs = append(as, x), append(bs, y)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	var zero T
	bits := 8 * int(sizeOf(zero))
	for range n {
		// Random widths make small divisors and quotients common.
		x := T(r.Uint64() >> (64 - 1 - r.IntN(bits)))
		y := T(r.Uint64() >> (64 - 1 - r.IntN(bits)))
		if r.IntN(2) == 0 {
			x = -x
		}
		if r.IntN(2) == 0 {
			y = -y
		}
		as, bs = append(as, x), append(bs, y)
	}
	return as, bs
}

func sizeOf[T integer](x T) uintptr { return unsafe.Sizeof(x) }

func signedEdges[T int16 | int32 | int64]() []T {
	maxV := T(1)<<(8*sizeOf(T(0))-1) - 1
	minV := -maxV - 1
	return []T{0, 1, -1, 2, -2, 3, -3, 7, -7, minV, minV + 1, maxV, maxV - 1, maxV / 2, minV / 2, 1 << 12, -(1 << 12) + 1}
}

func unsignedEdges[T uint16 | uint32 | uint64]() []T {
	maxV := ^T(0)
	return []T{0, 1, 2, 3, 7, maxV, maxV - 1, maxV / 2, maxV/2 + 1, 1 << 12, 1<<12 + 1}
}

func TestEdgeAndRandomIntegers(t *testing.T) {
	const n = 100_000
	t.Run("i16", func(t *testing.T) {
		as, bs := edgeAndRandom(n, signedEdges[int16]())
		checkIntegerPairs(t, ir.I16, as, bs)
	})
	t.Run("i32", func(t *testing.T) {
		edges := append(signedEdges[int32](), 1<<24+1, 1<<24-1, -(1<<24 + 1), 0x40000140, 0x40000001, 5)
		as, bs := edgeAndRandom(n, edges)
		checkIntegerPairs(t, ir.I32, as, bs)
	})
	t.Run("i64", func(t *testing.T) {
		edges := append(signedEdges[int64](), 1<<53+1, 1<<53-1, -(1<<53 + 1), 1<<31-1, 1<<62, 11)
		as, bs := edgeAndRandom(n, edges)
		checkIntegerPairs(t, ir.I64, as, bs)
	})
	t.Run("u16", func(t *testing.T) {
		as, bs := edgeAndRandom(n, unsignedEdges[uint16]())
		checkIntegerPairs(t, ir.U16, as, bs)
	})
	t.Run("u32", func(t *testing.T) {
		as, bs := edgeAndRandom(n, append(unsignedEdges[uint32](), 1<<24+1, 4294967295))
		checkIntegerPairs(t, ir.U32, as, bs)
	})
	t.Run("u64", func(t *testing.T) {
		as, bs := edgeAndRandom(n, append(unsignedEdges[uint64](), 1<<53+1, 1<<63))
		checkIntegerPairs(t, ir.U64, as, bs)
	})
}

// roundBinary rounds a float64 to nearest even in a binary format with
// mant stored mantissa bits and exp exponent bits, returning its bits. It
// is written from the format's definition, independently of the kernels.
func roundBinary(x float64, mant, exp uint) uint64 {
	signBit := uint64(1) << (mant + exp)
	expMask := uint64(1)<<exp - 1
	var sign uint64
	if math.Signbit(x) {
		sign, x = signBit, -x
	}
	if math.IsNaN(x) {
		return expMask<<mant | 1<<(mant-1)
	}
	if math.IsInf(x, 0) {
		return sign | expMask<<mant
	}
	bias := int(expMask >> 1)
	minNormal := math.Ldexp(1, 1-bias)
	if x < minNormal {
		m := math.RoundToEven(x / math.Ldexp(1, 1-bias-int(mant)))
		return sign | uint64(m) // m == 2^mant is the smallest normal's encoding
	}
	frac, e := math.Frexp(x) // x = frac * 2^e, frac in [0.5, 1)
	m := math.RoundToEven(frac * math.Ldexp(1, int(mant)+1))
	e--
	if m == math.Ldexp(1, int(mant)+1) {
		m, e = m/2, e+1
	}
	biased := e + bias
	if biased >= int(expMask) {
		return sign | expMask<<mant
	}
	return sign | uint64(biased)<<mant | (uint64(m) - 1<<mant)
}

func f16Value(bits uint16) float64 {
	sign := 1.0
	if bits&0x8000 != 0 {
		sign = -1
	}
	e, m := int(bits>>10&0x1f), float64(bits&0x3ff)
	switch e {
	case 0:
		return sign * math.Ldexp(m, -24)
	case 31:
		if m != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * math.Ldexp(1024+m, e-25)
}

func bf16Value(bits uint16) float64 { return float64(math.Float32frombits(uint32(bits) << 16)) }

// special16 lists bit patterns worth testing in a 16-bit float format:
// zeros, the smallest and largest subnormals and normals, one, infinities,
// NaNs with high and low payloads.
func special16(maxFinite, inf uint16) []uint16 {
	base := []uint16{0, 1, 2, 3, 0x3ff, 0x400, 0x401, 0x3c00, 0x3c01, 0x4000, 0x4200, 0x3555, maxFinite, maxFinite - 1, inf, inf | 1, inf | 0x200, 0x7f, 0x80, 0x81, 0x3f80, 0x3f81, 0x4040}
	var out []uint16
	for _, b := range base {
		out = append(out, b, b|0x8000)
	}
	return out
}

// checkHalf compares a 16-bit float kernel with the float64 quotient
// rounded once, on all pairs of special values and n random pairs.
func checkHalf(t *testing.T, et ir.ElementType, value func(uint16) float64, mant, exp uint, specials []uint16, n int) {
	var as, bs []uint16
	for _, x := range specials {
		for _, y := range specials {
			as, bs = append(as, x), append(bs, y)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range n {
		as, bs = append(as, uint16(r.Uint32())), append(bs, uint16(r.Uint32()))
	}
	size := []int64{int64(len(as))}
	a, b := mustTensor(t, et, size, as), mustTensor(t, et, size, bs)
	forEachLevel(t, func(t *testing.T, level SIMD) {
		out, err := divideAt(level, NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true), a, b)
		if err != nil {
			t.Fatal(err)
		}
		got := ir.View[uint16](out)
		bad := 0
		for i := range as {
			q := value(as[i]) / value(bs[i])
			want := uint16(roundBinary(q, mant, exp))
			if math.IsNaN(q) {
				if !math.IsNaN(value(got[i])) {
					bad++
					t.Errorf("%s: %#04x / %#04x = %#04x, want NaN", et, as[i], bs[i], got[i])
				}
				continue
			}
			if got[i] != want {
				if bad++; bad <= 5 {
					t.Errorf("%s: %#04x / %#04x = %#04x, want %#04x", et, as[i], bs[i], got[i], want)
				}
			}
		}
		if bad > 0 {
			t.Fatalf("%s: %d mismatches of %d", et, bad, len(as))
		}
	})
}

func TestHalfFloatsCorrectlyRounded(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	t.Run("f16", func(t *testing.T) { checkHalf(t, ir.F16, f16Value, 10, 5, special16(0x7bff, 0x7c00), n) })
	t.Run("bf16", func(t *testing.T) { checkHalf(t, ir.BF16, bf16Value, 7, 8, special16(0x7f7f, 0x7f80), n) })
}

func TestHalfFloatSpecVectors(t *testing.T) {
	f16s := func(vals ...float64) []uint16 {
		out := make([]uint16, len(vals))
		for i, v := range vals {
			out[i] = uint16(roundBinary(v, 10, 5))
		}
		return out
	}
	out, err := NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true).Evaluate(
		mustTensor(t, ir.F16, []int64{6}, f16s(1, 2, 3, 4, 5, 6)), mustTensor(t, ir.F16, []int64{6}, f16s(2, 4, 5, 10, 2, 3)))
	if err != nil {
		t.Fatal(err)
	}
	if got := ir.View[uint16](out); got[2] != 0x38CD || got[3] != 0x3666 {
		t.Errorf("f16 3/5 = %#04x (want 0x38cd), 4/10 = %#04x (want 0x3666)", got[2], got[3])
	}
	bf := func(vals ...float32) []uint16 {
		out := make([]uint16, len(vals))
		for i, v := range vals {
			out[i] = uint16(math.Float32bits(v) >> 16) // exact for these values
		}
		return out
	}
	out, err = NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true).Evaluate(
		mustTensor(t, ir.BF16, []int64{4}, bf(1, 2, 3, 4)), mustTensor(t, ir.BF16, []int64{4}, bf(0.5, 1.5, 2.5, 3.5)))
	if err != nil {
		t.Fatal(err)
	}
	want := []uint16{0x4000, 0x3FAB, 0x3F9A, 0x3F92}
	if got := ir.View[uint16](out); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("bf16 [1,2,3,4]/[0.5,1.5,2.5,3.5] = %#04x, want %#04x", got, want)
	}
}

// TestFloatSemantics is the table of divide-spec.md C.2.
// TestFloatSemantics is the table of divide-spec.md C.2, at every level,
// in f32 and f64 (the last two rows are about f32's range). Each result is
// compared with the table's value: exactly, sign included, NaN by class;
// the subnormal row within 0.01% (1e-41 has no exact f32), and non-zero.
func TestFloatSemantics(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	both, f32 := []ir.ElementType{ir.F32, ir.F64}, []ir.ElementType{ir.F32}
	for _, tc := range []struct {
		a, b, want float64
		types      []ir.ElementType
	}{
		{18, 8, 2.25, both}, {1, 0, inf, both}, {1, math.Copysign(0, -1), -inf, both}, {-1, 0, -inf, both},
		{0, 0, nan, both}, {nan, 1, nan, both}, {inf, inf, nan, both}, {inf, 2, inf, both},
		{0, -5, math.Copysign(0, -1), both},
		{1e-38, 1e3, 1e-41, f32}, {3e38, 0.1, inf, f32},
	} {
		forEachLevel(t, func(t *testing.T, level SIMD) {
			for _, et := range tc.types {
				a, b := tensorFromFloats(t, et, []int64{1}, tc.a), tensorFromFloats(t, et, []int64{1}, tc.b)
				out, err := divideAt(level, NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true), a, b)
				if err != nil {
					t.Fatal(err)
				}
				got := out.Float64At(0)
				ok := math.IsNaN(got) == math.IsNaN(tc.want) && (math.IsNaN(got) || got == tc.want && math.Signbit(got) == math.Signbit(tc.want))
				if tc.want == 1e-41 {
					ok = got != 0 && math.Abs(got-tc.want) < 1e-4*tc.want
				}
				if !ok {
					t.Errorf("%s %g / %g = %g, want %g", et, tc.a, tc.b, got, tc.want)
				}
			}
		})
	}
}

// TestRuntimeReference is divide-spec.md F.2 and the integer table of C.1.
func TestRuntimeReference(t *testing.T) {
	numpy := shapeinfer.Broadcast{Mode: shapeinfer.Numpy}
	for _, et := range []ir.ElementType{ir.I8, ir.U8, ir.F32, ir.F16, ir.BF16, ir.I64, ir.I32, ir.U64, ir.U32, ir.I16, ir.U16, ir.F64} {
		a := tensorFromFloats(t, et, []int64{2, 2}, 2, 4, 8, 16)
		b := tensorFromFloats(t, et, []int64{2, 2}, 1, 2, 4, 8)
		out, err := NewDivide(numpy, true).Evaluate(a, b)
		if err != nil || formatAll(out) != "[2 2 2 2]" {
			t.Errorf("%s [2,4,8,16]/[1,2,4,8] = %s, %v", et, formatAll(out), err)
		}
	}
	for _, tc := range []struct {
		name      string
		et        ir.ElementType
		aShape    []int64
		a         []float64
		bShape    []int64
		b         []float64
		pythondiv bool
		want      string
	}{
		{"Float32", ir.F32, []int64{1}, []float64{18}, []int64{1}, []float64{8}, true, "[2.25]"},
		{"Float32 by zero", ir.F32, []int64{2, 2}, []float64{2, 4, 8, 16}, []int64{2, 2}, []float64{0, 0, 0, 0}, true, "[+Inf +Inf +Inf +Inf]"},
		{"Int32 large", ir.I32, []int64{2, 2}, []float64{0x40000140, 0x40000001, 8, 16}, []int64{2, 2}, []float64{2, 5, 4, 8}, true, "[536871072 214748365 2 2]"},
		{"Int32", ir.I32, []int64{1}, []float64{18}, []int64{1}, []float64{8}, true, "[2]"},
		{"PythonRounding", ir.I32, []int64{2, 2}, []float64{-10, -10, 10, 10}, []int64{2, 2}, []float64{-3, 3, -3, 3}, true, "[3 -4 -4 3]"},
		{"CppRounding", ir.I32, []int64{2, 2}, []float64{-10, -10, 10, 10}, []int64{2, 2}, []float64{-3, 3, -3, 3}, false, "[3 -3 -3 3]"},
		{"C1 floor", ir.I32, []int64{6}, []float64{10, -10, 10, -10, 7, -7}, []int64{6}, []float64{3, 3, -3, -3, -2, 2}, true, "[3 -4 -4 3 -4 -4]"},
		{"C1 trunc", ir.I32, []int64{6}, []float64{10, -10, 10, -10, 7, -7}, []int64{6}, []float64{3, 3, -3, -3, -2, 2}, false, "[3 -3 -3 3 -3 -3]"},
		{"C1 floor 2", ir.I32, []int64{3}, []float64{-5, 0, -6}, []int64{3}, []float64{2, -5, 3}, true, "[-3 0 -2]"},
		{"C1 trunc 2", ir.I32, []int64{3}, []float64{-5, 0, -6}, []int64{3}, []float64{2, -5, 3}, false, "[-2 0 -2]"},
		{"C1 u8", ir.U8, []int64{1}, []float64{200}, []int64{1}, []float64{7}, true, "[28]"},
		{"C1 u32", ir.U32, []int64{1}, []float64{4294967295}, []int64{1}, []float64{2}, true, "[2147483647]"},
		{"C1 i8", ir.I8, []int64{1}, []float64{-128}, []int64{1}, []float64{2}, true, "[-64]"},
		{"C2 f32 zero by negative", ir.F32, []int64{1}, []float64{0}, []int64{1}, []float64{-5}, true, "[-0]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := NewDivide(numpy, tc.pythondiv).Evaluate(tensorFromFloats(t, tc.et, tc.aShape, tc.a...), tensorFromFloats(t, tc.et, tc.bShape, tc.b...))
			if err != nil || formatAll(out) != tc.want {
				t.Errorf("= %s, %v; want %s", formatAll(out), err, tc.want)
			}
		})
	}
	// Broadcast row of F.2: {3,2,1} / {1,6} -> {3,2,6}, f32 and i32.
	for _, et := range []ir.ElementType{ir.F32, ir.I32} {
		out, err := NewDivide(numpy, true).Evaluate(tensorFromFloats(t, et, []int64{3, 2, 1}, 12, 24, 36, 48, 60, 72),
			tensorFromFloats(t, et, []int64{1, 6}, 1, 2, 3, 4, 6, 1))
		want := "[12 6 4 3 2 12 24 12 8 6 4 24 36 18 12 9 6 36 48 24 16 12 8 48 60 30 20 15 10 60 72 36 24 18 12 72]"
		if err != nil || formatAll(out) != want || fmt.Sprint(out.Shape) != "[3 2 6]" {
			t.Errorf("%s broadcast = %v %s, %v", et, out.Shape, formatAll(out), err)
		}
	}
}

// tensorFromFloats builds a tensor of any numeric type from values it
// holds exactly.
func tensorFromFloats(t testing.TB, et ir.ElementType, shape []int64, vals ...float64) *ir.Tensor {
	t.Helper()
	out, err := ir.NewTensor(et, shape)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vals {
		out.SetFloat64(i, v)
	}
	return out
}

func formatAll(t *ir.Tensor) string {
	if t == nil {
		return "<nil>"
	}
	parts := make([]string, t.Len())
	for i := range parts {
		v := t.Float64At(i)
		if math.IsInf(v, 1) {
			parts[i] = "+Inf"
		} else {
			parts[i] = t.Format(i)
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// TestErrorPolicy is divide-spec.md D: the lowest offending flat output
// index, the kind of that element choosing the message, at every level,
// in the vector body, the tail and through broadcasting.
func TestErrorPolicy(t *testing.T) {
	numpy := shapeinfer.Broadcast{Mode: shapeinfer.Numpy}
	for _, tc := range []struct {
		name      string
		et        ir.ElementType
		aShape    []int64
		a         []float64
		bShape    []int64
		b         []float64
		wantIndex int
		class     error
	}{
		{"zero first", ir.I32, []int64{4}, []float64{1, 2, 3, 4}, []int64{4}, []float64{0, 1, 1, 1}, 0, ErrDivideByZero},
		{"zero last", ir.I32, []int64{4}, []float64{1, 2, 3, 4}, []int64{4}, []float64{1, 1, 1, 0}, 3, ErrDivideByZero},
		{"zero scalar divisor", ir.U8, []int64{3}, []float64{1, 2, 3}, []int64{}, []float64{0}, 0, ErrDivideByZero},
		{"overflow i8", ir.I8, []int64{3}, []float64{1, -128, 3}, []int64{3}, []float64{1, -1, 0}, 1, ErrOverflow},
		{"overflow i16", ir.I16, []int64{1}, []float64{-32768}, []int64{1}, []float64{-1}, 0, ErrOverflow},
		{"overflow i32", ir.I32, []int64{1}, []float64{-2147483648}, []int64{1}, []float64{-1}, 0, ErrOverflow},
		{"overflow i64 scalar", ir.I64, []int64{3}, []float64{5, 6, math.MinInt64}, []int64{}, []float64{-1}, 2, ErrOverflow},
		{"lowest of several", ir.I64, []int64{4}, []float64{1, math.MinInt64, 3, 4}, []int64{4}, []float64{1, -1, 0, 0}, 1, ErrOverflow},
		{"zero before overflow", ir.I32, []int64{3}, []float64{1, -2147483648, 3}, []int64{3}, []float64{0, -1, 0}, 0, ErrDivideByZero},
		// B [1,3] broadcast over A [2,3]: the zero at B[2] first meets output index 2.
		{"broadcast row", ir.I16, []int64{2, 3}, []float64{1, 2, 3, 4, 5, 6}, []int64{1, 3}, []float64{1, 1, 0}, 2, ErrDivideByZero},
		// A [2,1] broadcast against B [3]: output index 4 is A[1] / B[1].
		{"broadcast column", ir.I32, []int64{2, 1}, []float64{7, -2147483648}, []int64{3}, []float64{1, -1, 2}, 4, ErrOverflow},
		{"u64 zero", ir.U64, []int64{2}, []float64{1, 2}, []int64{2}, []float64{3, 0}, 1, ErrDivideByZero},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forEachLevel(t, func(t *testing.T, level SIMD) {
				for _, floor := range []bool{false, true} {
					_, err := divideAt(level, NewDivide(numpy, floor), tensorFromFloats(t, tc.et, tc.aShape, tc.a...), tensorFromFloats(t, tc.et, tc.bShape, tc.b...))
					want := fmt.Sprintf("%v at flat output index %d", tc.class, tc.wantIndex)
					if !errors.Is(err, tc.class) || !strings.Contains(err.Error(), want) {
						t.Errorf("floor=%v: error = %v, want %q", floor, err, want)
					}
				}
			})
		})
	}
	// Unsigned types cannot overflow; float types never fail; empty outputs never fail.
	if _, err := NewDivide(numpy, true).Evaluate(tensorFromFloats(t, ir.U8, []int64{1}, 255), tensorFromFloats(t, ir.U8, []int64{1}, 255)); err != nil {
		t.Error(err)
	}
	if _, err := NewDivide(numpy, true).Evaluate(tensorFromFloats(t, ir.F16, []int64{1}, 0), tensorFromFloats(t, ir.F16, []int64{1}, 0)); err != nil {
		t.Error(err)
	}
	out, err := NewDivide(numpy, true).Evaluate(tensorFromFloats(t, ir.I32, []int64{3, 0}), tensorFromFloats(t, ir.I32, []int64{3, 1}, 0, 0, 0))
	if err != nil || fmt.Sprint(out.Shape) != "[3 0]" {
		t.Errorf("zero-size output: %v, %v", out, err)
	}
}
