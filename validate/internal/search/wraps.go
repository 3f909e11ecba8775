package search

import (
	"math"
	"math/bits"
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/validate/internal/absint"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// Shape arithmetic that a large constant multiplies wraps only at large
// dims: Shape(y)[1] * (2^40 + 3) leaves int64 at a dim of 2^23, which no
// candidate reaches (they stay below 2^14, and small inputs). The search
// tries, last, the dims where such a product first wraps, with every
// other dim as small as the model allows.
const (
	// maxWrapDim bounds the dims tried where a product wraps: a dim of
	// 2^26 is 64 Mi elements, which one input with every other dim 1
	// holds within maxWrapInputBytes; beyond it, no input fits.
	maxWrapDim = 1 << 26
	// maxWrapInputBytes bounds the inputs of such a candidate, all
	// together: four times the 64 MiB of one input elsewhere (a float
	// input of 3 × 2^24 elements is 192 MiB), what one search may hold
	// at a time; ONNX Runtime, replaying it in a node process bounded to
	// 4 GiB, holds a few copies.
	maxWrapInputBytes = 256 << 20
	// wrapTries is how many dims are tried from the first that wraps:
	// each wraps to another value, and one of them must leave a remainder
	// (2^23 * (2^40 + 3) wraps to MIN + 3*2^23, whose floor and
	// truncation by 5 differ).
	wrapTries = 8
	// maxWrapRuns bounds the candidates evaluated concretely at each
	// smallest dim: each builds inputs of up to maxWrapInputBytes.
	maxWrapRuns = 4
	// largeConst is the least constant whose product with a dim below
	// maxEmptyWrapDim may wrap int64: the searches of expressions without
	// one look no further.
	largeConst = (1 << 63) / maxEmptyWrapDim
	// maxEmptyWrapDim bounds the dims tried where the input that has it
	// is empty (another of its dims 0): such an input costs nothing, and
	// a dim converted to int32 wraps only at 2^31. onnxruntime-node
	// refuses a tensor of a dim of 2^32 or more ("Tensor.dims[1] is
	// invalid"), which no replay could then show.
	maxEmptyWrapDim = 1<<32 - 1
)

// narrowWrapOfDim tells whether an operand of pairs depends on a dim
// wrapped into a type narrower than int64 (a Convert of a dim to int32,
// which wraps at 2^31): searchWraps tries such dims on empty inputs.
func (s *Searcher) narrowWrapOfDim(pairs []absint.Pair) bool {
	for _, p := range pairs {
		for _, e := range []sym.Expr{p.A, p.B} {
			for _, w := range s.an.B.Wraps(e) {
				if w.R.Lo.IsFinite() && w.R.Lo.V > math.MinInt64 && slices.ContainsFunc(s.keysOf(w.Arg), func(k key) bool { return k.dim }) {
					return true
				}
			}
		}
	}
	return false
}

// WrapNote says where a counter-example's shape arithmetic wraps: at
// Dim = Value, the first layer of the model whose integer product
// leaves its type (nil when none of the layers evaluated shows it).
type WrapNote struct {
	Dim   string
	Value int64
	Layer *ir.Layer
}

// wrapDim is a dim of an input and the least value where a wrap an
// operand depends on leaves its type.
type wrapDim struct {
	k     key
	first int64
}

// hasLargeConst tells whether some constant may make a dim below
// maxEmptyWrapDim wrap int64.
func hasLargeConst(consts []int64) bool {
	return slices.ContainsFunc(consts, func(c int64) bool { return c >= largeConst || c <= -largeConst })
}

// wrapDims lists, for the wraps the operands of pairs depend on, each
// input dim they depend on and the least value (up to maxWrapDim, the
// other dims at their smallest, s.leastDim) where the wrap's argument
// leaves its range: a bisection between a value where it does not and
// one where it does.
func (s *Searcher) wrapDims(pairs []absint.Pair, env *absint.Ranges) []wrapDim {
	var out []wrapDim
	for _, p := range pairs {
		for _, e := range []sym.Expr{p.A, p.B} {
			for _, w := range s.an.B.Wraps(e) {
				for _, k := range s.keysOf(w.Arg) {
					if !k.dim || s.steps <= 0 {
						continue
					}
					if first, ok := s.firstWrap(w, k, env); ok && !slices.Contains(out, wrapDim{k, first}) {
						out = append(out, wrapDim{k, first})
					}
				}
			}
		}
	}
	return out
}

// firstWrap is the least value of dim k where w leaves its range.
func (s *Searcher) firstWrap(w sym.Wrapped, k key, env *absint.Ranges) (int64, bool) {
	r := env.Range(k.in.Dims[k.index])
	lo, hi := max(r.Lo.V, 0), int64(maxWrapDim)
	if s.leastDim == 0 {
		// The input holding the dim is empty where another of its dims
		// is 0 (build refuses it otherwise, beyond maxWrapInputBytes).
		hi = maxEmptyWrapDim
	}
	if r.Hi.IsFinite() {
		hi = min(hi, r.Hi.V)
	}
	leaves := func(v int64) bool {
		s.steps -= tryCost
		out, ok := s.eval.Leaves(w.Arg, w.R, s.valuer(map[key]int64{k: v}), &s.steps)
		return ok && out
	}
	if lo > hi || !leaves(hi) {
		return 0, false
	}
	if leaves(lo) {
		return lo, true
	}
	for hi-lo > 1 { // lo stays, hi leaves
		if m := lo + (hi-lo)/2; leaves(m) {
			hi = m
		} else {
			lo = m
		}
	}
	return hi, true
}

// searchWraps tries the dims where a product the Divide's operands
// depend on wraps, the other dims at their smallest: 0 first (the
// inputs stay empty where the model runs so), then 1.
func (s *Searcher) searchWraps(l *ir.Layer, pairs []absint.Pair, o Query, env *absint.Ranges, picked func(map[key]int64) bool) (*Witness, bool) {
	defer func() { s.leastDims = false }()
	failedBefore, maskedBefore, runs := s.failedRuns, s.maskedRuns, 0
	for pass, least := range []int64{0, 1} {
		if pass > 0 && runs > 0 && s.failedRuns == failedBefore && s.maskedRuns == maskedBefore {
			// The model ran at every candidate, and they differ: larger
			// inputs show no more. (Where none was bad, a dim of 0 may
			// have emptied the product: 1 is tried; and where the
			// outputs were the same both ways, a dim of 0 may have
			// emptied what the difference flows into: x: [0, 0, 2^23]
			// pooled, of an empty batch, which multiplies the quotient,
			// seed 1847.)
			break
		}
		s.leastDims, s.leastDim = true, least
		runs = 0
		for _, wd := range s.wrapDims(pairs, env) {
			for v := wd.first; v < wd.first+wrapTries && runs < maxWrapRuns; v++ {
				if s.steps <= 0 || s.runLayers < 2*len(s.an.Order) {
					s.exhausted = true
					return nil, false
				}
				as := map[key]int64{wd.k: v}
				s.tries++
				s.steps -= tryCost
				if !picked(as) || !s.bad(pairs, as, o.Bad) {
					continue
				}
				inputs, ok := s.build(as, 0, env, maxWrapInputBytes)

				if !ok {
					continue
				}
				runs++
				failed := s.failedRuns
				if w, ok := s.confirm(l, inputs, s.evaluation(inputs), o); ok {
					w.Wrap = &WrapNote{Dim: s.an.B.Info(wd.k.in.Dims[wd.k.index]).Name, Value: v, Layer: s.wrappingLayer(l, inputs, o)}
					return w, true
				}
				if s.failedRuns > failed {
					// The model does not run at this shape (a Reshape to
					// the negative quotient): the next dims, alike, would
					// not either, and each costs inputs of up to
					// maxWrapInputBytes.
					break
				}
			}
		}
	}
	return nil, false
}

// bad tells whether an assignment makes one of the pairs bad.
func (s *Searcher) bad(pairs []absint.Pair, as map[key]int64, bad func(x, y int64) bool) bool {
	for _, p := range pairs {
		x, ok1 := s.eval.Eval(p.A, s.valuer(as), &s.steps)
		y, ok2 := s.eval.Eval(p.B, s.valuer(as), &s.steps)
		if ok1 && ok2 && bad(x, y) {
			return true
		}
	}
	return false
}

// wrappingLayer is the first integer Multiply that l depends on whose
// product leaves its type on inputs, in the reference evaluation.
func (s *Searcher) wrappingLayer(l *ir.Layer, inputs map[*ir.Layer]*ir.Tensor, o Query) *ir.Layer {
	ref := o.Reference
	if holder, inBody := s.an.Holders[l]; inBody {
		l = holder
	}
	ref.Need, ref.Stop = s.need(l), l
	run := s.Evaluate(inputs, ref)
	for _, m := range s.an.Order {
		if m == l {
			break
		}
		src := s.an.Sources[m]
		if m.Type != "Multiply" || !ref.Need[m] || len(src) != 2 {
			continue
		}
		x, y := run.Value(src[0]), run.Value(src[1])
		if x == nil || y == nil || x.Type != ir.I64 || y.Type != ir.I64 {
			continue
		}
		info, ok := run.Info(ir.Output{Layer: m})
		if !ok {
			continue
		}
		dims, ok := info.Shape.ToStatic()
		if !ok {
			continue
		}
		if _, _, _, found := firstBad(x, y, dims, overflows); found {
			return m
		}
	}
	return nil
}

// overflows tells whether x * y leaves int64.
func overflows(x, y int64) bool {
	hi, lo := bits.Mul64(absU(x), absU(y))
	if hi != 0 {
		return true
	}
	if (x < 0) != (y < 0) && x != 0 && y != 0 {
		return lo > 1<<63
	}
	return lo > 1<<63-1
}

// absU is |x| as an unsigned integer (|MIN| fits).
func absU(x int64) uint64 {
	if x < 0 {
		return uint64(-x)
	}
	return uint64(x)
}

// wrapBlock is how many elements of an input of searchWraps are set:
// the rest are 0 (setting 2^24 elements one by one, or repeating the
// first ones, took seconds: the first touch of each page of memory).
const wrapBlock = 4096

// wrapBuffer is the data of an input of searchWraps's candidates: block,
// repeated.
type wrapBuffer struct {
	data  []byte
	block []byte
}

// wrapTensor is an input of searchWraps's candidates: its first wrapBlock
// elements set by first, and repeated over the rest. No shape arithmetic
// reads them, but the model must run on them: zeros there made an
// integer Mod of a layer the search does not evaluate (no Result it
// checks depends on it) divide by 0 in ONNX Runtime, which then ran the
// counter-example on nothing (seed 6579 of the differential: y of 2^23
// elements, 4096 of them 1). The candidates of a model differ by a few
// elements at a dim of millions: they share their data where their first
// elements are the same (Go clears memory it reuses, which touches every
// page), data that the witnesses of earlier candidates hold unchanged.
// The memory is an eighth more than the largest candidate's, kept for
// the model's searches.
func (s *Searcher) wrapTensor(in *absint.Input, dims []int64, first func(*ir.Tensor, int)) (*ir.Tensor, error) {
	n, err := ir.NumElements(dims)
	if err != nil {
		return nil, err
	}
	size, err := ir.ByteSize(in.Type, n)
	if err != nil || size == 0 {
		return ir.NewTensor(in.Type, dims)
	}
	block, err := ir.NewTensor(in.Type, []int64{min(n, wrapBlock)})
	if err != nil {
		return nil, err
	}
	first(block, block.Len())
	b := s.wrapData[in.Layer]
	if b == nil || string(b.block) != string(block.Data) || int64(cap(b.data)) < size {
		// Whole words, as ir.NewTensor aligns data for the widest type.
		words, err := ir.NewTensor(ir.I64, []int64{(size + size/8 + 7) / 8})
		if err != nil {
			return nil, err
		}
		b = &wrapBuffer{data: words.Data, block: block.Data}
		for filled := copy(b.data, b.block); filled < len(b.data); filled *= 2 {
			copy(b.data[filled:], b.data[:filled])
		}
		if s.wrapData == nil {
			s.wrapData = make(map[*ir.Layer]*wrapBuffer)
		}
		s.wrapData[in.Layer] = b
	}
	return &ir.Tensor{Type: in.Type, Shape: slices.Clone(dims), Data: b.data[:size:size]}, nil
}
