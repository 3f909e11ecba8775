//go:build !purego

package kernel

import "golang.org/x/sys/cpu"

// hasAVX2Level is the gate of the AVX2 level. HasAVX and HasAVX2 include the
// OS's support for the registers; HasFMA and HasF16C are raw CPUID bits, so
// all four are tested. x/sys/cpu honours GODEBUG=cpu.avx2=off.
var hasAVX2Level = cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasFMA && cpu.X86.HasF16C

// hasAVX512Level adds AVX-512 F, DQ, BW and VL, which x/sys/cpu reports
// only where the OS saves the zmm and opmask state; GODEBUG=cpu.avx512f=off
// turns the level off.
var hasAVX512Level = hasAVX2Level && cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ &&
	cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL

// hasVBMI adds AVX512_VBMI's byte kernels to the AVX-512 level
// (GODEBUG=cpu.avx512vbmi=off leaves them out).
var hasVBMI = cpu.X86.HasAVX512VBMI

func init() {
	tables[Generic] = genericTable()
	if hasAVX2Level {
		tables[AVX2] = avx2Table()
	}
	if hasAVX512Level {
		tables[AVX512] = avx512Table()
	}
}
