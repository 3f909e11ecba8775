package main

import (
	"os"
	"path/filepath"

	"github.com/irdiv/irdiv/internal/onnxwire"
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

// divModelProto is z = Div(x, y) on int32 [4], opset 13.
func divModelProto() []byte {
	return onnxwire.Model(13, onnxwire.Graph("truncdiv",
		[][]byte{onnxwire.Node("Div", "div", []string{"x", "y"}, []string{"z"})}, nil,
		[][]byte{onnxwire.Value("x", onnxwire.Int32, 4), onnxwire.Value("y", onnxwire.Int32, 4)},
		[][]byte{onnxwire.Value("z", onnxwire.Int32, 4)}))
}
