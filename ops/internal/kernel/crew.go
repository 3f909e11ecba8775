package kernel

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// The crew is the set of helper goroutines that large divisions share.
// A helper that finishes a job spins (DefaultSpin unless the call asks
// otherwise) before it parks, so
// back-to-back calls (an inference loop) find it running: waking a parked
// goroutine means waking an idle CPU, which takes tens of microseconds in
// a VM, a sixth of a two-thread 1Mi f16 division. OpenMP runtimes spin for
// the same reason. Helpers are started on first need, never more than
// GOMAXPROCS-1, and live as long as the process, parked when idle.
var crew struct {
	grow    sync.Mutex
	helpers atomic.Pointer[[]*helper]
}

// DefaultSpin is how long an idle helper keeps its CPU before parking,
// unless the call that used it last asked otherwise.
const DefaultSpin = 100 * time.Microsecond

// helper runs one worker's share of one batch at a time, for the caller
// that claimed it.
type helper struct {
	claimed  atomic.Bool
	posted   atomic.Uint64 // jobs handed over; written by the claimant only
	finished atomic.Uint64 // jobs done
	parked   atomic.Bool
	wake     chan struct{}
	job      *batch
	worker   int
	spin     atomic.Int64 // of the last job: how long to spin after it
}

// claimHelpers appends up to n idle helpers to dst, starting new ones
// while the crew is smaller than GOMAXPROCS-1. Fewer come back when the
// others are busy with other callers' divisions.
func claimHelpers(dst []*helper, n int) []*helper {
	if list := crew.helpers.Load(); list != nil {
		for _, h := range *list {
			if n > 0 && h.claimed.CompareAndSwap(false, true) {
				dst, n = append(dst, h), n-1
			}
		}
	}
	if n <= 0 {
		return dst
	}
	crew.grow.Lock()
	defer crew.grow.Unlock()
	var list []*helper
	if old := crew.helpers.Load(); old != nil {
		list = *old
	}
	for ; n > 0 && len(list) < runtime.GOMAXPROCS(0)-1; n-- {
		h := &helper{wake: make(chan struct{}, 1)}
		h.claimed.Store(true)
		go h.serve()
		list = append(list, h) // readers of the old slice never look past its length
		dst = append(dst, h)
	}
	crew.helpers.Store(&list)
	return dst
}

// start hands the helper worker w of job, after which it spins for spin
// (0: DefaultSpin; negative: not at all) before it parks.
func (h *helper) start(job *batch, w int, spin time.Duration) {
	if spin == 0 {
		spin = DefaultSpin
	}
	h.job, h.worker = job, w
	h.spin.Store(int64(spin))
	h.posted.Add(1)
	if h.parked.CompareAndSwap(true, false) {
		h.wake <- struct{}{}
	}
}

// wait returns when the helper has finished its job, and releases it.
// It spins, then yields: a helper just woken may still sit in this
// goroutine's run queue.
func (h *helper) wait() {
	for i := 0; h.finished.Load() != h.posted.Load(); i++ {
		if i > 1000 {
			runtime.Gosched()
		}
	}
	h.job = nil
	h.claimed.Store(false)
}

func (h *helper) serve() {
	for done := uint64(0); ; {
		h.await(done + 1)
		done++
		h.job.work(h.worker)
		h.finished.Store(done)
	}
}

// await returns once job number want is posted: it spins for the last
// job's spin, then parks until start wakes it. Parking announces itself before the
// last look at posted, and start posts before it looks at parked, so one
// of the two always sees the other.
func (h *helper) await(want uint64) {
	since, spin := time.Now(), time.Duration(h.spin.Load())
	for i := 0; h.posted.Load() != want; i++ {
		if spin > 0 && (i%64 != 63 || time.Since(since) < spin) {
			continue
		}
		h.parked.Store(true)
		if h.posted.Load() == want && h.parked.CompareAndSwap(true, false) {
			return
		}
		<-h.wake // start has cleared parked and sent, or is about to
		return
	}
}
