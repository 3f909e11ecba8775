package search

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/absint"
)

// crossChecks is how many edge inputs CrossCheck evaluates the model on.
const crossChecks = 6

// edgeInts are the element values CrossCheck cycles through: around 0,
// the ends of every type, and odd values that divide inexactly. The
// search's last candidates take the small ones only (smallEdges): the
// ends make sums overflow, where runtimes need not agree with irdiv's
// two's complement (ONNX does not say), and a counter-example must
// replay.
var edgeInts = []int64{-3, 2, -1, 7, 0, -2, 1, 3, -7, 5, -5, math.MinInt64, math.MinInt64 + 1, math.MaxInt64, math.MaxInt64 - 1}

// smallEdges is how many of edgeInts are small.
const smallEdges = 11

// randomChecks is how many inputs of random small dims and elements the
// search tries after the edge inputs (edgeInputs with k >= crossChecks),
// where the query asks for them (Query.Random): what no candidate of the
// symbols reaches, a mix of values element by element may
// (floor(y * 0.25) / -2 / 2 differs at y = [9, 6, 5], where every fill of
// y with one value the candidates try goes through the float path to an
// inexact first Divide; seed 2894). Their evaluations are kept for every
// search of the model, as the edge inputs' are.
const randomChecks = 24

// edgeFloats are the float element values, halves included, so that
// Floor, Ceil and Round of them differ.
var edgeFloats = []float64{-1.5, 0.5, -0.5, 2.5, -2.75, 1, 0, 3.25, -7.5}

// A Contradiction is an evaluation whose operands at a Divide are bad
// where a proof said none could be.
type Contradiction struct {
	Inputs map[*ir.Layer]*ir.Tensor
	Index  int
	A, B   int64
}

// CrossCheck evaluates the model on a few edge inputs (the declared
// shapes, or small ones where a dim is free; element values from
// edgeInts and edgeFloats, a different pattern each time) and returns,
// for each of the proven layers whose operands are bad in one of those
// evaluations, the first such evaluation: a proof that a concrete run
// contradicts is wrong. Each run is charged to the budget; evaluations
// the model cannot run (a Reshape that fails, anywhere in the model)
// prove nothing either way.
func (s *Searcher) CrossCheck(proven []*ir.Layer, bad func(x, y int64) bool, ref RunOptions) map[*ir.Layer]*Contradiction {
	out := make(map[*ir.Layer]*Contradiction)
	// A proof of the file's constants (72 / 9) has nothing to check;
	// constants the analysis computed do (it computed 5 / -3 with the
	// wrong rounding once).
	fileConst := func(l *ir.Layer, i int) bool {
		src := s.an.Sources[l]
		if i >= len(src) || src[i].Layer == nil {
			return false
		}
		_, ok := s.an.Ops[src[i].Layer].(*ops.Const)
		return ok
	}
	proven = slices.DeleteFunc(slices.Clone(proven), func(l *ir.Layer) bool {
		return fileConst(l, 0) && fileConst(l, 1)
	})
	if len(proven) == 0 {
		return out
	}
	// The proven Divides' operands, and what they are computed from:
	// nothing after them, and no float tensor's values.
	// A Divide inside a body is read as the layer that holds it runs.
	need := make(map[*ir.Layer]bool)
	var stack []*ir.Layer
	inBodies := false
	for _, l := range proven {
		if holder, ok := s.an.Holders[l]; ok {
			stack, inBodies = s.markUpstream(need, holder, stack), true
			continue
		}
		stack = s.markUpstream(need, l, stack)
	}
	for k := range crossChecks {
		if s.runLayers < len(s.an.Order) {
			s.exhausted = true
			break
		}
		inputs, ok := s.edgeInputs(k, len(edgeInts), false)
		if !ok {
			break
		}
		opts := ref
		opts.Need, opts.IntegersOnly = need, true
		if inBodies {
			opts.watch = make(map[*ir.Layer]*watched)
			for _, l := range proven {
				if _, ok := s.an.Holders[l]; ok {
					opts.watch[l] = &watched{bad: bad}
				}
			}
		}
		run := s.Evaluate(inputs, opts)
		// A proof holds at the inputs the model runs on (its layers may
		// narrow them, absint's requirements): an evaluation of the
		// Divides' operands alone contradicts it only where the whole
		// model runs. Where the budget cannot tell, the contradiction
		// stands: an internal error rather than a proof.
		whole := 0 // 1: the model runs, -1: it does not
		modelRuns := func() bool {
			if whole == 0 {
				whole = 1
				if s.runLayers >= len(s.an.Order) && !s.runs(s.evaluation(inputs), opts) {
					whole = -1
				}
			}
			return whole > 0
		}
		for _, l := range proven {
			if out[l] != nil {
				continue
			}
			if w := opts.watch[l]; w != nil {
				if w.found && modelRuns() {
					out[l] = &Contradiction{Inputs: inputs, Index: w.index, A: w.x, B: w.y}
				}
				continue
			}
			if i, a, b, found := s.badIn(run, l, bad); found && modelRuns() {
				out[l] = &Contradiction{Inputs: inputs, Index: i, A: a, B: b}
			}
		}
	}
	return out
}

// edgeInputs are the k-th edge inputs of the model: the declared dims
// where static, else 1, 2, 3... by k within the declared range (for k
// from 3, the same for every dim); elements
// from the first n edgeInts (or edgeFloats, unless floats is false: zeros
// for an evaluation of integers only), starting k places further each
// time. From k = crossChecks on, randomInputs.
func (s *Searcher) edgeInputs(k, n int, floats bool) (map[*ir.Layer]*ir.Tensor, bool) {
	if k >= crossChecks {
		return s.randomInputs(k)
	}
	var float func(i int) float64
	if floats {
		float = func(i int) float64 { return edgeFloats[(i+k)%len(edgeFloats)] }
	}
	return s.makeInputs(func(i int) int64 {
		// Rotations of 1, 2, 3 first; then every free dim alike, for
		// models that run only where dims agree (a Reshape of x:
		// [3, S, H] to [3] needs S = H = 1; seed 1304).
		if k >= 3 {
			return int64(1 + (k-3)%3)
		}
		return int64(1 + (k+i)%3)
	}, float, func(i int) int64 { return edgeInts[(i+3*k)%n] })
}

// randomInputs are inputs of free dims from 1 to 4 and elements from -9
// to 9 (halves and quarters for floats), drawn with k as the seed: the
// same for every search of the model.
func (s *Searcher) randomInputs(k int) (map[*ir.Layer]*ir.Tensor, bool) {
	r := rand.New(rand.NewPCG(uint64(k), 0x5eed))
	return s.makeInputs(func(int) int64 { return 1 + r.Int64N(4) },
		func(int) float64 { return float64(r.IntN(73)-36) / 4 },
		func(int) int64 { return r.Int64N(19) - 9 })
}

// makeInputs makes a tensor for every model input: dim(i) gives axis i
// its size (within the declared interval), float and integer each
// element (clamped to the type: MIN of i64 is MIN of i8 too); a nil float
// leaves float inputs zeros, at no cost (an image's millions of elements,
// for an evaluation of integers only). ok is false where an input has a
// dynamic rank or would pass 16 MiB.
func (s *Searcher) makeInputs(dim func(i int) int64, float func(i int) float64, integer func(i int) int64) (map[*ir.Layer]*ir.Tensor, bool) {
	out := make(map[*ir.Layer]*ir.Tensor, len(s.an.Inputs))
	for _, in := range s.an.Inputs {
		if in.Shape.DynamicRank {
			return nil, false
		}
		dims := make([]int64, len(in.Dims))
		for i, d := range in.Shape.Dims {
			dims[i] = min(max(dim(i), d.Min), d.Max)
			if s.anyShape {
				// A search of every input shape varies the dims the
				// model fixes too: y: i64[4] differs where len(y) is odd
				// (Clip(len(y), 7) / -2; seed 940).
				r := s.an.Any.Range(in.Dims[i])
				dims[i] = clamp(dim(i), r)
			}
		}
		elems, err := ir.NumElements(dims)
		if err != nil {
			return nil, false
		}
		if size, err := ir.ByteSize(in.Type, elems); err != nil || size > 16<<20 {
			return nil, false
		}
		t, err := ir.NewTensor(in.Type, dims)
		if err != nil {
			return nil, false
		}
		r := absint.TypeRange(in.Type)
		for i := range t.Len() {
			if in.Type.IsFloat() {
				if float == nil {
					break
				}
				t.SetFloat64(i, float(i))
				continue
			}
			t.SetInt64(i, min(max(integer(i), r.Lo.V), r.Hi.V))
		}
		out[in.Layer] = t
	}
	return out, true
}
