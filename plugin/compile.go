package plugin

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
)

type stepKind uint8

const (
	stepParameter stepKind = iota
	stepDivide
	stepEvaluate // any other op ops evaluates, with outputs allocated per inference
)

// step is one layer of the execution plan; values live in slots.
type step struct {
	kind   stepKind
	layer  *ir.Layer
	in     []int // slots read
	out    int   // slot written (the first, for ops of several outputs)
	outs   int   // number of outputs, in slots out, out+1...
	divide *ops.Divide
	op     ops.Op // for stepEvaluate
	param  int    // index among the inputs, for stepParameter
	// frees are the slots this step reads last: the request releases
	// them once it has run (never a constant, an input or an output).
	frees []int
}

// CompiledModel is a model ready to run.
type CompiledModel struct {
	steps   []step
	consts  map[int]*ir.Tensor // slots holding constants, folded ones included
	slots   int
	inputs  []Port
	outputs []Port
	outSlot []int
	opts    ops.Options
	// profiling is Config.Profiling; folded lists the layers computed at
	// compile time, which profiles report as OPTIMIZED_OUT.
	profiling bool
	folded    []*ir.Layer
	// foldedBytes is what the folded constants hold (countFolded).
	foldedBytes int64
	// maxMemory is Config.MaxMemoryBytes resolved; producer is, per
	// slot, the step that writes it (-1 for constants).
	maxMemory int64
	producer  []int
}

// CompileModel checks the model and builds its execution plan. Layers
// that no Result reaches are ignored, as OpenVINO drops them; any other
// layer irdiv cannot execute makes compilation fail with an error that
// counts them by type. A layer whose inputs are all constant is computed
// now, as OpenVINO's constant folding does.
func (c *Core) CompileModel(m *ir.Model, cfg Config) (*CompiledModel, error) {
	if !cfg.SIMD.Available() {
		return nil, errorf("SIMD level %s is not available on this CPU or build (available: %v)", cfg.SIMD, ops.AvailableSIMD())
	}
	if cfg.Threads < 0 || cfg.MaxTensorBytes < 0 || cfg.MaxMemoryBytes < 0 {
		return nil, errorf("Config.Threads = %d, Config.MaxTensorBytes = %d and Config.MaxMemoryBytes = %d must not be negative", cfg.Threads, cfg.MaxTensorBytes, cfg.MaxMemoryBytes)
	}
	// The walk goes on after an error so that the layers irdiv cannot
	// execute are all counted first; its first error is the model's.
	var inferErr error
	walk := ops.WalkOptions{Error: func(err *ops.LayerError) {
		if inferErr == nil {
			inferErr = err
		}
	}}
	inf, err := ops.InferModelWith(m, walk)
	if err != nil {
		return nil, err
	}
	// Unreachable layers are dropped, except Parameters: they stay model
	// inputs, in file order, as in OpenVINO.
	dead := make(map[*ir.Layer]bool)
	for _, l := range m.Unreachable() {
		dead[l] = !strings.EqualFold(l.Type, "Parameter")
	}
	if err := unsupported(inf.Order, dead); err != nil {
		return nil, err
	}
	if inferErr != nil {
		return nil, inferErr
	}
	position := make(map[*ir.Layer]int)
	for i, l := range m.Parameters() {
		position[l] = i
	}
	results := m.Results()
	for i, l := range results {
		position[l] = i
	}
	cfg.MaxTensorBytes = cmp.Or(cfg.MaxTensorBytes, ir.MaxTensorBytes)
	cm := &CompiledModel{
		consts:    make(map[int]*ir.Tensor),
		opts:      cfg.Options,
		inputs:    make([]Port, len(m.Parameters())),
		outputs:   make([]Port, len(results)),
		outSlot:   make([]int, len(results)),
		profiling: cfg.Profiling,
	}
	// 4 × the cap, saturating: a cap near 2^63 leaves no room to multiply.
	cm.maxMemory = cmp.Or(cfg.MaxMemoryBytes, min(cfg.MaxTensorBytes, math.MaxInt64/4)*4)
	slotOf := make(map[ir.Output]int)
	for _, l := range inf.Order {
		if dead[l] {
			continue
		}
		st := step{layer: l, out: cm.slots, outs: 1}
		for _, src := range inf.Sources[l] {
			st.in = append(st.in, slotOf[src])
		}
		if len(inf.Outputs[l]) > 1 {
			st.outs = len(inf.Outputs[l])
		}
		switch op := inf.Ops[l].(type) {
		case *ops.Parameter:
			st.kind, st.param = stepParameter, position[l]
			v := inf.Outputs[l][0]
			cm.inputs[st.param] = Port{Name: l.Name, Names: l.Outputs[0].Names, Index: st.param, Type: v.Type, Shape: v.Shape}
			cm.steps = append(cm.steps, st)
		case *ops.Const:
			if op.Tensor == nil {
				return nil, &ops.LayerError{Layer: l, Err: ops.ErrNoWeights}
			}
			cm.consts[st.out] = op.Tensor
		case *ops.Divide:
			st.kind, st.divide = stepDivide, op
			if err := cm.addDivide(st); err != nil {
				return nil, err
			}
		case *ops.Result:
			src := inf.Sources[l][0]
			v := inf.Outputs[src.Layer][src.Index]
			i := position[l]
			cm.outputs[i] = Port{Name: l.Name, Names: src.Port().Names, Index: i, Type: v.Type, Shape: v.Shape}
			cm.outSlot[i] = st.in[0]
			continue
		default:
			st.kind, st.op = stepEvaluate, op
			if err := cm.addEvaluate(st); err != nil {
				return nil, err
			}
		}
		for i := range st.outs {
			slotOf[ir.Output{Layer: l, Index: i}] = cm.slots
			cm.slots++
		}
	}
	cm.planFrees()
	return cm, nil
}

// planFrees finds, for each slot a step writes, the step that reads it
// last, which releases it: a request then holds a tensor only while a
// layer still needs it, not every intermediate of the model until the
// end. The model's outputs stay until the next Infer.
func (cm *CompiledModel) planFrees() {
	cm.producer = make([]int, cm.slots)
	for i := range cm.producer {
		cm.producer[i] = -1
	}
	last := make([]int, cm.slots)
	for i := range last {
		last[i] = -1
	}
	for i, st := range cm.steps {
		if st.kind != stepParameter {
			for k := range st.outs {
				cm.producer[st.out+k] = i
			}
		}
		for _, slot := range st.in {
			last[slot] = i
		}
	}
	output := make(map[int]bool, len(cm.outSlot))
	for _, slot := range cm.outSlot {
		output[slot] = true
	}
	for slot, i := range last {
		switch p := cm.producer[slot]; {
		case p < 0 || output[slot]:
		case i < 0:
			// An output no layer reads (the second of a Split): its
			// step releases it at once.
			cm.steps[p].frees = append(cm.steps[p].frees, slot)
		default:
			cm.steps[i].frees = append(cm.steps[i].frees, slot)
		}
	}
}

// addEvaluate computes an op of constants now; any other joins the plan.
func (cm *CompiledModel) addEvaluate(st step) error {
	in := make([]*ir.Tensor, len(st.in))
	for i, slot := range st.in {
		if in[i] = cm.consts[slot]; in[i] == nil {
			cm.steps = append(cm.steps, st)
			return nil
		}
	}
	out, err := ops.Evaluate(st.op, in, cm.foldOptions())
	if err != nil {
		if ferr := cm.foldError(st.layer, err); ferr != nil {
			return ferr
		}
		return &ops.LayerError{Layer: st.layer, Err: err}
	}
	cm.countFolded(out...)
	for i, t := range out {
		cm.consts[st.out+i] = t
	}
	cm.folded = append(cm.folded, st.layer)
	return nil
}

// unsupported fails when a live layer is one irdiv cannot execute,
// counting such layers by type on one line.
func unsupported(order []*ir.Layer, dead map[*ir.Layer]bool) error {
	byType := make(map[string]int)
	var first *ir.Layer
	for _, l := range order {
		if op, err := ops.New(l); !dead[l] && (errors.Is(err, ops.ErrUnsupportedOp) || err == nil && !executable(op)) {
			byType[l.Type+" "+l.Version]++
			if first == nil {
				first = l
			}
		}
	}
	if first == nil {
		return nil
	}
	types := slices.SortedFunc(maps.Keys(byType), func(a, b string) int {
		return cmp.Or(cmp.Compare(byType[b], byType[a]), cmp.Compare(a, b))
	})
	total := 0
	var counts []string
	for i, t := range types {
		total += byType[t]
		if i < 8 {
			counts = append(counts, fmt.Sprintf("%s x%d", t, byType[t]))
		}
	}
	if len(types) > 8 {
		counts = append(counts, fmt.Sprintf("%d more types", len(types)-8))
	}
	return errorf("%w: irdiv cannot execute %s (%s), first %s; irdiv runs models of the ops it evaluates (irdiv run --layer evaluates one Divide of any model)",
		ErrUnsupportedOp, plural(total, "layer"), strings.Join(counts, ", "), first)
}

// executable reports whether the plugin runs an op: Parameter, Const,
// Divide, Result and every op ops evaluates. ops knows more ops, whose
// shapes it infers (Convolution...), which the plugin does not execute.
func executable(op ops.Op) bool {
	switch op.(type) {
	case *ops.Parameter, *ops.Const, *ops.Divide, *ops.Result:
		return true
	}
	return ops.Evaluable(op)
}

// addDivide folds a Divide of constants now; any other joins the plan.
func (cm *CompiledModel) addDivide(st step) error {
	a, aok := cm.consts[st.in[0]]
	b, bok := cm.consts[st.in[1]]
	if !aok || !bok {
		cm.steps = append(cm.steps, st)
		return nil
	}
	call, err := st.divide.Prepare(a, b, cm.foldOptions())
	if err == nil {
		cm.consts[st.out], err = call.Evaluate(a, b)
	}
	if err != nil {
		if ferr := cm.foldError(st.layer, err); ferr != nil {
			return ferr
		}
		return fmt.Errorf("folding the constants of %s: %w", st.layer, err)
	}
	cm.countFolded(cm.consts[st.out])
	cm.folded = append(cm.folded, st.layer)
	return nil
}

// Inputs describes the model inputs, in Parameter order.
func (cm *CompiledModel) Inputs() []Port { return slices.Clone(cm.inputs) }

// Outputs describes the model outputs, in Result order.
func (cm *CompiledModel) Outputs() []Port { return slices.Clone(cm.outputs) }

// SIMD returns the kernel level the model runs at.
func (cm *CompiledModel) SIMD() ops.SIMD { return cm.opts.SIMD.Resolve() }

// NewInferRequest returns a request with its own buffers. Requests of one
// compiled model may run concurrently; a request called from two
// goroutines at once answers ErrRequestBusy to the second.
func (cm *CompiledModel) NewInferRequest() *InferRequest {
	r := &InferRequest{
		cm:     cm,
		slots:  make([]*ir.Tensor, cm.slots),
		inputs: make([]*ir.Tensor, len(cm.inputs)),
		calls:  make([]*ops.Call, len(cm.steps)),
		owned:  make([]*ir.Tensor, len(cm.steps)),
		using:  make([]bool, len(cm.steps)),
		sizes:  make([]int64, cm.slots),
	}
	if cm.profiling {
		r.counters = make([]counter, len(cm.steps))
	}
	for slot, t := range cm.consts {
		r.slots[slot] = t
	}
	return r
}
