package plugin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
)

// FuzzInferModel takes a model through the whole path a user's file takes:
// read, infer, compile, bind generated inputs, infer. Any input may fail,
// none may panic, and a successful inference yields outputs whose data
// match their shapes. The seeds are the hostile corpus of testdata/bad and
// the example model, so that mutations reach the graph code, not only
// the XML decoder.
func FuzzInferModel(f *testing.F) {
	seeds, _ := filepath.Glob("../testdata/bad/*/model.xml")
	seeds = append(seeds, "../examples/floordiv/model.xml")
	for _, path := range seeds {
		x, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		bin, _ := os.ReadFile(strings.TrimSuffix(path, ".xml") + ".bin")
		f.Add(x, bin)
	}
	f.Fuzz(func(t *testing.T, xml, bin []byte) {
		m, err := ir.ReadBytes(xml, bin, ir.ReadOptions{MaxNodes: 1 << 14})
		if err != nil {
			return
		}
		if _, err := ops.InferModel(m); err != nil {
			return
		}
		cm, err := NewCore().CompileModel(m, Config{Options: ops.Options{MaxTensorBytes: 1 << 20, Threads: 1}})
		if err != nil {
			return
		}
		req := cm.NewInferRequest()
		for _, p := range cm.Inputs() {
			dims := make([]int64, len(p.Shape.Dims))
			for i, d := range p.Shape.Dims {
				dims[i] = max(d.Min, min(d.Max, 1))
			}
			n, err := ir.NumElements(dims)
			if err != nil || n > 1<<12 || !p.Type.IsNumeric() {
				return
			}
			in, err := ir.NewTensor(p.Type, dims)
			if err != nil {
				return
			}
			for i := range in.Data {
				in.Data[i] = byte(i*37 + 1) // never an all-zero element
			}
			if err := req.SetInputTensor(p.Index, in); err != nil {
				return
			}
		}
		if err := req.Infer(); err != nil {
			return
		}
		for i := range cm.Outputs() {
			out, err := req.OutputTensor(i)
			if err != nil {
				t.Fatalf("output %d after a successful Infer: %v", i, err)
			}
			n, err := ir.NumElements(out.Shape)
			if size, _ := ir.ByteSize(out.Type, n); err != nil || size != int64(len(out.Data)) {
				t.Fatalf("output %d: %s%v with %d bytes", i, out.Type, out.Shape, len(out.Data))
			}
		}
	})
}
