package plugin

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
)

// InferRequest binds inputs, runs the model and holds its outputs.
type InferRequest struct {
	busy   atomic.Bool
	cm     *CompiledModel
	slots  []*ir.Tensor
	inputs []*ir.Tensor
	calls  []*ops.Call  // per step: the Divide prepared for the last shapes seen
	owned  []*ir.Tensor // per step: the output buffer the request owns
	// counters, per step, when the model was compiled with Profiling.
	counters []counter
}

// counter is one step's profile.
type counter struct {
	last, total time.Duration
	runs        int64
}

// acquire marks the request busy; release must follow. The atomic flag
// also orders one call's writes before the next call's reads.
func (r *InferRequest) acquire() error {
	if !r.busy.CompareAndSwap(false, true) {
		return errorf("%w", ErrRequestBusy)
	}
	return nil
}

func (r *InferRequest) release() { r.busy.Store(false) }

// SetTensor binds the input with the given Parameter name or tensor name.
func (r *InferRequest) SetTensor(name string, t *ir.Tensor) error {
	for _, p := range r.cm.inputs {
		if p.has(name) {
			return r.SetInputTensor(p.Index, t)
		}
	}
	return errorf("%w: the model has no input named %q (inputs: %s)", ErrInput, name, portNames(r.cm.inputs))
}

// portNames lists ports by name for messages, a few and then a count.
func portNames(ports []Port) string {
	var names []string
	for i, p := range ports {
		if i == 6 {
			names = append(names, fmt.Sprintf("and %d more", len(ports)-i))
			break
		}
		names = append(names, fmt.Sprintf("%q", p.Name))
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// SetInputTensor binds input i. The tensor is read at each Infer, not copied.
func (r *InferRequest) SetInputTensor(i int, t *ir.Tensor) error {
	if err := r.acquire(); err != nil {
		return err
	}
	defer r.release()
	if i < 0 || i >= len(r.inputs) {
		return errorf("%w: input index %d out of range (%d inputs)", ErrInput, i, len(r.inputs))
	}
	p := r.cm.inputs[i]
	if t == nil {
		return errorf("%w: input %q: nil tensor", ErrInput, p.Name)
	}
	if t.Type != p.Type {
		return errorf("%w: input %q is %s, got a %s tensor", ErrInput, p.Name, p.Type, t.Type)
	}
	if !p.Shape.Compatible(t.Shape) {
		return errorf("%w: input %q has shape %s, which does not admit %v", ErrInput, p.Name, p.Shape, t.Shape)
	}
	r.inputs[i] = t
	return nil
}

// Infer runs the model on the bound inputs.
func (r *InferRequest) Infer() error {
	if err := r.acquire(); err != nil {
		return err
	}
	defer r.release()
	for i, t := range r.inputs {
		if t == nil {
			return errorf("%w: input %q is not set", ErrInput, r.cm.inputs[i].Name)
		}
	}
	for i, st := range r.cm.steps {
		switch st.kind {
		case stepParameter:
			r.slots[st.out] = r.inputs[st.param]
		case stepDivide:
			var t0 time.Time
			if r.counters != nil {
				t0 = time.Now()
			}
			out, err := r.divide(i, st)
			if err != nil {
				return &ops.LayerError{Layer: st.layer, Err: err}
			}
			if r.counters != nil {
				c := &r.counters[i]
				c.last = time.Since(t0)
				c.total += c.last
				c.runs++
			}
			r.slots[st.out] = out
		case stepEvaluate:
			var t0 time.Time
			if r.counters != nil {
				t0 = time.Now()
			}
			in := make([]*ir.Tensor, len(st.in))
			for j, slot := range st.in {
				in[j] = r.slots[slot]
			}
			out, err := ops.Evaluate(st.op, in, r.cm.opts)
			if err != nil {
				return &ops.LayerError{Layer: st.layer, Err: err}
			}
			if r.counters != nil {
				c := &r.counters[i]
				c.last = time.Since(t0)
				c.total += c.last
				c.runs++
			}
			copy(r.slots[st.out:st.out+len(out)], out)
		}
	}
	return nil
}

// divide runs step i, preparing it again only when its operands' types or
// shapes changed and reusing the output buffer when it is large enough.
func (r *InferRequest) divide(i int, st step) (*ir.Tensor, error) {
	a, b := r.slots[st.in[0]], r.slots[st.in[1]]
	call := r.calls[i]
	if call == nil || !call.Accepts(a, b) {
		var err error
		if call, err = st.divide.Prepare(a, b, r.cm.opts); err != nil {
			return nil, err
		}
		out := r.owned[i]
		if out == nil || int64(cap(out.Data)) < call.OutBytes() {
			if out, err = ir.NewTensor(call.Type(), call.OutShape()); err != nil {
				return nil, err
			}
		} else {
			out = &ir.Tensor{Type: call.Type(), Shape: call.OutShape(), Data: out.Data[:call.OutBytes()]}
		}
		// Both are stored only once the buffer is known to fit, so a failed
		// call leaves the request consistent.
		r.calls[i], r.owned[i] = call, out
	}
	out := r.owned[i]
	return out, call.Run(out, a, b)
}

// Tensor returns the output (or input) tensor with the given Result name,
// Parameter name or tensor name. Output tensors belong to the request and
// are overwritten by the next Infer.
func (r *InferRequest) Tensor(name string) (*ir.Tensor, error) {
	for _, p := range r.cm.outputs {
		if p.has(name) {
			return r.OutputTensor(p.Index)
		}
	}
	for _, p := range r.cm.inputs {
		if p.has(name) {
			if err := r.acquire(); err != nil {
				return nil, err
			}
			defer r.release()
			return r.inputs[p.Index], nil
		}
	}
	return nil, errorf("%w: the model has no tensor named %q (outputs: %s; inputs: %s)", ErrInput, name, portNames(r.cm.outputs), portNames(r.cm.inputs))
}

// OutputTensor returns output i after a successful Infer.
func (r *InferRequest) OutputTensor(i int) (*ir.Tensor, error) {
	if err := r.acquire(); err != nil {
		return nil, err
	}
	defer r.release()
	if i < 0 || i >= len(r.cm.outputs) {
		return nil, errorf("%w: output index %d out of range (%d outputs)", ErrInput, i, len(r.cm.outputs))
	}
	t := r.slots[r.cm.outSlot[i]]
	if t == nil {
		return nil, errorf("output %q is not computed yet; call Infer", r.cm.outputs[i].Name)
	}
	return t, nil
}

// plural writes "1 layer", "2 layers".
