// Package kernel holds irdiv's element-wise division kernels and the
// broadcast iteration that feeds them.
//
// Conventions, as in gonum's internal/asm: destination first
// (div(dst, a, b)); kernels never allocate; a kernel of the (vector, scalar)
// variant reads b[0] only, (scalar, vector) reads a[0] only, and the rows
// variant divides consecutive rows of a by the one row b.
//
// Integer kernels return true when some element had a zero divisor or, for
// signed types, MIN / -1; the caller then rescans that run with the scalar
// checker to find the first offending element. Float kernels never fail.
//
// A Table holds one kernel set per SIMD level. Tables are chosen per call,
// never through a global switch, so two models may run at different levels
// at once. The level is detected once from golang.org/x/sys/cpu;
// GODEBUG=cpu.avx512f=off stops at AVX2, GODEBUG=cpu.avx512vbmi=off leaves
// out the AVX-512 level's VBMI byte kernels, GODEBUG=cpu.avx2=off and the
// purego build tag select the generic level.
package kernel

import (
	"fmt"
	"strings"
)

// Type is an element type with kernels.
type Type uint8

// The twelve numeric element types.
const (
	F32 Type = iota
	F64
	F16
	BF16
	I8
	I16
	I32
	I64
	U8
	U16
	U32
	U64
	NumTypes
)

var typeNames = [NumTypes]string{"f32", "f64", "f16", "bf16", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"}

func (t Type) String() string {
	if t < NumTypes {
		return typeNames[t]
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// Size returns the element size in bytes.
func (t Type) Size() int {
	switch t {
	case I8, U8:
		return 1
	case F16, BF16, I16, U16:
		return 2
	case F32, I32, U32:
		return 4
	}
	return 8
}

// Level is a SIMD level.
type Level uint8

const (
	// Generic is the pure-Go level, available everywhere.
	Generic Level = iota
	// AVX2 needs AVX, AVX2, FMA and F16C.
	AVX2
	// AVX512 adds AVX-512 F, DQ, BW and VL, and uses AVX512_VBMI where
	// the CPU has it (two-operand 8-bit division).
	AVX512
)

func (l Level) String() string {
	switch l {
	case Generic:
		return "generic"
	case AVX2:
		return "avx2"
	case AVX512:
		return "avx512"
	}
	return fmt.Sprintf("Level(%d)", uint8(l))
}

// ParseLevel parses "generic", "avx2" or "avx512"; "auto" and "" mean
// Best().
func ParseLevel(s string) (Level, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return Best(), nil
	case "generic":
		return Generic, nil
	case "avx2":
		return AVX2, nil
	case "avx512":
		return AVX512, nil
	}
	return 0, fmt.Errorf("unknown SIMD level %q (want auto, avx512, avx2 or generic)", s)
}

// variants are the contiguous-run shapes a kernel handles: vv, vs and sv,
// and rows, where dst and a hold whole rows of len(b) each and b is the
// same row for all of them (row broadcasting without a call per row).
// stream is vv writing dst with non-temporal stores, for divisions whose
// output is StreamMin bytes or more; nil where the level has none.
type variants[T any] struct {
	vv, vs, sv, rows, stream func(dst, a, b []T) bool
}

// rowsByVV divides row by row with vv, for levels and lengths without a
// rows kernel.
func rowsByVV[T any](vv func(dst, a, b []T) bool) func(dst, a, b []T) bool {
	return func(dst, a, b []T) bool {
		run := len(b)
		for i := 0; i+run <= len(dst); i += run {
			if vv(dst[i:i+run], a[i:i+run], b) {
				return true
			}
		}
		return false
	}
}

// Table is the kernel set of one SIMD level. Integer entries are indexed
// by mode: 0 truncates, 1 floors.
type Table struct {
	level     Level
	f32       variants[float32]
	f64       variants[float64]
	f16, bf16 variants[uint16]
	i8        [2]variants[int8]
	i16       [2]variants[int16]
	i32       [2]variants[int32]
	i64       [2]variants[int64]
	u8        [2]variants[uint8]
	u16       [2]variants[uint16]
	u32       [2]variants[uint32]
	u64       [2]variants[uint64]
}

// Level returns the table's SIMD level.
func (t *Table) Level() Level { return t.level }

var tables [AVX512 + 1]*Table

// Levels returns the levels this machine and build can run, lowest first.
func Levels() []Level {
	var out []Level
	for l, t := range tables {
		if t != nil {
			out = append(out, Level(l))
		}
	}
	return out
}

// Best returns the highest available level.
func Best() Level {
	levels := Levels()
	return levels[len(levels)-1]
}

// Lookup returns the table of a level, or an error if this machine or
// build cannot run it.
func Lookup(l Level) (*Table, error) {
	if int(l) >= len(tables) || tables[l] == nil {
		return nil, fmt.Errorf("SIMD level %s is not available on this CPU or build (available: %v)", l, Levels())
	}
	return tables[l], nil
}

// Default returns the table of the best level.
func Default() *Table { return tables[Best()] }
