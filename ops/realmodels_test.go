package ops

import (
	"path/filepath"
	"testing"

	"github.com/irdiv/irdiv/internal/testutil"
	"github.com/irdiv/irdiv/ir"
)

// TestRealModelsAgreeWithOpenVINO infers every model of ../shared/ir-models
// and compares each output irdiv infers with the port OpenVINO's
// serializer (or Model Optimizer) declared: same element type, same rank,
// and every declared static dimension inside the inferred one. OpenVINO
// wrote those ports from its own shape inference, so they are an oracle
// nobody on the team wrote. Where the declared shape is static and the
// weights were read, the inferred one must be static too (the Reshape
// patterns and axes folded from constants). The models without weights
// are checked for agreement only.
func TestRealModelsAgreeWithOpenVINO(t *testing.T) {
	files := testutil.SharedFiles(t, "ir-models/*/*.xml")
	more, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(files[0])), "_xml_only_bin_unavailable/*/*.xml"))
	for _, path := range append(files, more...) {
		name := filepath.Base(filepath.Dir(path))
		m, err := ir.ReadFile(path, ir.ReadOptions{MaxConstBytes: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		inf, err := InferModel(m)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		checked, folded, vaguer := 0, 0, 0
		for l, out := range inf.Outputs {
			if _, known := inf.Ops[l]; !known {
				continue
			}
			for i, v := range out {
				if v.Value != nil {
					folded++
				}
				p := l.Outputs[i]
				if p.Type != ir.Dynamic && v.Type != ir.Dynamic && p.Type != v.Type {
					t.Errorf("%s: %s output %d: inferred %s, OpenVINO declared %s", name, l, i, v, p.Type)
				}
				if v.Shape.DynamicRank {
					continue
				}
				ok := len(p.Dims) == len(v.Shape.Dims)
				for d := 0; ok && d < len(p.Dims); d++ {
					ok = p.Dims[d] < 0 || v.Shape.Dims[d].Contains(p.Dims[d])
				}
				if !ok {
					t.Errorf("%s: %s (%s) output %d: inferred %s, OpenVINO declared %v", name, l, l.Type, i, v, p.Dims)
				}
				if p.Shape().IsStatic() && !v.Shape.IsStatic() {
					vaguer++
					if !m.WeightsMissing {
						t.Errorf("%s: %s (%s) output %d: inferred %s, OpenVINO declared the static %v", name, l, l.Type, i, v, p.Dims)
					}
				}
				checked++
			}
		}
		t.Logf("%s: %d outputs agree (%d of them less precise than declared), %d values folded, %d layers opaque", name, checked, vaguer, folded, len(inf.Unsupported))
	}
}
