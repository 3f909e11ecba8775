package values

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// Pair is the operands of elements of an element-wise op: one element
// (Index, its flat output index) or every element (Index -1).
type Pair struct {
	A, B  sym.Expr
	Index int
}

// Pairs lists the operands of a binary element-wise layer: element by
// element where both are tracked and the output's dims are constants,
// else one pair for all elements (copies where broadcasting pairs other
// elements).
func (a *Analysis) Pairs(l *ir.Layer, bc shapeinfer.Broadcast) []Pair {
	x, y := a.in(l, 0), a.in(l, 1)
	if !x.Int || !y.Int {
		return nil
	}
	var out []Pair
	a.binary(l, x, y, bc, ir.I64, func(p, q sym.Expr) sym.Expr {
		out = append(out, Pair{p, q, len(out)})
		return sym.Const(0)
	})
	if len(out) == 1 {
		if n, ok := a.Values[ir.Output{Layer: l}].NumElems(); !ok || n != 1 {
			out[0].Index = -1
			// Where the layout is unknown but one operand is tracked,
			// each of its elements still meets the other's summary.
			switch {
			case y.Elems != nil && x.Elems == nil && len(y.Elems) <= maxSelect:
				out = out[:0]
				for _, e := range y.Elems {
					out = append(out, Pair{a.B.Copy(a.All(x)), e, -1})
				}
			case x.Elems != nil && y.Elems == nil && len(x.Elems) <= maxSelect:
				out = out[:0]
				for _, e := range x.Elems {
					out = append(out, Pair{e, a.B.Copy(a.All(y)), -1})
				}
			}
		}
	}
	return out
}

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
}

// SearchOptions say what a counter-example must show.
type SearchOptions struct {
	// Bad tells the operands that make the two evaluations differ at the
	// Divide (floor and truncation disagree, MIN / -1...).
	Bad func(x, y int64) bool
	// AnyShape searches every input shape, not only the declared ones.
	AnyShape bool
	// Reference is the evaluation of the model as meant (the source's
	// semantics), Test the one that may differ; the operands are read in
	// Reference.
	Reference, Test RunOptions
	// MaxRuns bounds the concrete evaluations (default 16).
	MaxRuns int
	// AtDivide confirms at the Divide alone: its operands are bad (a zero
	// divisor, MIN / -1 fail the model there), the outputs are not compared.
	AtDivide bool
}

// key identifies what a symbol lets a user choose: a dim or the elements
// of an input (copies of an element stand for other elements of the same
// input, which a whole-tensor fill sets too).
type key struct {
	in    *Input
	dim   bool
	index int // axis, element, or -1 for every element
}

// maxTried bounds the assignments one search remembers.
const maxTried = 4096

// tryCost is what trying an assignment, or pairing an upstream Divide's
// operands, costs in the search budget (SearchSteps): about what
// evaluating 16 atoms does.
const tryCost = 16

// Search looks for model inputs under which one of the pairs of Divide l
// is bad, confirmed by evaluating the model.
func (a *Analysis) Search(l *ir.Layer, pairs []Pair, o SearchOptions) (*Witness, bool) {
	if a.Exhausted {
		return nil, false
	}
	env := &a.Declared
	if o.AnyShape {
		env = &a.Any
	}
	maxRuns := o.MaxRuns
	if maxRuns == 0 {
		maxRuns = 16
	}
	if len(pairs) > 32 {
		pairs = pairs[:32]
	}
	var keys []key
	consts := []int64{}
	derived := false
	floatPath := false
	for _, p := range pairs {
		for _, e := range []sym.Expr{p.A, p.B} {
			consts = append(consts, a.B.Consts(e)...)
			for _, s := range a.B.Syms(e) {
				org := a.OriginOf(s)
				switch {
				case org.Kind == Derived:
					derived = true
					if org.Layer != nil && a.fromFloat(org.Layer) {
						floatPath = true
					}
				case org.Input != nil:
					k := key{org.Input, org.Kind == InputDim, org.Index}
					if !slices.Contains(keys, k) {
						keys = append(keys, k)
					}
				}
			}
		}
	}
	cands := make(map[key][]int64)
	for _, k := range keys {
		cands[k] = a.candidates(k, env, consts)
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
	upstream := a.upstream(l, o)
	var good, mixed []assignment
	// spent says the search must stop: the budget is gone or enough
	// candidates are found. Every loop below checks it before making an
	// assignment, so that the budget bounds the work and the memory of a
	// search, not only the evaluations: a sum of 4,000 input elements has
	// 8 million pairs of keys to enumerate.
	spent := func() bool { return a.SearchSteps <= 0 || len(good) >= maxRuns }
	try := func(as map[key]int64, fl float64) {
		a.SearchTries++
		if spent() {
			return
		}
		// An assignment costs what evaluating a few atoms does, whether
		// or not its pairs are evaluated: the budget bounds the search
		// of a model with many Divides of cheap expressions too.
		a.SearchSteps -= tryCost
		if len(tried) >= maxTried {
			return
		}
		id := fingerprint(as, fl)
		if seen[id] {
			return
		}
		seen[id] = true
		tried = append(tried, as)
		if derived || floatPath {
			good = append(good, assignment{as, fl})
			return
		}
		for _, p := range pairs {
			if a.SearchSteps <= 0 {
				a.Exhausted = true
				return
			}
			x, ok1 := a.B.EvalLimited(p.A, a.valuer(as), &a.SearchSteps)
			y, ok2 := a.B.EvalLimited(p.B, a.valuer(as), &a.SearchSteps)
			if ok1 && ok2 && o.Bad(x, y) {
				if a.differsUpstream(upstream, as, o.Bad) {
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
		keysA[i], keysB[i] = a.keysOf(p.A), a.keysOf(p.B)
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
				for _, c1 := range first(cands[k1], 8) {
					for _, c2 := range first(cands[k2], 8) {
						if spent() {
							break pairsOfKeys
						}
						try(map[key]int64{k1: c1, k2: c2}, fl)
					}
				}
			}
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
		for range 256 {
			if spent() {
				break
			}
			as := map[key]int64{}
			for _, k := range keys {
				if c := cands[k]; len(c) > 0 && r.IntN(3) > 0 {
					as[k] = c[r.IntN(len(c))]
				}
			}
			try(as, fl)
		}
	}
	for _, g := range append(good, mixed...)[:min(len(good)+len(mixed), maxRuns)] {
		if a.RunLayers < 2*len(a.Order) {
			a.Exhausted = true
			break
		}
		inputs, ok := a.build(g.values, g.float, env)
		if !ok {
			continue
		}
		if w, ok := a.confirm(l, inputs, o); ok {
			return w, true
		}
	}
	return nil, false
}

type assignment struct {
	values map[key]int64
	float  float64
}

func first(xs []int64, n int) []int64 { return xs[:min(len(xs), n)] }

func fingerprint(as map[key]int64, fl float64) string {
	var parts []string
	for k, v := range as {
		parts = append(parts, k.in.Layer.Name+"/"+itoa(int64(k.index))+"/"+boolText(k.dim)+"="+itoa(v))
	}
	slices.Sort(parts)
	return itoa(int64(math.Float64bits(fl))) + "|" + join(parts)
}

// fromFloat reports whether a layer made an integer from floats (a
// Convert of computed floats).
func (a *Analysis) fromFloat(l *ir.Layer) bool {
	_, ok := a.Ops[l].(*ops.Convert)
	return ok
}

// candidates lists values worth trying for a dim or element: the ends of
// its range, small and odd numbers, and numbers near the constants the
// Divide's operands are computed with.
func (a *Analysis) candidates(k key, env *Ranges, consts []int64) []int64 {
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
			if r.Contains(v) && v >= 0 && v <= 1<<14 && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
		return out
	}
	t := k.in.Type
	r = typeRange(t)
	list = []int64{-3, 2, 3, -2, -1, 1, 0, 5, -5, 7, -7, 9, -9, r.Lo.V, r.Lo.V + 1, r.Hi.V, r.Hi.V - 1}
	for _, c := range consts {
		list = append(list, c, c-1, c+1, -c, -c-1, -c+1)
		if c > -1<<31 && c < 1<<31 {
			// -c*c reaches x / c / c exactly, -c*c*c one Divide further.
			list = append(list, -c*c, c*c, -c*c*c)
		}
	}
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
func (a *Analysis) valuer(as map[key]int64) func(sym.Sym) int64 {
	return func(s sym.Sym) int64 {
		org := a.OriginOf(s)
		if org.Input == nil {
			return 0
		}
		k := key{org.Input, org.Kind == InputDim, org.Index}
		if v, ok := as[k]; ok {
			return v
		}
		if org.Kind == InputDim {
			return defaultDim(org.Input, org.Index, &a.Declared)
		}
		if v, ok := as[key{org.Input, false, -1}]; ok {
			return v
		}
		return 1
	}
}

// defaultDim is the size an input dim gets when the search does not
// choose it: the declared one when static, else 1 for the first axis
// (a batch) and 32 for the others, within the declared interval.
func defaultDim(in *Input, axis int, r *Ranges) int64 {
	d := r.Range(in.Dims[axis])
	want := int64(32)
	if axis == 0 {
		want = 1
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

// build makes the model's input tensors for an assignment: chosen dims
// and elements, defaults elsewhere; float inputs hold small values (or
// the fill the search chose).
func (a *Analysis) build(as map[key]int64, fill float64, env *Ranges) (map[*ir.Layer]*ir.Tensor, bool) {
	out := make(map[*ir.Layer]*ir.Tensor, len(a.Inputs))
	val := a.valuer(as)
	for _, in := range a.Inputs {
		if in.Shape.DynamicRank {
			return nil, false
		}
		dims := make([]int64, len(in.Dims))
		for i, s := range in.Dims {
			dims[i] = val(s)
			if !env.Range(s).Contains(dims[i]) {
				return nil, false
			}
		}
		n, err := ir.NumElements(dims)
		if err != nil {
			return nil, false
		}
		if size, err := ir.ByteSize(in.Type, n); err != nil || size > 64<<20 {
			return nil, false
		}
		t, err := ir.NewTensor(in.Type, dims)
		if err != nil {
			return nil, false
		}
		r := rand.New(rand.NewPCG(uint64(in.Layer.ID), 7))
		for i := range t.Len() {
			switch {
			case in.Type.IsFloat() && fill != 0:
				t.SetFloat64(i, fill)
			case in.Type.IsFloat():
				t.SetFloat64(i, r.Float64()*2-1)
			case in.Summary:
				t.SetInt64(i, val(in.Elems[0]))
			case i < len(in.Elems):
				t.SetInt64(i, val(in.Elems[i]))
			default:
				t.SetInt64(i, 1)
			}
		}
		out[in.Layer] = t
	}
	return out, true
}

// confirm evaluates the model both ways on inputs: the Divide's operands
// must be bad somewhere in the reference evaluation, and the model's
// outputs must differ (or the difference must flow into a layer irdiv
// does not evaluate).
func (a *Analysis) confirm(l *ir.Layer, inputs map[*ir.Layer]*ir.Tensor, o SearchOptions) (*Witness, bool) {
	refOpts := o.Reference
	refOpts.Need = a.need(l)
	if o.AtDivide {
		refOpts.Stop = l
	}
	ref := a.Evaluate(inputs, refOpts)
	if ref.Err != nil {
		return nil, false
	}
	src := a.Sources[l]
	if len(src) < 2 {
		return nil, false
	}
	x, y := ref.Values[src[0]], ref.Values[src[1]]
	if x == nil || y == nil {
		return nil, false
	}
	outs, err := a.Ops[l].Infer([]ops.ValueInfo{ref.Infos[src[0]], ref.Infos[src[1]]})
	if err != nil || len(outs) != 1 {
		return nil, false
	}
	dims, ok := outs[0].Shape.ToStatic()
	if !ok {
		return nil, false
	}
	index, xv, yv, found := firstBad(x, y, dims, o.Bad)
	if !found {
		return nil, false
	}
	w := &Witness{Inputs: inputs, Index: index, A: xv, B: yv}
	if o.AtDivide {
		return w, true
	}
	if !a.runs(inputs, refOpts) {
		return nil, false
	}
	testOpts := o.Test
	testOpts.Need = refOpts.Need
	test := a.Evaluate(inputs, testOpts)
	if test.Err != nil {
		w.Fails = test.Err
		return w, true
	}
	uncompared := false
	for _, r := range a.Model.Results() {
		if !refOpts.Need[r] {
			continue
		}
		srcs := a.Sources[r]
		if len(srcs) == 0 || srcs[0].Layer == nil {
			continue
		}
		ri, ti := ref.Infos[srcs[0]], test.Infos[srcs[0]]
		if !ri.Shape.Equal(ti.Shape) {
			w.Outputs = append(w.Outputs, r)
			continue
		}
		rv, tv := ref.Values[srcs[0]], test.Values[srcs[0]]
		if rv == nil || tv == nil {
			uncompared = true
			continue
		}
		if string(rv.Data) != string(tv.Data) {
			w.Outputs = append(w.Outputs, r)
		}
	}
	if len(w.Outputs) > 0 {
		return w, true
	}
	if !uncompared {
		return nil, false // every output computed, and equal: the difference does not reach them
	}
	// Some output is beyond what irdiv computes: the difference must
	// reach such a layer, not vanish on the way (a slice clipped to the
	// same range, a maximum that hides it).
	if w.Through = a.firstReached(ref, test, refOpts.Need); w.Through == nil {
		return nil, false
	}
	return w, true
}

// runs tells whether the whole model runs on inputs in the reference
// evaluation: the one around the Divide leaves out the branches it does
// not reach, where another Divide may divide by zero or a Reshape be
// impossible, and a model that cannot run has no counter-example.
// The reference evaluation already covered the whole model where it
// needed every layer (a chain of Divides), and costs nothing more; a
// check the run budget cannot pay for finds no counter-example.
func (a *Analysis) runs(inputs map[*ir.Layer]*ir.Tensor, ref RunOptions) bool {
	if a.reaching == nil {
		a.reaching = make(map[*ir.Layer]bool)
		var visit func(m *ir.Layer)
		visit = func(m *ir.Layer) {
			if a.reaching[m] {
				return
			}
			a.reaching[m] = true
			for _, s := range a.Sources[m] {
				if s.Layer != nil {
					visit(s.Layer)
				}
			}
		}
		for _, r := range a.Model.Results() {
			visit(r)
		}
	}
	if len(ref.Need) >= len(a.reaching) {
		return true
	}
	if a.RunLayers < len(a.Order) {
		a.Exhausted = true
		return false
	}
	ref.Need, ref.Stop = a.reaching, nil
	return a.Evaluate(inputs, ref).Err == nil
}

// firstReached is the first layer, in order, that irdiv does not compute
// and that reads a value differing between the two evaluations: where the
// difference leaves what irdiv follows. nil when the difference vanishes
// before.
func (a *Analysis) firstReached(ref, test *Run, need map[*ir.Layer]bool) *ir.Layer {
	differs := func(o ir.Output) bool {
		ri, ti := ref.Infos[o], test.Infos[o]
		if !ri.Shape.Equal(ti.Shape) || ri.Type != ti.Type {
			return true
		}
		rv, tv := ref.Values[o], test.Values[o]
		return rv != nil && tv != nil && string(rv.Data) != string(tv.Data)
	}
	for _, m := range a.Order {
		if !need[m] || len(m.Outputs) == 0 {
			continue
		}
		if _, computed := test.Values[ir.Output{Layer: m}]; computed {
			continue
		}
		for _, s := range a.Sources[m] {
			if s.Layer != nil && differs(s) {
				return m
			}
		}
	}
	return nil
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
		xv, ok1 := intAt(x, xi)
		yv, ok2 := intAt(y, yi)
		if ok1 && ok2 && bad(xv, yv) {
			return flat, xv, yv, true
		}
	}
	return 0, 0, 0, false
}

// need is what a counter-example at l evaluates: the Results that depend
// on l, and everything they depend on (l's own inputs among it). Other
// branches of the model, which may fail on their own, are left out.
func (a *Analysis) need(l *ir.Layer) map[*ir.Layer]bool {
	after := map[*ir.Layer]bool{l: true}
	for _, m := range a.Order {
		for _, s := range a.Sources[m] {
			if s.Layer != nil && after[s.Layer] {
				after[m] = true
			}
		}
	}
	need := make(map[*ir.Layer]bool)
	var visit func(m *ir.Layer)
	visit = func(m *ir.Layer) {
		if need[m] {
			return
		}
		need[m] = true
		for _, s := range a.Sources[m] {
			if s.Layer != nil {
				visit(s.Layer)
			}
		}
	}
	visit(l)
	for m := range after {
		if len(m.Outputs) == 0 {
			visit(m) // a Result
		}
	}
	return need
}

// maxUpstream bounds the Divides upstream of a searched one whose
// quotients a candidate is checked against.
const maxUpstream = 64

// upstream lists the pairs of the integer Divides l depends on that round
// otherwise in the reference evaluation than in the test one, nearest
// first.
func (a *Analysis) upstream(l *ir.Layer, o SearchOptions) [][]Pair {
	if o.Reference.Floor == nil && o.Test.Floor == nil {
		return nil
	}
	rounding := func(f func(*ir.Layer, *ops.Divide) bool, m *ir.Layer, d *ops.Divide) bool {
		if f == nil {
			return d.PythonDiv
		}
		return f(m, d)
	}
	var out [][]Pair
	seen := map[*ir.Layer]bool{l: true}
	queue := []*ir.Layer{l}
	for len(queue) > 0 && len(out) < maxUpstream && len(seen) < 64*maxUpstream {
		m := queue[0]
		queue = queue[1:]
		if d, ok := a.Ops[m].(*ops.Divide); ok && m != l && rounding(o.Reference.Floor, m, d) != rounding(o.Test.Floor, m, d) {
			if v := a.Values[ir.Output{Layer: m}]; v != nil && v.Int && v.Type.IsSigned() {
				pairs := a.Pairs(m, d.Broadcast)
				a.SearchSteps -= tryCost * (1 + len(pairs))
				out = append(out, pairs)
			}
		}
		for _, s := range a.Sources[m] {
			if s.Layer != nil && !seen[s.Layer] {
				seen[s.Layer] = true
				queue = append(queue, s.Layer)
			}
		}
	}
	return out
}

// differsUpstream reports whether an assignment makes a Divide upstream
// round differently in the two evaluations.
func (a *Analysis) differsUpstream(upstream [][]Pair, as map[key]int64, bad func(x, y int64) bool) bool {
	for _, pairs := range upstream {
		for _, p := range pairs {
			x, ok1 := a.B.EvalLimited(p.A, a.valuer(as), &a.SearchSteps)
			y, ok2 := a.B.EvalLimited(p.B, a.valuer(as), &a.SearchSteps)
			if ok1 && ok2 && bad(x, y) {
				return true
			}
		}
	}
	return false
}

// keysOf lists the keys of the input symbols an expression depends on.
func (a *Analysis) keysOf(e sym.Expr) []key {
	var out []key
	for _, s := range a.B.Syms(e) {
		if org := a.OriginOf(s); org.Input != nil {
			k := key{org.Input, org.Kind == InputDim, org.Index}
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}
