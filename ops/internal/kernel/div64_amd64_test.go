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
// divides: these call the 64-bit vector kernels of each level themselves.

// raw64 are the two-operand 64-bit kernels of one level and mode, called
// on whole groups (stream needs dst aligned to 64 bytes).
type raw64[T int64 | uint64] struct {
	name              string
	vv, sv, stream    func(dst, a, b []T) bool
	want              func(a, b T) T
	refuses, overflow func(a, b T) bool
	limit             uint64 // the largest divisor magnitude the kernels take
}

// raw64Levels lists the levels whose 64-bit kernels this machine runs,
// with the divisor limit of each (AVX-512 takes |b| <= 2^61; AVX2 takes
// b in [-2^50, 2^50), and unsigned b up to 2^50).
func raw64Levels(t *testing.T) []Level {
	t.Helper()
	var out []Level
	for _, l := range []Level{AVX2, AVX512} {
		if _, err := Lookup(l); err != nil {
			t.Logf("skipping the raw %s 64-bit kernels: %v", l, err)
			continue
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		t.Skip("no vector level on this machine or build")
	}
	return out
}

func signedRaw(l Level) []raw64[int64] {
	overflow := func(a, b int64) bool { return a == math.MinInt64 && b == -1 }
	if l == AVX2 {
		// Where fl(a) = -2^63 or 2^63, a / -1 or a / 1 looks like MIN / -1
		// to the AVX2 kernels.
		refuses := func(a, b int64) bool {
			return b == 0 || b < -1<<50 || b >= 1<<50 ||
				b == -1 && a <= math.MinInt64+512 || b == 1 && a >= math.MaxInt64-511
		}
		return []raw64[int64]{
			{"avx2 i64 trunc", divI64TruncVVAVX2, divI64TruncSVAVX2, divI64TruncVVNTAVX2,
				func(a, b int64) int64 { return a / b }, refuses, overflow, 1 << 50},
			{"avx2 i64 floor", divI64FloorVVAVX2, divI64FloorSVAVX2, divI64FloorVVNTAVX2,
				floorDiv[int64], refuses, overflow, 1 << 50},
		}
	}
	refuses := func(_, b int64) bool { return b == 0 || b < -1<<61 || b > 1<<61 }
	return []raw64[int64]{
		{"avx512 i64 trunc", divI64TruncVVAVX512, divI64TruncSVAVX512, divI64TruncVVNTAVX512,
			func(a, b int64) int64 { return a / b }, refuses, overflow, 1 << 61},
		{"avx512 i64 floor", divI64FloorVVAVX512, divI64FloorSVAVX512, divI64FloorVVNTAVX512,
			floorDiv[int64], refuses, overflow, 1 << 61},
	}
}

func unsignedRaw(l Level) raw64[uint64] {
	if l == AVX2 {
		return raw64[uint64]{"avx2 u64", divU64VVAVX2, divU64SVAVX2, divU64VVNTAVX2,
			func(a, b uint64) uint64 { return a / b },
			func(_, b uint64) bool { return b == 0 || b > 1<<50 },
			func(_, _ uint64) bool { return false }, 1 << 50}
	}
	return raw64[uint64]{"avx512 u64", divU64VVAVX512, divU64SVAVX512, divU64VVNTAVX512,
		func(a, b uint64) uint64 { return a / b },
		func(_, b uint64) bool { return b == 0 || b > 1<<61 },
		func(_, _ uint64) bool { return false }, 1 << 61}
}

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

// smallDivisor returns a divisor of any magnitude in [1, limit).
func smallDivisor(r *rand.Rand, limit uint64) uint64 {
	return max(1, r.Uint64()%limit>>r.IntN(62))
}

// TestRaw64Limits: the kernels of each level divide every divisor up to
// their limit in magnitude, MIN by 1 and by -2 included, and refuse a call
// for exactly the lanes outside their proof (a zero or too large divisor,
// MIN / -1) in any of the 16 lanes of 16 / lanes groups.
func TestRaw64Limits(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	const lanes = 16
	for _, level := range raw64Levels(t) {
		signedA := []int64{math.MinInt64, math.MaxInt64, math.MinInt64 + 1, math.MaxInt64 - 1, math.MinInt64 + 512, math.MinInt64 + 513, math.MaxInt64 - 511, math.MaxInt64 - 512, 1 << 62, -1 << 62, 0, 1, -1, 12345678901234567, -7,
			1<<53 + 1, -(1<<53 + 1), 1<<63 - 1<<10, -(1<<63 - 1<<10)}
		signedB := []int64{1, -1, 2, -2, 3, -3, 1 << 61, -1 << 61, 1<<61 - 1, -(1<<61 - 1), 1<<61 + 1, -(1<<61 + 1),
			1 << 51, -1 << 51, 1<<51 - 1, -(1<<51 - 1), 1<<51 + 1, -(1<<51 + 1),
			1 << 50, -1 << 50, 1<<50 - 1, -(1<<50 - 1), 1<<50 + 1, -(1<<50 + 1),
			1 << 62, math.MaxInt64, math.MinInt64, math.MinInt64 + 1, 0, 7, -1000, 1 << 32, -(1<<32 + 1)}
		for _, k := range signedRaw(level) {
			for _, a := range signedA {
				for _, b := range signedB {
					for pos := range lanes {
						as, bs := make([]int64, lanes), make([]int64, lanes)
						for i := range as {
							as[i] = int64(r.Uint64()) >> r.IntN(64)
							bs[i] = int64(smallDivisor(r, k.limit))
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
		unsignedA := []uint64{math.MaxUint64, math.MaxUint64 - 1, 1 << 63, 1<<63 - 1, 0, 1, 1<<61 + 1, 1<<64 - 1<<11, 1<<53 + 1}
		unsignedB := []uint64{1, 2, 3, 1 << 61, 1<<61 - 1, 1<<61 + 1, 1 << 51, 1<<51 - 1, 1<<51 + 1, 1 << 50, 1<<50 - 1, 1<<50 + 1, 1 << 62, 1 << 63, math.MaxUint64, 0, 1000}
		k := unsignedRaw(level)
		for _, a := range unsignedA {
			for _, b := range unsignedB {
				for pos := range lanes {
					as, bs := make([]uint64, lanes), make([]uint64, lanes)
					for i := range as {
						as[i] = r.Uint64() >> r.IntN(64)
						bs[i] = smallDivisor(r, k.limit)
					}
					as[pos], bs[pos] = a, b
					k.check(t, as, bs)
				}
			}
		}
	}
}

// TestRaw64Random: random pairs of every magnitude and sign with
// divisors up to each level's limit, near it one time in 16, all divided
// by the vector kernels.
func TestRaw64Random(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	const lanes = 16
	for _, level := range raw64Levels(t) {
		limit := unsignedRaw(level).limit
		divisor := func() uint64 {
			if r.IntN(16) == 0 {
				return limit - uint64(r.IntN(3))
			}
			return smallDivisor(r, limit)
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
			for _, k := range signedRaw(level) {
				k.check(t, as, bs)
			}
			unsignedRaw(level).check(t, ua, ub)
		}
	}
}
