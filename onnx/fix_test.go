package onnx

import (
	"math"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx/internal/onnxpb"
	"github.com/irdiv/irdiv/plugin"
	"google.golang.org/protobuf/proto"
)

// TestRewrittenDivsAtEveryEdge: TruncatingDivs gives ONNX's truncation
// however its Div is read (the model imported as OpenVINO does, every Div
// flooring, and converted as ONNX means, every Div truncating), and
// FlooringDivs gives OpenVINO's floor in a model whose Divs truncate; at
// opset 13 (with Mod) and opset 9 (without), for i32 and i64, on every
// pair of edge values (MIN, MAX, 0, +-1 and small odd values), but for a
// zero divisor and MIN / -1, which fail both ways.
func TestRewrittenDivsAtEveryEdge(t *testing.T) {
	for _, typ := range []ir.ElementType{ir.I32, ir.I64} {
		lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
		if typ == ir.I64 {
			lo, hi = math.MinInt64, math.MaxInt64
		}
		edges := []int64{lo, lo + 1, lo + 2, hi, hi - 1, -7, -3, -2, -1, 0, 1, 2, 3, 7, 8}
		var as, bs []int64
		for _, a := range edges {
			for _, b := range edges {
				if b != 0 && !(a == lo && b == -1) {
					as, bs = append(as, a), append(bs, b)
				}
			}
		}
		tensor := func(vs []int64) *ir.Tensor {
			x, _ := ir.NewTensor(typ, []int64{int64(len(vs))})
			for i, v := range vs {
				x.SetInt64(i, v)
			}
			return x
		}
		for _, opset := range []int64{9, 13} {
			g := graph("g", []*onnxpb.NodeProto{nd("Div", []string{"a", "b"}, []string{"q"})},
				[]*onnxpb.ValueInfoProto{tensorInfo("a", dataType(typ), int64(len(as))), tensorInfo("b", dataType(typ), int64(len(as)))},
				[]*onnxpb.ValueInfoProto{tensorInfo("q", dataType(typ), int64(len(as)))})
			data, err := proto.Marshal(onnxModel(opset, g))
			if err != nil {
				t.Fatal(err)
			}
			types := map[string]ir.ElementType{"q": typ}
			truncating, done, err := TruncatingDivs(data, []string{"q"}, types)
			if err != nil || len(done) != 1 {
				t.Fatalf("%s opset %d: %v %v", typ, opset, done, err)
			}
			flooring, _, err := FlooringDivs(data, []string{"q"}, types)
			if err != nil {
				t.Fatal(err)
			}
			for _, tc := range []struct {
				what     string
				model    []byte
				faithful bool // every Div truncates (Convert), else floors (Import)
				floor    bool // the answer wanted
			}{
				{"TruncatingDivs, imported (Divs floor)", truncating, false, false},
				{"TruncatingDivs, converted (Divs truncate)", truncating, true, false},
				{"FlooringDivs, converted (Divs truncate)", flooring, true, true},
			} {
				m, err := Read(tc.model, ReadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				im, err := Import(m, ImportOptions{Faithful: tc.faithful})
				if err != nil {
					t.Fatalf("%s opset %d, %s: %v", typ, opset, tc.what, err)
				}
				outs, err := runAll(im, plugin.Config{}, tensor(as), tensor(bs))
				if err != nil {
					t.Fatalf("%s opset %d, %s: %v", typ, opset, tc.what, err)
				}
				for i := range as {
					want := as[i] / bs[i]
					if tc.floor && as[i]%bs[i] != 0 && (as[i] < 0) != (bs[i] < 0) {
						want--
					}
					if got, _ := intAt(outs[0], i); got != want {
						t.Errorf("%s opset %d, %s: %d / %d gives %d, want %d", typ, opset, tc.what, as[i], bs[i], got, want)
					}
				}
			}
		}
	}
}

func intAt(x *ir.Tensor, i int) (int64, bool) {
	switch x.Type {
	case ir.I32:
		return int64(ir.View[int32](x)[i]), true
	case ir.I64:
		return ir.View[int64](x)[i], true
	}
	return 0, false
}
