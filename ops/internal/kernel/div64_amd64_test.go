//go:build !purego

package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// The wrappers hand a refused call to the generic kernel, so the tests
// through Table cannot tell a kernel that refuses too much from one that
// divides: these call the AVX-512 64-bit kernels themselves.

func needAVX512(t *testing.T) {
	t.Helper()
	if _, err := Lookup(AVX512); err != nil {
		t.Skipf("skipping the raw AVX-512 64-bit kernels: %v", err)
	}
}

// raw64 are the two-operand AVX-512 kernels of one mode, called on whole
// groups of 8 (stream needs dst aligned to 64 bytes).
type raw64[T int64 | uint64] struct {
	name              string
	vv, sv, stream    func(dst, a, b []T) bool
	want              func(a, b T) T
	refuses, overflow func(a, b T) bool
}

func signedRaw() []raw64[int64] {
	refuses := func(_, b int64) bool { return b == 0 || b < -1<<61 || b > 1<<61 }
	overflow := func(a, b int64) bool { return a == math.MinInt64 && b == -1 }
	return []raw64[int64]{
		{"i64 trunc", divI64TruncVVAVX512, divI64TruncSVAVX512, divI64TruncVVNTAVX512,
			func(a, b int64) int64 { return a / b }, refuses, overflow},
		{"i64 floor", divI64FloorVVAVX512, divI64FloorSVAVX512, divI64FloorVVNTAVX512,
			floorDiv[int64], refuses, overflow},
	}
}

var unsignedRaw = raw64[uint64]{"u64", divU64VVAVX512, divU64SVAVX512, divU64VVNTAVX512,
	func(a, b uint64) uint64 { return a / b },
	func(_, b uint64) bool { return b == 0 || b > 1<<61 },
	func(_, _ uint64) bool { return false }}

// alignedInts returns n elements whose first is 64-byte aligned.
func alignedInts[T int64 | uint64](n int) []T {
	s := make([]T, n+8)
	skip := int(-uintptr(unsafe.Pointer(&s[0]))&63) / 8
	return s[skip : skip+n]
}

// check divides as by bs (16 lanes) with each kernel of k and compares
// the refusal and, where there is none, every quotient with Go's.
func (k raw64[T]) check(t *testing.T, as, bs []T) {
	t.Helper()
	refuse := false
	for i := range as {
		refuse = refuse || k.refuses(as[i], bs[i]) || k.overflow(as[i], bs[i])
	}
	dst := alignedInts[T](len(as))
	for _, run := range []struct {
		variant string
		call    func() bool
	}{
		{"vv", func() bool { return k.vv(dst, as, bs) }},
		{"stream", func() bool { return k.stream(dst, as, bs) }},
	} {
		if got := run.call(); got != refuse {
			t.Fatalf("%s %s: refused %v, want %v: %v / %v", k.name, run.variant, got, refuse, as, bs)
		}
		if refuse {
			continue
		}
		for i := range as {
			if want := k.want(as[i], bs[i]); dst[i] != want {
				t.Fatalf("%s %s: %d / %d = %d, want %d", k.name, run.variant, as[i], bs[i], dst[i], want)
			}
		}
	}
	// the same divisors under each dividend broadcast
	for _, x := range as[:2] {
		refuse := false
		for _, d := range bs {
			refuse = refuse || k.refuses(x, d) || k.overflow(x, d)
		}
		if got := k.sv(dst, []T{x}, bs); got != refuse {
			t.Fatalf("%s sv: refused %v, want %v: %d / %v", k.name, got, refuse, x, bs)
		}
		for i, d := range bs {
			if refuse {
				break
			}
			if want := k.want(x, d); dst[i] != want {
				t.Fatalf("%s sv: %d / %d = %d, want %d", k.name, x, d, dst[i], want)
			}
		}
	}
}

// smallDivisor returns a divisor of any magnitude in [1, 2^61).
func smallDivisor(r *rand.Rand) uint64 {
	return max(1, r.Uint64()>>(3+r.IntN(61)))
}

// TestRaw64Limits: the kernels divide every divisor up to 2^61 in
// magnitude, MIN by 1 and by -2 included, and refuse a call for exactly
// the lanes outside their proof (B = 0, |B| > 2^61, MIN / -1) in any of
// the 16 lanes of two groups.
func TestRaw64Limits(t *testing.T) {
	needAVX512(t)
	r := rand.New(rand.NewPCG(21, 22))
	const lanes = 16
	signedA := []int64{math.MinInt64, math.MaxInt64, math.MinInt64 + 1, 1 << 62, -1 << 62, 0, 1, -1, 12345678901234567, -7}
	signedB := []int64{1, -1, 2, -2, 3, 1 << 61, -1 << 61, 1<<61 - 1, -(1<<61 - 1), 1<<61 + 1, -(1<<61 + 1),
		1 << 62, math.MaxInt64, math.MinInt64, math.MinInt64 + 1, 0, 7, -1000, 1 << 32, -(1<<32 + 1)}
	for _, k := range signedRaw() {
		for _, a := range signedA {
			for _, b := range signedB {
				for pos := range lanes {
					as, bs := make([]int64, lanes), make([]int64, lanes)
					for i := range as {
						as[i] = int64(r.Uint64()) >> r.IntN(64)
						bs[i] = int64(smallDivisor(r))
						if r.IntN(2) == 0 {
							bs[i] = -bs[i]
						}
					}
					as[pos], bs[pos] = a, b
					k.check(t, as, bs)
				}
			}
		}
	}
	unsignedA := []uint64{math.MaxUint64, 1 << 63, 1<<63 - 1, 0, 1, 1<<61 + 1}
	unsignedB := []uint64{1, 2, 3, 1 << 61, 1<<61 - 1, 1<<61 + 1, 1 << 62, 1 << 63, math.MaxUint64, 0, 1000}
	for _, a := range unsignedA {
		for _, b := range unsignedB {
			for pos := range lanes {
				as, bs := make([]uint64, lanes), make([]uint64, lanes)
				for i := range as {
					as[i] = r.Uint64() >> r.IntN(64)
					bs[i] = smallDivisor(r)
				}
				as[pos], bs[pos] = a, b
				unsignedRaw.check(t, as, bs)
			}
		}
	}
}

// TestRaw64Random: random pairs of every magnitude and sign with |B| up to
// 2^61, near it one time in 16, all divided by the vector kernels.
func TestRaw64Random(t *testing.T) {
	needAVX512(t)
	r := rand.New(rand.NewPCG(23, 24))
	const lanes = 16
	divisor := func() uint64 {
		if r.IntN(16) == 0 {
			return 1<<61 - uint64(r.IntN(3))
		}
		return smallDivisor(r)
	}
	for range 1 << 16 {
		as, bs := make([]int64, lanes), make([]int64, lanes)
		ua, ub := make([]uint64, lanes), make([]uint64, lanes)
		for i := range as {
			ua[i], ub[i] = r.Uint64()>>r.IntN(64), divisor()
			as[i], bs[i] = int64(ua[i]), int64(ub[i])
			if r.IntN(2) == 0 {
				bs[i] = -bs[i]
			}
			if as[i] == math.MinInt64 && bs[i] == -1 {
				bs[i] = 1
			}
		}
		for _, k := range signedRaw() {
			k.check(t, as, bs)
		}
		unsignedRaw.check(t, ua, ub)
	}
}
