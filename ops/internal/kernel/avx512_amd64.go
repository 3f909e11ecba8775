//go:build !purego

package kernel

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// avx512Table starts from the AVX2 table and replaces its kernels with
// zmm versions; the wrappers are the AVX2 level's, with the wider groups,
// and exact64's for the 64-bit vectors.
func avx512Table() *Table {
	g := genericTable()
	t := *avx2Table()
	t.level = AVX512
	t.f32 = floatVec(16, divF32VVAVX512, divF32VSAVX512, divF32SVAVX512, divF32RWAVX512, g.f32)
	t.f64 = floatVec(8, divF64VVAVX512, divF64VSAVX512, divF64SVAVX512, divF64RWAVX512, g.f64)
	t.f16 = floatVec(16, divF16VVAVX512, divF16VSAVX512, divF16SVAVX512, divF16RWAVX512, g.f16)
	t.bf16 = floatVec(16, divBF16VVAVX512, divBF16VSAVX512, divBF16SVAVX512, divBF16RWAVX512, g.bf16)
	t.i8 = [2]variants[int8]{
		signedVec(16, divI8TruncVVAVX512, divI8TruncVSAVX512, divI8TruncSVAVX512, divI8TruncRWAVX512, g.i8[0]),
		signedVec(16, divI8FloorVVAVX512, divI8FloorVSAVX512, divI8FloorSVAVX512, divI8FloorRWAVX512, g.i8[1]),
	}
	t.i16 = [2]variants[int16]{
		signedVec(16, divI16TruncVVAVX512, divI16TruncVSAVX512, divI16TruncSVAVX512, divI16TruncRWAVX512, g.i16[0]),
		signedVec(16, divI16FloorVVAVX512, divI16FloorVSAVX512, divI16FloorSVAVX512, divI16FloorRWAVX512, g.i16[1]),
	}
	t.i32 = [2]variants[int32]{
		signedVec(8, divI32TruncVVAVX512, divI32TruncVSAVX512, divI32TruncSVAVX512, divI32TruncRWAVX512, g.i32[0]),
		signedVec(8, divI32FloorVVAVX512, divI32FloorVSAVX512, divI32FloorSVAVX512, divI32FloorRWAVX512, g.i32[1]),
	}
	u8 := unsignedVec(16, divU8VVAVX512, divU8VSAVX512, divU8SVAVX512, divU8RWAVX512, g.u8[0])
	u16 := unsignedVec(16, divU16VVAVX512, divU16VSAVX512, divU16SVAVX512, divU16RWAVX512, g.u16[0])
	u32 := unsignedVec(8, divU32VVAVX512, divU32VSAVX512, divU32SVAVX512, divU32RWAVX512, g.u32[0])
	t.u8, t.u16, t.u32 = [2]variants[uint8]{u8, u8}, [2]variants[uint16]{u16, u16}, [2]variants[uint32]{u32, u32}
	// Broadcast divisors multiply by a magic number.
	t.i8[0].vs = magicSmall(32, 16, divI8MagicTruncAVX512, divI8MagicTruncAddAVX512, t.i8[0].vs)
	t.i8[1].vs = magicSmall(32, 16, divI8MagicFloorAVX512, divI8MagicFloorAddAVX512, t.i8[1].vs)
	t.i16[0].vs = magicSmall(32, 16, divI16MagicTruncAVX512, divI16MagicTruncAddAVX512, t.i16[0].vs)
	t.i16[1].vs = magicSmall(32, 16, divI16MagicFloorAVX512, divI16MagicFloorAddAVX512, t.i16[1].vs)
	t.i32[0].vs = magicSmall(16, 32, divI32MagicTruncAVX512, divI32MagicTruncAddAVX512, t.i32[0].vs)
	t.i32[1].vs = magicSmall(16, 32, divI32MagicFloorAVX512, divI32MagicFloorAddAVX512, t.i32[1].vs)
	for m := range 2 {
		t.u8[m].vs = magicSmall(32, 16, divU8MagicAVX512, divU8MagicAddAVX512, t.u8[m].vs)
		t.u16[m].vs = magicSmall(32, 16, divU16MagicAVX512, divU16MagicAddAVX512, t.u16[m].vs)
		t.u32[m].vs = magicSmall(16, 32, divU32MagicAVX512, divU32MagicAddAVX512, t.u32[m].vs)
	}
	t.i64[0].vs = magicI64(8, divI64MagicTruncAVX512, divI64MagicTruncAddAVX512, t.i64[0].vs)
	t.i64[1].vs = magicI64(8, divI64MagicFloorAVX512, divI64MagicFloorAddAVX512, t.i64[1].vs)
	uvs := magicU64(8, divU64MagicAVX512, divU64MagicAddAVX512, t.u64[0].vs)
	t.u64[0].vs, t.u64[1].vs = uvs, uvs
	t.i64[0] = exact64(divI64TruncVVAVX512, divI64TruncSVAVX512, divI64TruncRWAVX512, t.i64[0])
	t.i64[1] = exact64(divI64FloorVVAVX512, divI64FloorSVAVX512, divI64FloorRWAVX512, t.i64[1])
	u64 := exact64(divU64VVAVX512, divU64SVAVX512, divU64RWAVX512, t.u64[0])
	t.u64 = [2]variants[uint64]{u64, u64}
	if cpu.X86.HasAVX512VBMI {
		// 8-bit division looks its magic numbers up (VPERMI2B) instead of
		// dividing in f32, and needs no widening to 16-bit lanes for a
		// broadcast divisor: 1.6-2.2x faster than the magic-number kernels.
		t.i8 = [2]variants[int8]{
			signedVec(16, divI8TruncVVVBMI, divI8TruncVSVBMI, divI8TruncSVAVX512, divI8TruncRWVBMI, g.i8[0]),
			signedVec(16, divI8FloorVVVBMI, divI8FloorVSVBMI, divI8FloorSVAVX512, divI8FloorRWVBMI, g.i8[1]),
		}
		t.i8[0].stream = streamed(16, divI8TruncVVNTVBMI, t.i8[0].vv, fault)
		t.i8[1].stream = streamed(16, divI8FloorVVNTVBMI, t.i8[1].vv, fault)
		u8 := unsignedVec(16, divU8VVVBMI, divU8VSVBMI, divU8SVAVX512, divU8RWVBMI, g.u8[0])
		u8.stream = streamed(16, divU8VVNTVBMI, u8.vv, fault)
		t.u8 = [2]variants[uint8]{u8, u8}
	} else {
		t.i8[0].stream = streamed(16, divI8TruncVVNTAVX512, t.i8[0].vv, fault)
		t.i8[1].stream = streamed(16, divI8FloorVVNTAVX512, t.i8[1].vv, fault)
		s := streamed(16, divU8VVNTAVX512, t.u8[0].vv, fault)
		t.u8[0].stream, t.u8[1].stream = s, s
	}
	t.f32.stream = streamed(16, floatKernel(divF32VVNTAVX512), t.f32.vv, fault)
	t.f64.stream = streamed(8, floatKernel(divF64VVNTAVX512), t.f64.vv, fault)
	t.f16.stream = streamed(16, floatKernel(divF16VVNTAVX512), t.f16.vv, fault)
	t.bf16.stream = streamed(16, floatKernel(divBF16VVNTAVX512), t.bf16.vv, fault)
	t.i16[0].stream = streamed(16, divI16TruncVVNTAVX512, t.i16[0].vv, fault)
	t.i16[1].stream = streamed(16, divI16FloorVVNTAVX512, t.i16[1].vv, fault)
	t.i32[0].stream = streamed(8, divI32TruncVVNTAVX512, t.i32[0].vv, fault)
	t.i32[1].stream = streamed(8, divI32FloorVVNTAVX512, t.i32[1].vv, fault)
	t.i64[0].stream = streamed(8, divI64TruncVVNTAVX512, t.i64[0].vv, g.i64[0].vv)
	t.i64[1].stream = streamed(8, divI64FloorVVNTAVX512, t.i64[1].vv, g.i64[1].vv)
	for m := range 2 {
		t.u16[m].stream = streamed(16, divU16VVNTAVX512, t.u16[m].vv, fault)
		t.u32[m].stream = streamed(8, divU32VVNTAVX512, t.u32[m].vv, fault)
		t.u64[m].stream = streamed(8, divU64VVNTAVX512, t.u64[m].vv, g.u64[m].vv)
	}
	return &t
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

// exact64 wraps the 64-bit AVX-512 kernels. They divide whole groups of 8
// and refuse a call holding a lane outside their proof (a zero divisor,
// MIN / -1, or a divisor of magnitude above 2^61); the generic kernel
// then divides that call, finding the faults, and finishes every tail.
func exact64[T any](vv, sv, rw func(dst, a, b []T) bool, g variants[T]) variants[T] {
	v := g
	v.vv = func(dst, a, b []T) bool {
		if m := len(dst) &^ 7; m > 0 {
			raceAccess(dst[:m], a[:m], b[:m])
			if vv(dst[:m], a[:m], b[:m]) {
				return g.vv(dst, a, b)
			}
			dst, a, b = dst[m:], a[m:], b[m:]
		}
		return g.vv(dst, a, b)
	}
	v.sv = func(dst, a, b []T) bool {
		if m := len(dst) &^ 7; m > 0 {
			raceAccess(dst[:m], a[:1], b[:m])
			if sv(dst[:m], a[:1], b[:m]) {
				return g.sv(dst, a, b)
			}
			dst, b = dst[m:], b[m:]
		}
		return g.sv(dst, a, b)
	}
	v.rows = rowsKernel(8, func(dst, a, b []T) bool {
		if rw(dst, a, b) {
			return rowsByVV(g.vv)(dst, a, b)
		}
		return false
	}, v.vv)
	return v
}
