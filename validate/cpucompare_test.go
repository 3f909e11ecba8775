package validate

import (
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
)

// TestCPUCompare: an i32 comparison whose operands may both reach 2^24 and
// differ by less than their float32 rounding gets the CPU plugin's note
// (its comparisons are float32 only), exact_form saying whether A - B is
// an i32, which irdiv fix's Subtract(A, B) op 0 needs; operands of which
// one stays below 2^24, that are far apart or the same, and i64 ones get
// none.
func TestCPUCompare(t *testing.T) {
	clamp := func(b *builder, x ir.Output, lo, hi string) ir.Output {
		return b.op("Clamp", "opset1", []ir.Attr{{Name: "min", Value: lo}, {Name: "max", Value: hi}}, ir.I32, []int64{3}, x)
	}
	cmp := func(b *builder, op string, x, y ir.Output) {
		b.op(op, "opset1", []ir.Attr{{Name: "auto_broadcast", Value: "numpy"}}, ir.Boolean, []int64{3}, x, y)
	}
	for _, tc := range []struct {
		name   string
		build  func(b *builder)
		note   bool
		exact  bool
		phrase string
	}{
		{"less of two inputs", func(b *builder) {
			cmp(b, "Less", b.param("x", ir.I32, "3"), b.param("y", ir.I32, "3"))
		}, true, false, "no exact form: irdiv's form compares A - B with 0, and A - B can be in [-4294967295, 4294967295] here"},
		{"less of non-negative values", func(b *builder) {
			cmp(b, "Less", clamp(b, b.param("x", ir.I32, "3"), "0", "2147483647"), clamp(b, b.param("y", ir.I32, "3"), "0", "2147483647"))
		}, true, true, "16777216 < 16777217: exact true, CPU plugin false; `irdiv fix` writes Subtract(A, B)"},
		{"equal to 2^24", func(b *builder) {
			cmp(b, "Equal", clamp(b, b.param("x", ir.I32, "3"), "0", "2147483647"), b.ints(ir.I32, []int64{}, 1<<24))
		}, true, true, "16777217 == 16777216: exact false, CPU plugin true"},
		{"greater or equal near the top", func(b *builder) {
			cmp(b, "GreaterEqual", b.param("x", ir.I32, "3"), clamp(b, b.param("y", ir.I32, "3"), "1073741824", "2147483647"))
		}, true, false, "2147483646 >= 2147483647: exact false, CPU plugin true"},
		{"less than a small value", func(b *builder) {
			cmp(b, "Less", b.param("x", ir.I32, "3"), b.ints(ir.I32, []int64{}, 16777215))
		}, false, false, ""},
		{"far apart", func(b *builder) {
			cmp(b, "Greater", clamp(b, b.param("x", ir.I32, "3"), "1073741824", "2147483647"), clamp(b, b.param("y", ir.I32, "3"), "-2147483648", "0"))
		}, false, false, ""},
		{"the same value", func(b *builder) {
			x := b.param("x", ir.I32, "3")
			cmp(b, "Equal", x, x)
		}, false, false, ""},
		{"i64", func(b *builder) {
			b.op("Less", "opset1", nil, ir.Boolean, []int64{3}, b.param("x", ir.I64, "3"), b.param("y", ir.I64, "3"))
		}, false, false, ""},
	} {
		b := newBuilder(t, "")
		tc.build(b)
		notes := findings(Model(b.m, "t", Options{}))[CPUI32Float32]
		if !tc.note {
			if len(notes) != 0 {
				t.Errorf("%s: %+v", tc.name, notes)
			}
			continue
		}
		if len(notes) != 1 || notes[0].Evidence.Get("exact_form") != tc.exact || !strings.Contains(notes[0].Message, tc.phrase) {
			t.Errorf("%s: want exact_form %v, %q: %+v", tc.name, tc.exact, tc.phrase, notes)
		}
	}
}
