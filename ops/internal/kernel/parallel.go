package kernel

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// parallel divides on up to threads goroutines: the caller and helpers
// of the crew (see crew.go), never more than GOMAXPROCS. The output is
// cut into pieces of about Chunk elements (whole rows where rows are
// shorter) and each worker owns a contiguous span of them, which it works
// through from the front; one that is done takes pieces from the back of
// the others' spans. So each worker keeps to the same memory from call to
// call, and one that starts late costs its lateness shared, not whole.
// Pieces above the lowest faulty one found so far are skipped and the
// rest are all done, so the lowest fault found is the answer.
func parallel[T any](p *Plan, k *variants[T], check func(a, b T) faultKind, dst, a, b []byte, threads int, spin time.Duration, run pieceRunner) Fault {
	var bt *batch
	if workers := p.Workers(threads); workers > 1 {
		bt = batches.Get().(*batch)
		bt.helpers = claimHelpers(bt.helpers[:0], workers-1)
		if len(bt.helpers) == 0 {
			batches.Put(bt)
			bt = nil
		}
	}
	if bt == nil {
		return runRange(p, *k, check, view[T](dst), view[T](a), view[T](b), 0, p.total)
	}
	bt.plan, bt.kern, bt.check, bt.runRange = p, k, check, run
	bt.dst, bt.a, bt.b = dst, a, b
	bt.start(1 + len(bt.helpers))
	for w, h := range bt.helpers {
		h.start(bt, w+1, spin)
	}
	bt.work(0)
	for _, h := range bt.helpers {
		h.wait()
	}
	f := bt.lowestFault()
	*bt = batch{spans: bt.spans, faults: bt.faults, helpers: bt.helpers[:0]} // drop the tensors
	batches.Put(bt)
	return f
}

// Workers is how many goroutines a division by this plan splits into when
// it may use threads: 1 below ParallelMin elements, then one per
// ParallelMin/4, never more than threads or GOMAXPROCS. Fewer run when
// other divisions hold the crew's helpers.
func (p *Plan) Workers(threads int) int {
	if p.total < ParallelMin || threads <= 1 {
		return 1
	}
	return min(threads, p.total/(ParallelMin/4), runtime.GOMAXPROCS(0))
}

// batch is the state one parallel division shares between its workers.
// Batches are pooled, so a steady stream of large divisions allocates
// nothing; the element type hides behind kern, check and runRange.
type batch struct {
	plan        *Plan
	kern, check any // *variants[T] and func(a, b T) faultKind
	runRange    pieceRunner
	dst, a, b   []byte
	piece       int // elements per piece
	firstBad    atomic.Int64
	spans       []span
	faults      []Fault
	helpers     []*helper
}

var batches = sync.Pool{New: func() any { return new(batch) }}

// pieceRunner runs output elements [lo, hi) of a batch.
type pieceRunner func(bt *batch, lo, hi int) Fault

// runPieces holds one runPiece instance per type, made once: a generic
// function taken as a value inside parallel would allocate on every call.
var runPieces = [NumTypes]pieceRunner{
	F32: runPiece[float32], F64: runPiece[float64], F16: runPiece[uint16], BF16: runPiece[uint16],
	I8: runPiece[int8], I16: runPiece[int16], I32: runPiece[int32], I64: runPiece[int64],
	U8: runPiece[uint8], U16: runPiece[uint16], U32: runPiece[uint32], U64: runPiece[uint64],
}

func runPiece[T any](bt *batch, lo, hi int) Fault {
	check, _ := bt.check.(func(a, b T) faultKind)
	return runRange(bt.plan, *bt.kern.(*variants[T]), check, view[T](bt.dst), view[T](bt.a), view[T](bt.b), lo, hi)
}

// start cuts the output into pieces and deals them to the workers' spans.
func (bt *batch) start(workers int) {
	p := bt.plan
	bt.piece = Chunk
	if p.run < Chunk {
		bt.piece = Chunk / p.run * p.run
	}
	pieces := (p.total + bt.piece - 1) / bt.piece
	if cap(bt.spans) < workers {
		bt.spans, bt.faults = make([]span, workers), make([]Fault, workers)
	}
	bt.spans, bt.faults = bt.spans[:workers], bt.faults[:workers]
	for w := range workers {
		bt.spans[w].set(w*pieces/workers, (w+1)*pieces/workers)
		bt.faults[w] = NoFault
	}
	bt.firstBad.Store(int64(pieces))
}

// work is worker w's part: its own span from the front, then the others'
// from the back.
func (bt *batch) work(w int) {
	for i, ok := bt.spans[w].front(); ok; i, ok = bt.spans[w].front() {
		bt.do(w, i)
	}
	for o := 1; o < len(bt.spans); o++ {
		other := &bt.spans[(w+o)%len(bt.spans)]
		for i, ok := other.back(); ok; i, ok = other.back() {
			bt.do(w, i)
		}
	}
}

func (bt *batch) do(w, i int) {
	if int64(i) > bt.firstBad.Load() {
		return
	}
	lo := i * bt.piece
	f := bt.runRange(bt, lo, min(lo+bt.piece, bt.plan.total))
	if f.Index < 0 {
		return
	}
	if bt.faults[w].Index < 0 || f.Index < bt.faults[w].Index {
		bt.faults[w] = f
	}
	for {
		bad := bt.firstBad.Load()
		if int64(i) >= bad || bt.firstBad.CompareAndSwap(bad, int64(i)) {
			return
		}
	}
}

func (bt *batch) lowestFault() Fault {
	lowest := NoFault
	for _, f := range bt.faults {
		if f.Index >= 0 && (lowest.Index < 0 || f.Index < lowest.Index) {
			lowest = f
		}
	}
	return lowest
}

// span is the pieces [front, back) not yet taken from one goroutine's
// share, packed into one word so that both ends move atomically; the
// padding keeps spans on separate cache lines.
type span struct {
	v atomic.Uint64
	_ [56]byte
}

func (s *span) set(front, back int) { s.v.Store(uint64(front)<<32 | uint64(back)) }

// front takes the first piece left, back the last.
func (s *span) front() (int, bool) { return s.take(false) }
func (s *span) back() (int, bool)  { return s.take(true) }

func (s *span) take(fromBack bool) (int, bool) {
	for {
		v := s.v.Load()
		front, back := v>>32, v&(1<<32-1)
		if front >= back {
			return 0, false
		}
		next, i := (front+1)<<32|back, front
		if fromBack {
			next, i = front<<32|(back-1), back-1
		}
		if s.v.CompareAndSwap(v, next) {
			return int(i), true
		}
	}
}
