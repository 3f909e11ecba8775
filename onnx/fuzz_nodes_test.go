package onnx

import (
	"runtime/debug"
	"slices"
	"testing"

	"github.com/irdiv/irdiv/internal/testutil"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
)

// FuzzImportNodes is the structure-aware fuzz target of the import: its
// arguments are small choices (onnxwire.HostileModel) of one node of an
// op the import maps, types or passes through (or of two it does not
// know) at any opset, its inputs (graph inputs of every type and shape,
// of unknown rank, of unknown type from a custom-domain op, initializers
// at the edges of int64 and floats, absent) and its attributes (names the
// rules read, edge values, empty lists), so that a mutation of a byte
// changes one choice, where FuzzReadONNX's mutations of protobuf bytes
// mostly break the encoding. Each model read imports both ways or
// neither, and what imports encodes as IR that reads back and infers as
// the model imported does. The seeds are one plain node of each op (x
// and a graph input like it, no attributes); none holds a known bug.
//
// Measured on a 2-core AMD EPYC Zen 3 (AVX2) with -parallel=2, from
// these seeds and an empty fuzz cache, the target ported to 4b82e8a (the
// parent of issue 28's import fixes, 5ac406c), each class alone (panics
// of the other classes let pass, failures other than panics ignored):
// Conv or ConvTranspose group = 0, integer divide by zero in
// groupWeights: 39 s and 42 s; GatherND batch_dims = 2^63-1 or 2^63-2,
// slice bounds in its shape rule: 58 s in one run, not found in another
// of 240 s; a tensor of unknown type into Clip or Dropout, "ir: SetInt64
// on a dynamic tensor": 16 s and 44 s. Unfiltered, an earlier version of
// the choices first found there a Softmax of unknown rank that did not
// read back (18 s) and a Conv of no spatial axis (makeslice, 18 s), both
// fixed in b967338. There, FuzzReadONNX (protobuf bytes, 790 seeds: the
// PyTorch exports, ONNX's node tests) found none of the three in 600 s
// (89,473 runs), nor FuzzValidateONNX (752 seeds) in 300 s (709,146
// runs). On this code it found in 139 s a Range whose delta of rank 4
// imported faithfully only (its rank hidden by the length guard; now in
// TestHostileAttributes), then ran 300 s clean (381,942 runs; the host
// shared, load 3 to 9):
//
//	go test -run '^$' -fuzz '^FuzzImportNodes$' -fuzztime 300s -parallel 2 ./onnx
func FuzzImportNodes(f *testing.F) {
	// x f32[2,2,2,2] and in1, a graph input of the same type and shape.
	plain := []byte{0, 0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0}
	opTypes := hostileOpTypes()
	for op := range opTypes {
		f.Add(uint8(op), uint8(0), plain, []byte(nil))
	}
	f.Fuzz(func(t *testing.T, op, opset uint8, ins, attrs []byte) {
		testutil.Bounded(t, "FuzzImportNodes", func() {
			data, desc := onnxwire.HostileModel(opTypes[int(op)%len(opTypes)], opset, ins, attrs)
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("%s: panic: %v\n%s", desc, p, debug.Stack())
				}
			}()
			m, err := Read(data, ReadOptions{MaxTensorBytes: 1 << 20})
			if err != nil {
				return
			}
			model, err := Import(m, ImportOptions{})
			faithful, ferr := Convert(m)
			if (err == nil) != (ferr == nil) {
				t.Fatalf("%s: imports as OpenVINO does (%v) but not faithfully (%v), or the other way", desc, err, ferr)
			}
			if err != nil {
				return
			}
			for _, mm := range []*ir.Model{model, faithful} {
				x, bin, err := ir.Encode(mm)
				if err != nil {
					t.Fatalf("%s: encoding: %v", desc, err)
				}
				back, err := ir.ReadBytes(x, bin, ir.ReadOptions{})
				if err != nil {
					t.Fatalf("%s: reading the IR back: %v\n%s", desc, err, x)
				}
				_, inMemory := ops.InferModel(mm)
				if _, err := ops.InferModel(back); (err == nil) != (inMemory == nil) {
					t.Fatalf("%s: inferring the IR read back: %v; the model imported: %v\n%s", desc, err, inMemory, x)
				}
			}
		})
	})
}

// hostileOpTypes are the ops FuzzImportNodes chooses from: those the
// import maps, types or passes through, and two it does not know.
func hostileOpTypes() []string {
	ops := []string{"Einsum", "Unique"}
	for _, table := range []map[string]bool{setOf(converters), setOf(opaqueRules), sameShapeOps} {
		for op := range table {
			ops = append(ops, op)
		}
	}
	slices.Sort(ops)
	return slices.Compact(ops)
}

// TestHostileOpTypesCoverImport: every op the import maps, types or
// passes through is one FuzzValidateNodes may choose (onnxwire.OpTypes),
// and one byte chooses among FuzzImportNodes's.
func TestHostileOpTypesCoverImport(t *testing.T) {
	if n := len(hostileOpTypes()); n > 256 {
		t.Fatalf("FuzzImportNodes chooses among %d ops, one byte among 256", n)
	}
	if len(onnxwire.OpTypes) > 256 || !slices.IsSorted(onnxwire.OpTypes) {
		t.Fatalf("onnxwire.OpTypes: %d ops (at most 256, one byte chooses), sorted %v", len(onnxwire.OpTypes), slices.IsSorted(onnxwire.OpTypes))
	}
	var missing []string
	for _, table := range []map[string]bool{setOf(converters), setOf(opaqueRules), sameShapeOps} {
		for op := range table {
			if _, found := slices.BinarySearch(onnxwire.OpTypes, op); !found {
				missing = append(missing, op)
			}
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		t.Errorf("ops the import knows that onnxwire.OpTypes lacks: %v", missing)
	}
}

func setOf[V any](m map[string]V) map[string]bool {
	s := make(map[string]bool, len(m))
	for k := range m {
		s[k] = true
	}
	return s
}
