package ops

import (
	"slices"

	"github.com/irdiv/irdiv/ir"
)

// Program is a model prepared for evaluation: its ops built once, its
// layers in topological order and its tensors in numbered slots. It is how
// If, Loop and TensorIterator run their bodies, iteration after iteration, without
// building their ops again. ops cannot call the plugin's execution plan
// (ops must not import plugin), so this small evaluator lives here, below
// the plugin, which could run whole models with it too.
type Program struct {
	model   *ir.Model
	steps   []progStep
	slots   int
	params  []*ir.Layer // m.Parameters(): the inputs of Run, in order
	results []*ir.Layer // m.Results(): the outputs of Run, in order
	// resultSlot is the slot each Result reads.
	resultSlot []int
}

// progStep is one layer of a Program.
type progStep struct {
	layer *ir.Layer
	op    Op
	in    []int // slots read
	out   int   // the first slot written; an op of n outputs writes out..out+n-1
	param int   // the input position of a Parameter
}

// NewProgram builds the ops of every layer of m. A layer whose op irdiv
// does not know fails with an error wrapping ErrUnsupportedOp; an input
// that is not connected, or a graph with a cycle, fails too.
func NewProgram(m *ir.Model) (*Program, error) { return newProgram(m, 0) }

func newProgram(m *ir.Model, depth int) (*Program, error) {
	p := &Program{model: m, params: m.Parameters(), results: m.Results()}
	paramPos := make(map[*ir.Layer]int, len(p.params))
	for i, l := range p.params {
		paramPos[l] = i
	}
	resultPos := make(map[*ir.Layer]int, len(p.results))
	for i, l := range p.results {
		resultPos[l] = i
	}
	p.resultSlot = make([]int, len(p.results))
	slotOf := make(map[ir.Output]int)
	err := Walk(m, WalkOptions{depth: depth}, func(s *Step) error {
		l := s.Layer
		if s.Op == nil {
			return s.Err
		}
		st := progStep{layer: l, op: s.Op, out: p.slots, param: paramPos[l]}
		for _, src := range s.Sources {
			st.in = append(st.in, slotOf[src])
		}
		if _, ok := s.Op.(*Result); ok {
			if len(st.in) != 1 {
				return &LayerError{l, errorf("%w: Result has 1 input, but the layer declares %s", ir.ErrGraph, count(len(st.in), "input port"))}
			}
			p.resultSlot[resultPos[l]] = st.in[0]
			return nil
		}
		for i := range l.Outputs {
			slotOf[ir.Output{Layer: l, Index: i}] = p.slots
			p.slots++
		}
		p.steps = append(p.steps, st)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Model returns the model the program runs.
func (p *Program) Model() *ir.Model { return p.model }

// evaluable reports whether every op of the program computes.
func (p *Program) evaluable() bool {
	for _, st := range p.steps {
		switch st.op.(type) {
		case *Parameter, *Const:
			continue
		}
		if !Evaluable(st.op) {
			return false
		}
	}
	return true
}

// Run evaluates the program with one tensor per Parameter (in model
// order) and returns one tensor per Result (in model order). Errors name
// the layer, as EvaluateLayer's do.
func (p *Program) Run(inputs []*ir.Tensor, o Options) ([]*ir.Tensor, error) {
	if len(inputs) != len(p.params) {
		return nil, errorf("the model has %s, but %d tensors are given", count(len(p.params), "Parameter"), len(inputs))
	}
	slots := make([]*ir.Tensor, p.slots)
	for _, st := range p.steps {
		switch op := st.op.(type) {
		case *Parameter:
			t := inputs[st.param]
			if t == nil {
				return nil, &LayerError{st.layer, errorf("no tensor is given for the Parameter")}
			}
			slots[st.out] = t
			continue
		case *Const:
			if op.Tensor == nil {
				return nil, &LayerError{st.layer, ErrNoWeights}
			}
			slots[st.out] = op.Tensor
			continue
		}
		in := make([]*ir.Tensor, len(st.in))
		for i, s := range st.in {
			in[i] = slots[s]
		}
		op := st.op
		if o.BodyLayer != nil {
			var err error
			if op, err = o.BodyLayer(st.layer, op, in); err != nil {
				return nil, &LayerError{st.layer, err}
			}
		}
		out, err := EvaluateLayer(st.layer, op, in, o)
		if err != nil {
			return nil, err
		}
		if err := checkOutputs(st.layer, len(out)); err != nil {
			return nil, err
		}
		copy(slots[st.out:], out)
	}
	res := make([]*ir.Tensor, len(p.results))
	for i, s := range p.resultSlot {
		res[i] = slots[s]
	}
	return res, nil
}

// infer infers the program's Results from infos of its Parameters, as
// InferModel does (values folded from constants included).
func (p *Program) infer(params []ValueInfo) ([]ValueInfo, error) {
	slots := make([]ValueInfo, p.slots)
	for _, st := range p.steps {
		if _, ok := st.op.(*Parameter); ok {
			slots[st.out] = params[st.param]
			continue
		}
		in := make([]ValueInfo, len(st.in))
		for i, s := range st.in {
			in[i] = slots[s]
		}
		// Nested Ifs and Loops are not folded: each inference of a body
		// would run them again, and a body is inferred once per branch or
		// round of the op that holds it.
		infer := InferFold
		if _, nested := st.op.(bodyHolder); nested {
			infer = Op.Infer
		}
		out, err := infer(st.op, in)
		if err != nil {
			return nil, &LayerError{st.layer, err}
		}
		if err := checkOutputs(st.layer, len(out)); err != nil {
			return nil, err
		}
		copy(slots[st.out:], out)
	}
	res := make([]ValueInfo, len(p.results))
	for i, s := range p.resultSlot {
		res[i] = slots[s]
	}
	return res, nil
}

// resultParam returns the position of the Parameter that Result r reads
// directly, or -1.
func (p *Program) resultParam(r int) int {
	for _, st := range p.steps {
		if _, ok := st.op.(*Parameter); ok && st.out == p.resultSlot[r] {
			return st.param
		}
	}
	return -1
}

// paramIndex returns the position among the Parameters of the layer with
// the given id.
func (p *Program) paramIndex(id uint64) (int, bool) {
	i := slices.IndexFunc(p.params, func(l *ir.Layer) bool { return l.ID == id })
	return i, i >= 0
}

// resultIndex returns the position among the Results of the layer with
// the given id.
func (p *Program) resultIndex(id uint64) (int, bool) {
	i := slices.IndexFunc(p.results, func(l *ir.Layer) bool { return l.ID == id })
	return i, i >= 0
}
