package kernel

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// broadcastRef divides by materialising b to out's shape first and running
// the generic same-shape kernel: an oracle that never sees a widened plan.
func broadcastRef(t *testing.T, typ Type, floor bool, out, bDims []int64, a, b []byte) ([]byte, Fault) {
	t.Helper()
	size := typ.Size()
	total := len(a) / size
	full := make([]byte, len(a))
	for i := range total {
		// b's element for output i: drop the broadcast dimensions' index.
		j, rest, bs := 0, i, 1
		for d := len(out) - 1; d >= 0; d-- {
			x := rest % int(out[d])
			rest /= int(out[d])
			if bDims[d] != 1 {
				j += x * bs
			}
			bs *= int(bDims[d])
		}
		copy(full[i*size:(i+1)*size], b[j*size:(j+1)*size])
	}
	plan, err := NewPlan(out, out, out)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]byte, len(a))
	f := genericTable().Divide(typ, floor, plan, want, a, full, 1, 0)
	return want, f
}

// TestShortBroadcastRows: short rows of b ([R, run] / [run]), divisors
// per channel over short runs ([N, C, HW] / [1, C, 1] and [N, C, 1]), and
// rows under an outer broadcast ([M, R, run] / [M, 1, run]) divide as the
// materialised broadcast does at every level, one thread and four, and a
// zero divisor or MIN / -1 is reported at the first output that uses it.
func TestShortBroadcastRows(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	type layout struct{ out, b []int64 }
	var layouts []layout
	for _, run := range []int64{1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 100, 255} {
		for _, rows := range []int64{1, 2, 7, 300} {
			layouts = append(layouts, layout{[]int64{rows, run}, []int64{1, run}})
		}
		layouts = append(layouts, layout{[]int64{3, 50, run}, []int64{3, 1, run}})
	}
	for _, c := range []struct{ n, ch, hw int64 }{{1, 3, 1}, {3, 3, 4}, {2, 16, 16}, {5, 64, 4}, {2, 5, 7}, {2, 200, 9}, {2, 300, 9}, {4, 7, 63}} {
		layouts = append(layouts,
			layout{[]int64{c.n, c.ch, c.hw}, []int64{1, c.ch, 1}},
			layout{[]int64{c.n, c.ch, c.hw}, []int64{c.n, c.ch, 1}})
	}
	// Longer than Chunk: several rows calls, and a fault in a later one.
	layouts = append(layouts, layout{[]int64{2, 3, 4, 5}, []int64{1, 3, 1, 1}}, layout{[]int64{300, 64, 2, 2}, []int64{1, 64, 1, 1}},
		layout{[]int64{12000, 5}, []int64{1, 5}})
	for _, level := range Levels() {
		table, _ := Lookup(level)
		for typ := range NumTypes {
			size := typ.Size()
			for _, l := range layouts {
				name := fmt.Sprintf("%s/%s/%v/%v", level, typ, l.out, l.b)
				plan, err := NewPlan(l.out, l.out, l.b)
				if err != nil {
					t.Fatal(err)
				}
				total, nb := plan.Total(), 1
				for _, d := range l.b {
					nb *= int(d)
				}
				a, b := make([]byte, total*size), make([]byte, nb*size)
				for i := range total {
					put(a, typ, i, int64(r.IntN(201)-100))
				}
				for i := range nb {
					put(b, typ, i, int64(r.IntN(100)+1))
				}
				if typ <= BF16 {
					for i := range b {
						b[i] |= 0x01
					}
				}
				for _, floor := range []bool{false, true} {
					want, _ := broadcastRef(t, typ, floor, l.out, l.b, a, b)
					for _, threads := range []int{1, 4} {
						got := make([]byte, len(a))
						if f := table.Divide(typ, floor, plan, got, a, b, threads, 0); f != NoFault {
							t.Fatalf("%s: fault %+v", name, f)
						}
						if !bytes.Equal(got, want) {
							t.Fatalf("%s floor=%v threads=%d: differs from the materialised broadcast", name, floor, threads)
						}
					}
				}
				if typ <= BF16 {
					continue
				}
				// MIN / -1 at the last output (whose divisor is b's last),
				// then a zero divisor there.
				faults := []func(){func() { put(b, typ, nb-1, 0) }}
				if isSigned(typ) {
					faults = append([]func(){func() { put(b, typ, nb-1, -1); put(a, typ, total-1, minValue(typ)) }}, faults...)
				}
				for _, place := range faults {
					place()
					_, wantFault := broadcastRef(t, typ, true, l.out, l.b, a, b)
					if wantFault == NoFault {
						t.Fatalf("%s: the oracle finds no fault", name)
					}
					if f := table.Divide(typ, true, plan, make([]byte, len(a)), a, b, 1, 0); f != wantFault {
						t.Fatalf("%s: fault %+v, want %+v", name, f, wantFault)
					}
				}
			}
		}
	}
}

// TestShortBroadcastRowsParallel: pieces of a parallel division start in
// the middle of the repeated dimension, of a tile and of b's outer
// dimensions; the result and the lowest fault stay the serial ones.
func TestShortBroadcastRowsParallel(t *testing.T) {
	if testing.Short() {
		t.Skip("large tensors")
	}
	r := rand.New(rand.NewPCG(33, 34))
	for _, l := range []struct{ out, b []int64 }{
		{[]int64{3, 150001, 3}, []int64{3, 1, 3}},
		{[]int64{40001, 7, 5}, []int64{1, 7, 1}},
	} {
		plan, err := NewPlan(l.out, l.out, l.b)
		if err != nil {
			t.Fatal(err)
		}
		nb := int(l.b[0] * l.b[1] * l.b[2])
		for _, level := range Levels() {
			table, _ := Lookup(level)
			for _, typ := range []Type{F32, I32, I64} {
				name := fmt.Sprintf("%s/%s/%v/%v", level, typ, l.out, l.b)
				size, total := typ.Size(), plan.Total()
				a, b := make([]byte, total*size), make([]byte, nb*size)
				for i := range total {
					put(a, typ, i, int64(r.IntN(1<<20)-1<<19))
				}
				for i := range nb {
					put(b, typ, i, int64(r.IntN(200)+1))
				}
				want, _ := broadcastRef(t, typ, true, l.out, l.b, a, b)
				got := make([]byte, len(a))
				if f := table.Divide(typ, true, plan, got, a, b, 4, 0); f != NoFault || !bytes.Equal(got, want) {
					t.Fatalf("%s: fault %+v, or a result that differs from the materialised broadcast", name, f)
				}
				if typ == F32 {
					continue
				}
				put(b, typ, nb-1, 0)
				_, wantFault := broadcastRef(t, typ, true, l.out, l.b, a, b)
				for _, threads := range []int{1, 4} {
					if f := table.Divide(typ, true, plan, got, a, b, threads, 0); f != wantFault {
						t.Fatalf("%s threads=%d: fault %+v, want %+v", name, threads, f, wantFault)
					}
				}
			}
		}
	}
}

// TestShortBroadcastRowsAllocateNothing: the tiles come from a pool, so a
// steady stream of widened divisions allocates nothing.
func TestShortBroadcastRowsAllocateNothing(t *testing.T) {
	if raceBuild {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	plan, err := NewPlan([]int64{4096, 4}, []int64{4096, 4}, []int64{1, 4})
	if err != nil {
		t.Fatal(err)
	}
	if plan.tiled == nil {
		t.Fatal("a [4096, 4] / [4] plan is not widened")
	}
	a, b, dst := make([]byte, 4096*4*4), make([]byte, 4*4), make([]byte, 4096*4*4)
	for i := range 4 {
		put(b, I32, i, int64(i+3))
	}
	for _, level := range Levels() {
		table, _ := Lookup(level)
		if allocs := testing.AllocsPerRun(100, func() { table.Divide(I32, true, plan, dst, a, b, 1, 0) }); allocs != 0 {
			t.Errorf("%s: %v allocations per widened division", level, allocs)
		}
	}
}
