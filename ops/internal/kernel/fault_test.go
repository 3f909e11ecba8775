package kernel

import (
	"encoding/binary"
	"fmt"
	"testing"
)

var intTypes = []Type{I8, I16, I32, I64, U8, U16, U32, U64}

func isSigned(t Type) bool { return t >= I8 && t <= I64 }

// put stores v, truncated to the type's width, as element i.
func put(buf []byte, t Type, i int, v int64) {
	size := t.Size()
	var tmp [8]byte
	binary.LittleEndian.PutUint64(tmp[:], uint64(v))
	copy(buf[i*size:(i+1)*size], tmp[:size])
}

func minValue(t Type) int64 { return -1 << (8*t.Size() - 1) }

// TestFaultsAtEveryLevel places zero divisors and MIN / -1 in the vector
// body and in the tail, alone and several at once, in all three variants,
// and checks that every level reports the lowest offending index and its kind.
func TestFaultsAtEveryLevel(t *testing.T) {
	const n = 67
	positions := []int{0, 3, 7, 8, 15, 31, 32, 33, 47, 63, 64, 66}
	for _, level := range Levels() {
		table, _ := Lookup(level)
		for _, typ := range intTypes {
			for _, floor := range []bool{false, true} {
				name := fmt.Sprintf("%s/%s/floor=%v", level, typ, floor)
				fill := func(buf []byte, v int64) {
					for i := range n {
						put(buf, typ, i, v+int64(i%5))
					}
				}
				a, b, dst := make([]byte, n*typ.Size()), make([]byte, n*typ.Size()), make([]byte, n*typ.Size())
				plan, _ := NewPlan([]int64{n}, []int64{n}, []int64{n})
				for _, pos := range positions {
					for _, second := range []int{-1, pos + 9} {
						fill(a, 20)
						fill(b, 3)
						put(b, typ, pos, 0)
						if second >= 0 && second < n {
							put(b, typ, second, 0)
						}
						if f := table.Divide(typ, floor, plan, dst, a, b, 1, 0); f != (Fault{Index: pos}) {
							t.Fatalf("%s vv: zero at %d (and %d): got %+v", name, pos, second, f)
						}
						if !isSigned(typ) {
							continue
						}
						fill(b, 3)
						put(a, typ, pos, minValue(typ))
						put(b, typ, pos, -1)
						if f := table.Divide(typ, floor, plan, dst, a, b, 1, 0); f != (Fault{Index: pos, Overflow: true}) {
							t.Fatalf("%s vv: MIN/-1 at %d: got %+v", name, pos, f)
						}
					}
					// sv: a scalar dividend, a zero divisor at pos.
					svPlan, _ := NewPlan([]int64{n}, []int64{1}, []int64{n})
					fill(a, 20)
					fill(b, 3)
					put(b, typ, pos, 0)
					if f := table.Divide(typ, floor, svPlan, dst, a[:typ.Size()], b, 1, 0); f != (Fault{Index: pos}) {
						t.Fatalf("%s sv: zero at %d: got %+v", name, pos, f)
					}
					// vs: a scalar -1 divisor and MIN at pos.
					if isSigned(typ) {
						vsPlan, _ := NewPlan([]int64{n}, []int64{n}, []int64{1})
						fill(a, 20)
						put(a, typ, pos, minValue(typ))
						put(b, typ, 0, -1)
						if f := table.Divide(typ, floor, vsPlan, dst, a, b[:typ.Size()], 1, 0); f != (Fault{Index: pos, Overflow: true}) {
							t.Fatalf("%s vs: MIN at %d / -1: got %+v", name, pos, f)
						}
					}
				}
				vsPlan, _ := NewPlan([]int64{n}, []int64{n}, []int64{1})
				put(b, typ, 0, 0)
				if f := table.Divide(typ, floor, vsPlan, dst, a, b[:typ.Size()], 1, 0); f != (Fault{Index: 0}) {
					t.Fatalf("%s vs: zero scalar: got %+v", name, f)
				}
			}
		}
	}
}
