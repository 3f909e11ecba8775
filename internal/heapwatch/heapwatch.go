// Package heapwatch samples the Go heap of the process against a bound,
// from a goroutine of its own: the command line bounds its whole run with
// it (--max-memory), and the fuzz targets each input (testutil.Bounded).
// A bound checked only by the code that allocates misses what it does not
// count (a model's layers, the analysis of them); the heap counts all.
package heapwatch

import (
	"runtime/metrics"
	"sync"
	"time"
)

// The metrics Watch samples (runtime/metrics).
const (
	// Live is the heap the last garbage collection found live: what the
	// process needs, garbage excluded. It is read at the end of each
	// cycle, which a memory limit (debug.SetMemoryLimit) at the bound
	// starts before the heap passes it by much.
	Live = "/gc/heap/live:bytes"
	// Objects is the heap's objects, live or not yet swept: at least
	// Live, read at once, without a collection.
	Objects = "/memory/classes/heap/objects:bytes"
)

// Read returns the value of metric (Live or Objects) now.
func Read(metric string) uint64 {
	s := []metrics.Sample{{Name: metric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		panic("heapwatch: " + metric + " is not a uint64 metric of this Go")
	}
	return s[0].Value.Uint64()
}

// Watch reads metric every interval, from a goroutine of its own, until
// stop is called, and calls over once, from that goroutine, with the
// first value above limit; then it stops sampling. over runs while the
// code it watches goes on: to stop that code, over exits the process or
// panics. stop waits for the goroutine to end (and for over, if it runs);
// calling it again does nothing.
func Watch(metric string, limit uint64, interval time.Duration, over func(held uint64)) (stop func()) {
	Read(metric) // a metric this Go lacks panics here, not in the goroutine
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		s := []metrics.Sample{{Name: metric}}
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				metrics.Read(s)
				if held := s[0].Value.Uint64(); held > limit {
					over(held)
					return
				}
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done) })
		<-ended
	}
}
