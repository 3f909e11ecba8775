package kernel

import "math/bits"

// Fast 64-bit kernels for the SIMD levels. AVX2 cannot divide 64-bit
// integers (f64 holds 53 bits and there is no 64-bit multiply-high), so two
// vectors use the generic IDIV loops; a broadcast divisor uses libdivide's
// magic numbers
// (ridiculousfish/libdivide, libdivide_u64_gen and libdivide_s64_gen), a
// multiply-high and shifts per element. The generic kernels stay the
// plain oracle.

const (
	addMarker       = 0x40
	negativeDivisor = 0x80
	shiftMask       = 0x3f
)

// u64Divider holds libdivide's magic number and shift for a fixed
// unsigned divisor d > 0; divU64ByScalar and the AVX2 kernels apply it.
type u64Divider struct {
	magic uint64
	more  uint8
}

func newU64Divider(d uint64) u64Divider {
	log := uint8(63 - bits.LeadingZeros64(d))
	if d&(d-1) == 0 {
		return u64Divider{more: log} // power of two: a shift
	}
	m, rem := bits.Div64(1<<log, 0, d) // 2^(64+log) / d
	var more uint8
	if e := d - rem; e < 1<<log {
		more = log
	} else {
		m += m
		if twice := rem + rem; twice >= d || twice < rem {
			m++
		}
		more = log | addMarker
	}
	return u64Divider{magic: m + 1, more: more}
}

// s64Divider holds libdivide's magic number and shift for a fixed signed
// divisor d, d != 0 and d != -1; divS64ByScalar applies it.
type s64Divider struct {
	magic int64
	more  uint8
}

func newS64Divider(d int64) s64Divider {
	abs := uint64(d)
	if d < 0 {
		abs = -abs
	}
	log := uint8(63 - bits.LeadingZeros64(abs))
	var neg uint8
	if d < 0 {
		neg = negativeDivisor
	}
	if abs&(abs-1) == 0 {
		return s64Divider{more: log | neg}
	}
	m, rem := bits.Div64(1<<(log-1), 0, abs) // 2^(64+log-1) / |d|
	var more uint8
	if e := abs - rem; e < 1<<log {
		more = log - 1
	} else {
		m += m
		if twice := rem + rem; twice >= abs || twice < rem {
			m++
		}
		more = log | addMarker
	}
	m++
	magic := int64(m)
	if d < 0 {
		magic = -magic
	}
	return s64Divider{magic: magic, more: more | neg}
}

// mulhiSigned returns the high 64 bits of the signed 128-bit product.
func mulhiSigned(a, b int64) int64 {
	hi, _ := bits.Mul64(uint64(a), uint64(b))
	return int64(hi) - (a>>63)&b - (b>>63)&a
}

// floorFix turns a truncated quotient q of n / d into the floor quotient,
// with the sign masks of floorDiv.
func floorFix(q, n, d int64) int64 {
	r := n - q*d
	return q + ((r^d)>>63)&((r|-r)>>63)
}

// fast64Variants keeps the generic two-vector kernels (IDIV with the
// branchless floor) and divides by a broadcast divisor with magic numbers.
func fast64Variants(g [2]variants[int64]) [2]variants[int64] {
	for mode, floor := range []bool{false, true} {
		scalar := g[mode].vs
		g[mode].vs = func(dst, a, b []int64) bool {
			d := b[0]
			if d == 0 || d == -1 {
				return scalar(dst, a, b)
			}
			divS64ByScalar(dst, a[:len(dst)], d, floor)
			return false
		}
	}
	return g
}

func fastU64Variants(g variants[uint64]) [2]variants[uint64] {
	v := g
	v.vs = func(dst, a, b []uint64) bool {
		if b[0] == 0 {
			return len(dst) > 0
		}
		divU64ByScalar(dst, a[:len(dst)], b[0])
		return false
	}
	return [2]variants[uint64]{v, v}
}

// divS64ByScalar is s64Divider.div inlined into one loop per divider
// shape, so that the loop body is a multiply-high, shifts and adds.
func divS64ByScalar(dst, a []int64, d int64, floor bool) {
	v := newS64Divider(d)
	shift := v.more & shiftMask
	sign := int64(int8(v.more)) >> 7
	a = a[:len(dst)]
	switch {
	case v.magic == 0:
		mask := int64(1)<<shift - 1
		for i, n := range a {
			q := (n+(n>>63)&mask)>>shift ^ sign - sign
			dst[i] = q
		}
	case v.more&addMarker != 0:
		for i, n := range a {
			q := (mulhiSigned(v.magic, n) + (n ^ sign - sign)) >> shift
			dst[i] = q + int64(uint64(q)>>63)
		}
	default:
		for i, n := range a {
			q := mulhiSigned(v.magic, n) >> shift
			dst[i] = q + int64(uint64(q)>>63)
		}
	}
	if floor {
		for i, n := range a {
			dst[i] = floorFix(dst[i], n, d)
		}
	}
}

// divU64ByScalar is u64Divider.div inlined into one loop per shape.
func divU64ByScalar(dst, a []uint64, d uint64) {
	v := newU64Divider(d)
	shift := v.more & shiftMask
	a = a[:len(dst)]
	switch {
	case v.magic == 0:
		for i, n := range a {
			dst[i] = n >> shift
		}
	case v.more&addMarker != 0:
		for i, n := range a {
			q, _ := bits.Mul64(v.magic, n)
			dst[i] = ((n-q)>>1 + q) >> shift
		}
	default:
		for i, n := range a {
			q, _ := bits.Mul64(v.magic, n)
			dst[i] = q >> shift
		}
	}
}
