package ops

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"

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
	// Warnings are attribute values OpenVINO silently ignores.
	Warnings []string
}

// NewDivide returns a Divide with the given broadcast and rounding mode.
func NewDivide(bc shapeinfer.Broadcast, pythonDiv bool) *Divide {
	return &Divide{Broadcast: bc, PythonDiv: pythonDiv}
}

// DivideFromLayer reads a Divide's attributes: defaults numpy and
// m_pythondiv=true when absent, values matched case-insensitively,
// "explicit" meaning none, and OpenVINO's boolean rule (true/false/1/0; any
// other string keeps the default and is reported in Warnings).
func DivideFromLayer(l *ir.Layer) (*Divide, error) {
	d := NewDivide(shapeinfer.NumpyBroadcast, true)
	if s, ok := l.DataAttr("auto_broadcast"); ok {
		mode, err := shapeinfer.ParseMode(s)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrAttribute, strings.TrimPrefix(err.Error(), "shapeinfer: "))
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
func (d *Divide) Infer(in []Value) ([]Value, error) {
	if len(in) != 2 {
		return nil, fmt.Errorf("Incorrect number of inputs. Required: 2, got %d", len(in))
	}
	t := in[0].Type
	switch {
	case t == ir.Dynamic:
		t = in[1].Type
	case in[1].Type != ir.Dynamic && in[1].Type != t:
		return nil, fmt.Errorf("%w: Arguments do not have the same element type (arg0 element type: %s, arg1 element type: %s).", ErrType, in[0].Type, in[1].Type)
	}
	shape, err := shapeinfer.Elementwise(in[0].Shape, in[1].Shape, d.Broadcast)
	if err != nil {
		return nil, err
	}
	if t == ir.Boolean || t == ir.String {
		return nil, fmt.Errorf("%w: This operation does not support inputs with element type: %s", ErrType, t)
	}
	return []Value{{t, shape}}, nil
}

// kernelTypes maps the twelve numeric element types to kernel types.
var kernelTypes = map[ir.ElementType]kernel.Type{
	ir.F32: kernel.F32, ir.F64: kernel.F64, ir.F16: kernel.F16, ir.BF16: kernel.BF16,
	ir.I8: kernel.I8, ir.I16: kernel.I16, ir.I32: kernel.I32, ir.I64: kernel.I64,
	ir.U8: kernel.U8, ir.U16: kernel.U16, ir.U32: kernel.U32, ir.U64: kernel.U64,
}

// Call is a Divide prepared for one element type and pair of static input
// shapes: the output shape and the broadcast plan are computed once, so
// running it allocates nothing. A Call is safe for concurrent use.
type Call struct {
	Type                     ir.ElementType
	AShape, BShape, OutShape []int64
	// Threads is the number of goroutines a large division may use (the
	// caller and helpers it shares with other calls, never more than
	// GOMAXPROCS); 0 means GOMAXPROCS, 1 the calling goroutine alone.
	Threads int
	ktype   kernel.Type
	floor   bool
	plan    *kernel.Plan
	table   *kernel.Table
}

// Prepare checks types and shapes and builds the call for inputs of type t
// and static shapes a and b, with kernels of the given SIMD level.
func (d *Divide) Prepare(t ir.ElementType, a, b []int64, level SIMDLevel) (*Call, error) {
	out, err := d.Infer([]Value{{t, shapeinfer.StaticShape(a...)}, {t, shapeinfer.StaticShape(b...)}})
	if err != nil {
		return nil, err
	}
	kt, ok := kernelTypes[t]
	if !ok {
		return nil, fmt.Errorf("%w: unsupported element type %s for evaluation (irdiv evaluates f16, bf16, f32, f64, i8-i64, u8-u64)", ErrType, t)
	}
	table, err := kernel.Lookup(level)
	if err != nil {
		return nil, fmt.Errorf("ops: %w", err)
	}
	outShape, _ := out[0].Shape.ToStatic()
	// The kernels count elements in int: the output must fit.
	if n, err := ir.NumElements(outShape); err != nil || n > math.MaxInt {
		return nil, fmt.Errorf("%w: the output %s%v has too many elements", ir.ErrTooLarge, t, outShape)
	}
	aDims, bDims := d.alignedDims(a, b, len(outShape))
	plan, err := kernel.NewPlan(outShape, aDims, bDims)
	if err != nil {
		return nil, err
	}
	return &Call{Type: t, AShape: slices.Clone(a), BShape: slices.Clone(b), OutShape: outShape, ktype: kt, floor: d.PythonDiv, plan: plan, table: table}, nil
}

// alignedDims gives A and B the output's rank: numpy pads on the left;
// pdpd places B at the axis and pads both sides (the reference kernel also
// trims B's trailing 1s first, which gives the same dims).
func (d *Divide) alignedDims(a, b []int64, rank int) (aDims, bDims []int64) {
	ones := func(n int) []int64 {
		s := make([]int64, n)
		for i := range s {
			s[i] = 1
		}
		return s
	}
	if d.Broadcast.Mode == shapeinfer.PDPD {
		axis := shapeinfer.PDPDAxis(len(a), len(b), d.Broadcast.Axis)
		bDims = append(append(ones(axis), b...), ones(rank-axis-len(b))...)
		return a, bDims
	}
	return append(ones(rank-len(a)), a...), append(ones(rank-len(b)), b...)
}

// Run computes dst = a / b. The tensors must have the call's type and
// shapes, dst the output shape. Integer division by zero or MIN / -1 fails
// with the lowest offending flat output index; dst is then unspecified.
func (c *Call) Run(dst, a, b *ir.Tensor) error {
	if dst.Type != c.Type || a.Type != c.Type || b.Type != c.Type ||
		!slices.Equal(a.Shape, c.AShape) || !slices.Equal(b.Shape, c.BShape) || !slices.Equal(dst.Shape, c.OutShape) ||
		!fits(a) || !fits(b) || !fits(dst) {
		return fmt.Errorf("ops: Divide call for %s%v / %s%v -> %v given %s%v / %s%v -> %s%v (or tensors whose data do not match their shapes)",
			c.Type, c.AShape, c.Type, c.BShape, c.OutShape, a.Type, a.Shape, b.Type, b.Shape, dst.Type, dst.Shape)
	}
	threads := c.Threads
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	f := c.table.Divide(c.ktype, c.floor, c.plan, dst.Data, a.Data, b.Data, threads)
	switch {
	case f.Index < 0:
		return nil
	case f.Overflow:
		return fmt.Errorf("divide: %w at flat output index %d", ErrOverflow, f.Index)
	default:
		return fmt.Errorf("divide: %w at flat output index %d", ErrDivideByZero, f.Index)
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

// Evaluate returns a / b in a new tensor, using the best SIMD level.
func (d *Divide) Evaluate(a, b *ir.Tensor) (*ir.Tensor, error) {
	if a.Type != b.Type {
		_, err := d.Infer([]Value{{a.Type, shapeinfer.StaticShape(a.Shape...)}, {b.Type, shapeinfer.StaticShape(b.Shape...)}})
		return nil, err
	}
	call, err := d.Prepare(a.Type, a.Shape, b.Shape, kernel.Best())
	if err != nil {
		return nil, err
	}
	out, err := ir.NewTensor(call.Type, call.OutShape)
	if err != nil {
		return nil, err
	}
	if err := call.Run(out, a, b); err != nil {
		return nil, err
	}
	return out, nil
}

// AddDivide appends a Divide layer fed by a and b to m, with its output
// port typed and shaped by inference from the input ports.
func AddDivide(m *ir.Model, name string, a, b ir.Output, d *Divide) (*ir.Layer, error) {
	in := []Value{
		{a.Port().Type, a.Port().Shape()},
		{b.Port().Type, b.Port().Shape()},
	}
	out, err := d.Infer(in)
	if err != nil {
		return nil, fmt.Errorf("ops: Divide %q: %w", name, err)
	}
	return m.AddLayer("Divide", "opset1", name, d.Attrs(), []ir.Output{a, b},
		[]*ir.Port{{Type: out[0].Type, Dims: ir.PortDims(out[0].Shape), Names: []string{name}}}), nil
}
