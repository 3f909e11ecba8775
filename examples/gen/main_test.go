package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestExampleUpToDate regenerates the examples and fails if the committed
// files differ: run "go run ./examples/gen" to update.
func TestExampleUpToDate(t *testing.T) {
	dir := t.TempDir()
	if err := generate(filepath.Join(dir, "floordiv")); err != nil {
		t.Fatal(err)
	}
	if err := generateONNX(filepath.Join(dir, "onnxdiv")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"floordiv/model.xml", "floordiv/model.bin", "floordiv/a.npy",
		"onnxdiv/model.onnx", "onnxdiv/openvino.xml", "onnxdiv/openvino.bin",
		"onnxdiv/test_data_set_0/input_0.pb", "onnxdiv/test_data_set_0/input_1.pb", "onnxdiv/test_data_set_0/output_0.pb"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		committed, err := os.ReadFile(filepath.Join("..", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, committed) {
			t.Errorf("examples/%s is stale; run go run ./examples/gen", name)
		}
	}
}
