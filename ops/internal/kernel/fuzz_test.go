package kernel

import (
	"bytes"
	"testing"
)

// FuzzDiv compares every level with the generic kernels on fuzzed types,
// modes, broadcast shapes and data: the same bytes out, the same fault.
func FuzzDiv(f *testing.F) {
	f.Add(uint8(6), true, uint8(3), uint8(5), uint8(3), []byte("0123456789abcdefghijklmnopqrstuvwxyz"))
	f.Add(uint8(3), false, uint8(17), uint8(0), uint8(1), []byte{0x80, 0xff, 0, 1, 2, 3})
	f.Fuzz(func(t *testing.T, typByte uint8, floor bool, rows, cols, layout uint8, data []byte) {
		typ := Type(typByte % uint8(NumTypes))
		r, c := int64(rows%40+1), int64(cols%70)
		aDims, bDims := []int64{r, c}, []int64{r, c}
		switch layout % 4 {
		case 1:
			bDims = []int64{1, c}
		case 2:
			bDims = []int64{1, 1}
		case 3:
			aDims = []int64{r, 1}
		}
		plan, err := NewPlan([]int64{r, c}, aDims, bDims)
		if err != nil {
			t.Fatal(err)
		}
		size := typ.Size()
		fill := func(dims []int64, salt byte) []byte {
			buf := make([]byte, int(dims[0]*dims[1])*size)
			for i := range buf {
				if len(data) > 0 {
					buf[i] = data[i%len(data)] ^ byte(i*31) ^ salt
				}
			}
			return buf
		}
		a, b := fill(aDims, 0), fill(bDims, 0x5a)
		want := make([]byte, int(r*c)*size)
		wantFault := genericTable().Divide(typ, floor, plan, want, a, b, 1, 0)
		for _, level := range Levels() {
			table, _ := Lookup(level)
			got := make([]byte, len(want))
			fault := table.Divide(typ, floor, plan, got, a, b, 1, 0)
			if fault != wantFault || fault == NoFault && !bytes.Equal(got, want) {
				t.Fatalf("%s %s floor=%v %v/%v: fault %+v (generic %+v), equal %v", level, typ, floor, aDims, bDims, fault, wantFault, bytes.Equal(got, want))
			}
		}
	})
}
