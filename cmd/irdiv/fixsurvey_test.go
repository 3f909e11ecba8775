package main

import (
	"bytes"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
)

// TestFixIRPyTorchExports: every committed PyTorch export, converted to
// an IR (from ONNX: its Divs truncate) and fixed by irdiv fix, computes
// ONNX's results under OpenVINO's reference and under its CPU plugin
// (ops.CPUPlugin: i32 Divide, FloorMod, Mod, comparisons and Select in
// float32, i64 narrowed to i32), on edge values (0, +-1, +-7, +-2^24 and
// neighbours, the i32 ends) and random ones of every integer input, dynamic
// dims of 1 to 4.
func TestFixIRPyTorchExports(t *testing.T) {
	if testing.Short() {
		t.Skip("converts, fixes and runs every PyTorch export")
	}
	models, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "pytorch", "*.onnx"))
	if len(models) < 100 {
		t.Fatalf("found %d exports", len(models))
	}
	edges := []int64{0, 1, -1, 7, -7, 1<<24 - 1, 1 << 24, 1<<24 + 1, -1 << 24, -1<<24 - 1, math.MaxInt32, math.MinInt32 + 1, 100000007, -100000007}
	fixedCount, draws := 0, 0
	for _, model := range models {
		dir := t.TempDir()
		converted, fixed := filepath.Join(dir, "m.xml"), filepath.Join(dir, "fixed.xml")
		if _, stderr, code := irdiv(t, "convert", model, "-o", converted); code != 0 {
			t.Errorf("%s: convert: exit %d %s", model, code, stderr)
			continue
		}
		stdout, stderr, code := irdiv(t, "fix", converted, "-o", fixed)
		if code != 0 {
			t.Errorf("%s: fix: exit %d %s", model, code, stderr)
			continue
		}
		if strings.Contains(stdout, "nothing to fix") {
			continue
		}
		fixedCount++
		om, err := onnx.ReadFile(model, onnx.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		source, err := onnx.Convert(om) // ONNX's results: Divs truncate
		if err != nil {
			t.Fatal(err)
		}
		fm, err := ir.ReadFile(fixed, ir.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, err1 := ops.NewProgram(source)
		got, err2 := ops.NewProgram(fm)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v %v", model, err1, err2)
		}
		cpu := ops.Options{BodyLayer: func(_ *ir.Layer, op ops.Op, _ []*ir.Tensor) (ops.Op, error) { return ops.CPUPlugin(op), nil }}
		r := rand.New(rand.NewPCG(uint64(len(model)), 29))
		for draw := range 24 {
			var in []*ir.Tensor
			for _, p := range fm.Parameters() {
				port := p.Outputs[0]
				dims := make([]int64, len(port.Dims))
				for i, d := range port.Dims {
					dims[i] = d
					if d < 0 {
						dims[i] = 1 + r.Int64N(4)
					}
				}
				x, err := ir.NewTensor(port.Type, dims)
				if err != nil {
					t.Fatalf("%s: %v", model, err)
				}
				for i := range x.Len() {
					switch {
					case port.Type.IsFloat():
						x.SetFloat64(i, float64(r.IntN(33)-16)/4)
					case draw%2 == 0:
						x.SetInt64(i, edges[(i+draw)%len(edges)])
					default:
						x.SetInt64(i, r.Int64N(1<<26)-1<<25)
					}
				}
				in = append(in, x)
			}
			ref, err := want.Run(in, ops.Options{})
			if err != nil {
				continue // a draw the model refuses (a zero divisor)
			}
			draws++
			for name, o := range map[string]ops.Options{"reference": {}, "CPU plugin": cpu} {
				out, err := got.Run(in, o)
				if err != nil {
					t.Errorf("%s: draw %d: the fixed IR fails under the %s: %v", model, draw, name, err)
					continue
				}
				for i := range ref {
					if !sameTensor(ref[i], out[i]) {
						t.Errorf("%s: draw %d: output %d under the %s: %v, ONNX gives %v", model, draw, i, name, out[i], ref[i])
					}
				}
			}
		}
	}
	if fixedCount < 30 || draws < 20*fixedCount {
		t.Errorf("fixed %d IRs, compared on %d draws", fixedCount, draws)
	}
	t.Logf("%d IRs fixed, each the same as ONNX under the reference and the CPU plugin on %d draws in all", fixedCount, draws)
}

// sameTensor compares shapes and elements (NaN equal to NaN).
func sameTensor(x, y *ir.Tensor) bool {
	if x.Type != y.Type || !slices.Equal(x.Shape, y.Shape) {
		return false
	}
	if !x.Type.IsFloat() {
		return bytes.Equal(x.Data, y.Data)
	}
	for i := range x.Len() {
		a, b := x.Float64At(i), y.Float64At(i)
		if a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
			return false
		}
	}
	return true
}
