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
// Models made of the ops irdiv evaluates run end to end (Divide and the
// shape and element-wise ops around it: ShapeOf, Gather, Concat, Convert,
// Add, Select...); layers whose inputs are all constant are computed at
// compile time with the same code. Dynamic and interval input dimensions
// are resolved at Infer from the tensors given, and checked against the
// intervals. An InferRequest releases each intermediate tensor once the
// last layer that reads it has run, and holds at most
// Config.MaxMemoryBytes of them at once; it keeps the buffers of its
// Divides' outputs, shared between Divides, so that once shapes are
// stable a model of Divides allocates nothing at Infer (other ops
// allocate their outputs).
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
	"errors"
	"fmt"
	"slices"

	"github.com/irdiv/irdiv/internal/pkgerr"
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

// ErrMemory: a request would hold more bytes of tensors at once than
// Config.MaxMemoryBytes allows.
var ErrMemory = errors.New("memory budget exceeded")

// ErrRequestBusy is returned by an InferRequest method called while
// another call on the same request is running, as OpenVINO answers
// REQUEST_BUSY: one request serves one caller at a time. Requests of one
// CompiledModel are independent and may run concurrently.
var ErrRequestBusy = errors.New("REQUEST_BUSY: the infer request is in use by another call")

func errorf(format string, args ...any) error { return pkgerr.Errorf("plugin", format, args...) }

// Config configures CompileModel. The zero value is the default.
type Config struct {
	// Options tune the Divides as ops.Options does for one division: the
	// SIMD level (the zero value is the best this CPU has; one it lacks
	// is an error), the goroutines of a large Divide (the helpers are
	// shared by the whole process), how long helpers spin before they
	// park, and the cap on each output a request allocates (inputs whose
	// broadcast makes a larger output fail at Infer with ir.ErrTooLarge).
	ops.Options
	// Profiling makes requests time each layer, as OpenVINO's
	// ov::enable_profiling does; InferRequest.ProfilingInfo reads the
	// counters. It costs two clock readings per Divide per inference.
	Profiling bool
	// MaxMemoryBytes bounds the bytes of tensors a request holds at once:
	// the outputs of its layers, each until the last layer that reads it
	// has run (the model's outputs until the next Infer), and the buffers
	// it keeps for its Divides between inferences. Inputs and the model's
	// constants are not counted. A layer whose output would take the
	// request past it fails with ErrMemory before it allocates. 0 means
	// 4 × MaxTensorBytes: each tensor is under the cap, and a chain of
	// them, each freed once read, is then bounded too (a 1 KB model of
	// eleven Reshapes of one large tensor held them all).
	MaxMemoryBytes int64
}

// Core reads and compiles models.
type Core struct{}

// NewCore returns a Core.
func NewCore() *Core { return &Core{} }

// ReadModel reads an IR model; weightsPath "" means the .xml path with .bin.
func (c *Core) ReadModel(xmlPath, weightsPath string) (*ir.Model, error) {
	return ir.ReadFile(xmlPath, ir.ReadOptions{WeightsPath: weightsPath})
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
		if Executes(l) {
			out[l.Name] = DeviceName
		}
	}
	return out
}

// Executes reports whether CompileModel can execute the layer's op.
func Executes(l *ir.Layer) bool {
	op, err := ops.New(l)
	return err == nil && executable(op)
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

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Run infers once on inputs given by Parameter name (or tensor name) and
// returns every output by Result name: the one-shot use of a compiled
// model, for checks that compare two models on the same inputs. Every
// input must be given; a new InferRequest is made for the call.
func (cm *CompiledModel) Run(inputs map[string]*ir.Tensor) (map[string]*ir.Tensor, error) {
	req := cm.NewInferRequest()
	for _, p := range cm.Inputs() {
		t, ok := inputs[p.Name]
		for _, name := range p.Names {
			if !ok {
				t, ok = inputs[name]
			}
		}
		if !ok {
			return nil, errorf("no value for input %q", p.Name)
		}
		if err := req.SetInputTensor(p.Index, t); err != nil {
			return nil, err
		}
	}
	if err := req.Infer(); err != nil {
		return nil, err
	}
	out := make(map[string]*ir.Tensor, len(cm.outputs))
	for _, p := range cm.Outputs() {
		t, err := req.OutputTensor(p.Index)
		if err != nil {
			return nil, err
		}
		out[p.Name] = t
	}
	return out, nil
}
