//go:build !purego

package kernel

// avx512Table starts from the AVX2 table and replaces the kernels that
// have zmm versions; the wrappers are the AVX2 level's, with the wider
// groups.
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
	return &t
}
