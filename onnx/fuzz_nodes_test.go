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
// at the edges of int64 and floats, absent) and its attributes (names of
// the op's schema, or any the rules read; values at int64's ends and
// their neighbours, relative to the rank and dims of x, empty lists), so
// that a mutation of a byte changes one choice, where FuzzReadONNX's
// mutations of protobuf bytes mostly break the encoding. Each model read
// imports both ways or neither, and what imports encodes as IR that reads
// back and infers as the model imported does. The seeds are one plain
// node of each op (x and a graph input like it, no attributes) and the
// same node with each attribute of its schema alone, at the first value
// of its list (1, "NOTSET"); none holds a known bug.
//
// Issue 28's three import panic classes, each put back alone into a
// scratch copy of this code (5ac406c's fix undone), were found from these
// seeds in every run, each run with an empty fuzz cache, -parallel=2, on
// a 2-core AMD EPYC shared with other work (load 15 to 22): Conv or
// ConvTranspose group = 0 (integer divide by zero in groupWeights) in
// 94, 92, 61, 105 and 8 s; GatherND batch_dims = 2^63-1 (a negative slice
// bound in its shape rule) in 27, 75, 94, 69, 93 and 132 s; a tensor of
// unknown type into Clip, Gemm, Pad-2, Slice or Dropout ("ir: SetInt64
// on a dynamic tensor", each time at Clip) in 38, 24, 40, 54 and 41 s:
// within 300 s every time, the slowest in 132 s. Before the choices named the op's own
// attributes and took values relative to x (one list of 56 names for
// every op, 16 ints), the same target at 4b82e8a found GatherND's in 58 s
// once and not in 240 s another time, and group = 0 in 39 and 42 s.
// FuzzReadONNX (protobuf bytes, 790 seeds) found none of the three in
// 600 s. On this code it ran 300 s clean (612,943 runs):
//
//	go test -run '^$' -fuzz '^FuzzImportNodes$' -fuzztime 300s -parallel 2 ./onnx
func FuzzImportNodes(f *testing.F) {
	// x f32[2,2,2,2] and in1, a graph input of the same type and shape.
	plain := []byte{0, 0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0}
	opTypes := hostileOpTypes()
	for op, name := range opTypes {
		f.Add(uint8(op), uint8(0), plain, []byte(nil))
		for _, attrs := range onnxwire.HostileAttrSeeds(name) {
			f.Add(uint8(op), uint8(0), plain, attrs)
		}
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
