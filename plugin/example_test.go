package plugin_test

import (
	"fmt"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/plugin"
)

// Reading, compiling and running a model, as with OpenVINO's runtime.
func ExampleCore() {
	core := plugin.NewCore()
	model, err := core.ReadModel("../examples/floordiv/model.xml", "")
	if err != nil {
		fmt.Println(err)
		return
	}
	compiled, err := core.CompileModel(model, plugin.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, in := range compiled.Inputs() {
		fmt.Println("input", in.Name, in.Type, in.Shape)
	}
	req := compiled.NewInferRequest()
	a, _ := ir.TensorOf(ir.I32, []int64{2, 4}, []int32{-10, -7, 7, 10, 9, 9, 9, 9})
	if err := req.SetTensor("a", a); err != nil {
		fmt.Println(err)
		return
	}
	if err := req.Infer(); err != nil {
		fmt.Println(err)
		return
	}
	q, _ := req.Tensor("q")
	fmt.Println("q", q.Shape, ir.View[int32](q)) // floor division by [3 -3 4 -7]
	// Output:
	// input a i32 [?,4]
	// q [2 4] [-4 2 1 -2 3 -3 2 -2]
}
