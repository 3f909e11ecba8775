package validate

import (
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/ir"
)

// TestCPURemainderSelect: an i32 or i64 FloorMod, Mod or Select whose
// values may pass 2^24 gets the CPU plugin's note (its emitters for them
// are float32 only), exact_form saying whether irdiv fix writes a form:
// for a remainder, |B| <= 2^22, no MIN % -1 of i32 (the form divides A by
// B), i64 operands that are i32 values; for a Select, i32 values. Small
// operands get no note.
func TestCPURemainderSelect(t *testing.T) {
	clamp := func(b *builder, x ir.Output, t ir.ElementType, lo, hi string) ir.Output {
		return b.op("Clamp", "opset1", []ir.Attr{{Name: "min", Value: lo}, {Name: "max", Value: hi}}, t, []int64{3}, x)
	}
	for _, tc := range []struct {
		name   string
		build  func(b *builder)
		code   Code // "" for no note
		exact  bool
		phrase string
	}{
		{"floormod by 3", func(b *builder) {
			b.op("FloorMod", "opset1", nil, ir.I32, []int64{3}, b.param("x", ir.I32, "3"), b.ints(ir.I32, []int64{}, 3))
		}, CPUI32Float32, true, "1073741825 % 3: exact 2, CPU plugin 0"},
		{"mod of small operands", func(b *builder) {
			b.op("Mod", "opset1", nil, ir.I32, []int64{3}, clamp(b, b.param("x", ir.I32, "3"), ir.I32, "-16777216", "16777216"), b.ints(ir.I32, []int64{}, 3))
		}, "", false, ""},
		{"mod by a large divisor", func(b *builder) {
			b.op("Mod", "opset1", nil, ir.I32, []int64{3}, b.param("x", ir.I32, "3"), clamp(b, b.param("y", ir.I32, "3"), ir.I32, "1", "8388608"))
		}, CPUI32Float32, false, "needs |B| <= 2^22"},
		{"mod that may be MIN % -1", func(b *builder) {
			b.op("Mod", "opset1", nil, ir.I32, []int64{3}, b.param("x", ir.I32, "3"), clamp(b, b.param("y", ir.I32, "3"), ir.I32, "-1", "5"))
		}, CPUI32Float32, false, "a quotient beyond i32"},
		{"i64 floormod of i32 values", func(b *builder) {
			x := clamp(b, b.param("x", ir.I64, "3"), ir.I64, "-2147483648", "2147483647")
			b.op("FloorMod", "opset1", nil, ir.I64, []int64{3}, x, b.ints(ir.I64, []int64{}, 7))
		}, CPUI64Narrowed, true, "irdiv fix` writes"},
		{"i64 floormod beyond i32", func(b *builder) {
			b.op("FloorMod", "opset1", nil, ir.I64, []int64{3}, b.param("x", ir.I64, "3"), b.ints(ir.I64, []int64{}, 7))
		}, CPUI64Narrowed, false, "no form of ops helps"},
		{"select of large values", func(b *builder) {
			b.op("Select", "opset1", nil, ir.I32, []int64{3}, b.param("c", ir.Boolean, "3"), b.param("x", ir.I32, "3"), b.ints(ir.I32, []int64{}, 0))
		}, CPUI32Float32, true, "16777217 passes as 16777216"},
		{"select of small values", func(b *builder) {
			b.op("Select", "opset1", nil, ir.I32, []int64{3}, b.param("c", ir.Boolean, "3"), clamp(b, b.param("x", ir.I32, "3"), ir.I32, "-5", "16777216"), b.ints(ir.I32, []int64{}, 0))
		}, "", false, ""},
	} {
		b := newBuilder(t, "")
		tc.build(b)
		fs := findings(Model(b.m, "t", Options{}))
		notes := append(fs[CPUI32Float32], fs[CPUI64Narrowed]...)
		if tc.code == "" {
			if len(notes) != 0 {
				t.Errorf("%s: %+v", tc.name, notes)
			}
			continue
		}
		if len(notes) != 1 || notes[0].Code != tc.code || notes[0].Evidence.Get("exact_form") != tc.exact || !strings.Contains(notes[0].Message, tc.phrase) {
			t.Errorf("%s: want %s, exact_form %v, %q: %+v", tc.name, tc.code, tc.exact, tc.phrase, notes)
		}
	}
}

// TestCPUNoteInABody: a Divide, FloorMod or Select of large i32 values
// inside an If branch gets the CPU plugin's note as one of the main graph
// does, with the promise of a form (exact_form), which irdiv fix writes
// inside bodies too; the same Divide outside gets it.
func TestCPUNoteInABody(t *testing.T) {
	m := new(graph).input("x", onnxwire.Int32).input("c", onnxwire.Bool).i32("three", []int64{}, 3).
		node("Div", []string{"x", "three"}, "outer").
		nodeN("If", []string{"c"}, []string{"branch", "branch2"},
			onnxwire.GraphAttr("then_branch", onnxwire.Graph("then", [][]byte{
				onnxwire.Node("Div", "inner", []string{"x", "three"}, []string{"inner"}),
				onnxwire.Node("Where", "inner_select", []string{"c", "x", "three"}, []string{"inner_select"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("inner", onnxwire.Int32), onnxwire.Rankless("inner_select", onnxwire.Int32)})),
			onnxwire.GraphAttr("else_branch", onnxwire.Graph("else", [][]byte{
				onnxwire.NodeAttrs("Mod", "inner_mod", []string{"x", "three"}, []string{"inner_mod"}, onnxwire.IntAttr("fmod", 0)),
				onnxwire.Node("Sub", "inner_sub", []string{"x", "three"}, []string{"inner_sub"}),
			}, nil, nil, [][]byte{onnxwire.Rankless("inner_mod", onnxwire.Int32), onnxwire.Rankless("inner_sub", onnxwire.Int32)}))).
		output("outer", onnxwire.Int32).output("branch", onnxwire.Int32).output("branch2", onnxwire.Int32).imported(t)
	got := map[string]Finding{}
	for _, f := range Model(m, "m.onnx", Options{}).Findings {
		if f.Code == CPUI32Float32 {
			name := f.Layer.Name
			if f.Inner != nil {
				name = f.Inner.Name
				if p, _ := f.Evidence.Get("divide").(string); !strings.HasSuffix(p, f.Inner.String()) || !strings.HasPrefix(f.Message, "the ") {
					t.Errorf("%s: the finding names the body layer by %q: %s", name, p, f.Message)
				}
			}
			got[name] = f
		}
	}
	for _, name := range []string{"outer", "inner", "inner_mod", "inner_select"} {
		f, ok := got[name]
		if !ok || f.Evidence.Get("exact_form") != true || !strings.Contains(f.Message, "`irdiv fix` writes") || strings.Contains(f.Message, "main graph only") {
			t.Errorf("%s: want a note promising the exact form: %+v", name, f)
		}
	}
	if len(got) != 4 {
		t.Errorf("%d notes, want 4: %v", len(got), got)
	}
}
