package kernel

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestParallelAndChunksMatchSerial: splitting across goroutines and into
// chunks changes neither results nor the reported fault, for same-shape,
// row and scalar layouts.
func TestParallelAndChunksMatchSerial(t *testing.T) {
	if testing.Short() {
		t.Skip("large tensors")
	}
	const rows, cols = 3 * ParallelMin / 256, 256
	total := rows * cols
	r := rand.New(rand.NewPCG(9, 10))
	for _, level := range Levels() {
		table, _ := Lookup(level)
		for _, typ := range []Type{F32, I32, I64} {
			for _, layout := range []struct {
				name string
				b    []int64
			}{{"same", []int64{rows, cols}}, {"row", []int64{1, cols}}, {"scalar", []int64{1, 1}}} {
				name := fmt.Sprintf("%s/%s/%s", level, typ, layout.name)
				plan, err := NewPlan([]int64{rows, cols}, []int64{rows, cols}, layout.b)
				if err != nil {
					t.Fatal(err)
				}
				nb := int(layout.b[0] * layout.b[1])
				a, b := make([]byte, total*typ.Size()), make([]byte, nb*typ.Size())
				for i := range total {
					put(a, typ, i, int64(r.IntN(1<<20)-1<<19))
				}
				for i := range nb {
					put(b, typ, i, int64(r.IntN(200)+1))
				}
				serial, par := make([]byte, len(a)), make([]byte, len(a))
				if f := table.Divide(typ, true, plan, serial, a, b, 1); f != NoFault {
					t.Fatalf("%s serial: %+v", name, f)
				}
				if f := table.Divide(typ, true, plan, par, a, b, 4); f != NoFault {
					t.Fatalf("%s parallel: %+v", name, f)
				}
				if !bytes.Equal(serial, par) {
					t.Fatalf("%s: parallel result differs", name)
				}
				if typ == F32 || layout.name == "scalar" {
					continue
				}
				// Zeros in the third and second quarters: the lower one wins.
				late, early := 5*total/8+3, 3*total/8+Chunk+1
				for _, at := range []int{late, early} {
					put(b, typ, at%nb, 0)
				}
				want := min(late%nb, early%nb)
				if layout.name == "same" {
					want = early
				}
				for _, threads := range []int{1, 4} {
					if f := table.Divide(typ, true, plan, par, a, b, threads); f != (Fault{Index: want}) {
						t.Fatalf("%s threads=%d: fault %+v, want index %d", name, threads, f, want)
					}
				}
			}
		}
	}
}
