package kernel

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestRowsLayout: [rows, run] / [run] at every level matches the generic
// level bit for bit, and a fault in a later row is reported at its index.
func TestRowsLayout(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	gen := genericTable()
	for _, level := range Levels() {
		table, _ := Lookup(level)
		for typ := range NumTypes {
			for _, run := range []int{7, 8, 16, 24, 32, 64, 256} {
				for _, rows := range []int{2, 5, 300} {
					name := fmt.Sprintf("%s/%s/%dx%d", level, typ, rows, run)
					plan, err := NewPlan([]int64{int64(rows), int64(run)}, []int64{int64(rows), int64(run)}, []int64{1, int64(run)})
					if err != nil {
						t.Fatal(err)
					}
					size := typ.Size()
					a, b := make([]byte, rows*run*size), make([]byte, run*size)
					for i := range rows * run {
						put(a, typ, i, int64(r.IntN(201)-100)) // never MIN, even as i8
					}
					for i := range run {
						put(b, typ, i, int64(r.IntN(100)+1))
					}
					if typ <= BF16 { // floats: bit patterns of small integers are fine operands
						for i := range b {
							b[i] |= 0x01
						}
					}
					got, want := make([]byte, len(a)), make([]byte, len(a))
					for _, floor := range []bool{false, true} {
						if f := table.Divide(typ, floor, plan, got, a, b, 1, 0); f != NoFault {
							t.Fatalf("%s: fault %+v", name, f)
						}
						gen.Divide(typ, floor, plan, want, a, b, 1, 0)
						if !bytes.Equal(got, want) {
							t.Fatalf("%s floor=%v: differs from generic", name, floor)
						}
					}
					if typ <= BF16 {
						continue
					}
					// A zero in the divisor row is met first in row 0.
					put(b, typ, run-1, 0)
					if f := table.Divide(typ, true, plan, got, a, b, 1, 0); f != (Fault{Index: run - 1}) {
						t.Fatalf("%s: zero divisor: %+v", name, f)
					}
					put(b, typ, run-1, 1)
					if isSigned(typ) {
						put(b, typ, 3%run, -1)
						at := (rows-1)*run + 3%run
						put(a, typ, at, minValue(typ))
						if f := table.Divide(typ, false, plan, got, a, b, 1, 0); f != (Fault{Index: at, Overflow: true}) {
							t.Fatalf("%s: MIN/-1 in the last row: %+v", name, f)
						}
					}
				}
			}
		}
	}
}
