//go:build !purego

package kernel

import "golang.org/x/sys/cpu"

// hasAVX2Level is the gate of the AVX2 level. HasAVX and HasAVX2 include the
// OS's support for the registers; HasFMA and HasF16C are raw CPUID bits, so
// all four are tested. x/sys/cpu honours GODEBUG=cpu.avx2=off.
var hasAVX2Level = cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasFMA && cpu.X86.HasF16C

func init() {
	tables[Generic] = genericTable()
	if hasAVX2Level {
		tables[AVX2] = avx2Table()
	}
}
