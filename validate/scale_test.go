package validate

import (
	"fmt"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// chain is x / 3 / 3 / ... / 3 in n Divides, as an IR from ONNX: every
// Divide floors where ONNX truncates, and each gets findings of its own.
func chain(tb testing.TB, n int) *ir.Model {
	b := newBuilder(tb, "onnx")
	prev := b.param("x", ir.I32, "[4]")
	three := b.ints(ir.I32, nil, 3)
	for i := range n {
		l, err := ops.AddDivide(b.m, fmt.Sprintf("div%d", i), prev, three, ops.NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true))
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
		m := chain(b, n)
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
		m := chain(t, n)
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
