package onnx

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/irdiv/irdiv/internal/testutil"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx/internal/onnxpb"
	"github.com/irdiv/irdiv/ops"
	"google.golang.org/protobuf/proto"
)

// FuzzReadONNX: no model file and external data file (y.bin beside it)
// crash the reader (ReadFile, the path users' files take) or the import,
// a model imports both ways or neither, and a model that converts writes
// as IR that reads back and infers as the model converted does (what
// irdiv convert checks before it writes). The seeds include the hostile
// corpus's models (testdata/bad), those of issue 28 among them. Its
// mutations of protobuf bytes did not find issue 28's import panics from
// plain seeds in 600 s; FuzzImportNodes, which mutates choices of ops,
// inputs and attributes, found each in 16 to 58 s in five runs of six
// (figures there).
func FuzzReadONNX(f *testing.F) {
	for _, mp := range []*onnxpb.ModelProto{
		divModel(14, dataType(ir.I32), []int64{4}, []int64{4}, []int64{4}),
		divModel(6, dataType(ir.F32), []int64{3, 4, 5}, []int64{5}, []int64{3, 4, 5}, intAttr("broadcast", 1)),
		divModel(6, dataType(ir.F32), []int64{2, 3, 4}, []int64{3}, []int64{2, 3, 4}, intAttr("broadcast", 1), intAttr("axis", 1)),
	} {
		data, err := proto.Marshal(mp)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, []byte(nil))
	}
	withInit := divModel(13, dataType(ir.BF16), []int64{2}, []int64{2}, []int64{2})
	withInit.Graph.Input = withInit.Graph.Input[:1]
	withInit.Graph.Initializer = []*onnxpb.TensorProto{{Name: proto.String("y"), DataType: proto.Int32(dataType(ir.BF16)), Dims: []int64{2}, Int32Data: []int32{0x3f80, 0x4000}}}
	data, _ := proto.Marshal(withInit)
	f.Add(data, []byte(nil))
	// Real exports, whose graphs go through most of the import.
	exports, _ := filepath.Glob("../testdata/pytorch/*_op1[14].onnx")
	for _, path := range exports {
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data, []byte(nil))
		}
	}
	// ONNX's node tests of If, Loop and Scan, so that mutations reach
	// subgraphs.
	nodeTests, _ := filepath.Glob("testdata/node/*/model.onnx")
	for _, path := range nodeTests {
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data, []byte(nil))
		}
	}
	// The hostile corpus's models, so that mutations start from the
	// shapes of trouble already known.
	for _, seed := range testutil.Corpus(f, "model.onnx") {
		y, _ := os.ReadFile(filepath.Join(filepath.Dir(seed.Path), "y.bin"))
		f.Add(seed.Data, y)
	}
	f.Fuzz(func(t *testing.T, data, external []byte) {
		testutil.Bounded(t, "FuzzReadONNX", func() {
			dir := t.TempDir()
			path := filepath.Join(dir, "model.onnx")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "y.bin"), external, 0o644); err != nil {
				t.Fatal(err)
			}
			m, err := ReadFile(path, ReadOptions{MaxTensorBytes: 1 << 20})
			if err != nil {
				return
			}
			if _, err := Import(m, ImportOptions{}); err != nil {
				return
			}
			model, err := Convert(m)
			if err != nil {
				t.Fatalf("imported as OpenVINO does but not faithfully: %v", err)
			}
			x, bin, err := ir.Encode(model)
			if err != nil {
				t.Fatalf("encoding a converted model: %v", err)
			}
			back, err := ir.ReadBytes(x, bin, ir.ReadOptions{})
			if err != nil {
				t.Fatalf("reading a converted model back: %v\n%s", err, x)
			}
			_, inMemory := ops.InferModel(model)
			if _, err := ops.InferModel(back); (err == nil) != (inMemory == nil) {
				t.Fatalf("inferring a converted model read back: %v; the model converted: %v\n%s", err, inMemory, x)
			}
		})
	})
}

// FuzzReadTensorFile: no .pb file crashes ReadTensorFile, and a tensor it
// reads encodes to a file it reads back identically.
func FuzzReadTensorFile(f *testing.F) {
	for _, pattern := range []string{"*.pb", "set/*.pb"} {
		for _, seed := range testutil.Corpus(f, pattern) {
			f.Add(seed.Data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "x.pb")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		tensor, name, err := ReadTensorFile(path, ReadOptions{MaxTensorBytes: 1 << 20})
		if err != nil {
			return
		}
		enc, err := EncodeTensor(tensor, name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, enc, 0o644); err != nil {
			t.Fatal(err)
		}
		again, againName, err := ReadTensorFile(path, ReadOptions{MaxTensorBytes: 1 << 20})
		if err != nil || againName != name || string(again.Data) != string(tensor.Data) {
			t.Fatalf("reading an encoded tensor back: %v", err)
		}
	})
}
