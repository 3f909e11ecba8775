package ops

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ir/npy"
)

// goldenDir holds the tensors testdata/golden/gen.py computes with NumPy
// (and, for what C++ leaves to the compiler, with oracle.cpp built by g++).
const goldenDir = "testdata/golden"

type goldenFile struct {
	File string
	Type string
	Row  *int
}

type goldenCase struct {
	Name, Type, Version string
	Attrs               map[string]string
	Inputs, Outputs     []goldenFile
	// ULP, for the f64 results of Exp, Log, Tanh, Sigmoid and Power only,
	// is how far from the C library's result irdiv's may be: OpenVINO
	// gets these from the C library it is built with, irdiv from Go's
	// math package, and neither is correctly rounded in every case.
	ULP int64
}

func readGolden(t *testing.T, f goldenFile) *ir.Tensor {
	t.Helper()
	tensor, err := npy.ReadFile(filepath.Join(goldenDir, f.File), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	et, err := ir.ParseElementType(f.Type)
	if err != nil {
		t.Fatal(err)
	}
	if et == ir.BF16 {
		tensor.Type = ir.BF16 // NumPy carries bf16 as u16 bit patterns
	}
	if tensor.Type != et {
		t.Fatalf("%s holds %s, the manifest says %s", f.File, tensor.Type, et)
	}
	if f.Row != nil {
		rowBytes := len(tensor.Data) / int(tensor.Shape[0])
		row, err := ir.NewTensor(et, tensor.Shape[1:])
		if err != nil {
			t.Fatal(err)
		}
		copy(row.Data, tensor.Data[*f.Row*rowBytes:])
		return row
	}
	return tensor
}

// sameElements compares two tensors bit for bit, except that any NaN
// equals any NaN (OpenVINO leaves the sign and payload of a NaN to the
// CPU), and f64 values may differ by ulp units in the last place. It
// returns the index of the first difference, or -1.
func sameElements(got, want *ir.Tensor, ulp int64) int {
	for i := range want.Len() {
		if got.Type.IsFloat() && math.IsNaN(got.Float64At(i)) && math.IsNaN(want.Float64At(i)) {
			continue
		}
		if g, w := got.Float64At(i), want.Float64At(i); got.Type == ir.F64 && ulp > 0 && math.Signbit(g) == math.Signbit(w) {
			if d := int64(math.Float64bits(g) - math.Float64bits(w)); d >= -ulp && d <= ulp {
				continue
			}
		}
		size := want.Type.Size()
		if !bytes.Equal(got.Data[i*size:(i+1)*size], want.Data[i*size:(i+1)*size]) {
			return i
		}
	}
	return -1
}

func goldenCases(t *testing.T) []goldenCase {
	data, err := os.ReadFile(filepath.Join(goldenDir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest struct{ Cases []goldenCase }
	if err := json.Unmarshal(data, &manifest); err != nil {
		t.Fatal(err)
	}
	if len(manifest.Cases) == 0 {
		t.Fatal("no golden cases")
	}
	return manifest.Cases
}

// TestGolden evaluates every case of the manifest, built from a layer as
// a model would have it, and compares each output with NumPy's bit for
// bit: every element-wise op on the edge values of every type (MIN, MAX,
// -1, 0, ±0.0, NaN, ±inf, .5 ties, the largest finite values), Convert
// between every pair of types, and the shape ops on small tensors.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			l := &ir.Layer{ID: 1, Name: "golden", Type: c.Type, Version: c.Version}
			keys := make([]string, 0, len(c.Attrs))
			for k := range c.Attrs {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				l.Data = append(l.Data, ir.Attr{Name: k, Value: c.Attrs[k]})
			}
			op, err := New(l)
			if err != nil {
				t.Fatal(err)
			}
			var in []*ir.Tensor
			for _, f := range c.Inputs {
				in = append(in, readGolden(t, f))
			}
			out, err := Evaluate(op, in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(out) != len(c.Outputs) {
				t.Fatalf("%d outputs, want %d", len(out), len(c.Outputs))
			}
			for k, f := range c.Outputs {
				want := readGolden(t, f)
				got := out[k]
				if got.Type != want.Type || !slices.Equal(got.Shape, want.Shape) {
					t.Fatalf("output %d is %s%v, want %s%v", k, got.Type, got.Shape, want.Type, want.Shape)
				}
				if i := sameElements(got, want, c.ULP); i >= 0 {
					var args []string
					if len(in) > 0 && in[0].Len() == got.Len() {
						for _, x := range in {
							args = append(args, x.Format(i))
						}
					}
					t.Errorf("output %d element %d (inputs %s): got %s, want %s", k, i, strings.Join(args, ", "), got.Format(i), want.Format(i))
				}
			}
		})
	}
}
