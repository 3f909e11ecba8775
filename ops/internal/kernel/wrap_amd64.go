//go:build !purego

package kernel

import (
	"math/bits"
	"unsafe"
)

// The wrappers of the generated kernels, which tables_amd64.go (written
// by the generator) puts in each level's Table: the kernels divide whole
// groups of lanes, the wrappers hand the tail to the generic kernels,
// check a broadcast operand before the loop (a zero divisor fails at once;
// a -1 divisor or a MIN dividend takes the generic path, which locates
// MIN / -1), and compute magic numbers once per call.

// rowsKernel calls a rows kernel when the row is whole groups, and the
// level's vv row by row otherwise.
func rowsKernel[T any](lanes int, rw func(dst, a, b []T) bool, vv func(dst, a, b []T) bool) func(dst, a, b []T) bool {
	byVV := rowsByVV(vv)
	return func(dst, a, b []T) bool {
		if len(b)%lanes != 0 || len(b) == 0 {
			return byVV(dst, a, b)
		}
		raceAccess(dst, a, b)
		return rw(dst, a, b)
	}
}

func floatVec[T any](lanes int, vv, vs, sv, rw func(dst, a, b []T), g variants[T]) variants[T] {
	v := variants[T]{
		vv: func(dst, a, b []T) bool {
			if m := len(dst) - len(dst)%lanes; m > 0 {
				raceAccess(dst[:m], a[:m], b[:m])
				vv(dst[:m], a[:m], b[:m])
				dst, a, b = dst[m:], a[m:], b[m:]
			}
			return g.vv(dst, a, b)
		},
		vs: func(dst, a, b []T) bool {
			if m := len(dst) - len(dst)%lanes; m > 0 {
				raceAccess(dst[:m], a[:m], b[:1])
				vs(dst[:m], a[:m], b[:1])
				dst, a = dst[m:], a[m:]
			}
			return g.vs(dst, a, b)
		},
		sv: func(dst, a, b []T) bool {
			if m := len(dst) - len(dst)%lanes; m > 0 {
				raceAccess(dst[:m], a[:1], b[:m])
				sv(dst[:m], a[:1], b[:m])
				dst, b = dst[m:], b[m:]
			}
			return g.sv(dst, a, b)
		},
	}
	v.rows = rowsKernel(lanes, func(dst, a, b []T) bool { rw(dst, a, b); return false }, v.vv)
	return v
}

// intVec wraps integer kernels; vsGeneric and svGeneric tell when a
// broadcast scalar needs the generic path.
func intVec[T any](lanes int, vv, vs, sv, rw func(dst, a, b []T) bool, g variants[T], vsGeneric, svGeneric func(T) bool) variants[T] {
	v := variants[T]{
		vv: func(dst, a, b []T) bool {
			if m := len(dst) - len(dst)%lanes; m > 0 {
				raceAccess(dst[:m], a[:m], b[:m])
				if vv(dst[:m], a[:m], b[:m]) {
					return true
				}
				dst, a, b = dst[m:], a[m:], b[m:]
			}
			return g.vv(dst, a, b)
		},
		vs: func(dst, a, b []T) bool {
			if vsGeneric(b[0]) {
				return g.vs(dst, a, b)
			}
			if m := len(dst) - len(dst)%lanes; m > 0 {
				raceAccess(dst[:m], a[:m], b[:1])
				vs(dst[:m], a[:m], b[:1])
				dst, a = dst[m:], a[m:]
			}
			return g.vs(dst, a, b)
		},
		sv: func(dst, a, b []T) bool {
			if svGeneric(a[0]) {
				return g.sv(dst, a, b)
			}
			if m := len(dst) - len(dst)%lanes; m > 0 {
				raceAccess(dst[:m], a[:1], b[:m])
				if sv(dst[:m], a[:1], b[:m]) {
					return true
				}
				dst, b = dst[m:], b[m:]
			}
			return g.sv(dst, a, b)
		},
	}
	v.rows = rowsKernel(lanes, rw, v.vv)
	return v
}

func signedVec[T signed](lanes int, vv, vs, sv, rw func(dst, a, b []T) bool, g variants[T]) variants[T] {
	return intVec(lanes, vv, vs, sv, rw, g,
		func(s T) bool { return s == 0 || s == -1 },
		func(s T) bool { return s == minOf[T]() })
}

func unsignedVec[T unsigned](lanes int, vv, vs, sv, rw func(dst, a, b []T) bool, g variants[T]) variants[T] {
	return intVec(lanes, vv, vs, sv, rw, g,
		func(s T) bool { return s == 0 },
		func(T) bool { return false })
}

// magicKernel divides 64-bit lanes by one divisor with its magic number
// (magicI64, magicU64).
type magicKernel[T int64 | uint64] func(dst, a []T, magic, shift, absD, negD uint64)

// magicI64 divides int64 by a broadcast divisor in groups of group lanes
// with the unsigned magic number of |d| (plain, or with the add step);
// powers of two, -1 and 0 stay with the scalar kernel, which also
// finishes the tail.
func magicI64(group int, plain, withAdd magicKernel[int64], scalar func(dst, a, b []int64) bool) func(dst, a, b []int64) bool {
	return func(dst, a, b []int64) bool {
		d := b[0]
		abs := uint64(d)
		if d < 0 {
			abs = -abs
		}
		m := len(dst) - len(dst)%group
		if d == 0 || d == -1 || abs&(abs-1) == 0 || m == 0 {
			return scalar(dst, a, b)
		}
		v := newU64Divider(abs)
		var neg uint64
		if d < 0 {
			neg = ^uint64(0)
		}
		kern := plain
		if v.more&addMarker != 0 {
			kern = withAdd
		}
		raceAccess(dst[:m], a[:m], b[:1])
		kern(dst[:m], a[:m], v.magic, uint64(v.more&shiftMask), abs, neg)
		return scalar(dst[m:], a[m:], b)
	}
}

// magicU64 is magicI64 for uint64.
func magicU64(group int, plain, withAdd magicKernel[uint64], scalar func(dst, a, b []uint64) bool) func(dst, a, b []uint64) bool {
	return func(dst, a, b []uint64) bool {
		d := b[0]
		m := len(dst) - len(dst)%group
		if d == 0 || d&(d-1) == 0 || m == 0 {
			return scalar(dst, a, b)
		}
		v := newU64Divider(d)
		kern := plain
		if v.more&addMarker != 0 {
			kern = withAdd
		}
		raceAccess(dst[:m], a[:m], b[:1])
		kern(dst[:m], a[:m], v.magic, uint64(v.more&shiftMask), d, 0)
		return scalar(dst[m:], a[m:], b)
	}
}

// smallDivider returns libdivide's unsigned magic number for a divisor
// 1 < d < 2^n in n-bit lanes (n is 16 or 32): q = mulhi_n(x, magic), then
// ((x - q) >> 1 + q) >> shift with add, q >> shift without. A power of two
// 2^k multiplies by 2^(n-k), which is a shift.
func smallDivider(d uint64, n uint) (magic, shift uint64, add bool) {
	log := uint(63 - bits.LeadingZeros64(d))
	if d&(d-1) == 0 {
		return 1 << (n - log), 0, false
	}
	m, rem := (uint64(1)<<(n+log))/d, (uint64(1)<<(n+log))%d
	if d-rem < 1<<log {
		return m + 1, uint64(log), false
	}
	// libdivide adds one to 2m where 2rem >= d; here d-rem >= 2^log >
	// d/2, so 2rem < d.
	return (2*m + 1) & (1<<n - 1), uint64(log), true
}

// magicBytes divides bytes by a broadcast divisor with the byte kernels
// (groups of lanes), which take M = ceil(2^16/|d|): d = 0 and d = -1
// (which may fault) and |d| = 1 stay with the scalar kernel, which also
// finishes the tail.
func magicBytes[T int8 | uint8](lanes int, kern func(dst, a []T, magic, shift, absD, negD uint64), scalar func(dst, a, b []T) bool) func(dst, a, b []T) bool {
	return func(dst, a, b []T) bool {
		d := int64(b[0])
		abs, neg := uint64(d), uint64(0)
		if d < 0 {
			abs, neg = uint64(-d), ^uint64(0)
		}
		m := len(dst) - len(dst)%lanes
		if abs <= 1 || m == 0 {
			return scalar(dst, a, b)
		}
		raceAccess(dst[:m], a[:m], b[:1])
		kern(dst[:m], a[:m], (1<<16+abs-1)/abs, 0, abs, neg)
		return scalar(dst[m:], a[m:], b)
	}
}

// magicSmall divides by a broadcast divisor with the magic-number kernels
// (laneBits-bit lanes, groups of lanes): d = 0 and d = -1 (which may fault)
// and |d| = 1 stay with the scalar kernel, which also finishes the tail.
func magicSmall[T signed | unsigned](lanes int, laneBits uint, kern, kernAdd func(dst, a []T, magic, shift, absD, negD uint64), scalar func(dst, a, b []T) bool) func(dst, a, b []T) bool {
	return func(dst, a, b []T) bool {
		d := int64(b[0])
		abs, neg := uint64(d), uint64(0)
		if d < 0 {
			abs, neg = uint64(-d), ^uint64(0)
		}
		m := len(dst) - len(dst)%lanes
		if abs <= 1 || m == 0 {
			return scalar(dst, a, b)
		}
		magic, shift, add := smallDivider(abs, laneBits)
		raceAccess(dst[:m], a[:m], b[:1])
		if add {
			kernAdd(dst[:m], a[:m], magic, shift, abs, neg)
		} else {
			kern(dst[:m], a[:m], magic, shift, abs, neg)
		}
		return scalar(dst[m:], a[m:], b)
	}
}

// streamed wraps a VVNT kernel, which divides whole groups of lanes and
// needs dst aligned to 64 bytes: vv divides the elements before the first
// aligned one and the tail. When the kernel reports a lane, refused
// decides for the rest of the call: fault reports it to the caller, which
// locates it; the 64-bit kernels hand the call to the generic kernel.
func streamed[T any](lanes int, nt, vv, refused func(dst, a, b []T) bool) func(dst, a, b []T) bool {
	var zero T
	size := int(unsafe.Sizeof(zero))
	return func(dst, a, b []T) bool {
		if len(dst) == 0 {
			return false
		}
		head := min(len(dst), int(-uintptr(unsafe.Pointer(unsafe.SliceData(dst)))&63)/size)
		if head > 0 && vv(dst[:head], a[:head], b[:head]) {
			return true
		}
		dst, a, b = dst[head:], a[head:], b[head:]
		if m := len(dst) - len(dst)%lanes; m > 0 {
			raceAccess(dst[:m], a[:m], b[:m])
			if nt(dst[:m], a[:m], b[:m]) {
				return refused(dst, a, b)
			}
			dst, a, b = dst[m:], a[m:], b[m:]
		}
		return vv(dst, a, b)
	}
}

// fault is streamed's refused for kernels whose report is a fault.
func fault[T any](_, _, _ []T) bool { return true }

// floatKernel gives a float kernel, which cannot fail, the integer
// kernels' signature.
func floatKernel[T any](k func(dst, a, b []T)) func(dst, a, b []T) bool {
	return func(dst, a, b []T) bool { k(dst, a, b); return false }
}

// exact64 wraps the 64-bit vector kernels. They divide whole groups of
// lanes and refuse a call holding a lane outside their proof (a zero
// divisor, MIN / -1, or a divisor too large: above 2^61 in magnitude at
// AVX-512, 2^51 at AVX2); the generic kernel then divides that call,
// finding the faults, and finishes every tail.
func exact64[T any](lanes int, vv, sv, rw func(dst, a, b []T) bool, g variants[T]) variants[T] {
	v := g
	v.vv = func(dst, a, b []T) bool {
		if m := len(dst) - len(dst)%lanes; m > 0 {
			raceAccess(dst[:m], a[:m], b[:m])
			if vv(dst[:m], a[:m], b[:m]) {
				return g.vv(dst, a, b)
			}
			dst, a, b = dst[m:], a[m:], b[m:]
		}
		return g.vv(dst, a, b)
	}
	v.sv = func(dst, a, b []T) bool {
		if m := len(dst) - len(dst)%lanes; m > 0 {
			raceAccess(dst[:m], a[:1], b[:m])
			if sv(dst[:m], a[:1], b[:m]) {
				return g.sv(dst, a, b)
			}
			dst, b = dst[m:], b[m:]
		}
		return g.sv(dst, a, b)
	}
	v.rows = rowsKernel(lanes, func(dst, a, b []T) bool {
		if rw(dst, a, b) {
			return rowsByVV(g.vv)(dst, a, b)
		}
		return false
	}, v.vv)
	return v
}
