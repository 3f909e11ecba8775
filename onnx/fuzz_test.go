package onnx

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx/internal/onnxpb"
	"google.golang.org/protobuf/proto"
)

// FuzzReadONNX: no bytes crash the model reader or the converter, and a
// model that converts writes as IR that reads back.
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
		f.Add(data)
	}
	withInit := divModel(13, dataType(ir.BF16), []int64{2}, []int64{2}, []int64{2})
	withInit.Graph.Input = withInit.Graph.Input[:1]
	withInit.Graph.Initializer = []*onnxpb.TensorProto{{Name: proto.String("y"), DataType: proto.Int32(dataType(ir.BF16)), Dims: []int64{2}, Int32Data: []int32{0x3f80, 0x4000}}}
	data, _ := proto.Marshal(withInit)
	f.Add(data)
	// The hostile corpus's models, so that mutations start from the
	// shapes of trouble already known.
	corpus, _ := filepath.Glob("../testdata/bad/*/model.onnx")
	for _, path := range corpus {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(data, ReadOptions{MaxTensorBytes: 1 << 20})
		if err != nil {
			return
		}
		model, err := Convert(m)
		if err != nil {
			return
		}
		x, bin, err := ir.Encode(model)
		if err != nil {
			t.Fatalf("encoding a converted model: %v", err)
		}
		if _, err := ir.ReadBytes(x, bin, ir.ReadOptions{}); err != nil {
			t.Fatalf("reading a converted model back: %v\n%s", err, x)
		}
	})
}
