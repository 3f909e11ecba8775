package plugin

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// TestFoldingRunningTotal: the constants folded at compile time are
// bounded by the tensor cap in all, not one by one. Concats doubling an
// i32[2] hold 16, 32... 2^(n+3) bytes, the last n of them 2^(n+4) - 32
// in all: under a cap of 1 KiB each of 7 stays under it, all together
// pass it.
func TestFoldingRunningTotal(t *testing.T) {
	for _, tc := range []struct {
		concats int
		fail    bool
	}{
		{6, false}, // 992 bytes folded
		{7, true},  // 2016 bytes, the last one 1024
	} {
		m := &ir.Model{Name: "doubling"}
		prev := ir.Output{Layer: m.AddConst("c", i32(t, []int64{2}, 1, 2))}
		n := int64(2)
		for i := range tc.concats {
			n *= 2
			prev = ir.Output{Layer: m.AddLayer("Concat", "opset1", fmt.Sprintf("d%d", i), []ir.Attr{{Name: "axis", Value: "0"}}, []ir.Output{prev, prev},
				[]*ir.Port{{Type: ir.I32, Dims: []int64{n}}})}
		}
		x := m.AddParameter("x", ir.I32, shapeinfer.MustParseShape("1"))
		q, _ := ops.AddDivide(m, "q", prev, ir.Output{Layer: x}, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
		m.AddResult("q_out", ir.Output{Layer: q})
		_, err := NewCore().CompileModel(m, Config{Options: ops.Options{MaxTensorBytes: 1024}})
		if tc.fail != (err != nil) || err != nil && (!errors.Is(err, ir.ErrTooLarge) || !strings.Contains(err.Error(), "the constants folded before it leave of the 1024 allowed in all")) {
			t.Errorf("%d Concats: %v", tc.concats, err)
		}
	}
}
