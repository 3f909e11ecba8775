package validate

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ir/npy"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/validate/internal/values"
)

func TestScratchEval(t *testing.T) {
	dir := os.Getenv("DIR")
	om, err := onnx.ReadFile(filepath.Join(dir, "model.onnx"), onnx.ReadOptions{})
	if err != nil {
		t.Skip(err)
	}
	m, _ := onnx.Import(om, onnx.ImportOptions{})
	v := analyze(m, "m", Options{})
	in := map[*ir.Layer]*ir.Tensor{}
	for _, l := range m.Parameters() {
		x, err := npy.ReadFile(filepath.Join(dir, "witness", l.Name+".npy"), 0)
		if err != nil {
			t.Fatal(err)
		}
		in[l] = x
	}
	run := v.an.Evaluate(in, values.RunOptions{Floor: truncating})
	fmt.Println("err:", run.Err)
	for _, l := range v.order {
		for i := range l.Outputs {
			o := ir.Output{Layer: l, Index: i}
			fmt.Printf("%s %s: %v %v\n", l.Type, l.Name, run.Infos[o].Shape, run.Values[o] != nil)
		}
	}
}
