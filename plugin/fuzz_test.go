package plugin

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/irdiv/irdiv/internal/testutil"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
)

// FuzzInferModel takes a model through the whole path a user's file takes:
// read, infer, compile, bind generated inputs, infer. Any input may fail,
// none may panic, and a successful inference yields outputs whose data
// match their shapes. The model is read from files, as users' models are.
// The seeds are the hostile corpus of testdata/bad and the example model,
// so that mutations reach the graph code, not only the XML decoder.
func FuzzInferModel(f *testing.F) {
	seeds := testutil.Corpus(f, "model.xml")
	example, err := os.ReadFile("../examples/floordiv/model.xml")
	if err != nil {
		f.Fatal(err)
	}
	seeds = append(seeds, testutil.Seed{Path: "../examples/floordiv/model.xml", Data: example})
	// Real If and Loop IRs, when ../shared is there, so that mutations
	// reach bodies, port maps and back edges.
	bodies, _ := filepath.Glob("../../shared/ir-models/any_ov_*/*.xml")
	for _, path := range bodies {
		if data, err := os.ReadFile(path); err == nil {
			seeds = append(seeds, testutil.Seed{Path: path, Data: data})
		}
	}
	for _, seed := range seeds {
		f.Add(seed.Data, seed.Sibling(".bin"))
	}
	f.Fuzz(func(t *testing.T, xml, bin []byte) {
		testutil.Bounded(t, "FuzzInferModel", func() {
			dir := t.TempDir()
			path := filepath.Join(dir, "m.xml")
			if err := os.WriteFile(path, xml, 0o644); err != nil {
				t.Fatal(err)
			}
			if len(bin) > 0 {
				if err := os.WriteFile(filepath.Join(dir, "m.bin"), bin, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			m, err := ir.ReadFile(path, ir.ReadOptions{MaxNodes: 1 << 14})
			if err != nil {
				return
			}
			if _, err := ops.InferModel(m); err != nil {
				return
			}
			cm, err := NewCore().CompileModel(m, Config{Options: ops.Options{MaxTensorBytes: 1 << 20, Threads: 1, MaxBodyRuns: 1 << 12}})
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
	})
}
