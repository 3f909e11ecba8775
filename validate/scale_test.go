package validate

import (
	"fmt"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/absint"
)

// chain is x / 3 / 3 / ... / 3 in n Divides, as an IR from ONNX, x an
// i32 of elems elements: every Divide floors where ONNX truncates, and
// each gets findings of its own.
func chain(tb testing.TB, n, elems int) *ir.Model { return divideChain(tb, n, elems, false) }

// sumChain is d = floor((d + x) / 2) in n steps: cheap expressions that
// the search evaluates without end unless its budget counts every
// assignment it tries.
func sumChain(tb testing.TB, n int) *ir.Model { return divideChain(tb, n, 4, true) }

func divideChain(tb testing.TB, n, elems int, sum bool) *ir.Model {
	b := newBuilder(tb, "onnx")
	x := b.param("x", ir.I32, fmt.Sprintf("[%d]", elems))
	divisor := b.ints(ir.I32, nil, 3)
	if sum {
		divisor = b.ints(ir.I32, nil, 2)
	}
	prev := x
	for i := range n {
		dividend := prev
		if sum {
			dividend = b.op("Add", "opset1", attrs("auto_broadcast", "numpy"), ir.I32, []int64{int64(elems)}, prev, x)
		}
		l, err := ops.AddDivide(b.m, fmt.Sprintf("div%d", i), dividend, divisor, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
		if err != nil {
			tb.Fatal(err)
		}
		prev = ir.Output{Layer: l}
	}
	b.m.AddResult("y", prev)
	return b.m
}

// BenchmarkValidateChain validates chains of 10^3, 10^4 and 10^5
// Divides: time and bytes per op grow tenfold from one size to the next
// when the cost is linear in the model's size.
func BenchmarkValidateChain(b *testing.B) {
	for _, n := range []int{1e3, 1e4, 1e5} {
		m := chain(b, n, 4)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if r := Model(m, "chain", Options{}); len(r.Findings) < n {
					b.Fatalf("%d findings for %d Divides", len(r.Findings), n)
				}
			}
		})
	}
}

// TestChainIsLinear: each Divide added to a long chain costs about the
// same allocations as the ones before it. The search for counter-examples
// spends a fixed budget on the first Divides, so the test compares the
// bytes added from 10000 to 20000 Divides with those added from 20000
// to 40000: twice as many for linear cost, four times for quadratic. (Time is
// not asserted: hosts are shared.)
func TestChainIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("validates 70000 Divides")
	}
	bytes := func(n int) float64 {
		m := chain(t, n, 4)
		res := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Model(m, "chain", Options{})
			}
		})
		return float64(res.AllocedBytesPerOp())
	}
	b10, b20, b40 := bytes(10000), bytes(20000), bytes(40000)
	if ratio := (b40 - b20) / (b20 - b10); ratio > 3 {
		t.Errorf("20000 more Divides allocate %.1fx what 10000 more did (%.0f, %.0f, %.0f bytes at 10000, 20000, 40000)", ratio, b10, b20, b40)
	} else {
		t.Logf("%.0f, %.0f, %.0f bytes at 10000, 20000, 40000 Divides: %.2fx for twice the Divides", b10, b20, b40, ratio)
	}
}

// TestTrackedElementsBudget: past absint.DefaultTrackedElems elements, a
// tensor's elements are one summary, and a note names the first layer.
func TestTrackedElementsBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("validates 4000 Divides of 64 elements")
	}
	const elems = 64
	tracked := absint.DefaultTrackedElems/elems - 1 // x, then the Divides
	r := Model(chain(t, tracked+10, elems), "chain", Options{})
	fs := findings(r)[AnalysisSummarized]
	if want := fmt.Sprintf("div%d", tracked); len(fs) != 1 || fs[0].Layer == nil || fs[0].Layer.Name != want {
		t.Fatalf("analysis/summarized findings %v, want one at %s", fs, want)
	}
	if r := Model(chain(t, tracked, elems), "chain", Options{}); len(findings(r)[AnalysisSummarized]) != 0 {
		t.Errorf("a model within the budget is summarized: %v", findings(r)[AnalysisSummarized])
	}
}

// TestSearchBudgetBoundsManyDivides: once the search budget of a model is
// spent, a Divide more costs its analysis, not a search.
func TestSearchBudgetBoundsManyDivides(t *testing.T) {
	if testing.Short() {
		t.Skip("validates 9000 Divides")
	}
	bytes := func(n int) float64 {
		m := sumChain(t, n)
		res := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Model(m, "chain", Options{})
			}
		})
		return float64(res.AllocedBytesPerOp())
	}
	// About 17 KB a Divide on amd64 (its values, pairs and findings); a
	// search of its own, 360 KB.
	b3, b6 := bytes(3000), bytes(6000)
	if per := (b6 - b3) / 3000; per > 64<<10 {
		t.Errorf("each Divide past 3000 allocates %.0f bytes (%.0f, %.0f at 3000, 6000): the search goes on past its budget", per, b3, b6)
	} else {
		t.Logf("%.0f, %.0f bytes at 3000, 6000 Divides: %.0f bytes per Divide added", b3, b6, per)
	}
}
