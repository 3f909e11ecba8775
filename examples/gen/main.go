// Command gen writes the examples with irdiv's own writers. floordiv is a
// Parameter "a" (i32, [?,4]) and a Const divisor [4] into a Divide with
// numpy broadcasting and m_pythondiv="true", and an input a.npy. onnxdiv
// is an ONNX Div, its test data, and the IR OpenVINO's importer makes of
// it. Run it from the repository root:
//
//	go run ./examples/gen
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ir/npy"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

func main() {
	dir := flag.String("o", "examples", "output directory")
	flag.Parse()
	err := generate(filepath.Join(*dir, "floordiv"))
	if err == nil {
		err = generateONNX(filepath.Join(*dir, "onnxdiv"))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func generate(dir string) error {
	m := &ir.Model{Name: "floordiv", Version: 11}
	a := m.AddParameter("a", ir.I32, shapeinfer.MustParseShape("?,4"))
	divisor, err := ir.TensorOf(ir.I32, []int64{4}, []int32{3, -3, 4, -7})
	if err != nil {
		return err
	}
	b := m.AddConst("b", divisor)
	div, err := ops.AddDivide(m, "div", ir.Output{Layer: a}, ir.Output{Layer: b}, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
	if err != nil {
		return err
	}
	m.AddResult("q", ir.Output{Layer: div})
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := ir.Write(m, filepath.Join(dir, "model.xml"), ""); err != nil {
		return err
	}
	input, err := ir.TensorOf(ir.I32, []int64{3, 4}, []int32{
		-10, -7, 7, 10,
		-1, 0, 1, 100,
		2147483647, -2147483648, 13, -13,
	})
	if err != nil {
		return err
	}
	return npy.WriteFile(filepath.Join(dir, "a.npy"), input)
}
