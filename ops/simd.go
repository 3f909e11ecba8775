package ops

import (
	"fmt"
	"strings"

	"github.com/irdiv/irdiv/ops/internal/kernel"
)

// SIMD is a kernel level. The zero value, SIMDAuto, is the best level
// this CPU and build can run; every level gives the same bits.
type SIMD uint8

const (
	SIMDAuto    SIMD = iota // the best available
	SIMDGeneric             // pure Go, every architecture
	SIMDAVX2                // amd64 with AVX, AVX2, FMA and F16C
	SIMDAVX512              // SIMDAVX2 plus AVX-512 F, DQ, BW and VL
)

var simdNames = []string{"auto", "generic", "avx2", "avx512"}

var simdKernels = map[SIMD]kernel.Level{SIMDGeneric: kernel.Generic, SIMDAVX2: kernel.AVX2, SIMDAVX512: kernel.AVX512}

func (s SIMD) String() string {
	if int(s) < len(simdNames) {
		return simdNames[s]
	}
	return fmt.Sprintf("SIMD(%d)", uint8(s))
}

// ParseSIMD parses "auto", "generic", "avx2" or "avx512" (in any case) and checks
// that this CPU and build can run the level.
func ParseSIMD(text string) (SIMD, error) {
	for i, name := range simdNames {
		if strings.EqualFold(text, name) {
			s := SIMD(i)
			if _, err := s.table(); err != nil {
				return 0, err
			}
			return s, nil
		}
	}
	return 0, errorf("%w: SIMD level %q must be one of %s", ErrAttribute, text, strings.Join(simdNames, ", "))
}

// AvailableSIMD returns the levels this machine and build can run, lowest
// first.
func AvailableSIMD() []SIMD {
	var out []SIMD
	for _, l := range kernel.Levels() {
		for s, k := range simdKernels {
			if k == l {
				out = append(out, s)
			}
		}
	}
	return out
}

// Available reports whether this CPU and build can run the level.
func (s SIMD) Available() bool {
	_, err := s.table()
	return err == nil
}

// Resolve returns the level s stands for: the best available for SIMDAuto.
func (s SIMD) Resolve() SIMD {
	if s == SIMDAuto {
		return bestSIMD
	}
	return s
}

// bestSIMD is what SIMDAuto stands for, found once: the kernels' levels are
// fixed when package kernel starts, and a search evaluates thousands of
// Divides.
var bestSIMD = func() SIMD {
	levels := AvailableSIMD()
	return levels[len(levels)-1]
}()

func (s SIMD) table() (*kernel.Table, error) {
	k, ok := simdKernels[s.Resolve()]
	if !ok {
		return nil, errorf("unknown SIMD level %s", s)
	}
	t, err := kernel.Lookup(k)
	if err != nil {
		return nil, errorf("%w", err)
	}
	return t, nil
}
