package search

import (
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/validate/internal/absint"
)

// TestWrapTensorRepeatsItsBlock: every element of an input of
// searchWraps's candidates is one of the values first sets, however many
// elements beyond its first block the input has (zeros there divided by
// 0 in a Mod ONNX Runtime runs and the search does not: seed 6579 of the
// differential).
func TestWrapTensorRepeatsItsBlock(t *testing.T) {
	s := &Searcher{}
	in := &absint.Input{Layer: &ir.Layer{Name: "y"}, Type: ir.I64}
	for _, n := range []int64{3, wrapBlock, wrapBlock + 1, 3*wrapBlock + 5, 1 << 20} {
		tensor, err := s.wrapTensor(in, []int64{n}, func(b *ir.Tensor, k int) {
			for i := range k {
				b.SetInt64(i, int64(i%5+1))
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range ir.View[int64](tensor) {
			if v < 1 || v > 5 {
				t.Fatalf("%d elements: element %d is %d, not one first set", n, i, v)
			}
		}
	}
}
