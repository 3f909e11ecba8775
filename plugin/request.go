package plugin

import (
	"errors"
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
	owned  []*ir.Tensor // per step: the Divide's output, its data from the buffers
	// Memory (Config.MaxMemoryBytes): the Divides' outputs use buffers
	// the request keeps between inferences (buffers, in use where using
	// says, the others in free), so that once shapes are stable an
	// inference allocates nothing; a buffer goes back to free once the
	// last layer that reads its output has run, for a later Divide. The
	// outputs of other layers (which ops allocates) are released to the
	// garbage collector then. held counts both: the bytes of the buffers
	// and of the other outputs alive (sizes, per slot).
	using   []bool
	free    []freeBuffer
	buffers int64
	sizes   []int64
	alive   int64
	peak    int64 // the most held in the last Infer, for tests
	// counters, per step, when the model was compiled with Profiling.
	counters []counter
}

// freeBuffer is a Divide buffer no output uses now; owner is the step
// whose output used it last, which may still point at it (an output of
// the previous inference, which the caller may read until the next).
type freeBuffer struct {
	data  []byte
	owner int
}

// drop lets the garbage collector have a free buffer: its last owner lets
// go of it too, unless it uses another one by now.
func (r *InferRequest) drop(b freeBuffer) {
	r.buffers -= int64(cap(b.data))
	if o := r.owned[b.owner]; !r.using[b.owner] && cap(o.Data) > 0 && &o.Data[:1][0] == &b.data[:1][0] {
		o.Data = nil
	}
}

// held is the bytes the request holds, as Config.MaxMemoryBytes counts.
func (r *InferRequest) held() int64 { return r.buffers + r.alive }

// memoryError words a layer's output refused for the budget; what says
// how large it is.
func (r *InferRequest) memoryError(l *ir.Layer, what string) error {
	return errorf("%w: %s: %s, which would take the tensors held at once (%d bytes) past the %d allowed (Config.MaxMemoryBytes)",
		ErrMemory, l, what, r.held(), r.cm.maxMemory)
}

// dropFree lets the garbage collector have the free Divide buffers, to
// make room for another layer's output.
func (r *InferRequest) dropFree() {
	for _, b := range r.free {
		r.drop(b)
	}
	clear(r.free)
	r.free = r.free[:0]
}

// reset starts an inference: the previous one's outputs are released
// (they belong to the request until the next Infer) and every Divide
// buffer is free again, so that each inference takes the same buffers in
// the same order.
func (r *InferRequest) reset() {
	for i, in := range r.using {
		if in {
			r.giveBack(i)
		}
	}
	for slot, p := range r.cm.producer {
		if p >= 0 {
			r.slots[slot] = nil
			r.sizes[slot] = 0
		}
	}
	r.alive = 0
	r.peak = r.held()
}

// giveBack returns the buffer of step i's output to the free ones.
func (r *InferRequest) giveBack(i int) {
	if d := r.owned[i].Data; cap(d) > 0 {
		r.free = append(r.free, freeBuffer{d[:cap(d)], i})
	}
	r.using[i] = false
}

// done releases the slots step st read last: a Divide's buffer becomes
// free, another output goes to the garbage collector.
func (r *InferRequest) done(st step) {
	for _, slot := range st.frees {
		if p := r.cm.producer[slot]; r.cm.steps[p].kind == stepDivide {
			if r.using[p] {
				r.giveBack(p)
			}
		} else {
			r.alive -= r.sizes[slot]
			r.sizes[slot] = 0
		}
		r.slots[slot] = nil
	}
}

// buffer gives a Divide n bytes: the smallest free buffer that holds
// them, else a new one, within the budget (free buffers too small are
// dropped first to make room).
func (r *InferRequest) buffer(l *ir.Layer, n int64) ([]byte, error) {
	best := -1
	for i, b := range r.free {
		if int64(cap(b.data)) >= n && (best < 0 || cap(b.data) < cap(r.free[best].data)) {
			best = i
		}
	}
	if best >= 0 {
		b := r.free[best]
		// Removed without leaving a copy past the end, which would keep
		// the buffer from the garbage collector once dropped.
		copy(r.free[best:], r.free[best+1:])
		r.free[len(r.free)-1] = freeBuffer{}
		r.free = r.free[:len(r.free)-1]
		return b.data[:n], nil
	}
	for len(r.free) > 0 && r.held()+n > r.cm.maxMemory {
		r.drop(r.free[len(r.free)-1])
		r.free[len(r.free)-1] = freeBuffer{}
		r.free = r.free[:len(r.free)-1]
	}
	if r.held()+n > r.cm.maxMemory {
		return nil, r.memoryError(l, fmt.Sprintf("its output takes %d bytes", n))
	}
	// NewTensor aligns its data for any element type.
	x, err := ir.NewTensor(ir.U8, []int64{n})
	if err != nil {
		return nil, err
	}
	r.buffers += int64(cap(x.Data))
	r.peak = max(r.peak, r.held())
	return x.Data[:n], nil
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
	r.reset()
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
			out, err := r.evaluate(st, in)
			if err != nil {
				return err
			}
			if r.counters != nil {
				c := &r.counters[i]
				c.last = time.Since(t0)
				c.total += c.last
				c.runs++
			}
			copy(r.slots[st.out:st.out+len(out)], out)
		}
		r.done(st)
	}
	return nil
}

// evaluate runs an op ops evaluates. Each output may take what the
// tensors held leave of the budget (the free Divide buffers dropped if
// need be), so that one past it is refused before it is allocated.
func (r *InferRequest) evaluate(st step, in []*ir.Tensor) ([]*ir.Tensor, error) {
	for {
		opts := r.cm.opts
		room := r.cm.maxMemory - r.held()
		opts.MaxTensorBytes = max(min(opts.MaxTensorBytes, room), 1)
		out, err := ops.Evaluate(st.op, in, opts)
		if errors.Is(err, ir.ErrTooLarge) && room < r.cm.opts.MaxTensorBytes {
			if len(r.free) > 0 {
				r.dropFree()
				continue
			}
			return nil, r.memoryError(st.layer, fmt.Sprintf("its output takes more than the %d bytes left", max(room, 0)))
		}
		if err != nil {
			return nil, &ops.LayerError{Layer: st.layer, Err: err}
		}
		var n int64
		for k, t := range out {
			r.sizes[st.out+k] = int64(len(t.Data))
			n += int64(len(t.Data))
		}
		r.alive += n
		r.peak = max(r.peak, r.held())
		if r.held() > r.cm.maxMemory {
			// Outputs each within the room, together past it.
			return nil, r.memoryError(st.layer, fmt.Sprintf("its outputs take %d bytes", n))
		}
		return out, nil
	}
}

// divide runs step i, preparing it again only when its operands' types or
// shapes changed, its output in one of the request's buffers.
func (r *InferRequest) divide(i int, st step) (*ir.Tensor, error) {
	a, b := r.slots[st.in[0]], r.slots[st.in[1]]
	call := r.calls[i]
	if call == nil || !call.Accepts(a, b) {
		var err error
		if call, err = st.divide.Prepare(a, b, r.cm.opts); err != nil {
			return nil, err
		}
		// Stored only once prepared, so a failed call leaves the request
		// consistent.
		r.calls[i], r.owned[i] = call, &ir.Tensor{Type: call.Type(), Shape: call.OutShape()}
	}
	out := r.owned[i]
	data, err := r.buffer(st.layer, call.OutBytes())
	if err != nil {
		return nil, err
	}
	// Written only when it changes: once shapes are stable each Divide
	// takes the same buffer at each inference, and a caller may still
	// read the output of the previous one (it is the request's until the
	// next Infer, and a call from another goroutine is refused as busy).
	if len(data) != len(out.Data) || len(data) > 0 && &data[0] != &out.Data[0] {
		out.Data = data
	}
	r.using[i] = true
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
