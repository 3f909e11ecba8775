package validate

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
)

// deepChain is the chain model of issue 28 (onnxwire.DeepChain).
func deepChain(op string, n int) []byte { return onnxwire.DeepChain(op, n) }

func importChain(tb testing.TB, op string, n int) *ir.Model {
	tb.Helper()
	om, err := onnx.Read(deepChain(op, n), onnx.ReadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	m, err := onnx.Import(om, onnx.ImportOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// TestWriteDeepChains writes the chains of issue 28 for measuring the
// command line: IRDIV_WRITE_CHAINS=DIR go test -run TestWriteDeepChains ./validate
// writes DIR/{abs,neg,add}-N.onnx for N in IRDIV_CHAIN_SIZES (comma-separated).
func TestWriteDeepChains(t *testing.T) {
	dir := os.Getenv("IRDIV_WRITE_CHAINS")
	if dir == "" {
		t.Skip("IRDIV_WRITE_CHAINS not set")
	}
	sizes := []int{10000, 30000, 100000, 300000}
	if s := os.Getenv("IRDIV_CHAIN_SIZES"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatal(err)
			}
			sizes = append(sizes, n)
		}
	}
	for _, op := range []string{"Abs", "Neg", "Add"} {
		for _, n := range sizes {
			p := filepath.Join(dir, fmt.Sprintf("%s-%d.onnx", op, n))
			if err := os.WriteFile(p, deepChain(op, n), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// deepChainStack is the goroutine stack a deep chain's validation may
// use: recursion along the chain takes 100 to 300 bytes a layer, so
// 12,000 layers overflow it where anything recurses on the model's depth.
const deepChainStack = 2 << 20

// TestDeepChains validates the chains of issue 28 (Abs, Neg, Add or a
// product at each step) with a goroutine stack of
// deepChainStack, in a child process, so that a stack overflow, which no
// test can recover from, fails this test: validation must finish with a
// verdict on the Div and allocate at most maxBytesPerLayer a layer.
// (Before the fix the Abs chain overflowed in sym's Atom.walk, the
// product chain in Evaluator.evalMod, and the search's walk up the
// layers, Searcher.need, recursed as deep as the model.)
func TestDeepChains(t *testing.T) {
	n := 30000
	if testing.Short() {
		n = 12000
	}
	if spec := os.Getenv("IRDIV_DEEP_CHAIN"); spec != "" {
		op, size, _ := strings.Cut(spec, ":")
		n, _ = strconv.Atoi(size)
		deepChainChild(t, op, n)
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"Abs", "Neg", "Add", "Mul"} {
		t.Run(op, func(t *testing.T) {
			cmd := exec.Command(exe, "-test.run=^TestDeepChains$", "-test.v")
			cmd.Env = append(os.Environ(), fmt.Sprintf("IRDIV_DEEP_CHAIN=%s:%d", op, n))
			out, err := cmd.CombinedOutput()
			if err != nil {
				if len(out) > 4000 {
					out = append(out[:2000:2000], append([]byte("\n...\n"), out[len(out)-2000:]...)...)
				}
				t.Fatalf("validating a chain of %d %s: %v\n%s", n, op, err, out)
			}
			for _, line := range strings.Split(string(out), "\n") {
				if strings.Contains(line, "deepchain_test.go") {
					t.Log(strings.TrimSpace(line))
				}
			}
		})
	}
}

// maxBytesPerLayer bounds what validating a deep chain allocates per
// layer, import excluded: 2 to 14 KB on amd64 (the values, atoms and
// ranges of four elements a layer, and the search's fixed budget spread
// over the layers). It catches costs that grow with the depth of the
// expressions: copying a 1,024-atom expression at each layer once
// allocated 62 KB a layer.
const maxBytesPerLayer = 32 << 10

func deepChainChild(t *testing.T, op string, n int) {
	debug.SetMaxStack(deepChainStack) // reading and importing the model too
	m := importChain(t, op, n)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := Model(m, "chain", Options{Imported: true})
	runtime.ReadMemStats(&after)
	verdict := ""
	for _, f := range r.Findings {
		if f.Layer != nil && f.Layer.Name == "div" && verdicts[f.Code] != "" {
			verdict = string(f.Code)
		}
	}
	if verdict == "" {
		t.Errorf("no verdict on the Div of a chain of %d %s", n, op)
	}
	per := float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
	t.Logf("%s x %d: %s, %.0f bytes allocated a layer", op, n, verdict, per)
	if per > maxBytesPerLayer {
		t.Errorf("validating a chain of %d %s allocated %.0f bytes a layer, more than %d", n, op, per, maxBytesPerLayer)
	}
}
