package onnx

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/irdiv/irdiv/internal/testutil"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx/internal/onnxpb"
	"google.golang.org/protobuf/proto"
)

// chainModel is a model of n Div nodes in a chain, x / c / c / ... / c,
// as in the report that converting 10^5 of them took 18 to 31 s.
func chainModel(n int) *onnxpb.ModelProto {
	t := dataType(ir.I32)
	g := &onnxpb.GraphProto{
		Name:        proto.String("chain"),
		Input:       []*onnxpb.ValueInfoProto{tensorInfo("x", t, 4)},
		Initializer: []*onnxpb.TensorProto{{Name: proto.String("c"), DataType: proto.Int32(t), Dims: []int64{4}, Int32Data: []int32{1, -1, 1, -1}}},
	}
	prev := "x"
	for i := range n {
		out := fmt.Sprintf("d%d", i)
		g.Node = append(g.Node, &onnxpb.NodeProto{Name: proto.String(fmt.Sprintf("div%d", i)), OpType: proto.String("Div"), Input: []string{prev, "c"}, Output: []string{out}})
		prev = out
	}
	g.Output = []*onnxpb.ValueInfoProto{tensorInfo(prev, t, 4)}
	return &onnxpb.ModelProto{IrVersion: proto.Int64(8), OpsetImport: []*onnxpb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(14)}}, Graph: g}
}

// BenchmarkConvertChain reads, converts and writes chains of 10^3, 10^4
// and 10^5 Divs, each step timed on its own: time and bytes per op grow
// tenfold from one size to the next when the cost is linear.
func BenchmarkConvertChain(b *testing.B) {
	for _, n := range []int{1e3, 1e4, 1e5} {
		data, err := proto.Marshal(chainModel(n))
		if err != nil {
			b.Fatal(err)
		}
		dir := b.TempDir()
		path := filepath.Join(dir, "chain.onnx")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
		m, err := ReadFile(path, ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		model, err := Convert(m)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("read/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ReadFile(path, ReadOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("convert/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Convert(m); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("write/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := ir.Write(model, filepath.Join(dir, "chain.xml"), ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestConvertLinearCost guards the linear cost of reading and converting
// without timing: ten times the nodes may cost about ten times the
// allocations, never a hundred, as a quadratic step would.
func TestConvertLinearCost(t *testing.T) {
	cost := func(n int) (allocs, bytes uint64) {
		data, err := proto.Marshal(chainModel(n))
		if err != nil {
			t.Fatal(err)
		}
		bytes, allocs = testutil.Allocated(func() {
			m, err := Read(data, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			model, err := Convert(m)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := ir.Encode(model); err != nil {
				t.Fatal(err)
			}
		})
		return allocs, bytes
	}
	a1, b1 := cost(2000)
	a2, b2 := cost(20000)
	if a2 > 15*a1 || b2 > 15*b1 {
		t.Errorf("ten times the nodes took %.1f times the allocations (%d, %d) and %.1f times the bytes (%d, %d); a step costs more than linear time",
			float64(a2)/float64(a1), a1, a2, float64(b2)/float64(b1), b1, b2)
	}
	t.Logf("allocations %d -> %d (%.1fx), bytes %d -> %d (%.1fx)", a1, a2, float64(a2)/float64(a1), b1, b2, float64(b2)/float64(b1))
}
