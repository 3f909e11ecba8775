// Package plugin is irdiv's runtime API, shaped after OpenVINO's: a Core
// reads and compiles models, a CompiledModel describes its inputs and
// outputs and makes InferRequests, and an InferRequest binds input tensors,
// runs, and hands out output tensors.
//
//	core := plugin.NewCore()
//	model, _ := core.ReadModel("model.xml", "")
//	compiled, _ := core.CompileModel(model, plugin.Config{})
//	req := compiled.NewInferRequest()
//	req.SetTensor("a", a)
//	err := req.Infer()
//	out, _ := req.OutputTensor(0)
//
// Models made of Parameter, Const, Divide and Result run end to end; a
// Divide whose inputs are all constant is folded at compile time with the
// same kernels. Dynamic and interval input dimensions are resolved at Infer
// from the tensors given, and checked against the intervals. An
// InferRequest reuses its buffers: once shapes are stable, Infer allocates
// nothing.
//
// Concurrency: a CompiledModel may be shared by any number of goroutines,
// each with its own InferRequest; inputs are never written. One request
// serves one call at a time: a call made while another runs on the same
// request returns ErrRequestBusy, as OpenVINO answers REQUEST_BUSY.
//
// Errors of this package read "plugin: ..."; errors of the model (a layer
// that fails, a division by zero) come from ir and ops, naming the layer.
package plugin

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// DeviceName is what QueryModel reports for the layers irdiv executes.
const DeviceName = "IRDIV"

// ErrUnsupportedOp is ops.ErrUnsupportedOp: the model has layers irdiv
// cannot execute.
var ErrUnsupportedOp = ops.ErrUnsupportedOp

// ErrInput is the class of errors about the tensors bound to a request.
var ErrInput = errors.New("invalid input")

// ErrRequestBusy is returned by an InferRequest method called while
// another call on the same request is running, as OpenVINO answers
// REQUEST_BUSY: one request serves one caller at a time. Requests of one
// CompiledModel are independent and may run concurrently.
var ErrRequestBusy = errors.New("REQUEST_BUSY: the infer request is in use by another call")

func errorf(format string, args ...any) error { return fmt.Errorf("plugin: "+format, args...) }

// Config configures CompileModel. The zero value is the default.
type Config struct {
	// Threads is the number of goroutines a large Divide may use, never
	// more than GOMAXPROCS; 0 means GOMAXPROCS.
	Threads int
	// SIMD is the kernel level; the zero value, ops.SIMDAuto, is the best
	// this CPU has. A level the CPU lacks is an error.
	SIMD ops.SIMD
	// HelperSpin is how long the helper goroutines of a large Divide keep
	// their CPU after their share before they park, so that the next
	// inference finds them running. The helpers are shared by the whole
	// process. 0 means 100µs; a negative value parks them at once, which
	// frees the CPUs sooner and makes back-to-back large inferences slower.
	HelperSpin time.Duration
	// MaxTensorBytes bounds each output a request allocates; 0 means
	// ir.MaxTensorBytes. Inputs whose broadcast makes a larger output
	// fail at Infer with ir.ErrTooLarge instead of allocating it.
	MaxTensorBytes int64
	// Profiling makes requests time each layer, as OpenVINO's
	// ov::enable_profiling does; InferRequest.ProfilingInfo reads the
	// counters. It costs two clock readings per Divide per inference.
	Profiling bool
}

// Core reads and compiles models.
type Core struct{}

// NewCore returns a Core.
func NewCore() *Core { return &Core{} }

// ReadModel reads an IR model; weightsPath "" means the .xml path with .bin.
func (c *Core) ReadModel(xmlPath, weightsPath string) (*ir.Model, error) {
	return ir.Read(xmlPath, ir.ReadOptions{WeightsPath: weightsPath})
}

// ReadModelFromBytes reads an IR model from memory; weights may be nil
// when no Const needs data.
func (c *Core) ReadModelFromBytes(xmlText, weights []byte) (*ir.Model, error) {
	return ir.ReadBytes(xmlText, weights, ir.ReadOptions{})
}

// QueryModel returns, for every layer irdiv can execute, its friendly name
// mapped to DeviceName, as OpenVINO's query_model does.
func (c *Core) QueryModel(m *ir.Model) map[string]string {
	out := make(map[string]string)
	for _, l := range m.Layers {
		if op, err := ops.New(l); err == nil && executable(op) {
			out[l.Name] = DeviceName
		}
	}
	return out
}

// Port describes an input or output of a compiled model.
type Port struct {
	// Name is the friendly name of the Parameter or Result.
	Name string
	// Names are the tensor names of the port, which also address it.
	Names []string
	Index int
	Type  ir.ElementType
	Shape shapeinfer.Shape
}

func (p Port) has(name string) bool { return p.Name == name || slices.Contains(p.Names, name) }

type stepKind uint8

const (
	stepParameter stepKind = iota
	stepDivide
)

// step is one layer of the execution plan; values live in slots.
type step struct {
	kind   stepKind
	layer  *ir.Layer
	in     []int // slots read
	out    int   // slot written
	divide *ops.Divide
	param  int // index among the inputs, for stepParameter
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
	// profiling is Config.Profiling; folded lists the Divides computed at
	// compile time, which profiles report as OPTIMIZED_OUT.
	profiling bool
	folded    []*ir.Layer
}

// CompileModel checks the model and builds its execution plan. Layers
// that no Result reaches are ignored, as OpenVINO drops them; any other
// layer irdiv cannot execute makes compilation fail with an error that
// counts them by type.
func (c *Core) CompileModel(m *ir.Model, cfg Config) (*CompiledModel, error) {
	if !cfg.SIMD.Available() {
		return nil, errorf("SIMD level %s is not available on this CPU or build (available: %v)", cfg.SIMD, ops.AvailableSIMD())
	}
	if cfg.Threads < 0 || cfg.MaxTensorBytes < 0 {
		return nil, errorf("Config.Threads = %d and Config.MaxTensorBytes = %d must not be negative", cfg.Threads, cfg.MaxTensorBytes)
	}
	order, err := m.TopoOrder()
	if err != nil {
		return nil, err
	}
	// Unreachable layers are dropped, except Parameters: they stay model
	// inputs, in file order, as in OpenVINO.
	dead := make(map[*ir.Layer]bool)
	for _, l := range m.Unreachable() {
		dead[l] = !strings.EqualFold(l.Type, "Parameter")
	}
	if err := unsupported(order, dead); err != nil {
		return nil, err
	}
	inf, err := ops.InferModel(m)
	if err != nil {
		return nil, err
	}
	position := make(map[*ir.Layer]int)
	for i, l := range m.Parameters() {
		position[l] = i
	}
	results := m.Results()
	for i, l := range results {
		position[l] = i
	}
	cm := &CompiledModel{
		consts:    make(map[int]*ir.Tensor),
		opts:      ops.Options{SIMD: cfg.SIMD, Threads: cfg.Threads, HelperSpin: cfg.HelperSpin, MaxTensorBytes: cmp.Or(cfg.MaxTensorBytes, ir.MaxTensorBytes)},
		inputs:    make([]Port, len(m.Parameters())),
		outputs:   make([]Port, len(results)),
		outSlot:   make([]int, len(results)),
		profiling: cfg.Profiling,
	}
	sources := m.Sources()
	slotOf := make(map[ir.Output]int)
	for _, l := range order {
		if dead[l] {
			continue
		}
		st := step{layer: l, out: cm.slots}
		for _, src := range sources[l] {
			st.in = append(st.in, slotOf[src])
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
			src := sources[l][0]
			v := inf.Outputs[src.Layer][src.Index]
			i := position[l]
			cm.outputs[i] = Port{Name: l.Name, Names: src.Port().Names, Index: i, Type: v.Type, Shape: v.Shape}
			cm.outSlot[i] = st.in[0]
			continue
		}
		slotOf[ir.Output{Layer: l}] = cm.slots
		cm.slots++
	}
	return cm, nil
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
	return errorf("%w: irdiv cannot execute %s (%s), first %s; irdiv runs models of Parameter, Const, Divide and Result (irdiv run --layer evaluates one Divide of any model)",
		ErrUnsupportedOp, plural(total, "layer"), strings.Join(counts, ", "), first)
}

// executable reports whether the plugin runs an op: Parameter, Const,
// Divide and Result. ops knows more ops, for inference and constant
// folding, which the plugin does not execute.
func executable(op ops.Op) bool {
	switch op.(type) {
	case *ops.Parameter, *ops.Const, *ops.Divide, *ops.Result:
		return true
	}
	return false
}

// addDivide folds a Divide of constants now; any other joins the plan.
func (cm *CompiledModel) addDivide(st step) error {
	a, aok := cm.consts[st.in[0]]
	b, bok := cm.consts[st.in[1]]
	if !aok || !bok {
		cm.steps = append(cm.steps, st)
		return nil
	}
	call, err := st.divide.Prepare(a, b, cm.opts)
	if err == nil {
		cm.consts[st.out], err = call.Evaluate(a, b)
	}
	if err != nil {
		return fmt.Errorf("folding the constants of %s: %w", st.layer, err)
	}
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
	}
	if cm.profiling {
		r.counters = make([]counter, len(cm.steps))
	}
	for slot, t := range cm.consts {
		r.slots[slot] = t
	}
	return r
}

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

// ProfilingStatus is OpenVINO's ov::ProfilingInfo::Status.
type ProfilingStatus int

const (
	NotRun       ProfilingStatus = iota // the layer does no work at inference: Parameter, Result
	OptimizedOut                        // the layer was computed at compile time: a Divide of constants
	Executed                            // the layer ran
)

func (s ProfilingStatus) String() string {
	switch s {
	case NotRun:
		return "NOT_RUN"
	case OptimizedOut:
		return "OPTIMIZED_OUT"
	case Executed:
		return "EXECUTED"
	}
	return fmt.Sprintf("ProfilingStatus(%d)", int(s))
}

// ProfilingInfo is one layer's performance counters, as OpenVINO's
// ov::ProfilingInfo, with what irdiv adds for a Divide.
type ProfilingInfo struct {
	NodeName string
	NodeType string // the layer's type attribute: Parameter, Divide, Result
	// ExecType names the implementation, as OpenVINO's CPU plugin does:
	// for a Divide the SIMD level and the element type ("avx512_i32"), for
	// other layers "undef".
	ExecType string
	Status   ProfilingStatus
	// RealTime is the layer's time in the last inference; CPUTime equals
	// it, as in OpenVINO's CPU plugin.
	RealTime, CPUTime time.Duration
	// Elements and Threads describe the last inference's Divide: output
	// elements and the goroutines it split into.
	Elements int64
	Threads  int
	// Runs and TotalTime count every inference of the request, so that
	// averages need no call per inference.
	Runs      int64
	TotalTime time.Duration
}

// ProfilingInfo returns the layers' counters in execution order (the
// Parameters and Divides, then the Divides folded at compile time, then
// the Results), as OpenVINO's get_profiling_info does. The model must have
// been compiled with Config.Profiling.
func (r *InferRequest) ProfilingInfo() ([]ProfilingInfo, error) {
	if err := r.acquire(); err != nil {
		return nil, err
	}
	defer r.release()
	if r.counters == nil {
		return nil, errorf("profiling is not enabled: compile the model with Config.Profiling")
	}
	var out []ProfilingInfo
	level := r.cm.SIMD().String()
	for i, st := range r.cm.steps {
		info := ProfilingInfo{NodeName: st.layer.Name, NodeType: st.layer.Type, ExecType: "undef", Status: NotRun}
		if st.kind == stepDivide {
			c := r.counters[i]
			info.Status, info.RealTime, info.CPUTime, info.Runs, info.TotalTime = Executed, c.last, c.last, c.runs, c.total
			if call := r.calls[i]; call != nil {
				info.ExecType = level + "_" + call.Type().String()
				info.Elements = int64(r.owned[i].Len())
				info.Threads = call.Threads()
			}
		}
		out = append(out, info)
	}
	for _, l := range r.cm.folded {
		out = append(out, ProfilingInfo{NodeName: l.Name, NodeType: l.Type, ExecType: "undef", Status: OptimizedOut})
	}
	for _, p := range r.cm.outputs {
		out = append(out, ProfilingInfo{NodeName: p.Name, NodeType: "Result", ExecType: "undef", Status: NotRun})
	}
	return out, nil
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
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
