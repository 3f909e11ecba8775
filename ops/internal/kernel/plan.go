package kernel

import (
	"fmt"
	"time"
	"unsafe"
)

// MaxRank bounds the rank of a plan after collapsing dimensions.
const MaxRank = 32

// Plan describes one broadcast division: the output shape reduced to its
// essential dimensions, the strides of A and B in elements (0 where an
// operand is broadcast), and the length of the innermost contiguous run that
// every kernel call receives. A Plan is immutable and safe for concurrent use.
type Plan struct {
	outer          []int // sizes of the dimensions above the run
	aOuter, bOuter []int // their strides
	run            int   // elements per kernel call
	aRun, bRun     int   // 1 if the operand advances within a run, 0 if broadcast
	total          int
	// tiled, when set, makes runRange copy b's pattern over one run into a
	// tile that repeats it (widen.go), so that short broadcast rows reach
	// the kernels many at a time.
	tiled *tiling
}

// NewPlan builds the plan for out = a / b, where aDims and bDims have out's
// rank: each of their dimensions equals out's or is 1 (broadcast).
func NewPlan(out, aDims, bDims []int64) (*Plan, error) {
	if len(aDims) != len(out) || len(bDims) != len(out) {
		return nil, fmt.Errorf("operand ranks %d and %d for output rank %d", len(aDims), len(bDims), len(out))
	}
	total := 1
	for i, d := range out {
		if aDims[i] != d && aDims[i] != 1 || bDims[i] != d && bDims[i] != 1 {
			return nil, fmt.Errorf("shapes %v and %v do not broadcast to %v", aDims, bDims, out)
		}
		total *= int(d)
	}
	p := &Plan{total: total, run: 1}
	if total == 0 {
		return p, nil
	}
	// Strides of each operand in its own dense layout; broadcast dimensions
	// get stride 0. Dimensions of size 1 in the output are dropped, and
	// neighbours that are contiguous in both operands are merged.
	aStride, bStride := denseStrides(aDims), denseStrides(bDims)
	var dims, as, bs []int
	for i, d := range out {
		if d == 1 {
			continue
		}
		sa, sb := aStride[i], bStride[i]
		if aDims[i] == 1 {
			sa = 0
		}
		if bDims[i] == 1 {
			sb = 0
		}
		if n := len(dims); n > 0 && as[n-1] == sa*int(d) && bs[n-1] == sb*int(d) {
			dims[n-1] *= int(d)
			as[n-1], bs[n-1] = sa, sb
			continue
		}
		dims, as, bs = append(dims, int(d)), append(as, sa), append(bs, sb)
	}
	if len(dims) == 0 {
		return p, nil // a single element
	}
	if len(dims) > MaxRank {
		return nil, fmt.Errorf("rank %d after collapsing exceeds %d", len(dims), MaxRank)
	}
	last := len(dims) - 1
	p.run, p.aRun, p.bRun = dims[last], as[last], bs[last]
	p.outer, p.aOuter, p.bOuter = dims[:last], as[:last], bs[:last]
	p.widen()
	return p, nil
}

func denseStrides(dims []int64) []int {
	s := make([]int, len(dims))
	acc := 1
	for i := len(dims) - 1; i >= 0; i-- {
		s[i] = acc
		acc *= int(dims[i])
	}
	return s
}

// Total returns the number of output elements.
func (p *Plan) Total() int { return p.total }

// Fault locates the first invalid integer division: the flat output index,
// and whether it is MIN / -1 (otherwise a zero divisor). Index is -1 when
// every division was valid.
type Fault struct {
	Index    int
	Overflow bool
}

// NoFault is the Fault of a successful division.
var NoFault = Fault{Index: -1}

// Chunk bounds the elements of one kernel call: assembly cannot be
// preempted, so no call may run long. It is also the unit of error
// localisation.
const Chunk = 32 << 10

// StreamMin is the output size in bytes from which same-shape divisions
// write their output with non-temporal stores, where the level has them.
// Such an output cannot stay in the caches anyway, and a store that misses
// them would first read the line it overwrites: streaming stores skip that
// read, a quarter of the memory traffic of c = a / b. On the Zen 5 host
// (1 MiB L2 per core) a c = a + b stream ran as fast either way at 4 MiB per
// operand and 1.35x faster with them from 8 MiB on (bench/README.md).
const StreamMin = 8 << 20

// ParallelMin is the output size from which Divide splits work across
// goroutines; below it the fork and join cost more than they save.
const ParallelMin = 1 << 20

// Divide computes dst = a / b for the plan, on raw little-endian element
// data of type typ, with floor (true) or truncating integer division, on up
// to threads goroutines (threads <= 1 means the caller's alone). Helpers
// that took part spin for spin after their share before they park (0 means
// DefaultSpin, a negative spin parks them at once; see crew.go). The slices
// must hold the plan's element counts for their shapes and be aligned to
// the element size. On a fault the output is unspecified.
func (t *Table) Divide(typ Type, floor bool, p *Plan, dst, a, b []byte, threads int, spin time.Duration) Fault {
	mode := 0
	if floor {
		mode = 1
	}
	switch typ {
	case F32:
		return parallel(p, &t.f32, nil, dst, a, b, threads, spin, runPieces[F32])
	case F64:
		return parallel(p, &t.f64, nil, dst, a, b, threads, spin, runPieces[F64])
	case F16:
		return parallel(p, &t.f16, nil, dst, a, b, threads, spin, runPieces[F16])
	case BF16:
		return parallel(p, &t.bf16, nil, dst, a, b, threads, spin, runPieces[BF16])
	case I8:
		return parallel(p, &t.i8[mode], signedCheck[int8], dst, a, b, threads, spin, runPieces[I8])
	case I16:
		return parallel(p, &t.i16[mode], signedCheck[int16], dst, a, b, threads, spin, runPieces[I16])
	case I32:
		return parallel(p, &t.i32[mode], signedCheck[int32], dst, a, b, threads, spin, runPieces[I32])
	case I64:
		return parallel(p, &t.i64[mode], signedCheck[int64], dst, a, b, threads, spin, runPieces[I64])
	case U8:
		return parallel(p, &t.u8[mode], unsignedCheck[uint8], dst, a, b, threads, spin, runPieces[U8])
	case U16:
		return parallel(p, &t.u16[mode], unsignedCheck[uint16], dst, a, b, threads, spin, runPieces[U16])
	case U32:
		return parallel(p, &t.u32[mode], unsignedCheck[uint32], dst, a, b, threads, spin, runPieces[U32])
	case U64:
		return parallel(p, &t.u64[mode], unsignedCheck[uint64], dst, a, b, threads, spin, runPieces[U64])
	}
	panic(fmt.Sprintf("kernel: Divide of %s", typ))
}

// faultKind classifies one division for the rescan after a kernel failed.
type faultKind uint8

const (
	valid faultKind = iota
	byZero
	overflow
)

func signedCheck[T signed](a, b T) faultKind {
	switch {
	case b == 0:
		return byZero
	case b == -1 && a == minOf[T]():
		return overflow
	}
	return valid
}

func unsignedCheck[T unsigned](_, b T) faultKind {
	if b == 0 {
		return byZero
	}
	return valid
}

func view[T any](data []byte) []T {
	var zero T
	if len(data) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(data))), len(data)/int(unsafe.Sizeof(zero)))
}

// runRange divides output elements [lo, hi) in order, run by run, each run
// cut into calls of at most Chunk elements.
func runRange[T any](p *Plan, k variants[T], check func(a, b T) faultKind, dst, a, b []T, lo, hi int) Fault {
	if lo >= hi {
		return NoFault
	}
	if p.tiled != nil {
		return runTiled(p, k, check, dst, a, b, lo, hi)
	}
	kern := k.vv
	var zero T
	switch {
	case p.aRun == 1 && p.bRun == 1 && k.stream != nil && p.total*int(unsafe.Sizeof(zero)) >= StreamMin:
		kern = k.stream
	case p.aRun == 1 && p.bRun == 0:
		kern = k.vs
	case p.aRun == 0 && p.bRun == 1:
		kern = k.sv
	case p.aRun == 0 && p.bRun == 0:
		kern = nil // both operands constant along the run
	}
	// Position the odometer at the run holding lo.
	var idx [MaxRank]int
	ao, bo := 0, 0
	rest := lo / p.run
	for d := len(p.outer) - 1; d >= 0; d-- {
		idx[d] = rest % p.outer[d]
		rest /= p.outer[d]
		ao += idx[d] * p.aOuter[d]
		bo += idx[d] * p.bOuter[d]
	}
	// Row broadcasting: A advances run by run and B repeats one row, so
	// whole consecutive rows go to the rows kernel in one call.
	last := len(p.outer) - 1
	rowMode := kern != nil && p.aRun == 1 && p.bRun == 1 && last >= 0 && p.bOuter[last] == 0 && p.aOuter[last] == p.run
	for start := lo - lo%p.run; start < hi; start += p.run {
		from, to := max(lo, start), min(hi, start+p.run)
		if rowMode && from == start && to == start+p.run {
			rows := min(p.outer[last]-idx[last], (hi-start)/p.run, max(1, Chunk/p.run))
			if rows > 1 {
				n := rows * p.run
				if k.rows(dst[start:start+n], a[ao:ao+n], b[bo:bo+p.run]) {
					return locate(check, n, start, func(j int) (T, T) { return a[ao+j], b[bo+j%p.run] })
				}
				// Stay in the last dimension for rows-1 runs; the odometer
				// below advances the final one.
				idx[last] += rows - 1
				ao += (rows - 1) * p.aOuter[last]
				start += (rows - 1) * p.run
				from, to = start, start // nothing left of this run
			}
		}
		for c := from; c < to; c += Chunk {
			n := min(Chunk, to-c)
			i := c - start // position inside the run
			out := dst[c : c+n]
			ax, bx := a[ao+i*p.aRun:], b[bo+i*p.bRun:]
			var bad bool
			if kern == nil {
				bad = k.vv(out[:1], ax[:1], bx[:1])
				for j := 1; j < n; j++ {
					out[j] = out[0]
				}
			} else {
				bad = kern(out, ax[:max(p.aRun*n, 1)], bx[:max(p.bRun*n, 1)])
			}
			if bad {
				return locate(check, n, c, func(j int) (T, T) { return ax[j*p.aRun], bx[j*p.bRun] })
			}
		}
		ao, bo = p.advance(idx[:], ao, bo)
	}
	return NoFault
}

// advance moves the odometer idx, and the operands' offsets ao and bo, to
// the next run.
func (p *Plan) advance(idx []int, ao, bo int) (int, int) {
	for d := len(p.outer) - 1; d >= 0; d-- {
		idx[d]++
		ao += p.aOuter[d]
		bo += p.bOuter[d]
		if idx[d] < p.outer[d] {
			break
		}
		ao -= p.aOuter[d] * p.outer[d]
		bo -= p.bOuter[d] * p.outer[d]
		idx[d] = 0
	}
	return ao, bo
}

// locate runs after a kernel reported a fault: it finds the first of n
// divisions that fails the scalar check, operands(j) giving the j-th pair
// and start+j its flat output index.
func locate[T any](check func(a, b T) faultKind, n, start int, operands func(j int) (T, T)) Fault {
	for j := range n {
		if kind := check(operands(j)); kind != valid {
			return Fault{Index: start + j, Overflow: kind == overflow}
		}
	}
	panic("kernel: a kernel reported a fault the scalar check does not find")
}
