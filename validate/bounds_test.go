package validate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
)

// wideConcats is x i64[1] through levels of Concats of width inputs each,
// every input the level below, then divided by 3: width^levels steps as a
// tree.
func wideConcats(tb testing.TB, levels, width int) *ir.Model {
	b := newBuilder(tb, "onnx")
	prev := b.param("x", ir.I64, "[1]")
	n := int64(1)
	for range levels {
		ins := make([]ir.Output, width)
		for i := range ins {
			ins[i] = prev
		}
		n *= int64(width)
		prev = b.op("Concat", "opset1", attrs("axis", "0"), ir.I64, []int64{n}, ins...)
	}
	b.divide("div", prev, b.ints(ir.I64, []int64{1}, 3), true)
	return b.m
}

// TestExpressionTextBounded: a finding's expression is bounded in width
// as well as depth: three levels of 100-input Concats (10^6 steps as a
// tree) print a few kilobytes, the inputs past the eighth counted.
func TestExpressionTextBounded(t *testing.T) {
	r := Model(wideConcats(t, 3, 100), "wide.onnx", Options{})
	n := 0
	for _, f := range r.Findings {
		e, ok := f.Evidence.Get("expression").(string)
		if !ok {
			continue
		}
		n++
		if len(e) > 8192 || !strings.Contains(e, "… 92 more") {
			t.Errorf("%s: expression of %d bytes: %.300s", f.Code, len(e), e)
		}
	}
	if n == 0 {
		t.Fatalf("no finding with an expression: %v", fmt.Sprint(r.Findings))
	}
}
