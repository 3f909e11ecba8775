package kernel

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestPlanCollapse(t *testing.T) {
	for _, tc := range []struct {
		out, a, b  []int64
		run        int
		aRun, bRun int
		outer      int
	}{
		{[]int64{4, 5, 6}, []int64{4, 5, 6}, []int64{4, 5, 6}, 120, 1, 1, 0},        // same shape: one run
		{[]int64{4, 5, 6}, []int64{4, 5, 6}, []int64{1, 1, 1}, 120, 1, 0, 0},        // scalar divisor
		{[]int64{4, 5, 6}, []int64{1, 1, 1}, []int64{4, 5, 6}, 120, 0, 1, 0},        // scalar dividend
		{[]int64{64, 256}, []int64{64, 256}, []int64{1, 256}, 256, 1, 1, 1},         // row broadcast
		{[]int64{8, 7, 6, 5}, []int64{8, 1, 6, 1}, []int64{1, 7, 1, 5}, 5, 0, 1, 3}, // mixed
		{[]int64{1, 1}, []int64{1, 1}, []int64{1, 1}, 1, 0, 0, 0},                   // one element
		{[]int64{3, 0}, []int64{3, 1}, []int64{3, 0}, 1, 0, 0, 0},                   // empty
	} {
		p, err := NewPlan(tc.out, tc.a, tc.b)
		if err != nil {
			t.Fatal(err)
		}
		if p.run != tc.run || p.aRun != tc.aRun || p.bRun != tc.bRun || len(p.outer) != tc.outer {
			t.Errorf("%v/%v: run %d (a %d, b %d), %d outer dims; want %d (%d, %d), %d", tc.a, tc.b, p.run, p.aRun, p.bRun, len(p.outer), tc.run, tc.aRun, tc.bRun, tc.outer)
		}
	}
	if _, err := NewPlan([]int64{3}, []int64{2}, []int64{3}); err == nil {
		t.Error("NewPlan accepted a shape that does not broadcast")
	}
}

const guard = 0xA5

// guarded returns n bytes between two bands of guard bytes, starting off
// bytes into an 8-aligned buffer (off a multiple of the element size, so
// starts vary within a vector but stay element-aligned), and the bands.
func guarded(n, off int) (all, inner []byte) {
	all = bytes.Repeat([]byte{guard}, n+96)
	return all, all[32+off : 32+off+n : 32+off+n]
}

func intact(all []byte, n, off int) bool {
	for i, b := range all {
		if (i < 32+off || i >= 32+off+n) && b != guard {
			return false
		}
	}
	return true
}

// TestGuardBands runs every kernel variant of every type at every level on
// lengths 0..67 and checks that no byte outside dst changes and that the
// inputs are left untouched; results are compared with the generic level.
func TestGuardBands(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	gen := genericTable()
	for l := Generic; l <= AVX512; l++ {
		if _, err := Lookup(l); err != nil {
			t.Logf("level %s not tested on this machine: %v", l, err) // the CPU, build or GODEBUG leaves it out
		}
	}
	for _, level := range Levels() {
		table, _ := Lookup(level)
		for typ := range NumTypes {
			for _, floor := range []bool{false, true} {
				for n := 0; n <= 67; n++ {
					off := (n % 4) * typ.Size() // starts 0..3 elements past a 32-byte boundary
					for _, variant := range []string{"vv", "vs", "sv"} {
						aDims, bDims := []int64{int64(n)}, []int64{int64(n)}
						switch variant {
						case "vs":
							bDims = []int64{1}
						case "sv":
							aDims = []int64{1}
						}
						size := typ.Size()
						aAll, a := guarded(int(aDims[0])*size, off)
						bAll, b := guarded(int(bDims[0])*size, off)
						for i := range a {
							a[i] = byte(r.Uint32())
						}
						for i := range b {
							b[i] = byte(r.Uint32()) | 1 // odd low bytes: no zero divisor
						}
						if typ == I8 || typ == I16 || typ == I32 || typ == I64 {
							avoidMinByMinusOne(a, b, size)
						}
						aCopy, bCopy := bytes.Clone(a), bytes.Clone(b)
						dstAll, dst := guarded(n*size, off)
						want := make([]byte, n*size)
						p, err := NewPlan([]int64{int64(n)}, aDims, bDims)
						if err != nil {
							t.Fatal(err)
						}
						name := fmt.Sprintf("%s/%s floor=%v n=%d %s", level, typ, floor, n, variant)
						if f := table.Divide(typ, floor, p, dst, a, b, 1, 0); f != NoFault {
							t.Fatalf("%s: unexpected fault %+v", name, f)
						}
						gen.Divide(typ, floor, p, want, a, b, 1, 0)
						if !intact(dstAll, n*size, off) || !intact(aAll, len(a), off) || !intact(bAll, len(b), off) {
							t.Fatalf("%s: guard band overwritten", name)
						}
						if !bytes.Equal(a, aCopy) || !bytes.Equal(b, bCopy) {
							t.Fatalf("%s: input modified", name)
						}
						if !bytes.Equal(dst, want) {
							t.Fatalf("%s: differs from generic", name)
						}
					}
				}
			}
		}
	}
}

// avoidMinByMinusOne makes the divisor 1 wherever the dividend is MIN and
// the divisor -1, so that signed kernels see only valid pairs.
func avoidMinByMinusOne(a, b []byte, size int) {
	isMin := func(x []byte) bool {
		for _, c := range x[:size-1] {
			if c != 0 {
				return false
			}
		}
		return x[size-1] == 0x80
	}
	isMinusOne := func(x []byte) bool { return bytes.Count(x, []byte{0xff}) == size }
	for i := 0; i+size <= len(b); i += size {
		for j := 0; j+size <= len(a); j += size {
			if isMin(a[j:j+size]) && isMinusOne(b[i:i+size]) {
				b[i] = 1
				for k := 1; k < size; k++ {
					b[i+k] = 0
				}
			}
		}
	}
}
