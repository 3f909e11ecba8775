package search

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/absint"
)

// Run is the model evaluated on concrete inputs: the type and shape of
// every output inference gives, and the tensors of those irdiv computes
// (opaque layers and what depends on their data stay without one).
type Run struct {
	// outs holds each output of the model's layers at the slot its
	// Searcher gave it (outputSlots.slot): two maps made per evaluation
	// cost about a twentieth of validate's time on testdata/pytorch.
	outs  []evaluated
	slots *outputSlots
	// Err is why the model does not run on these inputs (a layer's
	// inference or evaluation fails); nil when it does, as far as irdiv
	// can tell.
	Err error
	// overBudget is set where RunOptions.MaxBytes, the bound of all
	// tensors together, left a tensor uncomputed: an evaluation of fewer
	// layers might have computed it.
	overBudget bool
	// spent is what the layers computed beyond inference's folding took
	// of RunOptions.MaxBytes, for an evaluation reusing this one.
	spent map[*ir.Layer]int64
}

// evaluated is one output of an evaluation: its type and shape (set),
// and its tensor where irdiv computed it.
type evaluated struct {
	info  ops.ValueInfo
	value *ir.Tensor
	set   bool
}

// outputSlots numbers the outputs of the layers of a model's graph, in
// the order they are evaluated.
type outputSlots struct {
	layers map[*ir.Layer]slotRange
	n      int
}

// slotRange are the slots of a layer's outputs: first and the n after.
type slotRange struct{ first, n int }

func newOutputSlots(an *absint.Analysis) *outputSlots {
	sl := &outputSlots{layers: make(map[*ir.Layer]slotRange, len(an.Order))}
	for _, l := range an.Order {
		n := max(len(an.Infos[l]), len(l.Outputs))
		sl.layers[l] = slotRange{sl.n, n}
		sl.n += n
	}
	return sl
}

// slot is o's slot; ok is false for an output of no layer of the graph.
func (sl *outputSlots) slot(o ir.Output) (int, bool) {
	r, ok := sl.layers[o.Layer]
	if !ok || o.Index < 0 || o.Index >= r.n {
		return 0, false
	}
	return r.first + o.Index, true
}

// Info is o's type and shape; ok is false where the evaluation did not
// reach it.
func (r *Run) Info(o ir.Output) (ops.ValueInfo, bool) {
	if i, ok := r.slots.slot(o); ok && r.outs[i].set {
		return r.outs[i].info, true
	}
	return ops.ValueInfo{}, false
}

// Value is o's tensor; nil where irdiv did not compute it.
func (r *Run) Value(o ir.Output) *ir.Tensor {
	if i, ok := r.slots.slot(o); ok {
		return r.outs[i].value
	}
	return nil
}

// set records o's type, shape and tensor (nil for none).
func (r *Run) set(o ir.Output, info ops.ValueInfo, t *ir.Tensor) {
	if i, ok := r.slots.slot(o); ok {
		r.outs[i] = evaluated{info: info, value: t, set: true}
	}
}

// RunOptions bound a concrete evaluation.
type RunOptions struct {
	// Floor gives the rounding of each integer Divide: the model's own
	// (nil), or another (a model from ONNX evaluated as ONNX specifies).
	Floor func(l *ir.Layer, d *ops.Divide) bool
	// MaxTensorBytes bounds each tensor computed (default 16 MiB); larger
	// outputs keep their shape only.
	MaxTensorBytes int64
	// MaxBytes bounds all tensors computed together (default 256 MiB).
	MaxBytes int64
	// Stop ends the evaluation before this layer (nil: evaluate all).
	Stop *ir.Layer
	// Need, when set, limits the evaluation to these layers (Parameters
	// are always set).
	Need map[*ir.Layer]bool
	// ONNX evaluates a model from ONNX as ONNX does: an op fails where
	// ONNX's fails though OpenVINO's counterpart runs (see onnxRefuses),
	// so that a counter-example is one the ONNX model runs on.
	ONNX bool
	// IntegersOnly computes the tensors of integer and boolean outputs
	// only: float layers keep the shapes inference gives them, and what
	// depends on their values stays unknown. The integer paths of a model
	// cost little; its convolutions cost seconds.
	IntegersOnly bool
	// DoubleReductions sums, averages and multiplies int64 and int32 tensors
	// through float64 and converts the result back saturating, as ONNX
	// Runtime 1.30 does (MIN + 4 is MIN there, MAX + -1 is MAX, and
	// 3037000499 * 3037000501 is MAX): a difference of one far beyond 2^53
	// vanishes in such a reduction.
	DoubleReductions bool
	// EmptyAsONNXRuntime evaluates the ops of empty inputs that ONNX
	// Runtime runs and OpenVINO refuses, or shapes otherwise, as ONNX
	// Runtime does (emptyAsONNXRuntime): a search of the meaning of a
	// model from ONNX sets it in both its evaluations, so that neither
	// differs from the other, nor fails, for a reason not the Divide's
	// (seeds 1053, 1643 run only where x: [0, C, W] is empty, and
	// reshaped to [0, -1]).
	EmptyAsONNXRuntime bool
	// watch reads the operands of Divides inside bodies (If, Loop, TensorIterator),
	// which the Run does not hold: the first bad ones of each.
	watch map[*ir.Layer]*watched
}

// watched is a Divide inside a body whose operands an evaluation reads:
// the first ones that are bad, at any iteration.
type watched struct {
	bad   func(x, y int64) bool
	found bool
	index int
	x, y  int64
}

// holdsBodies tells the ops that run bodies: If, Loop and TensorIterator.
func holdsBodies(op ops.Op) bool {
	_, ok := op.(ops.BodyHolder)
	return ok
}

// bodyLayer is how an evaluation runs the layers of bodies: each Divide
// rounding as o says (and read, where watched), each op refused where
// ONNX refuses it.
func bodyLayer(o RunOptions) func(l *ir.Layer, op ops.Op, in []*ir.Tensor) (ops.Op, error) {
	return func(l *ir.Layer, op ops.Op, in []*ir.Tensor) (ops.Op, error) {
		var infos []ops.ValueInfo
		// A watched layer is a Divide, a Mod or a FloorMod: its operands
		// are read before it runs (a zero divisor fails it).
		if w := o.watch[l]; w != nil && !w.found && len(in) == 2 && in[0] != nil && in[1] != nil {
			infos = infosOf(in)
			if outs, err := op.Infer(infos); err == nil && len(outs) == 1 {
				if dims, ok := outs[0].Shape.ToStatic(); ok {
					w.index, w.x, w.y, w.found = firstBad(in[0], in[1], dims, w.bad)
				}
			}
		}
		if d, ok := op.(*ops.Divide); ok {
			op = o.rounded(l, d)
		}
		if o.ONNX {
			if infos == nil {
				infos = infosOf(in)
			}
			outs, err := op.Infer(infos)
			if err != nil && holdsBodies(op) && o.watch != nil && faults(err) {
				// A nested If or Loop whose inference, folding the values
				// it is given, fails at a fault: its shapes alone, as
				// evaluate does for the outermost one.
				outs, err = op.Infer(withoutValues(infos))
			}
			if err == nil {
				err = onnxRefuses(op, infos, outs, false)
			}
			if err != nil {
				return nil, err
			}
		}
		return op, nil
	}
}

// rounded is Divide d of layer l rounding as the evaluation says (Floor),
// or as it is.
func (o RunOptions) rounded(l *ir.Layer, d *ops.Divide) ops.Op {
	if o.Floor == nil {
		return d
	}
	copied := *d
	copied.PythonDiv = o.Floor(l, d)
	return &copied
}

// faults tells the errors of a Divide or Mod by zero and of MIN / -1.
func faults(err error) bool {
	return errors.Is(err, ops.ErrDivideByZero) || errors.Is(err, ops.ErrOverflow)
}

// withoutValues are infos with their types and shapes, not their values.
func withoutValues(infos []ops.ValueInfo) []ops.ValueInfo {
	out := slices.Clone(infos)
	for i := range out {
		out[i].Value = nil
	}
	return out
}

// infosOf are the infos of tensors.
func infosOf(ts []*ir.Tensor) []ops.ValueInfo {
	out := make([]ops.ValueInfo, len(ts))
	for i, t := range ts {
		if t != nil {
			out[i] = ops.ValueInfo{Type: t.Type, Shape: shapeinfer.StaticShape(t.Shape...), Value: t}
		}
	}
	return out
}

// Evaluate runs the model on the inputs given for its Parameters.
func (s *Searcher) Evaluate(inputs map[*ir.Layer]*ir.Tensor, o RunOptions) *Run {
	return s.evaluate(inputs, o, nil)
}

// reused is an evaluation of the same inputs that another takes the
// values of layers from: those of same, which compute alike in both
// from the same inputs, where their inputs are the same.
type reused struct {
	run  *Run
	same map[*ir.Layer]bool
}

// evaluate is Evaluate, taking from from the values of the layers it
// says compute alike.
func (s *Searcher) evaluate(inputs map[*ir.Layer]*ir.Tensor, o RunOptions, from *reused) *Run {
	// A slot for every output of the model, whatever o.Need leaves out:
	// filling a map of the layers evaluated cost more than clearing the
	// slots (TestSearchBudgetBoundsManyDivides holds what it costs a
	// Divide).
	if s.slots == nil {
		s.slots = newOutputSlots(s.an)
	}
	run := &Run{outs: make([]evaluated, s.slots.n), slots: s.slots}
	perTensor := cmp.Or(o.MaxTensorBytes, 16<<20)
	budget := cmp.Or(o.MaxBytes, 256<<20)
	dynamic := ops.ValueInfo{Type: ir.Dynamic, Shape: shapeinfer.DynamicRankShape()}
	var planned ortBuffers
	for _, l := range s.an.Order {
		if l == o.Stop {
			break
		}
		s.runLayers--
		if _, param := s.an.Ops[l].(*ops.Parameter); o.Need != nil && !o.Need[l] && !param {
			continue
		}
		op := s.an.Ops[l]
		if op == nil {
			op = s.failedOp(l)
		}
		n := len(s.an.Infos[l])
		set := func(i int, info ops.ValueInfo, t *ir.Tensor) {
			run.set(ir.Output{Layer: l, Index: i}, info, t)
		}
		switch c := op.(type) {
		case nil:
			for i := range n {
				// An opaque layer's outputs are known only as declared, and
				// only their types hold for other inputs.
				info := dynamic
				info.Type = s.an.Infos[l][i].Type
				set(i, info, nil)
			}
			continue
		case *ops.Parameter:
			t := inputs[l]
			if t == nil {
				run.Err = fmt.Errorf("no tensor for input %s", l)
				return run
			}
			if o.IntegersOnly && t.Type.IsFloat() {
				// Its shape alone: inference folds what it can of
				// float values too, and a model's floats cost the most.
				set(0, ops.ValueInfo{Type: t.Type, Shape: shapeinfer.StaticShape(t.Shape...)}, nil)
				continue
			}
			set(0, ops.ValueInfo{Type: t.Type, Shape: shapeinfer.StaticShape(t.Shape...), Value: t}, t)
			continue
		case *ops.Const:
			info := s.an.Infos[l][0]
			info.Value = c.Tensor
			set(0, info, c.Tensor)
			continue
		case *ops.Result:
			continue
		}
		if from != nil && from.same[l] && from.sameInputs(run, s.an.Sources[l]) {
			if left, ok := from.copyLayer(run, l, n, budget); ok {
				budget = left
				continue
			}
		}
		if d, ok := op.(*ops.Divide); ok {
			op = o.rounded(l, d)
		}
		// The walk that made the analysis (ops.Walk) left opaque every
		// layer with an input not connected, and failedOp does too.
		in := make([]ops.ValueInfo, len(l.Inputs))
		tensors := make([]*ir.Tensor, len(l.Inputs))
		known := true
		for i, src := range s.an.Sources[l] {
			in[i], _ = run.Info(src)
			tensors[i] = run.Value(src)
			known = known && tensors[i] != nil
		}
		// InferFold computes small outputs, and those known from shapes
		// alone (ShapeOf of a tensor irdiv does not compute); but an If or
		// a Loop runs its bodies below, as the evaluation says.
		bodies := holdsBodies(op)
		infer := ops.InferFold
		if bodies {
			infer = ops.Op.Infer
		}
		var outs []ops.ValueInfo
		var err error
		empty := false
		if o.EmptyAsONNXRuntime {
			outs, empty = emptyAsONNXRuntime(op, in)
			if _, reshape := op.(*ops.Reshape); empty && reshape && s.patternZeroKnown(l) {
				outs, empty = nil, false
			}
		}
		if !empty {
			outs, err = infer(op, in)
		}
		if err != nil && bodies && o.watch != nil && faults(err) {
			// The inference of a body folds the values it is given, and
			// fails at a Divide or Mod by zero (or MIN / -1) before the
			// body runs: the shapes alone, so that the run below reads
			// the watched layer's operands as it fails.
			outs, err = op.Infer(withoutValues(in))
		}
		if err == nil {
			err = beyondMaxDim(outs)
		}
		if err == nil && o.ONNX {
			_, reshape := op.(*ops.Reshape)
			err = onnxRefuses(op, in, outs, empty && reshape)
		}
		if _, loop := op.(*ops.Loop); err == nil && o.ONNX && loop && len(in) > 0 {
			// A trip count of -1 is the import's for ONNX's MaxInt64 (no
			// bound) where it is a Const; computed, it is ONNX's -1, where
			// ONNX Runtime runs no iteration (onnxRefuses refuses the
			// others).
			if trip, ok := oneInt(in[0]); ok && trip == -1 && len(s.an.Sources[l]) > 0 {
				if src := s.an.Sources[l][0].Layer; src == nil || src.Type != "Const" {
					err = errors.New("ONNX's Loop runs no iteration at a trip count of -1, OpenVINO's runs until its condition ends it")
				}
			}
		}
		if err != nil {
			run.Err = &ops.LayerError{Layer: l, Err: err}
			return run
		}
		if o.ONNX {
			planned.add(s, l, op, in, outs)
		}
		var values []*ir.Tensor
		if empty {
			if values, err = emptyTensors(outs); err != nil {
				run.Err = &ops.LayerError{Layer: l, Err: err}
				return run
			}
		} else if r, ok := op.(*ops.Reduce); ok && o.DoubleReductions && known && reducesInDouble(r, tensors[0]) {
			// Before the folded value, which inference computed exactly.
			if values, err = reduceInDouble(r, tensors, ops.Options{MaxTensorBytes: perTensor, Threads: 1}); err != nil {
				run.Err = &ops.LayerError{Layer: l, Err: err}
				return run
			}
		} else if len(outs) > 0 && outs[0].Value != nil {
			for _, o := range outs {
				values = append(values, o.Value)
			}
		} else if known && ops.Evaluable(op) && !bodies && !fitsBudget(outs, perTensor, budget) && fitsBudget(outs, perTensor, math.MaxInt64) {
			run.overBudget = true
		} else if known && ops.Evaluable(op) && (bodies || fitsBudget(outs, perTensor, budget)) && (!o.IntegersOnly || integerOutputs(outs) || bodies) {
			eo := ops.Options{MaxTensorBytes: perTensor, Threads: 1}
			if bodies {
				eo.BodyLayer = bodyLayer(o)
			}
			values, err = ops.Evaluate(op, tensors, eo)
			switch {
			case errors.Is(err, ir.ErrTooLarge) || errors.Is(err, ops.ErrUnsupportedOp) || errors.Is(err, ops.ErrType):
				values = nil
			case err != nil:
				run.Err = &ops.LayerError{Layer: l, Err: err}
				return run
			}
			spent := int64(0)
			for _, t := range values {
				spent += int64(len(t.Data))
			}
			budget -= spent
			if spent > 0 {
				if run.spent == nil {
					run.spent = make(map[*ir.Layer]int64)
				}
				run.spent[l] = spent
			}
		}
		for i, info := range outs {
			var t *ir.Tensor
			if i < len(values) {
				t = values[i]
				info.Value = t
				if bodies {
					// A Loop's scan outputs have the length its run gave.
					info.Shape = shapeinfer.StaticShape(t.Shape...)
				}
			}
			set(i, info, t)
		}
	}
	if o.ONNX && run.Err == nil {
		run.Err = planned.clash(s)
	}
	return run
}

// sameInputs tells whether run holds what from's evaluation does at
// each of srcs: type, shape and values, or no values in both.
func (from *reused) sameInputs(run *Run, srcs []ir.Output) bool {
	for _, src := range srcs {
		x, _ := run.Info(src)
		y, _ := from.run.Info(src)
		if x.Type != y.Type || !x.Shape.Equal(y.Shape) || !sameTensor(x.Value, y.Value) || !sameTensor(run.Value(src), from.run.Value(src)) {
			return false
		}
	}
	return true
}

// sameTensor tells whether x and y are both nil, or hold the same
// elements.
func sameTensor(x, y *ir.Tensor) bool {
	if x == y {
		return true
	}
	return x != nil && y != nil && x.Type == y.Type && slices.Equal(x.Shape, y.Shape) && string(x.Data) == string(y.Data)
}

// copyLayer sets in run the n outputs of l as from's evaluation has them,
// and charges budget what they took there; ok is false, and run
// unchanged, where from did not evaluate l.
func (from *reused) copyLayer(run *Run, l *ir.Layer, n int, budget int64) (left int64, ok bool) {
	if _, more := from.run.Info(ir.Output{Layer: l, Index: n}); more || from.run.spent[l] > budget {
		// Outputs beyond those the analysis knows; or tensors that fit
		// what was left there and not here, which this evaluation leaves
		// uncomputed.
		return budget, false
	}
	for i := range n {
		if _, ok := from.run.Info(ir.Output{Layer: l, Index: i}); !ok {
			return budget, false
		}
	}
	for i := range n {
		out := ir.Output{Layer: l, Index: i}
		info, _ := from.run.Info(out)
		run.set(out, info, from.run.Value(out))
	}
	return budget - from.run.spent[l], true
}

// failedOp is the op of a layer ops knows whose inference failed at the
// declared shapes (a Reshape whose computed pattern does not fit its
// input): the analysis leaves it opaque, but a concrete evaluation must
// run it, or it would run the model past a layer that fails on these
// inputs too (ONNX Runtime refuses such a counter-example). nil for a
// layer ops does not know, or cannot build, which stays opaque.
func (s *Searcher) failedOp(l *ir.Layer) ops.Op {
	if s.failed == nil {
		s.failed = make(map[*ir.Layer]ops.Op)
	}
	if op, ok := s.failed[l]; ok {
		return op
	}
	op, err := ops.New(l)
	if err != nil || len(s.an.Infos[l]) != len(l.Outputs) {
		op = nil
	}
	for i := range l.Inputs {
		if srcs := s.an.Sources[l]; i >= len(srcs) || srcs[i].Layer == nil {
			op = nil // unconnected: the model is broken, and stays opaque here
		}
	}
	switch op.(type) {
	case *ops.Parameter, *ops.Const, *ops.Result:
		op = nil // opaque for want of a tensor: nothing to evaluate
	}
	s.failed[l] = op
	return op
}

// integerOutputs reports whether some output is of an integer or boolean
// type.
func integerOutputs(outs []ops.ValueInfo) bool {
	for _, o := range outs {
		if o.Type.IsInteger() || o.Type == ir.Boolean {
			return true
		}
	}
	return false
}

// fitsBudget reports whether outputs of these static shapes fit the caps.
func fitsBudget(outs []ops.ValueInfo, perTensor, budget int64) bool {
	total := int64(0)
	for _, o := range outs {
		dims, ok := o.Shape.ToStatic()
		if !ok {
			return false
		}
		n, err := ir.NumElements(dims)
		if err != nil {
			return false
		}
		size, err := ir.ByteSize(o.Type, n)
		if err != nil || size > perTensor {
			return false
		}
		total += size
	}
	return total <= budget
}

// beyondMaxDim refuses an output with a dim beyond absint.MaxDim: the
// proofs take no tensor to have one, and a counter-example is held to the
// same inputs (an empty tensor of shape [2^57, 0] is valid ONNX, but no
// one's input, and onnxruntime-node cannot even report its dims; seed
// 9318).
func beyondMaxDim(outs []ops.ValueInfo) error {
	for _, out := range outs {
		for _, d := range out.Shape.Dims {
			if d.Min > absint.MaxDim {
				return fmt.Errorf("a dim of %d, beyond 2^40, which irdiv's proofs take no tensor to have", d.Min)
			}
		}
	}
	return nil
}

// onnxRefuses says why ONNX (its specification, and ONNX Runtime) fails
// an op of a model it imported where OpenVINO's counterpart runs: a
// Gather index out of range (OpenVINO gives zeros), a Range of step 0, a
// Squeeze of a dim that is not 1 (OpenVINO skips it), a Reshape to
// another number of elements, or whose -1 stands beside a zero dim
// (OpenVINO resolves it; ONNX Runtime too beside a zero of the pattern
// of an empty input, where inferred says that its loading could not know
// that zero and the evaluation shaped it so), a Resize to a size below 1, a pooling or
// convolution of a zero dim other than the batch, a Scan (a
// TensorIterator) over an empty sequence. nil where it runs, or where the
// inputs are not known.
func onnxRefuses(op ops.Op, in, outs []ops.ValueInfo, inferred bool) error {
	static := func(v ops.ValueInfo) ([]int64, bool) { return v.Shape.ToStatic() }
	values := func(v ops.ValueInfo) ([]int64, bool) {
		if v.Value == nil || !v.Value.Type.IsInteger() {
			return nil, false
		}
		out := make([]int64, v.Value.Len())
		for i := range out {
			x, ok := absint.IntAt(v.Value, i)
			if !ok {
				return nil, false
			}
			out[i] = x
		}
		return out, true
	}
	switch o := op.(type) {
	case *ops.Gather:
		dims, ok1 := static(in[0])
		idx, ok2 := values(in[1])
		axes, ok3 := values(in[2])
		if !ok1 || !ok2 || !ok3 || len(axes) != 1 || o.BatchDims != 0 {
			return nil
		}
		axis, ok := absint.NormAxis(axes[0], len(dims))
		if !ok {
			return nil
		}
		for _, i := range idx {
			if i < -dims[axis] || i >= dims[axis] {
				return fmt.Errorf("ONNX's Gather fails: index %d is outside [%d, %d]", i, -dims[axis], dims[axis]-1)
			}
		}
	case *ops.Range:
		if step, ok := values(in[2]); ok && len(step) == 1 && step[0] == 0 {
			return errors.New("ONNX's Range fails: the step is 0")
		}
	case *ops.Squeeze:
		dims, ok1 := static(in[0])
		if len(in) < 2 || !ok1 {
			return nil
		}
		axes, ok := values(in[1])
		if !ok {
			return nil
		}
		for _, a := range axes {
			if ax, ok := absint.NormAxis(a, len(dims)); ok && dims[ax] != 1 {
				return fmt.Errorf("ONNX's Squeeze fails: axis %d has dim %d", ax, dims[ax])
			}
		}
	case *ops.Reshape:
		dims, ok1 := static(in[0])
		pattern, ok2 := values(in[1])
		if !ok1 || !ok2 || len(outs) != 1 {
			return nil
		}
		n, err := ir.NumElements(dims)
		if err != nil {
			return nil
		}
		if out, ok := static(outs[0]); ok {
			if m, err := ir.NumElements(out); err == nil && m != n {
				return fmt.Errorf("ONNX's Reshape fails: %v has %d elements, %v %d", dims, n, out, m)
			}
		}
		others := make([]int64, 0, len(pattern))
		minusOne, copiedZero := -1, false
		for i, p := range pattern {
			switch {
			case p == -1:
				minusOne = i
				continue
			case p == 0 && o.SpecialZero && i < len(dims):
				p = dims[i]
				copiedZero = copiedZero || p == 0
			}
			others = append(others, p)
		}
		if minusOne < 0 || !slices.Contains(others, 0) {
			return nil
		}
		// ONNX Runtime 1.30 infers a -1 beside a zero of the pattern
		// (allowzero) where the input is empty too, and its loading did
		// not know that zero (inferred, see patternZeroKnown): as the
		// product of the input's nonzero dims over that of the pattern's
		// (x: [0, 5, 2] to [0, -1] is [0, 10], seed 1643); it fails
		// elsewhere, where that does not divide, and beside a zero dim of
		// the input copied (x: [0, 32, 2] to [0, -1] without allowzero,
		// seed 236).
		nonZeroIn, fitsIn := nonZeroProduct(dims)
		nonZeroOthers, fitsOthers := nonZeroProduct(others)
		out, ok := static(outs[0])
		if !inferred || copiedZero || n != 0 || !fitsIn || !fitsOthers || nonZeroIn%nonZeroOthers != 0 || !ok || minusOne >= len(out) || out[minusOne] != nonZeroIn/nonZeroOthers {
			return fmt.Errorf("ONNX's Reshape fails: -1 in %v cannot be inferred beside a zero dim", pattern)
		}
	case *ops.Interpolate:
		dims, ok1 := static(in[0])
		if o.ShapeCalculationMode == "sizes" && len(in) > 1 {
			if sizes, ok := values(in[1]); ok {
				// A size of 0 is a scale of 0, which ONNX Runtime refuses,
				// but of an axis of 0, where it takes a scale of 1 (as
				// absint's resizeRequires): x: [16, 2, 0] resized to [16,
				// 2, 0] runs (seed 2596 of the differential).
				var axes []int64
				if len(in) > 2 {
					axes, _ = values(in[2])
				}
				for k, d := range sizes {
					if d < 0 || d == 0 && !emptyAxis(dims, ok1, axes, k) {
						return fmt.Errorf("ONNX's Resize fails: size %d", d)
					}
				}
			}
		}
		if len(outs) != 1 || !ok1 {
			return nil
		}
		if out, ok := static(outs[0]); ok {
			for i, d := range out {
				if d == 0 && i < len(dims) && dims[i] != 0 {
					return fmt.Errorf("ONNX's Resize fails: axis %d resized to 0", i)
				}
				if d != 0 && i < len(dims) && dims[i] == 0 {
					return fmt.Errorf("ONNX Runtime's Resize fails: axis %d of 0 resized to %d (no scale makes something of nothing)", i, d)
				}
			}
		}
	case *ops.Loop:
		// ONNX's Loop runs while the iteration is below the trip count
		// (ONNX Runtime 1.30: no iteration where it is negative);
		// OpenVINO's runs a negative one until its condition ends it. The
		// import writes -1 for ONNX's MaxInt64, so -1 is left to the
		// caller, which knows where it comes from.
		if trip, ok := oneInt(in[0]); ok && trip < -1 {
			return fmt.Errorf("ONNX's Loop runs no iteration at a trip count of %d, OpenVINO's runs until its condition ends it", trip)
		}
	case *ops.TensorIterator:
		// A Scan: ONNX Runtime 1.30 fails one over an empty sequence
		// ("Invalid dim0_offset of 0. Dimension 0 is 0").
		b := o.Bodies(in)[0]
		for p, ext := range b.Feeds {
			if !b.Sliced[p] || ext < 0 || ext >= len(in) {
				continue
			}
			dims, ok := static(in[ext])
			if !ok {
				continue
			}
			if axis, ok := absint.NormAxis(b.SliceAxis[p], len(dims)); ok && dims[axis] == 0 {
				return fmt.Errorf("ONNX Runtime's Scan fails on an empty sequence: axis %d of input %d is 0", axis, ext)
			}
		}
	case *ops.MaxPool, *ops.AvgPool, *ops.Convolution:
		// ONNX Runtime 1.30 refuses to load a pooling whose explicit pads
		// reach its kernel (PoolAttributes: "Pad should be smaller than
		// kernel"), which OpenVINO's import takes.
		var pool *ops.PoolAttrs
		switch p := op.(type) {
		case *ops.MaxPool:
			pool = &p.PoolAttrs
		case *ops.AvgPool:
			pool = &p.PoolAttrs
		}
		if pool != nil && pool.AutoPad == ops.PadExplicit {
			for i, k := range pool.Kernel {
				if i < len(pool.PadsBegin) && pool.PadsBegin[i] >= k || i < len(pool.PadsEnd) && pool.PadsEnd[i] >= k {
					return fmt.Errorf("ONNX Runtime refuses a pooling whose pads are not smaller than its kernel (%d on axis %d)", k, i)
				}
			}
		}
		dims, ok := static(in[0])
		if !ok {
			return nil
		}
		if pool != nil && len(dims) > 0 && dims[0] == 0 {
			// A pooling of an empty batch runs whatever its other dims
			// (x: [0, 0, 2] in seed 1643).
			return nil
		}
		for i, d := range dims {
			if i > 0 && d == 0 {
				return fmt.Errorf("ONNX Runtime's %T fails: dim %d of its input is 0 (only the batch may be)", op, i)
			}
		}
	}
	return nil
}

// reducesInDouble tells whether ONNX Runtime computes reduction r of x
// through float64: the sums, means and products of int64 tensors.
func reducesInDouble(r *ops.Reduce, x *ir.Tensor) bool {
	return x != nil && reducedInDouble(r, x.Type)
}

// reducedInDouble tells whether ONNX Runtime computes reduction r of
// type t through float64: the sums, means and products of int64 and
// int32 (an int32 sum saturates there where irdiv's wraps: 1024 times
// -2147483647 is MIN, not 1024; seeds 30275, 31597).
func reducedInDouble(r *ops.Reduce, t ir.ElementType) bool {
	return (t == ir.I64 || t == ir.I32) && (r.Kind == ops.ReduceSum || r.Kind == ops.ReduceMean || r.Kind == ops.ReduceProd)
}

// reduceInDouble evaluates r of an int64 or int32 tensor through float64, each
// result converted back saturating (see RunOptions.DoubleReductions).
func reduceInDouble(r *ops.Reduce, ins []*ir.Tensor, o ops.Options) ([]*ir.Tensor, error) {
	x := ins[0]
	f, err := ir.NewTensor(ir.F64, x.Shape)
	if err != nil {
		return nil, err
	}
	for i := range x.Len() {
		f.SetFloat64(i, x.Float64At(i))
	}
	outs, err := ops.Evaluate(r, append([]*ir.Tensor{f}, ins[1:]...), o)
	if err != nil {
		return nil, err
	}
	back, err := ir.NewTensor(x.Type, outs[0].Shape)
	if err != nil {
		return nil, err
	}
	tr := absint.TypeRange(x.Type)
	for i := range back.Len() {
		v := outs[0].Float64At(i)
		switch {
		case v >= float64(tr.Hi.V): // for int64, 2^63: the float64 nearest MAX
			back.SetInt64(i, tr.Hi.V)
		case v <= float64(tr.Lo.V):
			back.SetInt64(i, tr.Lo.V)
		case v != v: // NaN: not from finite sums, but never a panic
			back.SetInt64(i, 0)
		default:
			back.SetInt64(i, int64(v))
		}
	}
	return []*ir.Tensor{back}, nil
}

// emptyAxis tells whether the axis the k-th size of an Interpolate
// resizes (axes[k], or k where no axes are given) is known to be 0 in
// dims (known where static).
func emptyAxis(dims []int64, static bool, axes []int64, k int) bool {
	if !static {
		return false
	}
	axis := int64(k)
	if axes != nil {
		if k >= len(axes) {
			return false
		}
		axis = axes[k]
	}
	ax, ok := absint.NormAxis(axis, len(dims))
	return ok && dims[ax] == 0
}

// oneInt is the one integer v holds, where its value is known.
func oneInt(v ops.ValueInfo) (int64, bool) {
	if v.Value == nil || !v.Value.Type.IsInteger() || v.Value.Len() != 1 {
		return 0, false
	}
	return absint.IntAt(v.Value, 0)
}

// emptyAsONNXRuntime infers an op of an empty input as ONNX Runtime 1.30
// runs it, where OpenVINO refuses it or shapes its output otherwise: a
// MaxPool or AvgPool of an empty batch, whose output is that of a batch
// of 1 and its channels (1 where it has none) with a batch of 0 and
// those channels (x: [0, 0, 2] and [0, 5, 2] run in seed 1643; a pool
// of no channel and a batch is refused still); a Reshape's -1 beside a
// zero of the pattern (allowzero), which is the product of the input's
// nonzero dims over that of the pattern's (x: [0, 5, 2] to [0, -1] is
// [0, 10], where OpenVINO gives [0, 1]).
func emptyAsONNXRuntime(op ops.Op, in []ops.ValueInfo) ([]ops.ValueInfo, bool) {
	if len(in) == 0 || in[0].Shape.DynamicRank {
		return nil, false
	}
	dims, ok := in[0].Shape.ToStatic()
	if !ok || !slices.Contains(dims, 0) {
		return nil, false
	}
	switch op := op.(type) {
	case *ops.MaxPool, *ops.AvgPool:
		if len(dims) < 3 || dims[0] != 0 {
			return nil, false
		}
		channels := dims[1]
		one := slices.Clone(in)
		dims[0], dims[1] = 1, max(channels, 1)
		one[0] = ops.ValueInfo{Type: in[0].Type, Shape: shapeinfer.StaticShape(dims...)}
		outs, err := op.Infer(one)
		if err != nil {
			return nil, false
		}
		for i, out := range outs {
			d, ok := out.Shape.ToStatic()
			if !ok || len(d) < 2 {
				return nil, false
			}
			d[0] = 0
			if channels == 0 {
				d[1] = 0
			}
			outs[i] = ops.ValueInfo{Type: out.Type, Shape: shapeinfer.StaticShape(d...)}
		}
		return outs, true
	case *ops.Reshape:
		if len(in) < 2 || in[1].Value == nil || !in[1].Value.Type.IsInteger() {
			return nil, false
		}
		pattern := make([]int64, in[1].Value.Len())
		minusOne, zero, nonZero := -1, false, int64(1)
		for i := range pattern {
			p, ok := absint.IntAt(in[1].Value, i)
			if !ok || p < -1 {
				return nil, false
			}
			if p == 0 && op.SpecialZero {
				// A zero dim of the input copied fails ONNX Runtime's
				// inference of the -1 (onnxRefuses).
				if i >= len(dims) || dims[i] == 0 {
					return nil, false
				}
				p = dims[i]
			}
			pattern[i] = p
			switch {
			case p == -1 && minusOne >= 0:
				return nil, false
			case p == -1:
				minusOne = i
			case p == 0:
				zero = true
			default:
				if nonZero, ok = mulFits(nonZero, p); !ok {
					return nil, false
				}
			}
		}
		if minusOne < 0 || !zero {
			return nil, false
		}
		nonZeroIn, fits := nonZeroProduct(dims)
		if !fits || nonZeroIn%nonZero != 0 {
			return nil, false
		}
		pattern[minusOne] = nonZeroIn / nonZero
		return []ops.ValueInfo{{Type: in[0].Type, Shape: shapeinfer.StaticShape(pattern...)}}, true
	}
	return nil, false
}

// patternZeroKnown tells whether ONNX's shape inference, as ONNX Runtime
// loads the model, may know a 0 of the pattern of Reshape l: it refuses
// to load one beside a -1 ("Product cannot be 0 in combination with
// -1"; seed 337, a constant [0, -1]). Taken to, where the analysis finds
// such an element constant at the declared shapes, or cannot tell the
// elements apart: the analysis follows more than that inference does
// (ONNX Runtime 1.30 runs [x.shape[1] - 3, -1] of x: [0, 3]), and a
// warning is what doubt leaves (seed 1643 loses its counter-example).
func (s *Searcher) patternZeroKnown(l *ir.Layer) bool {
	v := s.an.In(l, 1)
	if v == nil || v.Elems == nil {
		return true
	}
	p := s.an.Prover(false)
	for _, e := range v.Elems {
		if r := p.Range(e); r.Lo.IsFinite() && r.Lo == r.Hi && r.Lo.V == 0 {
			return true
		}
	}
	return false
}

// nonZeroProduct is the product of the nonzero dims, and whether it
// fits int64.
func nonZeroProduct(dims []int64) (int64, bool) {
	p, ok := int64(1), true
	for _, d := range dims {
		if d != 0 && ok {
			p, ok = mulFits(p, d)
		}
	}
	return p, ok
}

// mulFits is a * b of non-negative a and b, and whether it fits int64.
func mulFits(a, b int64) (int64, bool) {
	if a < 0 || b < 0 || b != 0 && a > math.MaxInt64/b {
		return 0, false
	}
	return a * b, true
}

// emptyTensors are the (empty) tensors of outs.
func emptyTensors(outs []ops.ValueInfo) ([]*ir.Tensor, error) {
	values := make([]*ir.Tensor, len(outs))
	for i, out := range outs {
		d, _ := out.Shape.ToStatic()
		t, err := ir.NewTensor(out.Type, d)
		if err != nil {
			return nil, err
		}
		values[i] = t
	}
	return values, nil
}
