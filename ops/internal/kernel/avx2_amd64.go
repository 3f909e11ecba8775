//go:build !purego

package kernel

import "math/bits"

// avx2Table wraps the generated kernels: they divide whole groups, the
// generic kernels finish the tail, and the wrappers check a broadcast
// scalar before the loop (a zero divisor fails at once; a -1 divisor or a
// MIN dividend takes the generic path, which locates MIN / -1). i64 and
// u64 use the scalar kernels of div64.go.
func avx2Table() *Table {
	g := genericTable()
	t := *g
	t.level = AVX2
	t.f32 = floatVec(8, divF32VVAVX2, divF32VSAVX2, divF32SVAVX2, divF32RWAVX2, g.f32)
	t.f64 = floatVec(4, divF64VVAVX2, divF64VSAVX2, divF64SVAVX2, divF64RWAVX2, g.f64)
	t.f16 = floatVec(8, divF16VVAVX2, divF16VSAVX2, divF16SVAVX2, divF16RWAVX2, g.f16)
	t.bf16 = floatVec(16, divBF16VVAVX2, divBF16VSAVX2, divBF16SVAVX2, divBF16RWAVX2, g.bf16)
	t.i8 = [2]variants[int8]{
		signedVec(8, divI8TruncVVAVX2, divI8TruncVSAVX2, divI8TruncSVAVX2, divI8TruncRWAVX2, g.i8[0]),
		signedVec(8, divI8FloorVVAVX2, divI8FloorVSAVX2, divI8FloorSVAVX2, divI8FloorRWAVX2, g.i8[1]),
	}
	t.i16 = [2]variants[int16]{
		signedVec(8, divI16TruncVVAVX2, divI16TruncVSAVX2, divI16TruncSVAVX2, divI16TruncRWAVX2, g.i16[0]),
		signedVec(8, divI16FloorVVAVX2, divI16FloorVSAVX2, divI16FloorSVAVX2, divI16FloorRWAVX2, g.i16[1]),
	}
	t.i32 = [2]variants[int32]{
		signedVec(8, divI32TruncVVAVX2, divI32TruncVSAVX2, divI32TruncSVAVX2, divI32TruncRWAVX2, g.i32[0]),
		signedVec(8, divI32FloorVVAVX2, divI32FloorVSAVX2, divI32FloorSVAVX2, divI32FloorRWAVX2, g.i32[1]),
	}
	u8 := unsignedVec(8, divU8VVAVX2, divU8VSAVX2, divU8SVAVX2, divU8RWAVX2, g.u8[0])
	u16 := unsignedVec(8, divU16VVAVX2, divU16VSAVX2, divU16SVAVX2, divU16RWAVX2, g.u16[0])
	u32 := unsignedVec(4, divU32VVAVX2, divU32VSAVX2, divU32SVAVX2, divU32RWAVX2, g.u32[0])
	t.u8, t.u16, t.u32 = [2]variants[uint8]{u8, u8}, [2]variants[uint16]{u16, u16}, [2]variants[uint32]{u32, u32}
	// Broadcast divisors multiply by a magic number.
	t.i8[0].vs = magicSmall(16, 16, divI8MagicTruncAVX2, divI8MagicTruncAddAVX2, t.i8[0].vs)
	t.i8[1].vs = magicSmall(16, 16, divI8MagicFloorAVX2, divI8MagicFloorAddAVX2, t.i8[1].vs)
	t.i16[0].vs = magicSmall(16, 16, divI16MagicTruncAVX2, divI16MagicTruncAddAVX2, t.i16[0].vs)
	t.i16[1].vs = magicSmall(16, 16, divI16MagicFloorAVX2, divI16MagicFloorAddAVX2, t.i16[1].vs)
	t.i32[0].vs = magicSmall(8, 32, divI32MagicTruncAVX2, divI32MagicTruncAddAVX2, t.i32[0].vs)
	t.i32[1].vs = magicSmall(8, 32, divI32MagicFloorAVX2, divI32MagicFloorAddAVX2, t.i32[1].vs)
	for m := range 2 {
		t.u8[m].vs = magicSmall(16, 16, divU8MagicAVX2, divU8MagicAddAVX2, t.u8[m].vs)
		t.u16[m].vs = magicSmall(16, 16, divU16MagicAVX2, divU16MagicAddAVX2, t.u16[m].vs)
		t.u32[m].vs = magicSmall(8, 32, divU32MagicAVX2, divU32MagicAddAVX2, t.u32[m].vs)
	}
	t.i64 = fast64Variants(g.i64)
	t.u64 = fastU64Variants(g.u64[0])
	t.i64[0].vs = magicI64(4, divI64MagicTruncAVX2, divI64MagicTruncAddAVX2, t.i64[0].vs)
	t.i64[1].vs = magicI64(4, divI64MagicFloorAVX2, divI64MagicFloorAddAVX2, t.i64[1].vs)
	uvs := magicU64(4, divU64MagicAVX2, divU64MagicAddAVX2, t.u64[0].vs)
	t.u64[0].vs, t.u64[1].vs = uvs, uvs
	t.eachRowsOf64()
	return &t
}

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

// eachRowsOf64 gives the scalar 64-bit kernels the row loop over their vv.
func (t *Table) eachRowsOf64() {
	for m := range 2 {
		t.i64[m].rows = rowsByVV(t.i64[m].vv)
		t.u64[m].rows = rowsByVV(t.u64[m].vv)
	}
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
