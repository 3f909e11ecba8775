// Package search looks for counter-examples: model inputs under which an
// integer Divide's operands are bad (floor and truncation disagree, MIN /
// -1, a zero divisor), found by evaluating the analysis's expressions
// (package absint) at candidate values, and confirmed by evaluating the
// model concretely (through ops) both ways at its outputs, only at inputs
// the source model itself runs on.
//
// A Searcher holds the budget of one model's searches: every search and
// every evaluation is charged to it, so that a model of many Divides, or
// a crafted one, cannot make validation run for long.
package search

import (
	"cmp"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/absint"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The default budgets of one model's searches: enough for thousands of
// Divides in real models, and a bound on a crafted one (a chain of 10^5
// Divides would otherwise evaluate the chain once per Divide).
const (
	DefaultSteps     = 4_000_000
	DefaultRunLayers = 150_000
)

// Options bound the searches of one model.
type Options struct {
	// Steps bounds the work of the searches: atoms evaluated
	// symbolically, and tryCost per assignment made (DefaultSteps when 0).
	Steps int
	// RunLayers bounds the layers evaluated concretely, to confirm
	// counter-examples (DefaultRunLayers when 0).
	RunLayers int
}

// Searcher finds the counter-examples of one analysed model.
type Searcher struct {
	an   *absint.Analysis
	opts Options
	// steps and runLayers are what is left of the budget; exhausted is
	// set once either ran out; tries counts the assignments made, tried
	// or refused for want of budget: the work the budget must bound.
	steps, runLayers int
	exhausted        bool
	tries            int
	// eval evaluates the analysis's expressions at the assignments the
	// searches make.
	eval *sym.Evaluator
	// reaching are the layers some Result depends on, once a search
	// needs them.
	reaching map[*ir.Layer]bool
	// failed are the ops of the layers left opaque whose op ops can
	// build (see failedOp), once an evaluation needs them.
	failed map[*ir.Layer]ops.Op
	// results are the outputs that feed a Result (see feedsResult).
	results map[ir.Output]bool
	// masked is the first input of the last search where the Divide's
	// operands were bad and every output the same both ways.
	masked *Witness
	// batch is the size of a first input dim the search leaves free (1
	// unless a search sets another); failedRuns counts the confirmations
	// the model did not run for.
	batch      int64
	failedRuns int
	// maskedRuns counts the confirmations where the Divide's operands
	// were bad and no output differed (noteMasked).
	maskedRuns int
	// anyShape is set while a search looks at every input shape.
	anyShape bool
	// leastDims is set while a search tries the dims where a product
	// wraps (searchWraps): the dims it leaves free are leastDim, or the
	// nearest value their range allows, so that the inputs stay small.
	leastDims bool
	leastDim  int64
	// wrapData holds the data of each input of searchWraps's candidates
	// (wrapTensor).
	wrapData map[*ir.Layer]*wrapBuffer
	// edgeRuns are the evaluations of the edge inputs that end every
	// search, kept for the model's other searches (edgeEvaluation).
	edgeRuns map[edgeRunKey]*Run
	// slots number the outputs every evaluation holds (Run).
	slots *outputSlots
	// needs are what a counter-example at each Divide evaluates (need),
	// for the searches' many candidates.
	needs map[*ir.Layer]map[*ir.Layer]bool
	// joint are the requirements of several input symbols a search
	// meets while it looks again for inputs the model runs on
	// (searchRunnable); nil in the first search of a Divide.
	joint []absint.Joint
	// compareEval evaluates the comparisons the searches choose the
	// operands of (compared).
	compareEval *sym.Evaluator
	// alikes are the layers that compute alike under two roundings of
	// the Divides (alike), by the roundings.
	alikes map[string]map[*ir.Layer]bool
}

// LastMasked returns the first input of the last search under which the
// Divide's quotients differ and every output of the model is the same
// (the difference vanishes on the way), or nil.
func (s *Searcher) LastMasked() *Witness { return s.masked }

// New returns a Searcher of an analysed model.
func New(an *absint.Analysis, o Options) *Searcher {
	o.Steps = cmp.Or(o.Steps, DefaultSteps)
	o.RunLayers = cmp.Or(o.RunLayers, DefaultRunLayers)
	return &Searcher{an: an, opts: o, steps: o.Steps, runLayers: o.RunLayers, eval: an.B.NewEvaluator()}
}

// Options returns the budgets in use (defaults filled in).
func (s *Searcher) Options() Options { return s.opts }

// Exhausted reports whether the budget ran out: searches after it found
// nothing because they did not run.
func (s *Searcher) Exhausted() bool { return s.exhausted }

// Tries counts the assignments the searches made.
func (s *Searcher) Tries() int { return s.tries }

// Witness is a counter-example at the model's inputs: the tensors to give
// each Parameter, and what they do.
type Witness struct {
	Inputs map[*ir.Layer]*ir.Tensor
	// Index is the flat output index of the Divide where its operands are
	// A and B.
	Index int
	A, B  int64
	// Outputs are the Results whose values or shapes differ between the
	// two evaluations; Fails is the error of the evaluation that fails
	// where the other runs. Both empty: no output could be compared, and
	// Through is the first layer the difference flows into that irdiv
	// does not evaluate.
	Outputs []*ir.Layer
	Fails   error
	Through *ir.Layer
	// Wrap says where shape arithmetic wraps, for a counter-example at
	// a dim where a product leaves its type (nil for the others).
	Wrap *WrapNote
}

// Query says what a counter-example must show.
type Query struct {
	// Bad tells the operands that make the two evaluations differ at the
	// Divide (floor and truncation disagree, MIN / -1...).
	Bad func(x, y int64) bool
	// AnyShape searches every input shape, not only the declared ones.
	AnyShape bool
	// Reference is the evaluation of the model as meant (the source's
	// semantics), Test the one that may differ; the operands are read in
	// Reference.
	Reference, Test RunOptions
	// MaxRuns bounds the concrete evaluations (defaultMaxRuns when 0).
	MaxRuns int
	// AtDivide confirms at the Divide alone: its operands are bad (a zero
	// divisor, MIN / -1 fail the model there), the outputs are not compared.
	AtDivide bool
	// Random ends the search with inputs of random small dims and
	// elements (randomChecks of them), where nothing else was found.
	Random bool
}

// key identifies what a symbol lets a user choose: a dim or the elements
// of an input (copies of an element stand for other elements of the same
// input, which a whole-tensor fill sets too).
type key struct {
	in    *absint.Input
	dim   bool
	index int // axis, element, or -1 for every element
}

// The limits of one search.
const (
	// maxTried bounds the assignments one search remembers.
	maxTried = 4096
	// maxPairs bounds the element pairs of a Divide searched: the first
	// ones, where a tracked tensor has many.
	maxPairs = 32
	// defaultMaxRuns bounds the candidates confirmed by evaluating the
	// model.
	defaultMaxRuns = 16
	// pairedCandidates is how many candidates of each of two keys are
	// tried together.
	pairedCandidates = 8
	// randomTries is how many random mixes of candidates are tried last.
	randomTries = 256
	// edgeModelLayers is the size of model up to which every search
	// ends with the edge inputs; beyond it, only searches whose Divide a
	// tensor followed as one value reaches.
	edgeModelLayers = 500
)

// tryCost is what trying an assignment, or pairing an upstream Divide's
// operands, costs in the search budget (Options.Steps): about what
// evaluating 16 atoms does.
const tryCost = 16

// Search looks for model inputs under which one of the pairs of Divide l
// is bad, confirmed by evaluating the model.
func (s *Searcher) Search(l *ir.Layer, pairs []absint.Pair, o Query) (*Witness, bool) {
	if s.joint == nil {
		s.masked = nil
	}
	if s.exhausted {
		return nil, false
	}
	env := &s.an.Declared
	if o.AnyShape {
		env = &s.an.Any
	}
	// (Restored, not cleared: searchRunnable's search runs inside
	// another, which goes on at its shapes; seeds 746, 1362.)
	wasAnyShape := s.anyShape
	s.anyShape = o.AnyShape
	defer func() { s.anyShape = wasAnyShape }()
	maxRuns := cmp.Or(o.MaxRuns, defaultMaxRuns)
	if len(pairs) > maxPairs {
		pairs = pairs[:maxPairs]
	}
	var keys []key
	var opaque []*ir.Layer // the layers of the derived symbols
	consts := []int64{}
	derived := false
	floatPath := false
	for _, p := range pairs {
		for _, e := range []sym.Expr{p.A, p.B} {
			consts = append(consts, s.an.B.Consts(e)...)
			for _, sy := range s.an.B.Syms(e) {
				org := s.an.OriginOf(sy)
				if d, _, _, ok := s.an.Comparison(sy); ok {
					// A comparison of the inputs' dims and elements: the
					// search chooses them, and evaluates it (valuer).
					consts = append(consts, s.an.B.Consts(d)...)
					for _, k := range s.keysOf(d) {
						if !slices.Contains(keys, k) {
							keys = append(keys, k)
						}
					}
					continue
				}
				switch {
				case org.Kind == absint.Derived:
					derived = true
					if org.Layer != nil && s.fromFloat(org.Layer) {
						floatPath = true
					}
					if org.Layer != nil && !slices.Contains(opaque, org.Layer) {
						opaque = append(opaque, org.Layer)
					}
				case org.Input != nil:
					k := key{org.Input, org.Kind == absint.InputDim, org.Index}
					if !slices.Contains(keys, k) {
						keys = append(keys, k)
					}
				}
			}
		}
	}
	// A value irdiv does not follow (a float converted to an integer, a
	// Range's elements) still follows from the inputs it is computed
	// from: their dims and elements are searched, where the expressions
	// name none (int64(float(K) / 8) / -2 is 1 / -2 at K = 8). (Where
	// they name some, adding more cost validate of testdata/pytorch a
	// twentieth more CPU and found nothing.)
	if len(keys) == 0 {
		keys = s.opaqueKeys(opaque)
	}
	// A Divide in a branch of an If divides only where the If's condition
	// picks the branch: its keys are searched too, and an assignment
	// that picks the other branch is no candidate (seed 85: if
	// x.shape[0] < y, (3 - 4) / T, which needs y >= 5; seed 908: a
	// branch taken where y has no element).
	branch, branchRange, inBranch := s.branchCondition(l)
	if inBranch {
		consts = append(consts, s.an.B.Consts(branch)...)
		for _, k := range s.keysOf(branch) {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	// In a search for inputs the model runs on, the symbols of its
	// layers' joint requirements are chosen too, at candidates that
	// include where each requirement starts or stops holding.
	jointKeys := 0
	for _, q := range s.joint {
		for _, k := range s.keysOf(q.E) {
			if !slices.Contains(keys, k) && jointKeys < maxOpaqueKeys {
				keys = append(keys, k)
				jointKeys++
			}
		}
	}
	picked := func(as map[key]int64) bool {
		if !s.meetsJoint(as) {
			return false
		}
		if !inBranch {
			return true
		}
		v, ok := s.eval.Eval(branch, s.valuer(as), &s.steps)
		return !ok || branchRange.Contains(v)
	}
	cands := make(map[key][]int64)
	for _, k := range keys {
		kc := consts
		if edges := s.jointEdges(k, env); len(edges) > 0 {
			kc = slices.Concat(consts, edges)
		}
		cands[k] = s.candidates(k, env, kc)
	}
	floats := []float64{0}
	if floatPath {
		floats = []float64{-0.5, -1.5, -0.125, -2.5, -3.7, 0.5, 1.5, -9.9}
	}
	r := rand.New(rand.NewPCG(uint64(len(pairs)), uint64(l.ID)))
	var tried []map[key]int64
	seen := make(map[string]bool)
	// Assignments whose upstream Divides give the same quotients in both
	// evaluations are tried first: the operands then reach l alike in the
	// reference, where the pairs' expressions (this IR's) were evaluated.
	// x = -9 reaches a third x / 3 as -1 both ways; x = -1 reaches it as
	// -1 flooring and 0 truncating.
	upstream := s.upstream(l, o)
	var good, mixed []assignment
	// spent says the search must stop: the budget is gone or enough
	// candidates are found. Every loop below checks it before making an
	// assignment, so that the budget bounds the work and the memory of a
	// search, not only the evaluations: a sum of 4,000 input elements has
	// 8 million pairs of keys to enumerate.
	// An operand irdiv does not follow is not evaluated here: every
	// assignment is good, the first maxRuns confirmed, and the next
	// maxScreened screened where those find nothing (screen).
	maxGood := maxRuns
	if derived || floatPath {
		maxGood += maxScreened
	}
	spent := func() bool { return s.steps <= 0 || len(good) >= maxGood }
	try := func(as map[key]int64, fl float64) {
		s.tries++
		if spent() {
			return
		}
		// An assignment costs what evaluating a few atoms does, whether
		// or not its pairs are evaluated: the budget bounds the search
		// of a model with many Divides of cheap expressions too.
		s.steps -= tryCost
		if len(tried) >= maxTried {
			return
		}
		id := fingerprint(as, fl)
		if seen[id] {
			return
		}
		seen[id] = true
		tried = append(tried, as)
		if !picked(as) {
			return
		}
		if derived || floatPath {
			good = append(good, assignment{as, fl})
			return
		}
		for _, p := range pairs {
			if s.steps <= 0 {
				s.exhausted = true
				return
			}
			x, ok1 := s.eval.Eval(p.A, s.valuer(as), &s.steps)
			y, ok2 := s.eval.Eval(p.B, s.valuer(as), &s.steps)
			if ok1 && ok2 && o.Bad(x, y) {
				if s.differsUpstream(upstream, as, o.Bad) {
					if len(mixed) < maxRuns {
						mixed = append(mixed, assignment{as, fl})
					}
				} else {
					good = append(good, assignment{as, fl})
				}
				return
			}
		}
	}
	// The keys of each pair's operands, found once.
	keysA, keysB := make([][]key, len(pairs)), make([][]key, len(pairs))
	for i, p := range pairs {
		keysA[i], keysB[i] = s.keysOf(p.A), s.keysOf(p.B)
	}
	// The pairs of keys leave room in tried for the singles and the
	// random mixes after them: y: i64[3, 4] has 66 pairs of elements,
	// whose first candidates filled it, and y = 16, which reaches
	// y / 16 / -3 as 1 / -3, is a single's (seed 2193).
	reserve := randomTries
	for _, k := range keys {
		reserve += len(cands[k])
	}
	reserve = min(reserve, maxTried/2)
	// Where every assignment is good unevaluated (an operand irdiv does
	// not follow), the candidates of each key alone come after the
	// pairs, which fill good: they get room of their own, up to
	// maxScreened more assignments, screened. The sum of y: i64[2, L]
	// over its first axis, / 8 / 8 / -3, differs at y = 64, a single's,
	// which the pairs of L's and y's first candidates crowded out (seeds
	// 171 and 2155 of the differential). (Room taken from the pairs
	// instead lost counter-examples of pairs: seeds 1726, 2250.)
	singlesRoom := 0
	if derived || floatPath {
		for _, k := range keys {
			singlesRoom += len(cands[k])
		}
		singlesRoom = min(singlesRoom, maxScreened)
	}
	base := map[key]int64{}
	for _, fl := range floats {
		try(base, fl)
		// A dividend's key against a divisor's, every candidate of each:
		// MIN / -1 and -3 / 2 are found here.
	dividends:
		for i := range pairs {
			for _, ka := range keysA[i] {
				for _, kb := range keysB[i] {
					if ka == kb {
						continue
					}
					for _, c1 := range cands[ka] {
						for _, c2 := range cands[kb] {
							if spent() {
								break dividends
							}
							try(map[key]int64{ka: c1, kb: c2}, fl)
						}
					}
				}
			}
		}
		// Pairs first: a dividend and a divisor chosen together give the
		// plainest counter-examples (-3 / 2).
	pairsOfKeys:
		for i, k1 := range keys {
			for _, k2 := range keys[i+1:] {
				for _, c1 := range first(cands[k1], pairedCandidates) {
					for _, c2 := range first(cands[k2], pairedCandidates) {
						if spent() || len(tried)+reserve >= maxTried {
							break pairsOfKeys
						}
						try(map[key]int64{k1: c1, k2: c2}, fl)
					}
				}
			}
		}
		if singlesRoom > 0 {
			maxGood, singlesRoom = max(maxGood, len(good)+singlesRoom), 0
		}
	singles:
		for _, k := range keys {
			for _, c := range cands[k] {
				if spent() {
					break singles
				}
				try(map[key]int64{k: c}, fl)
			}
		}
		for range randomTries {
			if spent() {
				break
			}
			as := make(map[key]int64, len(keys))
			for _, k := range keys {
				if c := cands[k]; len(c) > 0 && r.IntN(3) > 0 {
					as[k] = c[r.IntN(len(c))]
				}
			}
			try(as, fl)
		}
	}
	// The dims an assignment leaves free get their defaults, a batch of
	// 1 first; then, where the model did not run at some assignment and
	// that gives other shapes, a batch of retriedBatch: a model may run
	// only where a batch exceeds a dim it indexes (Gather(y, W) of y:
	// [S, L] needs S > W, seed 1024); then every free dim at 0, and at
	// 1 (freeDims). (Retried always, it cost a third more of validate's
	// time on testdata/pytorch.)
	confirmAll := func(assignments []assignment) (*Witness, bool) {
		defer func() { s.batch, s.leastDims = 1, false }()
		built := make([]map[*ir.Layer]*ir.Tensor, len(assignments))
		failedBefore := s.failedRuns
		for pass, dims := range freeDims {
			if pass > 0 && s.failedRuns == failedBefore {
				break // the model ran at every assignment: no other dims help
			}
			s.batch, s.leastDims, s.leastDim = dims.batch, dims.least, dims.leastDim
			for i, g := range assignments {
				if s.runLayers < 2*len(s.an.Order) {
					s.exhausted = true
					break
				}
				inputs, ok := s.build(g.values, g.float, env, 0)
				if !ok || pass > 0 && sameShapes(inputs, built[i]) {
					continue
				}
				built[i] = inputs
				if w, ok := s.confirm(l, inputs, s.evaluation(inputs), o); ok {
					return w, true
				}
			}
		}
		return nil, false
	}
	failedBefore := s.failedRuns
	all := append(good, mixed...)
	if w, ok := confirmAll(all[:min(len(all), maxRuns)]); ok {
		return w, true
	}
	if len(good) > maxRuns && s.masked == nil {
		// (Where the quotients differ at inputs found already, and no
		// output did there, more such inputs seldom do better: screened
		// there too, they cost validate of testdata/pytorch 3% more
		// layers evaluated, and found nothing.)
		if w, ok := confirmAll(s.screen(l, good[maxRuns:], env, o, maxRuns)); ok {
			return w, true
		}
	}
	if s.joint != nil {
		// The rest is the first search's.
		return nil, false
	}
	if s.failedRuns > failedBefore && len(s.an.JointRequirements()) > 0 {
		if w, ok := s.searchRunnable(l, pairs, o); ok {
			return w, true
		}
	}
	if hasLargeConst(consts) || s.narrowWrapOfDim(pairs) {
		if w, ok := s.searchWraps(l, pairs, o, env, picked); ok {
			return w, true
		}
	}
	// Last, inputs whose elements differ from one another: the symbolic
	// search fills a tensor whose elements it follows as one (an input of
	// dynamic shape) with one value, so x[-1] - x[0] is 0 in every
	// assignment it makes. The edge inputs cycle through the small
	// edgeInts. Each costs an evaluation of the model: in a large model,
	// only where such a tensor reaches the Divide. Every search of the
	// model offers the same ones, whose evaluations are kept
	// (edgeEvaluation).
	summarized := slices.ContainsFunc(keys, func(k key) bool { return !k.dim && k.index < 0 })
	for k := range crossChecks + randomChecks {
		if !summarized && len(s.an.Order) > edgeModelLayers {
			break
		}
		if k >= crossChecks && (!o.Random || s.masked != nil) {
			// The quotients differ at inputs found already, and no output
			// did there: random inputs seldom do better, and cost an
			// evaluation each (the .floor exports of testdata/pytorch).
			break
		}
		if s.runLayers < 2*len(s.an.Order) {
			s.exhausted = true
			break
		}
		inputs, ok := s.edgeInputs(k, smallEdges, true)
		if !ok {
			break
		}
		if w, ok := s.confirm(l, inputs, s.edgeEvaluation(k, inputs), o); ok {
			return w, true
		}
	}
	return nil, false
}

// searchRunnable searches again where the model did not run at some of
// the first search's candidates, and the analysis knows requirements of
// several input symbols that stop it (absint.Joint): their symbols are
// chosen too, and only assignments that meet them all are tried. A
// Gather of y at x.shape[0] runs only where x.shape[0] < y.shape[0],
// which no dims the search leaves free give (seed 2179 of the
// differential); a Resize to y.shape[0] / 80 only where y.shape[0] >=
// 80, beyond the search's small candidates (seed 180).
func (s *Searcher) searchRunnable(l *ir.Layer, pairs []absint.Pair, o Query) (*Witness, bool) {
	s.joint = s.an.JointRequirements()
	defer func() { s.joint = nil }()
	return s.Search(l, pairs, o)
}

// meetsJoint tells whether an assignment meets the joint requirements
// of the search (those it cannot evaluate aside).
func (s *Searcher) meetsJoint(as map[key]int64) bool {
	for _, q := range s.joint {
		if v, ok := s.eval.Eval(q.E, s.valuer(as), &s.steps); ok && !q.R.Contains(v) {
			return false
		}
	}
	return true
}

// jointEdges are, for each joint requirement of the search about key k,
// the values of k next to where the requirement starts or stops holding,
// the other symbols at their defaults: found by bisection between a
// value where it holds and one where it does not, within k's range (a
// dim's up to maxDimCandidate).
func (s *Searcher) jointEdges(k key, env *absint.Ranges) []int64 {
	var out []int64
	for _, q := range s.joint {
		if !slices.Contains(s.keysOf(q.E), k) {
			continue
		}
		holds := func(v int64) bool {
			x, ok := s.eval.Eval(q.E, s.valuer(map[key]int64{k: v}), &s.steps)
			return ok && q.R.Contains(x)
		}
		r := absint.TypeRange(k.in.Type)
		if k.dim {
			r = env.Range(k.in.Dims[k.index])
			r = sym.R(max(r.Lo.V, 0), maxDimCandidate)
			if h := env.Range(k.in.Dims[k.index]).Hi; h.IsFinite() && h.V < maxDimCandidate {
				r.Hi = h
			}
		}
		if !r.Lo.IsFinite() || !r.Hi.IsFinite() {
			continue
		}
		// Bisection between the ends, and between 0 and each: an index
		// of a Gather holds in the middle of its range.
		ends := [][2]int64{{r.Lo.V, r.Hi.V}}
		if r.Contains(0) {
			ends = append(ends, [2]int64{0, r.Lo.V}, [2]int64{0, r.Hi.V})
		}
		for _, e := range ends {
			a, b := min(e[0], e[1]), max(e[0], e[1])
			atA, atB := holds(a), holds(b)
			if atA == atB {
				continue
			}
			// holds(a) is atA, holds(b) atB, all along.
			for uint64(b)-uint64(a) > 1 && s.steps > 0 {
				mid := a + int64((uint64(b)-uint64(a))/2)
				if holds(mid) == atA {
					a = mid
				} else {
					b = mid
				}
			}
			v := b
			if atA {
				v = a
			}
			out = append(out, v, v+1, v-1, v+2)
		}
	}
	return out
}

// maxDimCandidate is the greatest dim a search tries.
const maxDimCandidate = 1 << 14

// maxScreened bounds the assignments screen evaluates, after the first
// maxRuns of a Divide whose operands the search does not evaluate.
const maxScreened = 48

// screen evaluates the layers Divide l depends on (not l's Results) at
// each assignment, and keeps those, at most maxRuns, where its operands
// are bad, for confirm: where the search cannot evaluate the operands (a
// value irdiv does not follow), its first assignments are confirmed
// blindly, and where they find nothing, the next ones are worth a
// cheaper evaluation first (Where(W == 1, f(W), y) / (2 * y) differs
// only where 2 * y wraps, at y = -2^63 + 1, a candidate after the small
// ones; seed 2488). A Divide inside a body is screened by running
// the layer that holds it.
func (s *Searcher) screen(l *ir.Layer, as []assignment, env *absint.Ranges, o Query, maxRuns int) []assignment {
	src := s.an.Sources[l]
	if len(src) < 2 {
		return nil
	}
	opts := o.Reference
	holder, inBody := s.an.Holders[l]
	if inBody {
		// A Divide inside a body: the layer that holds it runs, and its
		// operands are read as it runs, as confirm reads them. (A value
		// carried into a Scan from N / 3 / -3 of x: [N, N1, N2, H], / 5,
		// differs from N = 9, a single's candidate, after the pairs of
		// the four dims; seeds 1410 and 2863.)
		opts.Need = s.markUpstreamOf(holder)
	} else {
		opts.Need, opts.Stop = s.markUpstreamOf(l), l
	}
	var out []assignment
	for _, g := range as {
		if len(out) >= maxRuns || s.runLayers < 2*len(s.an.Order) {
			break
		}
		inputs, ok := s.build(g.values, g.float, env, 0)
		if !ok {
			continue
		}
		if inBody {
			watch := &watched{bad: o.Bad}
			opts.watch = map[*ir.Layer]*watched{l: watch}
			if run := s.Evaluate(inputs, opts); run.Err == nil && watch.found {
				out = append(out, g)
			}
			continue
		}
		run := s.Evaluate(inputs, opts)
		if _, _, _, bad := s.badIn(run, l, o.Bad); run.Err == nil && bad {
			out = append(out, g)
		}
	}
	return out
}

// markUpstreamOf is l and the layers it depends on.
func (s *Searcher) markUpstreamOf(l *ir.Layer) map[*ir.Layer]bool {
	up := make(map[*ir.Layer]bool)
	s.markUpstream(up, l, nil)
	return up
}

// maxOpaqueKeys bounds the keys opaqueKeys gives: an input's elements
// beyond the first few are the search's fill.
const maxOpaqueKeys = 8

// opaqueKeys are the keys of the model inputs that layers depend on: the
// dims that vary and the integer elements (the first few, or the whole
// fill of an input followed as one). A layer of a body stands for the
// layer of the model that holds it.
func (s *Searcher) opaqueKeys(layers []*ir.Layer) []key {
	if len(layers) == 0 {
		return nil
	}
	up := make(map[*ir.Layer]bool)
	var stack []*ir.Layer
	for _, m := range layers {
		if h, inBody := s.an.Holders[m]; inBody {
			m = h
		}
		stack = s.markUpstream(up, m, stack)
	}
	var keys []key
	for _, in := range s.an.Inputs {
		if !up[in.Layer] {
			continue
		}
		for axis, d := range in.Dims {
			if r := s.an.Declared.Range(d); r.Lo != r.Hi && len(keys) < maxOpaqueKeys {
				keys = append(keys, key{in, true, axis})
			}
		}
		switch {
		case in.Summary:
			keys = append(keys, key{in, false, -1})
		case in.Elems != nil:
			for i := range min(len(in.Elems), maxOpaqueKeys-min(len(keys), maxOpaqueKeys)) {
				keys = append(keys, key{in, false, i})
			}
		}
	}
	return keys
}

// branchCondition is, for a Divide in a branch of an If of the model
// (at any depth in it), the expression of the If's condition and the
// range it lies in where that branch runs; ok is false elsewhere, and
// where the condition is not one comparison of the inputs' values and
// dims.
func (s *Searcher) branchCondition(l *ir.Layer) (e sym.Expr, r sym.Range, ok bool) {
	e, r, _, ok = s.an.BranchOf(l)
	if !ok {
		return e, r, false
	}
	for _, sy := range s.an.B.Syms(e) {
		if s.an.OriginOf(sy).Input == nil {
			return e, r, false // a value the search cannot choose
		}
	}
	return e, r, true
}

type assignment struct {
	values map[key]int64
	float  float64
}

func first(xs []int64, n int) []int64 { return xs[:min(len(xs), n)] }

func fingerprint(as map[key]int64, fl float64) string {
	type entry struct {
		k key
		v int64
	}
	entries := make([]entry, 0, len(as))
	for k, v := range as {
		entries = append(entries, entry{k, v})
	}
	slices.SortFunc(entries, func(a, b entry) int {
		return cmp.Or(strings.Compare(a.k.in.Layer.Name, b.k.in.Layer.Name), cmp.Compare(a.k.index, b.k.index), boolCompare(a.k.dim, b.k.dim), cmp.Compare(a.v, b.v))
	})
	// Bytes, not text: an assignment is fingerprinted at every try, and
	// formatting its numbers cost a thirtieth of validate's time.
	buf := binary.AppendUvarint(make([]byte, 0, 8+24*len(entries)), math.Float64bits(fl))
	for _, e := range entries {
		buf = binary.AppendUvarint(buf, uint64(len(e.k.in.Layer.Name)))
		buf = append(buf, e.k.in.Layer.Name...)
		buf = binary.AppendVarint(buf, int64(e.k.index))
		buf = binary.AppendVarint(buf, e.v)
		if e.k.dim {
			buf = append(buf, 1)
		} else {
			buf = append(buf, 0)
		}
	}
	return string(buf)
}

func boolCompare(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// fromFloat reports whether a layer made an integer from floats (a
// Convert of computed floats).
func (s *Searcher) fromFloat(l *ir.Layer) bool {
	_, ok := s.an.Ops[l].(*ops.Convert)
	return ok
}

// candidates lists values worth trying for a dim or element: the ends of
// its range, small and odd numbers, and numbers near the constants the
// Divide's operands are computed with.
func (s *Searcher) candidates(k key, env *absint.Ranges, consts []int64) []int64 {
	var r sym.Range
	var list []int64
	if k.dim {
		r = env.Range(k.in.Dims[k.index])
		list = []int64{r.Lo.V}
		if r.Hi.IsFinite() {
			list = append(list, r.Hi.V)
		}
		list = append(list, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 31, 32, 33, 63, 64, 65)
		for _, c := range consts {
			list = append(list, c, c-1, c+1, c-2, c+2, 2*c, 2*c+1, -c, -c-1)
		}
		var out []int64
		for _, v := range list {
			if r.Contains(v) && v >= 0 && v <= maxDimCandidate && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
		return out
	}
	t := k.in.Type
	r = absint.TypeRange(t)
	list = []int64{-3, 2, 3, -2, -1, 1, 0, 5, -5, 7, -7, 9, -9}
	for _, c := range consts {
		list = append(list, c, c-1, c+1, -c, -c-1, -c+1)
		if c > -1<<31 && c < 1<<31 {
			// -c*c reaches x / c / c exactly, -c*c*c one Divide further.
			list = append(list, -c*c, c*c, -c*c*c)
		}
	}
	// The ends of the type last: a counter-example of small values is the
	// plainer one, and the one a runtime replays (ONNX Runtime 1.30 sums
	// int64 through float64 somewhere: MIN + 4 comes out as MIN).
	list = append(list, r.Lo.V, r.Lo.V+1, r.Hi.V, r.Hi.V-1)
	var out []int64
	for _, v := range list {
		if r.Contains(v) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// valuer gives the symbols their values: assigned, or the defaults build
// uses.
func (s *Searcher) valuer(as map[key]int64) func(sym.Sym) int64 {
	var val func(sy sym.Sym) int64
	val = func(sy sym.Sym) int64 {
		org := s.an.OriginOf(sy)
		if org.Input == nil {
			if d, holds, fails, ok := s.an.Comparison(sy); ok {
				return s.compared(d, holds, fails, val)
			}
			return 0
		}
		k := key{org.Input, org.Kind == absint.InputDim, org.Index}
		if v, ok := as[k]; ok {
			return v
		}
		if org.Kind == absint.InputDim && s.leastDims {
			if s.anyShape {
				return clamp(s.leastDim, s.an.Any.Range(sy))
			}
			return clamp(s.leastDim, s.an.Declared.Range(sy))
		}
		if org.Kind == absint.InputDim {
			d := defaultDim(org.Input, org.Index, &s.an.Declared, s.batch)
			if d == 0 && s.anyShape && s.an.Any.Range(sy).Contains(1) {
				// A dim empty at the declared shapes holds nothing to
				// divide: a search of other shapes gives it an element.
				d = 1
			}
			return d
		}
		if v, ok := as[key{org.Input, false, -1}]; ok {
			return v
		}
		// 1, or the value nearest it where the model runs only on others
		// (a Squeeze of Range(-2, y, 1) needs y = -1).
		return clamp(1, s.an.Declared.Range(sy))
	}
	return val
}

// compared is the boolean of a comparison (absint's Comparison) whose
// operands differ by d, at the values val gives d's symbols (the inputs'
// own: no comparison nests), through an evaluator of its own, as the
// search's is in the middle of an evaluation. Where d lies in both
// ranges, the narrower one says (Equal holds at 0 only, and fails
// anywhere else).
func (s *Searcher) compared(d sym.Expr, holds, fails sym.Range, val func(sym.Sym) int64) int64 {
	if s.compareEval == nil {
		s.compareEval = s.an.B.NewEvaluator()
	}
	v, ok := s.compareEval.Eval(d, val, &s.steps)
	inHolds, inFails := holds.Contains(v), fails.Contains(v)
	switch {
	case !ok:
		return 0
	case inHolds && !inFails:
		return 1
	case inFails && !inHolds:
		return 0
	case holds.Lo.IsFinite() || holds.Hi.IsFinite():
		return 1 // holds is the narrower
	}
	return 0
}

// clamp is the value of r nearest v.
func clamp(v int64, r sym.Range) int64 {
	if r.Lo.IsFinite() && v < r.Lo.V {
		return r.Lo.V
	}
	if r.Hi.IsFinite() && v > r.Hi.V {
		return r.Hi.V
	}
	return v
}

// freeDims are the dims a search gives those its assignments leave free,
// in turn, while the model does not run at some assignment: defaultDim's
// of a batch of 1, then of retriedBatch; then every free dim at its
// least (0 where its range allows), for a model that runs only where a
// dim is empty (a Loop of W iterations whose first divides by 0: W = 0,
// seed 951); then at 1, for one that runs only where dims are 1 (a
// Squeeze of y: [L, C] on axis 0 and a Reshape of it to [1, 1, 1]: L =
// C = 1, seed 1013).
var freeDims = []struct {
	batch    int64
	least    bool
	leastDim int64
}{{batch: 1}, {batch: retriedBatch}, {batch: 1, least: true, leastDim: 0}, {batch: 1, least: true, leastDim: 1}}

// otherDim is the size defaultDim gives a dim other than a batch;
// retriedBatch the batch of a search's second try, small enough that its
// counter-examples stay small.
const (
	otherDim     = 32
	retriedBatch = 8
)

// defaultDim is the size an input dim gets when the search does not
// choose it: the declared one when static, else batch for the first
// axis and otherDim for the others, within the declared interval.
func defaultDim(in *absint.Input, axis int, r *absint.Ranges, batch int64) int64 {
	d := r.Range(in.Dims[axis])
	want := int64(otherDim)
	if axis == 0 {
		want = max(batch, 1)
	}
	if d.Lo == d.Hi {
		return d.Lo.V
	}
	want = max(want, d.Lo.V)
	if d.Hi.IsFinite() {
		want = min(want, d.Hi.V)
	}
	return want
}

// maxInputBytes bounds each input a candidate builds (but those of
// searchWraps).
const maxInputBytes = 64 << 20

// build makes the model's input tensors for an assignment: chosen dims
// and elements, defaults elsewhere; float inputs hold small values (or
// the fill the search chose). Each input holds at most maxInputBytes,
// or, where total is not 0, all of them together at most total bytes,
// checked before any is made.
func (s *Searcher) build(as map[key]int64, fill float64, env *absint.Ranges, total int64) (map[*ir.Layer]*ir.Tensor, bool) {
	out := make(map[*ir.Layer]*ir.Tensor, len(s.an.Inputs))
	val := s.valuer(as)
	shapes := make([][]int64, len(s.an.Inputs))
	sum := int64(0)
	for j, in := range s.an.Inputs {
		if in.Shape.DynamicRank {
			return nil, false
		}
		dims := make([]int64, len(in.Dims))
		for i, d := range in.Dims {
			dims[i] = val(d)
			if !env.Range(d).Contains(dims[i]) {
				return nil, false
			}
		}
		n, err := ir.NumElements(dims)
		if err != nil {
			return nil, false
		}
		size, err := ir.ByteSize(in.Type, n)
		if err != nil || total == 0 && size > maxInputBytes {
			return nil, false
		}
		if sum += size; total != 0 && sum > total {
			return nil, false
		}
		shapes[j] = dims
	}
	for j, in := range s.an.Inputs {
		r := rand.New(rand.NewPCG(uint64(in.Layer.ID), 7))
		// first sets the first n elements of t.
		first := func(t *ir.Tensor, n int) {
			summary := int64(1)
			if in.Summary && n > 0 {
				summary = val(in.Elems[0])
			}
			for i := range n {
				switch {
				case in.Type.IsFloat() && fill != 0:
					t.SetFloat64(i, fill)
				case in.Type.IsFloat():
					t.SetFloat64(i, r.Float64()*2-1)
				case in.Summary:
					t.SetInt64(i, summary)
				case i < len(in.Elems):
					t.SetInt64(i, val(in.Elems[i]))
				default:
					t.SetInt64(i, 1)
				}
			}
		}
		var t *ir.Tensor
		var err error
		if total != 0 && in.Type.Bits()%8 == 0 {
			t, err = s.wrapTensor(in, shapes[j], first)
		} else if t, err = ir.NewTensor(in.Type, shapes[j]); err == nil {
			first(t, t.Len())
		}
		if err != nil {
			return nil, false
		}
		out[in.Layer] = t
	}
	return out, true
}

// confirm evaluates the model both ways on inputs (through eval, which
// evaluates them): the Divide's operands must be bad somewhere in the
// reference evaluation, and the model's outputs must differ (or the
// difference must flow into a layer irdiv does not evaluate).
func (s *Searcher) confirm(l *ir.Layer, inputs map[*ir.Layer]*ir.Tensor, eval func(RunOptions) *Run, o Query) (*Witness, bool) {
	refOpts := o.Reference
	var w *Witness
	var ref *Run
	if holder, inBody := s.an.Holders[l]; inBody {
		// A Divide inside a body: the layer that holds it runs, and the
		// Divide's operands are read as it runs, at every iteration.
		refOpts.Need = s.need(holder)
		watch := &watched{bad: o.Bad}
		refOpts.watch = map[*ir.Layer]*watched{l: watch}
		ref = s.Evaluate(inputs, refOpts)
		if ref.Err != nil && !o.AtDivide {
			s.failedRuns++
		}
		if !watch.found || ref.Err != nil && !o.AtDivide {
			// (With AtDivide, the Divide's fault fails the model.)
			return nil, false
		}
		w = &Witness{Inputs: inputs, Index: watch.index, A: watch.x, B: watch.y}
	} else {
		refOpts.Need = s.need(l)
		if o.AtDivide {
			refOpts.Stop = l
		}
		ref = eval(refOpts)
		if ref.Err != nil {
			s.failedRuns++
			return nil, false
		}
		index, xv, yv, found := s.badIn(ref, l, o.Bad)
		if !found {
			return nil, false
		}
		w = &Witness{Inputs: inputs, Index: index, A: xv, B: yv}
	}
	if o.AtDivide {
		return w, true
	}
	refOpts.watch = nil
	if !s.runs(eval, refOpts) {
		s.failedRuns++
		return nil, false
	}
	testOpts := o.Test
	testOpts.Need = refOpts.Need
	test := s.evaluationAfter(inputs, eval, ref, refOpts, testOpts)
	if test.Err != nil {
		w.Fails = test.Err
		return w, true
	}
	var uncompared bool
	w.Outputs, uncompared = s.differing(ref, test, refOpts.Need)
	if len(w.Outputs) > 0 && s.reducesInDouble(refOpts.Need) {
		// ONNX Runtime sums int64 through float64: the outputs must
		// differ there too, or a replay shows nothing (seeds 8079, 8445:
		// a quotient off by one near 2^62, summed).
		refOpts.DoubleReductions, testOpts.DoubleReductions = true, true
		ref2 := eval(refOpts)
		test2 := s.evaluationAfter(inputs, eval, ref2, refOpts, testOpts)
		if ref2.Err != nil || test2.Err != nil {
			return nil, false
		}
		if w.Outputs, _ = s.differing(ref2, test2, refOpts.Need); len(w.Outputs) == 0 {
			s.noteMasked(w)
			return nil, false
		}
	}
	if len(w.Outputs) > 0 {
		return w, true
	}
	if !uncompared {
		// Every output computed, and equal: the difference does not
		// reach them.
		s.noteMasked(w)
		return nil, false
	}
	// Some output is beyond what irdiv computes: the difference must
	// reach such a layer, not vanish on the way (a slice clipped to the
	// same range, a maximum that hides it).
	if w.Through = s.firstReached(ref, test, refOpts.Need); w.Through == nil {
		s.noteMasked(w)
		return nil, false
	}
	return w, true
}

// noteMasked keeps the first input of a search where the Divide's
// operands are bad and the outputs the same both ways.
func (s *Searcher) noteMasked(w *Witness) {
	s.maskedRuns++
	if s.masked == nil {
		s.masked = w
	}
}

// differing lists the Results needed whose shapes or values differ
// between two evaluations; uncompared tells whether some Result was not
// computed in one of them.
func (s *Searcher) differing(ref, test *Run, need map[*ir.Layer]bool) (outs []*ir.Layer, uncompared bool) {
	for _, r := range s.an.Model.Results() {
		if !need[r] {
			continue
		}
		srcs := s.an.Sources[r]
		if len(srcs) == 0 || srcs[0].Layer == nil {
			continue
		}
		ri, _ := ref.Info(srcs[0])
		ti, _ := test.Info(srcs[0])
		if !ri.Shape.Equal(ti.Shape) {
			outs = append(outs, r)
			continue
		}
		rv, tv := ref.Value(srcs[0]), test.Value(srcs[0])
		if rv == nil || tv == nil {
			uncompared = true
			continue
		}
		if string(rv.Data) != string(tv.Data) {
			outs = append(outs, r)
		}
	}
	return outs, uncompared
}

// reducesInDouble tells whether one of the layers needed is a reduction
// ONNX Runtime computes through float64 (RunOptions.DoubleReductions).
func (s *Searcher) reducesInDouble(need map[*ir.Layer]bool) bool {
	for l := range need {
		if r, ok := s.an.Ops[l].(*ops.Reduce); ok {
			if infos := s.an.Infos[l]; len(infos) > 0 && reducedInDouble(r, infos[0].Type) {
				return true
			}
		}
	}
	return false
}

// runs tells whether the whole model runs on inputs in the reference
// evaluation: the one around the Divide leaves out the branches it does
// not reach, where another Divide may divide by zero or a Reshape be
// impossible, and a model that cannot run has no counter-example.
// The reference evaluation already covered the whole model where it
// needed every layer (a chain of Divides), and costs nothing more; a
// check the run budget cannot pay for finds no counter-example.
func (s *Searcher) runs(eval func(RunOptions) *Run, ref RunOptions) bool {
	reaching := s.reachingResults()
	if len(ref.Need) >= len(reaching) {
		return true
	}
	if s.runLayers < len(s.an.Order) {
		s.exhausted = true
		return false
	}
	ref.Need, ref.Stop = reaching, nil
	return eval(ref).Err == nil
}

// reachingResults are the layers some Result depends on.
func (s *Searcher) reachingResults() map[*ir.Layer]bool {
	if s.reaching == nil {
		s.reaching = make(map[*ir.Layer]bool)
		var stack []*ir.Layer
		for _, r := range s.an.Model.Results() {
			stack = s.markUpstream(s.reaching, r, stack)
		}
	}
	return s.reaching
}

// firstReached is the first layer, in order, that irdiv does not compute
// and that reads a value differing between the two evaluations: where the
// difference leaves what irdiv follows. nil when the difference vanishes
// before.
func (s *Searcher) firstReached(ref, test *Run, need map[*ir.Layer]bool) *ir.Layer {
	differs := func(o ir.Output) bool {
		ri, _ := ref.Info(o)
		ti, _ := test.Info(o)
		if !ri.Shape.Equal(ti.Shape) || ri.Type != ti.Type {
			return true
		}
		rv, tv := ref.Value(o), test.Value(o)
		return rv != nil && tv != nil && string(rv.Data) != string(tv.Data)
	}
	for _, m := range s.an.Order {
		if !need[m] || len(m.Outputs) == 0 {
			continue
		}
		if test.Value(ir.Output{Layer: m}) != nil {
			continue
		}
		for _, src := range s.an.Sources[m] {
			if src.Layer != nil && differs(src) {
				return m
			}
		}
	}
	return nil
}

// badIn finds, in run, the lowest flat output index of Divide l whose
// operands are bad, and them; found is false where run did not compute
// them.
func (s *Searcher) badIn(run *Run, l *ir.Layer, bad func(x, y int64) bool) (index int, a, b int64, found bool) {
	src := s.an.Sources[l]
	if len(src) < 2 {
		return 0, 0, 0, false
	}
	x, y := run.Value(src[0]), run.Value(src[1])
	if x == nil || y == nil {
		return 0, 0, 0, false
	}
	ia, _ := run.Info(src[0])
	ib, _ := run.Info(src[1])
	outs, err := s.an.Ops[l].Infer([]ops.ValueInfo{ia, ib})
	if err != nil || len(outs) != 1 {
		return 0, 0, 0, false
	}
	dims, ok := outs[0].Shape.ToStatic()
	if !ok {
		return 0, 0, 0, false
	}
	return firstBad(x, y, dims, bad)
}

// firstBad finds the lowest flat output index whose broadcast operands
// are bad.
func firstBad(x, y *ir.Tensor, out []int64, bad func(x, y int64) bool) (int, int64, int64, bool) {
	n, err := ir.NumElements(out)
	if err != nil {
		return 0, 0, 0, false
	}
	coord := make([]int64, len(out))
	for flat := range int(n) {
		rem := flat
		for i := len(out) - 1; i >= 0; i-- {
			coord[i] = int64(rem) % out[i]
			rem /= int(out[i])
		}
		xi := shapeinfer.BroadcastIndex(coord, x.Shape, len(out)-len(x.Shape))
		yi := shapeinfer.BroadcastIndex(coord, y.Shape, len(out)-len(y.Shape))
		xv, ok1 := absint.IntAt(x, xi)
		yv, ok2 := absint.IntAt(y, yi)
		if ok1 && ok2 && bad(xv, yv) {
			return flat, xv, yv, true
		}
	}
	return 0, 0, 0, false
}

// need is what a counter-example at l evaluates: the Results that depend
// on l, and everything they depend on (l's own inputs among it). Other
// branches of the model, which may fail on their own, are left out.
func (s *Searcher) need(l *ir.Layer) map[*ir.Layer]bool {
	if need, ok := s.needs[l]; ok {
		return need
	}
	after := map[*ir.Layer]bool{l: true}
	for _, m := range s.an.Order {
		for _, src := range s.an.Sources[m] {
			if src.Layer != nil && after[src.Layer] {
				after[m] = true
			}
		}
	}
	need := make(map[*ir.Layer]bool)
	stack := s.markUpstream(need, l, nil)
	for m := range after {
		if len(m.Outputs) == 0 {
			stack = s.markUpstream(need, m, stack) // a Result
		}
	}
	if s.needs == nil {
		s.needs = make(map[*ir.Layer]map[*ir.Layer]bool)
	}
	s.needs[l] = need
	return need
}

// markUpstream marks in seen m and every layer m depends on, with a stack of
// its own (given back for the next call to reuse), not a recursion as
// deep as a chain of layers, which is as deep as the model.
func (s *Searcher) markUpstream(seen map[*ir.Layer]bool, m *ir.Layer, stack []*ir.Layer) []*ir.Layer {
	stack = append(stack[:0], m)
	for len(stack) > 0 {
		m := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[m] {
			continue
		}
		seen[m] = true
		for _, src := range s.an.Sources[m] {
			if src.Layer != nil && !seen[src.Layer] {
				stack = append(stack, src.Layer)
			}
		}
	}
	return stack
}

// maxUpstream bounds the Divides upstream of a searched one whose
// quotients a candidate is checked against.
const maxUpstream = 64

// upstream lists the pairs of the integer Divides l depends on that round
// otherwise in the reference evaluation than in the test one, nearest
// first.
func (s *Searcher) upstream(l *ir.Layer, o Query) [][]absint.Pair {
	if o.Reference.Floor == nil && o.Test.Floor == nil {
		return nil
	}
	rounding := func(f func(*ir.Layer, *ops.Divide) bool, m *ir.Layer, d *ops.Divide) bool {
		if f == nil {
			return d.PythonDiv
		}
		return f(m, d)
	}
	var out [][]absint.Pair
	seen := map[*ir.Layer]bool{l: true}
	queue := []*ir.Layer{l}
	for len(queue) > 0 && len(out) < maxUpstream && len(seen) < 64*maxUpstream {
		m := queue[0]
		queue = queue[1:]
		if d, ok := s.an.Ops[m].(*ops.Divide); ok && m != l && rounding(o.Reference.Floor, m, d) != rounding(o.Test.Floor, m, d) {
			if v := s.an.Values[ir.Output{Layer: m}]; v != nil && v.Int && v.Type.IsSigned() {
				pairs := s.an.Pairs(m, d.Broadcast)
				s.steps -= tryCost * (1 + len(pairs))
				out = append(out, pairs)
			}
		}
		for _, src := range s.an.Sources[m] {
			if src.Layer != nil && !seen[src.Layer] {
				seen[src.Layer] = true
				queue = append(queue, src.Layer)
			}
		}
	}
	return out
}

// differsUpstream reports whether an assignment makes a Divide upstream
// round differently in the two evaluations.
func (s *Searcher) differsUpstream(upstream [][]absint.Pair, as map[key]int64, bad func(x, y int64) bool) bool {
	for _, pairs := range upstream {
		if s.bad(pairs, as, bad) {
			return true
		}
	}
	return false
}

// keysOf lists the keys of the input symbols an expression depends on.
func (s *Searcher) keysOf(e sym.Expr) []key {
	var out []key
	syms := s.an.B.Syms(e)
	var compared []sym.Sym
	for _, sy := range syms {
		if d, _, _, ok := s.an.Comparison(sy); ok {
			// (Comparison's operands are the inputs' own.)
			compared = append(compared, s.an.B.Syms(d)...)
		}
	}
	for _, sy := range slices.Concat(syms, compared) {
		if org := s.an.OriginOf(sy); org.Input != nil {
			k := key{org.Input, org.Kind == absint.InputDim, org.Index}
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// sameShapes reports whether two sets of inputs have the same shapes.
func sameShapes(x, y map[*ir.Layer]*ir.Tensor) bool {
	if len(x) != len(y) {
		return false
	}
	for l, t := range x {
		u, ok := y[l]
		if !ok || !slices.Equal(t.Shape, u.Shape) {
			return false
		}
	}
	return true
}
