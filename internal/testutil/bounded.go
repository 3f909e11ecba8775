package testutil

import (
	"fmt"
	"runtime/metrics"
	"testing"
	"time"
)

// The bounds of one fuzz input (Bounded): real models of a few MiB
// validate in well under a second and hold some hundred MiB, and a
// crafted one must stay within the caps it is read with. Variables, so
// that the test of Bounded can lower them.
var (
	FuzzTime  = 20 * time.Second
	FuzzBytes = uint64(2 << 30)
)

// Bounded runs one input of a fuzz target with a bound on its time and on
// the heap it holds: past either, the process panics naming desc, from a
// goroutine of its own, so that the fuzzer keeps the input as a crasher
// even where the body never returns. Go's fuzzer has no bound per input of
// its own: a hang or an allocation of gigabytes would go unseen, or kill
// the machine instead of failing the target.
func Bounded(t testing.TB, desc string, body func()) {
	t.Helper()
	done := make(chan struct{})
	defer close(done)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		deadline := time.Now().Add(FuzzTime)
		for {
			select {
			case <-done:
				return
			case now := <-tick.C:
				metrics.Read(sample)
				if held := sample[0].Value.Uint64(); held > FuzzBytes {
					panic(fmt.Sprintf("%s: the heap holds %d MiB, more than the %d MiB one input may take", desc, held>>20, FuzzBytes>>20))
				}
				if now.After(deadline) {
					panic(fmt.Sprintf("%s: still running after %v", desc, FuzzTime))
				}
			}
		}
	}()
	body()
}
