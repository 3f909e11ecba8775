package main

import (
	"os"
	"path/filepath"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
)

// generateONNX writes examples/onnxdiv: an ONNX model z = Div(x, y) on
// int32 [4] (opset 13, which truncates), its test data in ONNX's layout,
// and openvino.xml, the IR as OpenVINO's ONNX importer writes it: a
// Divide with m_pythondiv="true", which floors.
func generateONNX(dir string) error {
	set := filepath.Join(dir, "test_data_set_0")
	if err := os.MkdirAll(set, 0o755); err != nil {
		return err
	}
	model := divModelProto()
	if err := os.WriteFile(filepath.Join(dir, "model.onnx"), model, 0o644); err != nil {
		return err
	}
	tensors := []struct {
		file, name string
		values     []int32
	}{
		{"input_0.pb", "x", []int32{-7, -7, 7, 7}},
		{"input_1.pb", "y", []int32{2, -2, 2, -2}},
		{"output_0.pb", "z", []int32{-3, 3, 3, -3}},
	}
	for _, tc := range tensors {
		t, err := ir.TensorOf(ir.I32, []int64{4}, tc.values)
		if err != nil {
			return err
		}
		data, err := onnx.EncodeTensor(t, tc.name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(set, tc.file), data, 0o644); err != nil {
			return err
		}
	}
	parsed, err := onnx.Read(model, onnx.ReadOptions{})
	if err != nil {
		return err
	}
	parsed.Path = "model.onnx"
	m, err := onnx.Convert(parsed)
	if err != nil {
		return err
	}
	for _, l := range m.Layers {
		if l.Type == "Divide" {
			l.SetDataAttr("m_pythondiv", "true")
		}
	}
	return ir.Write(m, filepath.Join(dir, "openvino.xml"), "")
}

// divModelProto encodes the ModelProto by hand (field numbers from
// onnx.proto): the project's generated ONNX types are internal to onnx.
func divModelProto() []byte {
	str := func(b []byte, field protowire.Number, s string) []byte {
		return protowire.AppendString(protowire.AppendTag(b, field, protowire.BytesType), s)
	}
	msg := func(b []byte, field protowire.Number, m []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(b, field, protowire.BytesType), m)
	}
	varint := func(b []byte, field protowire.Number, v uint64) []byte {
		return protowire.AppendVarint(protowire.AppendTag(b, field, protowire.VarintType), v)
	}
	const int32Type = 6 // TensorProto.INT32
	valueInfo := func(name string) []byte {
		dim := varint(nil, 1, 4)                              // Dimension.dim_value
		shape := msg(nil, 1, dim)                             // TensorShapeProto.dim
		tensor := varint(nil, 1, int32Type)                   // TypeProto.Tensor.elem_type
		tensor = msg(tensor, 2, shape)                        // TypeProto.Tensor.shape
		return msg(str(nil, 1, name), 2, msg(nil, 1, tensor)) // ValueInfoProto.name, .type.tensor_type
	}
	node := str(nil, 1, "x")   // NodeProto.input
	node = str(node, 1, "y")   //
	node = str(node, 2, "z")   // NodeProto.output
	node = str(node, 3, "div") // NodeProto.name
	node = str(node, 4, "Div") // NodeProto.op_type
	graph := msg(nil, 1, node) // GraphProto.node
	graph = str(graph, 2, "truncdiv")
	graph = msg(graph, 11, valueInfo("x")) // GraphProto.input
	graph = msg(graph, 11, valueInfo("y"))
	graph = msg(graph, 12, valueInfo("z")) // GraphProto.output
	model := varint(nil, 1, 8)             // ModelProto.ir_version
	model = str(model, 2, "irdiv examples/gen")
	model = msg(model, 7, graph)                          // ModelProto.graph
	model = msg(model, 8, varint(str(nil, 1, ""), 2, 13)) // ModelProto.opset_import: domain "", version 13
	return model
}
