package validate_test

import (
	"fmt"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/validate"
)

// Validating an ONNX model as OpenVINO imports it: half of a dim is
// proven safe, half of an input value is not, and the counter-example is
// a tensor to give the model's input.
func ExampleModel() {
	graph := onnxwire.Graph("halves",
		[][]byte{
			onnxwire.Node("Shape", "shape", []string{"x"}, []string{"s"}),
			onnxwire.Node("Div", "half_dims", []string{"s", "two"}, []string{"dims"}),
			onnxwire.Node("Div", "half_values", []string{"v", "two"}, []string{"values"}),
		},
		[][]byte{onnxwire.Tensor("two", onnxwire.Int64, []int64{}, []byte{2, 0, 0, 0, 0, 0, 0, 0})},
		[][]byte{onnxwire.Value("x", onnxwire.Float, 1, 3, 64, 64), onnxwire.Value("v", onnxwire.Int64, 4)},
		[][]byte{onnxwire.Value("dims", onnxwire.Int64, 4), onnxwire.Value("values", onnxwire.Int64, 4)})
	om, _ := onnx.Read(onnxwire.Model(14, graph), onnx.ReadOptions{})
	m, _ := onnx.Import(om, onnx.ImportOptions{})
	r := validate.Model(m, "halves.onnx", validate.Options{})
	for _, f := range r.Findings {
		if f.Severity == validate.Note && f.Code != validate.FloorTruncAgree {
			continue
		}
		fmt.Printf("%s %s %s\n", f.Severity, f.Code, f.Layer.Name)
		if c := f.CounterExample; c != nil {
			fmt.Printf("  %s, when v is %v\n", f.Evidence.Get("counter_example"), c.Inputs["v"])
		} else {
			fmt.Printf("  %s\n", f.Evidence.Get("reason"))
		}
	}
	// Output:
	// error divide/floor-trunc half_values
	//   -3 / 2: ONNX gives -1, this IR gives -2, when v is i64[4] [-3 -3 1 1]
	// note divide/floor-trunc-agree half_dims
	//   the operands never have opposite signs whatever the input shapes
}
