package ir

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/irdiv/irdiv/internal/testutil"
	"github.com/irdiv/irdiv/shapeinfer"
)

// chainModel is x / c / c / ... / c: n Divides in a chain, each sharing
// one Const, the shape of model whose cost must grow linearly with n.
func chainModel(tb testing.TB, n int) *Model {
	m := &Model{Name: "chain", Version: 11}
	prev := Output{m.AddParameter("x", I32, shapeinfer.StaticShape(4)), 0}
	c, err := TensorOf(I32, []int64{4}, []int32{1, -1, 1, -1})
	if err != nil {
		tb.Fatal(err)
	}
	k := Output{m.AddConst("c", c), 0}
	for i := range n {
		l := m.AddLayer("Divide", "opset1", fmt.Sprintf("div%d", i), []Attr{{"auto_broadcast", "numpy"}, {"m_pythondiv", "false"}},
			[]Output{prev, k}, []*Port{{Type: I32, Dims: []int64{4}, Names: []string{fmt.Sprintf("d%d", i)}}})
		prev = Output{l, 0}
	}
	m.AddResult("y", prev)
	return m
}

var chainSizes = []int{1e3, 1e4, 1e5}

// BenchmarkChain builds, writes and reads chains of 10^3, 10^4 and 10^5
// Divides: the time and the bytes per op grow tenfold from one size to the
// next when the cost is linear.
func BenchmarkChain(b *testing.B) {
	for _, n := range chainSizes {
		b.Run(fmt.Sprintf("build/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				chainModel(b, n)
			}
		})
		m := chainModel(b, n)
		xml := filepath.Join(b.TempDir(), "chain.xml")
		if err := Write(m, xml, ""); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("write/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Write(m, xml, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("read/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ReadFile(xml, ReadOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("check/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := m.Check(); err != nil {
					b.Fatal(err)
				}
				m.Unreachable()
			}
		})
	}
}

// TestLinearCost guards the linear cost of building, writing, reading
// and checking a model without timing anything: ten times the layers may
// cost about ten times the allocations, never a hundred (as a quadratic
// step gives), and AddLayer looks at each layer once in all.
func TestLinearCost(t *testing.T) {
	cost := func(n int) (allocs, bytes uint64) {
		bytes, allocs = testutil.Allocated(func() {
			m := chainModel(t, n)
			x, bin, err := Encode(m)
			if err != nil {
				t.Fatal(err)
			}
			back, err := ReadBytes(x, bin, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := back.Check(); err != nil {
				t.Fatal(err)
			}
			back.Sources()
			back.Unreachable()
		})
		return allocs, bytes
	}
	a1, b1 := cost(2000)
	a2, b2 := cost(20000)
	if a2 > 15*a1 || b2 > 15*b1 {
		t.Errorf("ten times the layers took %.1f times the allocations (%d, %d) and %.1f times the bytes (%d, %d); a step costs more than linear time",
			float64(a2)/float64(a1), a1, a2, float64(b2)/float64(b1), b1, b2)
	}
	// AddLayer does not look at the layers it has seen: an id raised in
	// place on the first layer goes unnoticed (Check would report a clash).
	m := chainModel(t, 20000)
	m.Layers[0].ID = 1 << 40
	if l := m.AddLayer("Result", "opset1", "r", nil, nil, nil); l.ID != uint64(len(m.Layers)-1) {
		t.Errorf("AddLayer gave id %d after %d layers: it looked at all of them again", l.ID, len(m.Layers)-1)
	}
	// Nor after the slice was shortened (an import's rollback, which
	// would otherwise make an import quadratic).
	m.Layers = m.Layers[:len(m.Layers)-2]
	if l := m.AddLayer("Result", "opset1", "r2", nil, nil, nil); l.ID >= 1<<40 {
		t.Errorf("after a rollback AddLayer gave id %d: it looked at all the layers again", l.ID)
	}
	m.Layers[0].ID = 0
	seen := map[uint64]bool{}
	for _, l := range m.Layers {
		if seen[l.ID] {
			t.Errorf("after a rollback AddLayer gave id %d again", l.ID)
		}
		seen[l.ID] = true
	}
	t.Logf("allocations %d -> %d (%.1fx), bytes %d -> %d (%.1fx)", a1, a2, float64(a2)/float64(a1), b1, b2, float64(b2)/float64(b1))
}
