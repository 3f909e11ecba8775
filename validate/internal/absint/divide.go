package absint

import (
	"math"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// The rule of Divide: the quotient of each pair of elements, rounded as
// the op says (m_pythondiv: floor; else truncation), or, in a model from
// ONNX, as ONNX's Div does (truncation): a Divide's verdict is about the
// values of the model it was converted from, which the search's reference
// evaluation computes too. Taking the IR's floor upstream, -1 / 2 made a
// dividend of -2 where ONNX has -1, and "-2 / 2 is exact" was claimed of a
// Divide that ONNX gives -1 / 2 (seeds 396, 17039); and once irdiv fix
// makes the upstream Divide truncate, the values are ONNX's. Also the
// pairs of operands that validate checks.

// floors reports whether the analysis divides as d floors: by the op
// (m_pythondiv), but never in a model from ONNX, whose Div truncates.
func (a *Analysis) floors(d *ops.Divide) bool { return d.PythonDiv && !a.opts.ONNX }

func divide(a *Analysis, c *call) []*Value {
	o, t := c.op.(*ops.Divide), c.t()
	floor := a.floors(o) || !t.IsSigned()
	return one(a.binary(c.l, c.ins[0], c.ins[1], o.Broadcast, t, func(x, y sym.Expr) sym.Expr {
		q := a.B.Div(x, y, floor)
		if k, ok := y.IsConst(); ok && k != 0 && k != -1 {
			// |x / k| <= |x| for |k| >= 1: the quotient fits the type
			// without a wrap atom, which deep chains of Divides feel.
			return q
		}
		return a.wrap(q, t)
	}))
}

// divisorRequires records that no element of an integer Divide's or
// FloorMod's divisor is 0, in a model from ONNX, where the output is
// never empty (then each element of the divisor divides some element):
// ONNX Runtime fails there ("Integer division by zero", and "Integer
// modulo by zero" for its Mod of fmod 0, which the import makes a
// FloorMod). A divisor of 0 at every input then makes the layer
// Unrunnable (seed 799: x.shape[0] / [0, x.shape[0]]); inside a body
// that runs whenever its holder does, one 0 at every input there fails
// the holder. Nothing is narrowed. The walk calls it for every such
// layer, folded, traced or not.
func (a *Analysis) divisorRequires(l *ir.Layer, ins []*Value, bc shapeinfer.Broadcast, why string) {
	if len(ins) < 2 || !a.opts.ONNX || !ins[0].Int || !ins[1].Int || ins[0].DeclaredDims || ins[1].DeclaredDims {
		return
	}
	dims, ok := a.broadcastDims(ins[0], ins[1], bc)
	if !ok {
		return
	}
	for _, d := range dims {
		if !a.decide.Range(d).Lo.AtLeast(1) {
			return // empty at some input, where nothing is divided
		}
	}
	y := ins[1]
	divisors := y.Elems
	if divisors == nil {
		divisors = []sym.Expr{a.All(y)}
	}
	for _, e := range divisors {
		// Only a divisor of 0 at every input stops the model here: one
		// narrowed to where it is not 0 would hide the inputs where it is
		// (divide/zero-divisor names them; ONNX Runtime fails there, and
		// OpenVINO computes something).
		if r := a.decide.Range(e); r != sym.R(0, 0) {
			if _, inBody := a.Holders[l]; !inBody || a.running == nil {
				continue
			}
		}
		a.requireNonZero(l, y, e, why)
	}
}

func divideFloats(_ *Analysis, c *call) *FloatRange { return divideF(floatIn(c, 0), floatIn(c, 1)) }

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
	x, y := a.In(l, 0), a.In(l, 1)
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

// divideF bounds x / y. A divisor that reaches 0 from one side gives the
// infinity of that side (and NaN for 0 / 0); one through 0 gives anything.
func divideF(x, y *FloatRange) *FloatRange {
	switch {
	case y.Lo > 0 || y.Hi < 0:
		return span(x, y, func(p, q float64) float64 { return p / q })
	case y.Lo == 0 && y.Hi > 0, y.Hi == 0 && y.Lo < 0:
		tiny := math.SmallestNonzeroFloat64
		if y.Hi == 0 {
			tiny = -tiny
		}
		out := span(x, &FloatRange{Lo: math.Max(y.Lo, tiny), Hi: math.Max(y.Hi, tiny), NaN: y.NaN}, func(p, q float64) float64 { return p / q })
		if y.Hi == 0 {
			out = span(x, &FloatRange{Lo: math.Min(y.Lo, tiny), Hi: math.Min(y.Hi, tiny), NaN: y.NaN}, func(p, q float64) float64 { return p / q })
		}
		pos, neg := x.Hi > 0, x.Lo < 0
		if y.Hi == 0 {
			pos, neg = neg, pos
		}
		if pos {
			out.Hi = math.Inf(1)
		}
		if neg {
			out.Lo = math.Inf(-1)
		}
		out.NaN = out.NaN || x.Lo <= 0 && x.Hi >= 0
		return out
	}
	return anyFloat
}

// DeclaredLayout tells whether an operand of l is computed from an
// element layout that holds at the declared shapes only (see
// Value.DeclaredLayout): what is proven of its pairs holds there, not
// for every input shape.
func (a *Analysis) DeclaredLayout(l *ir.Layer) bool {
	for i := range l.Inputs {
		if a.In(l, i).DeclaredLayout {
			return true
		}
	}
	return false
}
