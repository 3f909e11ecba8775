package kernel

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestAVX2KernelsUseVEXRegisters: no AVX2 kernel names a vector register
// above 15. VEX, AVX2's encoding, has 16; avo, which knows the AVX-512
// forms of the same instructions, may allocate X16-X31 or Y16-Y31, which
// only EVEX encodes: such a kernel passes on an AVX-512 host and dies of
// SIGILL on an AVX2-only one (Zen 3). The i64 kernels did, before their
// generator divided one group at a time.
func TestAVX2KernelsUseVEXRegisters(t *testing.T) {
	src, err := os.ReadFile("div_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	high := regexp.MustCompile(`\b[XY](1[6-9]|2[0-9]|3[01])\b`)
	kernel, kernels := "", 0
	for i, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "TEXT ") {
			kernel = strings.Fields(line)[1]
			if strings.Contains(kernel, "AVX2") {
				kernels++
			}
			continue
		}
		if strings.Contains(kernel, "AVX2") && high.MatchString(line) {
			t.Errorf("div_amd64.s:%d: %s uses %s, which AVX2 cannot encode", i+1, kernel, high.FindString(line))
		}
	}
	if kernels < 20 {
		t.Errorf("found %d AVX2 kernels in div_amd64.s", kernels)
	}
}
