package validate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/validate/internal/search"
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

// reduceSum is x i64[n] summed (ReduceSum) and divided by 3.
func reduceSum(tb testing.TB, n int) *ir.Model {
	b := newBuilder(tb, "onnx")
	x := b.param("x", ir.I64, fmt.Sprintf("[%d]", n))
	s := b.op("ReduceSum", "opset1", attrs("keep_dims", "false"), ir.I64, []int64{}, x, b.ints(ir.I64, []int64{1}, 0))
	b.divide("div", s, b.ints(ir.I64, nil, 3), true)
	return b.m
}

// sumOfInputs is the sum of n inputs i64[1] (an ONNX Sum: a chain of
// Adds) divided by 3.
func sumOfInputs(tb testing.TB, n int) *ir.Model {
	b := newBuilder(tb, "onnx")
	s := b.param("x0", ir.I64, "[1]")
	for i := 1; i < n; i++ {
		s = b.op("Add", "opset1", attrs("auto_broadcast", "numpy"), ir.I64, []int64{1}, s, b.param(fmt.Sprintf("x%d", i), ir.I64, "[1]"))
	}
	b.divide("div", s, b.ints(ir.I64, []int64{1}, 3), true)
	return b.m
}

// TestSearchWorkBounded: the counter-example search makes no more
// assignments than its budget pays for, however many symbols a Divide's
// operands hold: every pair of 300 input elements is 2.9 million
// assignments, and the budget pays for 250,000.
func TestSearchWorkBounded(t *testing.T) {
	limit := search.DefaultSteps/16 + 64
	for _, tc := range []struct {
		name string
		m    *ir.Model
	}{
		{"ReduceSum of 300", reduceSum(t, 300)},
		{"Sum of 300 inputs", sumOfInputs(t, 300)},
	} {
		v := analyze(tc.m, tc.name, Options{})
		if v.search.Tries() > limit {
			t.Errorf("%s: %d assignments made, the budget pays for %d", tc.name, v.search.Tries(), limit)
		}
	}
}

// BenchmarkSearch validates the models whose search once ran past its
// budget: x i64[4000] through ReduceSum then a Div by 3 (past 60 s), a
// Sum of 2,000 inputs then a Div (past 20 s).
func BenchmarkSearch(b *testing.B) {
	for _, bc := range []struct {
		name string
		m    *ir.Model
	}{
		{"ReduceSum4000", reduceSum(b, 4000)},
		{"Sum2000", sumOfInputs(b, 2000)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Model(bc.m, bc.name, Options{})
			}
		})
	}
}

// TestSearchGrowsTheBatch: a model that runs only where a batch exceeds a
// dim it indexes (Gather(y, W) of y: [S, L] needs S > W) and a Div whose
// dividend 1 - W is negative from W = 2: with the batch left free at 1,
// every W the search tries either fails the Gather or divides 1 or 0;
// with a batch as large as other dims, W = 2 runs (seed 1024 of the
// differential, 0-2999, where ONNX Runtime found -1 / 3 at the declared
// shapes and irdiv a warning).
func TestSearchGrowsTheBatch(t *testing.T) {
	m := new(graph).input("x", onnxwire.Float, param("W")).input("y", onnxwire.Int64, param("S"), param("L")).
		i64("zero", []int64{}, 0).i64("one", []int64{}, 1).i64("two", []int64{}, 2).
		node("Shape", []string{"x"}, "s").node("Gather", []string{"s", "zero"}, "w", onnxwire.IntAttr("axis", 0)).
		node("Gather", []string{"y", "w"}, "row", onnxwire.IntAttr("axis", 0)).
		node("Sub", []string{"one", "w"}, "a").node("Div", []string{"a", "two"}, "div").
		output("div", onnxwire.Int64).output("row", onnxwire.Int64).imported(t)
	r := Model(m, "t", Options{})
	f := findings(r)[FloorTrunc]
	if len(f) != 1 {
		t.Fatalf("want one %s finding, got %v", FloorTrunc, r.Findings)
	}
	if ex, _ := f[0].Evidence.Get("counter_example").(string); !strings.HasPrefix(ex, "-") {
		t.Errorf("counter-example %q", ex)
	}
}

// TestSearchKeepsInputsWhereTheModelRuns: the Div's operands read only x's
// dim, but the model runs only where y = -1 (a Squeeze of Range(-2, c, 1)
// with c = clip(y, -8, 8) needs one element). y, which the Div does not
// read (another does, so that the analysis narrows y to where the model
// runs), was left at its default, 1, where the analysis had narrowed it
// (seed 594 of the differential, 0-2999, where ONNX Runtime found -1 / 2).
func TestSearchKeepsInputsWhereTheModelRuns(t *testing.T) {
	m := new(graph).input("x", onnxwire.Float, param("T")).input("y", onnxwire.Int64).
		i64("zero", []int64{}, 0).i64("minus1", []int64{}, -1).i64("minus2", []int64{}, -2).
		i64("one", []int64{}, 1).i64("two", []int64{}, 2).i64("axes", []int64{1}, 0).
		i64("minus8", []int64{}, -8).i64("eight", []int64{}, 8).node("Clip", []string{"y", "minus8", "eight"}, "c").
		node("Range", []string{"minus2", "c", "one"}, "r").node("Squeeze", []string{"r", "axes"}, "sq").
		node("Shape", []string{"x"}, "s").node("Gather", []string{"s", "zero"}, "n", onnxwire.IntAttr("axis", 0)).
		node("Mul", []string{"n", "two"}, "n2").node("Sub", []string{"minus1", "n2"}, "a").
		node("Div", []string{"a", "two"}, "div").node("Div", []string{"y", "two"}, "half").
		output("div", onnxwire.Int64).output("sq", onnxwire.Int64).output("half", onnxwire.Int64).imported(t)
	r := Model(m, "t", Options{})
	for _, f := range findings(r)[FloorTrunc] {
		if f.Layer.Name == "div" {
			return
		}
	}
	t.Fatalf("want a %s finding on div, got %v", FloorTrunc, r.Findings)
}
