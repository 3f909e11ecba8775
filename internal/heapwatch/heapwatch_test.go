package heapwatch

import (
	"runtime"
	"testing"
	"time"
)

// sink holds what the test allocates where the compiler cannot drop it.
var sink [][]byte

// TestWatch: a heap past the limit calls over once, with a value above
// it; a heap under it never does; stop ends the watch.
func TestWatch(t *testing.T) {
	for _, metric := range []string{Live, Objects} {
		t.Run(metric, func(t *testing.T) {
			runtime.GC()
			base := Read(metric)
			calls := make(chan uint64, 4)
			stop := Watch(metric, base+64<<20, time.Millisecond, func(held uint64) { calls <- held })
			time.Sleep(20 * time.Millisecond)
			if len(calls) != 0 {
				t.Fatalf("over called under the limit: %d", <-calls)
			}
			for range 128 {
				sink = append(sink, make([]byte, 1<<20))
			}
			runtime.GC() // Live is read at the end of a collection
			select {
			case held := <-calls:
				if held <= base+64<<20 {
					t.Errorf("over called with %d, not above the limit %d", held, base+64<<20)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("128 MiB held past a limit of 64 MiB more than the heap, and over was not called (heap %d, base %d)", Read(metric), base)
			}
			stop()
			stop()
			if len(calls) != 0 {
				t.Errorf("over called twice")
			}
			sink = nil
		})
	}
}
