package testutil

import (
	"fmt"
	"testing"
	"time"

	"github.com/irdiv/irdiv/internal/heapwatch"
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
// the machine instead of failing the target. The heap is sampled every
// 20 ms (heapwatch.Objects, which needs no collection to be read).
func Bounded(t testing.TB, desc string, body func()) {
	t.Helper()
	stop := heapwatch.Watch(heapwatch.Objects, FuzzBytes, 20*time.Millisecond, func(held uint64) {
		panic(fmt.Sprintf("%s: the heap holds %d MiB, more than the %d MiB one input may take", desc, held>>20, FuzzBytes>>20))
	})
	defer stop()
	timer := time.AfterFunc(FuzzTime, func() {
		panic(fmt.Sprintf("%s: still running after %v", desc, FuzzTime))
	})
	defer timer.Stop()
	body()
}
