package ops

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops/internal/kernel"
	"github.com/irdiv/irdiv/shapeinfer"
)

// AxisAttr is the IR name of the pdpd axis attribute (divide-spec.md E.5,
// unconfirmed in real files).
const AxisAttr = "auto_broadcast.auto_broadcast_axis"

// Divide is Divide-1: C = A / B with auto_broadcast, floor division of
// integers when PythonDiv is true (the default) and truncation otherwise.
type Divide struct {
	Broadcast shapeinfer.Broadcast
	PythonDiv bool
	// Warnings are attribute values OpenVINO silently ignores, found when
	// the Divide was read from a layer.
	Warnings []string
}

// NewDivide returns a Divide with the given broadcast and rounding mode.
func NewDivide(bc shapeinfer.Broadcast, pythonDiv bool) *Divide {
	return &Divide{Broadcast: bc, PythonDiv: pythonDiv}
}

// divideFromLayer reads a Divide's attributes: defaults numpy and
// m_pythondiv=true when absent, values matched case-insensitively,
// "explicit" meaning none, and OpenVINO's boolean rule (true/false/1/0; any
// other string keeps the default and is reported in Warnings).
func divideFromLayer(l *ir.Layer) (*Divide, error) {
	d := NewDivide(shapeinfer.Broadcast{Mode: shapeinfer.Numpy}, true)
	if s, ok := l.DataAttr("auto_broadcast"); ok {
		mode, err := shapeinfer.ParseMode(s)
		if err != nil {
			return nil, err
		}
		d.Broadcast.Mode = mode
	}
	if d.Broadcast.Mode == shapeinfer.PDPD {
		d.Broadcast.Axis = -1
		if s, ok := l.DataAttr(AxisAttr); ok {
			d.Broadcast.Axis = parseIntLikeIstream(s)
		} else {
			d.Warnings = append(d.Warnings, "pdpd Divide without "+AxisAttr+": irdiv uses -1 as the specification says; OpenVINO's IR reader may use 0")
		}
	}
	if s, ok := l.DataAttr("m_pythondiv"); ok {
		switch strings.ToLower(s) {
		case "true", "1":
			d.PythonDiv = true
		case "false", "0":
			d.PythonDiv = false
		default:
			d.Warnings = append(d.Warnings, fmt.Sprintf("m_pythondiv=%q is not a boolean; OpenVINO ignores it and keeps the default true", s))
		}
	}
	return d, nil
}

// parseIntLikeIstream reads an int64 as C++'s istringstream >> does:
// leading space, an optional sign and digits; anything unreadable is 0.
func parseIntLikeIstream(s string) int64 {
	s = strings.TrimLeft(s, " \t\n\r\v\f")
	end := 0
	if end < len(s) && (s[end] == '-' || s[end] == '+') {
		end++
	}
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	v, err := strconv.ParseInt(s[:end], 10, 64)
	if err != nil {
		return 0
	}
	return v
}

// Attrs returns the <data> attributes in the serializer's order.
func (d *Divide) Attrs() []ir.Attr {
	attrs := []ir.Attr{{Name: "auto_broadcast", Value: d.Broadcast.Mode.String()}}
	if d.Broadcast.Mode == shapeinfer.PDPD {
		attrs = append(attrs, ir.Attr{Name: AxisAttr, Value: strconv.FormatInt(d.Broadcast.Axis, 10)})
	}
	return append(attrs, ir.Attr{Name: "m_pythondiv", Value: strconv.FormatBool(d.PythonDiv)})
}

// Infer checks and infers in OpenVINO's order: input count, element type
// agreement, shapes, then the boolean/string rejection.
func (d *Divide) Infer(in []ValueInfo) ([]ValueInfo, error) {
	return inferArithmetic(d.Broadcast, in)
}

func (*Divide) OpType() (string, string) { return "Divide", "opset1" }

// AutoBroadcast returns the op's auto_broadcast (Broadcaster).
func (d *Divide) AutoBroadcast() shapeinfer.Broadcast { return d.Broadcast }

func (d *Divide) evaluate(in, out []*ir.Tensor, o Options) error {
	call, err := d.Prepare(in[0], in[1], o)
	if err != nil {
		return err
	}
	return call.Run(out[0], in[0], in[1])
}

// kernelTypes maps the twelve numeric element types to kernel types.
var kernelTypes = map[ir.ElementType]kernel.Type{
	ir.F32: kernel.F32, ir.F64: kernel.F64, ir.F16: kernel.F16, ir.BF16: kernel.BF16,
	ir.I8: kernel.I8, ir.I16: kernel.I16, ir.I32: kernel.I32, ir.I64: kernel.I64,
	ir.U8: kernel.U8, ir.U16: kernel.U16, ir.U32: kernel.U32, ir.U64: kernel.U64,
}

// Options tune a prepared division. The zero value is the default.
type Options struct {
	// SIMD is the kernel level; SIMDAuto (the zero value) is the best.
	SIMD SIMD
	// Threads is the number of goroutines a large division may use: the
	// caller and helpers it shares with other calls, never more than
	// GOMAXPROCS. 0 means GOMAXPROCS, 1 the calling goroutine alone.
	Threads int
	// HelperSpin is how long a helper goroutine keeps its CPU after its
	// share of a large division before it parks, so that back-to-back
	// calls find it running (waking a parked one takes tens of
	// microseconds in a VM). 0 means 100µs; a negative value parks at once.
	HelperSpin time.Duration
	// MaxTensorBytes bounds the output; 0 means ir.MaxTensorBytes.
	MaxTensorBytes int64
	// MaxBodyRuns bounds the body runs of one evaluation of an If or a
	// Loop, those of the bodies nested in it included, so that a Loop
	// whose trip count or condition never ends it stops with an error;
	// 0 means DefaultMaxBodyRuns.
	MaxBodyRuns int64
	// BodyLayer, when set, is called before each layer of a body (If,
	// Loop, at any depth) runs, with its op and input tensors: it may
	// watch the layer's inputs (a validator reads a Divide's operands
	// inside a body), give another op to run instead (the other rounding
	// of a Divide), or fail the evaluation with an error (an input a
	// runtime refuses). Layers of the model evaluated are not passed.
	BodyLayer func(l *ir.Layer, op Op, in []*ir.Tensor) (Op, error)
	// runs counts the body runs left to the evaluation under way; nested
	// bodies share it.
	runs *int64
}

// Call is a Divide prepared for the element type and static shapes of its
// operands: the checks, the output shape and the broadcast plan are done
// once, and running it allocates nothing (Run). A Call is immutable and
// safe for concurrent use.
type Call struct {
	typ                      ir.ElementType
	aShape, bShape, outShape []int64
	outBytes                 int64
	ktype                    kernel.Type
	floor                    bool
	plan                     *kernel.Plan
	table                    *kernel.Table
	threads                  int
	spin                     time.Duration
}

// Prepare checks the types and shapes of a and b as model inference does
// (only their Type and Shape are read) and returns the Call that divides
// tensors like them.
func (d *Divide) Prepare(a, b *ir.Tensor, o Options) (*Call, error) {
	out, err := d.Infer([]ValueInfo{{Type: a.Type, Shape: shapeinfer.StaticShape(a.Shape...)}, {Type: b.Type, Shape: shapeinfer.StaticShape(b.Shape...)}})
	if err != nil {
		return nil, err
	}
	t := out[0].Type
	kt, ok := kernelTypes[t]
	if !ok {
		return nil, errorf("%w: unsupported element type %s for evaluation (irdiv evaluates f16, bf16, f32, f64, i8-i64, u8-u64)", ErrType, t)
	}
	table, err := o.SIMD.table()
	if err != nil {
		return nil, err
	}
	outShape, _ := out[0].Shape.ToStatic()
	maxBytes := cmp.Or(o.MaxTensorBytes, ir.MaxTensorBytes)
	n, err := ir.NumElements(outShape)
	var size int64
	if err == nil {
		size, err = ir.ByteSize(t, n)
	}
	// The kernels count elements in int: the output must fit.
	if err != nil || size > maxBytes || n > math.MaxInt {
		return nil, errorf("%w: the output %s%s is larger than the %d bytes allowed (MaxTensorBytes)", ir.ErrTooLarge, t, out[0].Shape, maxBytes)
	}
	aDims, bDims := alignDims(d.Broadcast, a.Shape, b.Shape, len(outShape))
	plan, err := kernel.NewPlan(outShape, aDims, bDims)
	if err != nil {
		return nil, errorf("%w", err)
	}
	return &Call{
		typ: t, aShape: slices.Clone(a.Shape), bShape: slices.Clone(b.Shape), outShape: outShape, outBytes: size,
		ktype: kt, floor: d.PythonDiv, plan: plan, table: table, threads: o.Threads, spin: o.HelperSpin,
	}, nil
}

// Type returns the element type of the operands and the output.
func (c *Call) Type() ir.ElementType { return c.typ }

// OutShape returns the output's shape.
func (c *Call) OutShape() []int64 { return slices.Clone(c.outShape) }

// OutBytes returns the output's size in bytes.
func (c *Call) OutBytes() int64 { return c.outBytes }

// Threads returns how many goroutines Run splits the division into: one
// below a million output elements, then up to Options.Threads (fewer run
// while other divisions hold the process's helper goroutines).
func (c *Call) Threads() int { return c.plan.Workers(c.maxThreads()) }

func (c *Call) maxThreads() int { return cmp.Or(c.threads, runtime.GOMAXPROCS(0)) }

// Accepts reports whether a and b have the type and shapes the call was
// prepared for.
func (c *Call) Accepts(a, b *ir.Tensor) bool {
	return a.Type == c.typ && b.Type == c.typ && slices.Equal(a.Shape, c.aShape) && slices.Equal(b.Shape, c.bShape)
}

// Evaluate returns a / b in a new tensor.
func (c *Call) Evaluate(a, b *ir.Tensor) (*ir.Tensor, error) {
	out, err := ir.NewTensor(c.typ, c.outShape)
	if err != nil {
		return nil, err
	}
	if err := c.Run(out, a, b); err != nil {
		return nil, err
	}
	return out, nil
}

// Run computes dst = a / b. The tensors must have the call's type and
// shapes, dst the output shape. An integer division by zero or MIN / -1
// is a *DivideError naming the lowest offending flat output index; dst is
// then unspecified.
func (c *Call) Run(dst, a, b *ir.Tensor) error {
	if !c.Accepts(a, b) || dst.Type != c.typ || !slices.Equal(dst.Shape, c.outShape) || !fits(a) || !fits(b) || !fits(dst) {
		return errorf("Divide prepared for %s%v / %s%v -> %v given %s%v / %s%v -> %s%v (or tensors whose data do not match their shapes)",
			c.typ, c.aShape, c.typ, c.bShape, c.outShape, a.Type, a.Shape, b.Type, b.Shape, dst.Type, dst.Shape)
	}
	f := c.table.Divide(c.ktype, c.floor, c.plan, dst.Data, a.Data, b.Data, c.maxThreads(), c.spin)
	switch {
	case f.Index < 0:
		return nil
	case f.Overflow:
		return &DivideError{Index: f.Index, Err: ErrOverflow}
	default:
		return &DivideError{Index: f.Index, Err: ErrDivideByZero}
	}
}

// fits reports whether a tensor's data holds exactly its shape's elements.
func fits(t *ir.Tensor) bool {
	n, err := ir.NumElements(t.Shape)
	if err != nil {
		return false
	}
	size, err := ir.ByteSize(t.Type, n)
	return err == nil && int64(len(t.Data)) == size
}

// Evaluate returns a / b in a new tensor, with the default Options.
func (d *Divide) Evaluate(a, b *ir.Tensor) (*ir.Tensor, error) {
	call, err := d.Prepare(a, b, Options{})
	if err != nil {
		return nil, err
	}
	return call.Evaluate(a, b)
}

// AddDivide appends a Divide layer fed by a and b to m, with its output
// port typed and shaped by inference from the input ports.
func AddDivide(m *ir.Model, name string, a, b ir.Output, d *Divide) (*ir.Layer, error) {
	in := []ValueInfo{
		{Type: a.Port().Type, Shape: a.Port().Shape()},
		{Type: b.Port().Type, Shape: b.Port().Shape()},
	}
	out, err := d.Infer(in)
	if err != nil {
		return nil, err
	}
	return m.AddLayer("Divide", "opset1", name, d.Attrs(), []ir.Output{a, b},
		[]*ir.Port{{Type: out[0].Type, Dims: ir.PortDims(out[0].Shape), Names: []string{name}}}), nil
}
