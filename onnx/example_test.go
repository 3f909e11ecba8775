package onnx_test

import (
	"fmt"
	"strings"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/onnx"
)

// An ONNX model, read from its bytes and imported twice: as OpenVINO's
// ONNX frontend imports it (the integer Div floors) and as irdiv
// converts it (the Div truncates, as ONNX specifies).
func Example() {
	graph := onnxwire.Graph("half",
		[][]byte{
			onnxwire.Node("Shape", "shape", []string{"x"}, []string{"s"}),
			onnxwire.Node("Div", "half", []string{"s", "two"}, []string{"h"}),
		},
		[][]byte{onnxwire.Tensor("two", onnxwire.Int64, []int64{}, []byte{2, 0, 0, 0, 0, 0, 0, 0})},
		[][]byte{onnxwire.Value("x", onnxwire.Float, 1, 3, 64, 64)},
		[][]byte{onnxwire.Value("h", onnxwire.Int64, 4)})
	m, err := onnx.Read(onnxwire.Model(14, graph), onnx.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, faithful := range []bool{false, true} {
		ir, err := onnx.Import(m, onnx.ImportOptions{Faithful: faithful})
		if err != nil {
			fmt.Println(err)
			return
		}
		var layers []string
		for _, l := range ir.Layers {
			layers = append(layers, l.Type+"-"+strings.TrimPrefix(l.Version, "opset"))
		}
		d := ir.LayerByName("half")
		pythondiv, _ := d.DataAttr("m_pythondiv")
		fmt.Printf("%s; m_pythondiv=%s\n", strings.Join(layers, " "), pythondiv)
	}
	// Output:
	// Parameter-1 Const-1 ShapeOf-3 Divide-1 Result-1; m_pythondiv=true
	// Parameter-1 Const-1 ShapeOf-3 Divide-1 Result-1; m_pythondiv=false
}
