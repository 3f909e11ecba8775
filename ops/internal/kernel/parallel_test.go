package kernel

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"
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
				if f := table.Divide(typ, true, plan, serial, a, b, 1, 0); f != NoFault {
					t.Fatalf("%s serial: %+v", name, f)
				}
				if f := table.Divide(typ, true, plan, par, a, b, 4, 0); f != NoFault {
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
					if f := table.Divide(typ, true, plan, par, a, b, threads, 0); f != (Fault{Index: want}) {
						t.Fatalf("%s threads=%d: fault %+v, want index %d", name, threads, f, want)
					}
				}
			}
		}
	}
}

// TestConcurrentParallelCalls: callers that compete for the crew's helpers
// (more of them than GOMAXPROCS-1, each asking for more threads than there
// are helpers) still get exact results and their own lowest fault. It runs
// in -short so that the race leg checks the handover between callers and
// helpers.
func TestConcurrentParallelCalls(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	const total, callers, calls = ParallelMin + 3*Chunk + 5, 5, 3
	plan, err := NewPlan([]int64{total}, []int64{total}, []int64{total})
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range Levels() {
		table, _ := Lookup(level)
		var wg sync.WaitGroup
		errs := make(chan error, callers)
		for c := range callers {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(c), 77))
				a, b := make([]byte, total*4), make([]byte, total*4)
				for i := range total {
					put(a, I32, i, int64(r.Int32()))
					put(b, I32, i, int64(r.IntN(2000)-1000)|1)
				}
				want := make([]byte, len(a))
				if f := table.Divide(I32, true, plan, want, a, b, 1, 0); f != NoFault {
					errs <- fmt.Errorf("%s caller %d serial: %+v", level, c, f)
					return
				}
				// Odd callers divide by zero twice: near the end of the
				// second third and at the start of the last, where a third
				// worker finds it first. The lower one must win.
				zeroAt := -1
				if c%2 == 1 {
					pieces := (total + Chunk - 1) / Chunk
					zeroAt = (2*pieces/3-2)*Chunk + c
					put(b, I32, zeroAt, 0)
					put(b, I32, 2*pieces/3*Chunk+c, 0)
				}
				for n := range calls {
					got := make([]byte, len(a))
					f := table.Divide(I32, true, plan, got, a, b, 3, 0)
					switch {
					case zeroAt >= 0 && f != Fault{Index: zeroAt}:
						errs <- fmt.Errorf("%s caller %d call %d: fault %+v, want index %d", level, c, n, f, zeroAt)
						return
					case zeroAt < 0 && f != NoFault:
						errs <- fmt.Errorf("%s caller %d call %d: fault %+v", level, c, n, f)
						return
					case zeroAt < 0 && !bytes.Equal(got, want):
						errs <- fmt.Errorf("%s caller %d call %d: result differs from serial", level, c, n)
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	}
}

// TestParallelAllocatesNothing: once warm, a division split across the
// crew allocates nothing (its bookkeeping is pooled), and the helpers do
// take part.
func TestParallelAllocatesNothing(t *testing.T) {
	if raceBuild {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	const total = ParallelMin
	plan, err := NewPlan([]int64{total}, []int64{total}, []int64{total})
	if err != nil {
		t.Fatal(err)
	}
	a, b, dst := make([]byte, total*4), make([]byte, total*4), make([]byte, total*4)
	for i := range total {
		put(b, F32, i, 0x3f800000) // 1.0, and a large divisor as an int32
	}
	for _, level := range Levels() {
		table, _ := Lookup(level)
		for _, typ := range []Type{F32, I32} {
			table.Divide(typ, true, plan, dst, a, b, 2, 0)
			// testing.AllocsPerRun would run at GOMAXPROCS 1, where no
			// helper takes part; count the process's allocations instead.
			const calls = 50
			jobs := helperJobs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range calls {
				table.Divide(typ, true, plan, dst, a, b, 2, 0)
			}
			runtime.ReadMemStats(&after)
			if allocs := after.Mallocs - before.Mallocs; allocs >= calls/5 {
				t.Errorf("%s %s: %d allocations in %d parallel divisions", level, typ, allocs, calls)
			}
			if jobs := helperJobs() - jobs; jobs < calls {
				t.Errorf("%s %s: helpers took %d jobs in %d two-thread divisions", level, typ, jobs, calls)
			}
		}
	}
}

// helperJobs counts the jobs the crew's helpers have finished.
func helperJobs() uint64 {
	var n uint64
	if list := crew.helpers.Load(); list != nil {
		for _, h := range *list {
			n += h.finished.Load()
		}
	}
	return n
}

// anyParked reports whether a helper of the crew is parked.
func anyParked() bool {
	if list := crew.helpers.Load(); list != nil {
		for _, h := range *list {
			if h.parked.Load() {
				return true
			}
		}
	}
	return false
}

// TestHelpersParkAndWake: calls spaced wider than the helpers' spin find
// them parked and must wake them; calls back to back find them spinning;
// with a negative spin they park after every job. Every call must hand its
// work over and get it back: a lost wake-up would hang, so the calls run
// under a deadline that fails the test instead.
func TestHelpersParkAndWake(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	const total = ParallelMin
	plan, err := NewPlan([]int64{total}, []int64{total}, []int64{total})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	a, b := make([]byte, total*4), make([]byte, total*4)
	for i := range total {
		put(a, I32, i, int64(r.Int32()))
		put(b, I32, i, int64(r.IntN(100)+1))
	}
	table := Default()
	want := make([]byte, len(a))
	table.Divide(I32, false, plan, want, a, b, 1, 0)
	done := make(chan error, 1)
	parkedSeen := 0
	go func() {
		for call := range 18 {
			spin := time.Duration(0)
			switch {
			case call >= 12:
				spin = -1 // park at once, every time
			case call%3 == 0:
				time.Sleep(3 * DefaultSpin)
			}
			if anyParked() {
				parkedSeen++
			}
			got := make([]byte, len(a))
			if f := table.Divide(I32, false, plan, got, a, b, 2, spin); f != NoFault || !bytes.Equal(got, want) {
				done <- fmt.Errorf("call %d: fault %+v or a result that differs from serial", call, f)
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("a call did not return within a minute: a parked helper was not woken")
	}
	if parkedSeen < 4 {
		t.Errorf("helpers were found parked before %d calls; the wake-up path was hardly tested", parkedSeen)
	}
}

// TestWorkers: one goroutine below ParallelMin or with one thread, then
// one per ParallelMin/4 elements, never more than threads or GOMAXPROCS.
func TestWorkers(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	for _, tc := range []struct {
		total, threads, want int
	}{
		{ParallelMin - 1, 8, 1},
		{ParallelMin, 1, 1},
		{ParallelMin, 0, 1},
		{ParallelMin, 2, min(2, procs)},
		{ParallelMin, 64, min(4, procs)},
		{16 * ParallelMin, 64, min(64, procs)},
	} {
		p, err := NewPlan([]int64{int64(tc.total)}, []int64{int64(tc.total)}, []int64{int64(tc.total)})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Workers(tc.threads); got != tc.want {
			t.Errorf("%d elements, %d threads: %d workers, want %d", tc.total, tc.threads, got, tc.want)
		}
	}
}
