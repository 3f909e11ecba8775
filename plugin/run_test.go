package plugin

import (
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// TestRun: CompiledModel.Run takes inputs by name, returns outputs by
// Result name, and refuses a missing input.
func TestRun(t *testing.T) {
	m := &ir.Model{Name: "m", Version: 11}
	a := m.AddParameter("a", ir.I32, shapeinfer.MustParseShape("[2]"))
	b := m.AddParameter("b", ir.I32, shapeinfer.MustParseShape("[2]"))
	d, err := ops.AddDivide(m, "div", ir.Output{Layer: a}, ir.Output{Layer: b}, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
	if err != nil {
		t.Fatal(err)
	}
	m.AddResult("q", ir.Output{Layer: d})
	cm, err := NewCore().CompileModel(m, Config{})
	if err != nil {
		t.Fatal(err)
	}
	x, _ := ir.TensorOf(ir.I32, []int64{2}, []int32{-7, 7})
	y, _ := ir.TensorOf(ir.I32, []int64{2}, []int32{2, 2})
	out, err := cm.Run(map[string]*ir.Tensor{"a": x, "b": y})
	if err != nil {
		t.Fatal(err)
	}
	if got := ir.View[int32](out["q"]); len(got) != 2 || got[0] != -4 || got[1] != 3 {
		t.Errorf("q = %v, want [-4 3]", got)
	}
	if _, err := cm.Run(map[string]*ir.Tensor{"a": x}); err == nil || !strings.Contains(err.Error(), `no value for input "b"`) {
		t.Errorf("a missing input: %v", err)
	}
}
