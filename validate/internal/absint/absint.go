// Package absint is the validator's abstract interpreter: it works out
// what every integer of a model can be. For each layer output, its dims
// and (for integer and boolean tensors) its elements, as expressions over
// the model's inputs (package sym) that keep the relations shape
// arithmetic relies on; for float tensors, the range of their elements.
//
// One walk of the model in topological order applies each op's rule:
// the rules live one file per op family, named as ops' file of that
// family (binary.go, compare.go, unary.go, convert.go, divide.go,
// shapeof.go, reshape.go, gather_slice.go, concat_split.go, broadcast.go,
// range.go, pad.go, reduce.go, matmul.go, conv_pool.go, interpolate.go,
// controlflow.go: If and Loop, whose bodies are walked with the values
// that reach them), registered in one table keyed by op type (table.go);
// an op without a rule is opaque on purpose (opaqueOps), its outputs new
// symbols. The
// walk (interp.go), the values (absint.go), what moving ops share
// (move.go) and float ranges (floats.go) are the interpreter's own. A rule must be sound: the property tests of
// rules_test.go evaluate each op concretely (package ops) on random and
// edge inputs and check that the result is among what the rule claims.
//
// The symbols are the dims and elements of the model's inputs, and the
// dims and values of outputs no rule follows. Two ranges are kept for
// every symbol: Declared, the shapes the model declares, and Any, any
// shape at all (OpenVINO's reshape may give a model other input shapes);
// elements range over their type either way.
package absint

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// MaxElems bounds the elements tracked one by one; larger tensors keep one
// expression for all their elements.
const MaxElems = 4096

// DefaultTrackedElems bounds the elements of a whole model tracked one by
// one (constants aside, which the file holds). Real models track a few
// thousand, their shape tensors: Swin-T 4,304, a Swin of 43,109 layers
// 23,987. A crafted chain of 10^5 Divides of 64 elements each would track
// millions, and take gigabytes. Beyond it a tensor keeps one expression
// for all its elements.
const DefaultTrackedElems = 1 << 17

// maxSelect bounds the expressions a summary of tracked elements chooses
// among.
const maxSelect = 64

// Value is what the analysis knows of one layer output.
type Value struct {
	Type ir.ElementType
	// Dims are the dims when the rank is known (Dims non-nil, or a
	// scalar: Rank 0).
	Rank int // -1: unknown
	Dims []sym.Expr
	// Static are the dims at the declared input shapes, when inference
	// knows them: the layout of tracked elements. (Dims may still depend
	// on the input shapes, for other shapes.)
	Static []int64
	// Elems are the elements of an integer or boolean tensor, row-major,
	// when their count is a known constant of at most MaxElems; Analysis.All
	// gives what holds for every element. Int is false for other types.
	Int   bool
	Elems []sym.Expr
	// all holds for every element where Elems is nil. Where Elems is set,
	// All makes the summary when asked: most values are never asked, and
	// a deep model has a hundred thousand.
	all sym.Expr
	// summary caches All of tracked elements: a hull of many elements is
	// a new symbol, which must stay the same for one value.
	summary *sym.Expr
	// Tensor is the value of a constant (from Const layers only, never
	// from shapes: those stay symbols).
	Tensor *ir.Tensor
	// Shape marks integers computed from dims (ShapeOf), which never
	// wrap: a dim is at most MaxDim and no tensor has more elements, so
	// shape arithmetic stays far inside int64.
	Shape bool
	// F bounds the elements of a float tensor (nil: nothing known).
	F *FloatRange
	// FD bounds them at the declared input shapes, where that is
	// narrower than F (nil: as F): a dim of y: i32[1] cast to float is
	// 1 there, and anything a wrap to i32 makes at other shapes.
	FD *FloatRange
	// DeclaredLayout marks a value computed from the element layout at
	// the declared shapes of a tensor whose dims vary with the input
	// shapes (see Analysis.markLayout): its expressions hold at the
	// declared shapes only. Gather(y, 0) and Gather(y, -1) of y: i64[1]
	// are one element there, two at other shapes, so their difference
	// is 0 at the declared shapes only; a sum of y's tracked elements
	// counts one of them.
	DeclaredLayout bool
	// DeclaredDims marks dims that hold at the declared shapes only:
	// taken from such a layout (Slice(y, 0, 2) of y: i64[1] has one
	// element there), or sized by marked elements.
	DeclaredDims bool
	// Uniform marks an integer value whose every element is all, the
	// same value at each input: a Broadcast of one element, and what
	// moves or reshapes such elements. An element taken from it is that
	// value, not a copy: Gather(Expand(n, [k]), -1) - Gather(Expand(n,
	// [k]), 0) is 0 (seed 402 of the differential).
	Uniform bool
}

// DeclaredF bounds the elements of a float tensor at the declared input
// shapes (nil: nothing known).
func (v *Value) DeclaredF() *FloatRange {
	if v.FD != nil {
		return v.FD
	}
	return v.F
}

// FloatRange bounds the elements of a float tensor: within [Lo, Hi], or
// NaN where NaN is set.
type FloatRange struct {
	Lo, Hi float64
	NaN    bool
}

// NumElems returns the element count at the declared shapes, when known.
func (v *Value) NumElems() (int64, bool) {
	dims, ok := v.ConstDims()
	if !ok {
		return 0, false
	}
	n := int64(1)
	for _, c := range dims {
		if c < 0 || c != 0 && n > math.MaxInt64/c {
			return 0, false
		}
		n *= c
	}
	return n, true
}

// ConstDims returns the dims at the declared shapes, when known: Static,
// or dims that are constants.
func (v *Value) ConstDims() ([]int64, bool) {
	if v.Static != nil && len(v.Static) == v.Rank {
		return v.Static, true
	}
	if v.Rank < 0 {
		return nil, false
	}
	out := make([]int64, len(v.Dims))
	for i, d := range v.Dims {
		c, ok := d.IsConst()
		if !ok {
			return nil, false
		}
		out[i] = c
	}
	return out, true
}

// Ranges gives each symbol a range (a sym.Env); a copy of an element
// symbol ranges as the symbol it copies.
type Ranges struct {
	r []sym.Range
	// known marks the symbols given a range: copies made before a later
	// symbol was given one sit below it in r, unset, and must still range
	// as what they copy, not as the zero Range [0, 0].
	known []bool
	b     *sym.Builder
}

// Range implements sym.Env.
func (r *Ranges) Range(s sym.Sym) sym.Range {
	if int(s) < len(r.r) && r.known[s] {
		return r.r[s]
	}
	return r.Range(r.b.Info(s).Of)
}

func (r *Ranges) set(s sym.Sym, v sym.Range) {
	for int(s) >= len(r.r) {
		r.r = append(r.r, sym.Range{})
		r.known = append(r.known, false)
	}
	r.r[s], r.known[s] = v, true
}

// SymKind says what a symbol stands for.
type SymKind uint8

const (
	InputDim  SymKind = iota // a dim of a model input
	InputElem                // an element of a model input (Index -1: any element)
	Derived                  // a dim of an output whose rule irdiv does not know
)

// Origin is what a symbol stands for.
type Origin struct {
	Kind  SymKind
	Input *Input    // InputDim, InputElem
	Index int       // the axis, or the element (-1: every element)
	Layer *ir.Layer // Derived: the layer whose output it is
	// Deep marks a Derived symbol that stands for an expression deeper
	// than Options.MaxExprDepth, which Layer made (flatten).
	Deep bool
}

// Input is a model input (a Parameter) and its symbols.
type Input struct {
	Layer *ir.Layer
	Type  ir.ElementType
	Shape shapeinfer.Shape // declared
	Dims  []sym.Sym
	// Elems are a symbol per element (Summary false) or one symbol for
	// every element (Summary true); none for float inputs.
	Elems   []sym.Sym
	Summary bool
}

// Issue is something wrong with the model the analysis met: an index
// out of range, a shape that cannot be.
type Issue struct {
	Layer   *ir.Layer
	Kind    IssueKind
	Message string
}

// IssueKind tells issues apart; validate names each with its finding code.
type IssueKind uint8

const (
	// GatherIndex is a Gather of constant indices outside its axis.
	GatherIndex IssueKind = iota
	// EvaluateFails is a layer of constant inputs that cannot be computed.
	EvaluateFails
)

// Analysis is the values of one model.
type Analysis struct {
	opts    Options
	B       *sym.Builder
	Model   *ir.Model
	Order   []*ir.Layer
	Sources map[*ir.Layer][]ir.Output
	// Ops are the ops of the layers ops knows; Infos their outputs at the
	// declared shapes (the file's ports for the other layers).
	Ops      map[*ir.Layer]ops.Op
	Infos    map[*ir.Layer][]ops.ValueInfo
	Values   map[ir.Output]*Value
	Declared Ranges
	Any      Ranges
	Inputs   []*Input
	Origins  []Origin // by symbol
	// Holders gives each layer of a body (If, Loop, at any depth) the
	// layer of the model that holds it; Ops, Infos, Sources and Values
	// hold the body's layers too, Order only the model's.
	Holders map[*ir.Layer]*ir.Layer
	// bodyWalks counts the walks of Loop bodies (controlflow.go).
	bodyWalks int
	// dead says why the body being walked never runs ("" where it may):
	// a Loop's trip count of 0, a branch of an If whose condition always
	// picks the other. unreached keeps it for each body layer every walk
	// found so, reached the body layers some walk found reachable.
	dead      string
	unreached map[*ir.Layer]string
	reached   map[*ir.Layer]bool
	// walked are the body layers the walk of one iteration (unroll)
	// found reachable, where it is kept (nil otherwise).
	walked map[*ir.Layer]bool
	// running is the body the walk is in, where each of its layers runs
	// whenever the layer that holds it does (bodyRun): what they
	// require, that layer requires.
	running *bodyRun
	Issues  []Issue
	// unrunnables are the layers that run on no input (requirements.go):
	// the model runs on none either.
	unrunnables []Unrunnable
	// unrunnablesDeclared are those that run on no input of the declared
	// shapes (requireDeclared).
	unrunnablesDeclared []Unrunnable
	// conditions are the comparisons the walk could not decide, by the
	// symbol it made for each (compare.go): a Where picked by one knows
	// more of its branches.
	conditions map[sym.Sym]condition
	// decide proves comparisons while the values are worked out: what
	// holds for any input shape holds for the declared ones.
	decide *sym.Prover
	// declared ranges the expressions flatten cuts under the declared
	// shapes (made when first needed).
	declared *sym.Prover
	// shape is set while an op of shape arithmetic is worked out: its
	// results do not wrap.
	shape bool
	// atDeclared is set while a float rule bounds its output at the
	// declared input shapes (declaredFloats): integers it reads range as
	// they do there.
	atDeclared bool
	// TrackedElems bounds the elements tracked one by one in the whole
	// model; Summarized is the first layer whose elements were not, for
	// want of it.
	TrackedElems int
	Summarized   *ir.Layer
	// narrowings are what the layers' requirements (requirements.go)
	// gave the input symbols in the walk before this one, current in this
	// one; reaching the layers some Result depends on.
	narrowings map[inputKey]Narrowing
	current    map[inputKey]Narrowing
	// loose: some narrowing came from a requirement that does not stop
	// the model (requirement.stops), in this walk or the one before.
	loose bool
	// strict holds, where loose, the unrunnable layers of a walk whose
	// requirements that do not stop the model narrow nothing
	// (Options.strict): they are, where this walk's are not to be
	// trusted (an ONNX model's pooling narrowed to OpenVINO's window).
	strict   *unrunnableLayers
	reaching map[*ir.Layer]bool
	// joint are the requirements of several input symbols (Joint);
	// facts those of any values (Facts).
	joint, facts []Joint
	// solver evaluates the requirements' bisections (solve).
	solver *sym.Evaluator
	// iterations keeps the operands of the Divides of Loop bodies at each
	// iteration (IterationPairs); nil for a Divide some walk could not
	// follow.
	iterations map[*ir.Layer]*iterationRecord
}

// Options bound an analysis.
type Options struct {
	// TrackedElems bounds the elements of the whole model tracked one by
	// one (DefaultTrackedElems when 0).
	TrackedElems int
	// MaxExprDepth bounds the depth of the expressions kept
	// (DefaultMaxExprDepth when 0, at most sym.MaxDepth - 1).
	MaxExprDepth int
	// ONNX: the model means what ONNX defines (it is an ONNX model, or
	// converted from one), whose ops refuse some inputs OpenVINO's accept
	// (a Gather index outside its axis, a Squeeze of a dim that is not
	// 1): the inputs the model runs on are ONNX's.
	ONNX bool
	// Failed holds the ops of layers whose inference failed, absent from
	// the walk's ops: opaque, but what they need of their inputs still
	// holds (a Reshape to a count of elements its input does not have at
	// the declared shapes runs on none of them).
	Failed map[*ir.Layer]ops.Op
	// strict: requirements that do not stop the model narrow nothing
	// (Analysis.strict).
	strict bool
}

// Analyze works out the values of m's layers in the order of inf, the
// walk of m (ops.Walk) that inferred them (a layer absent from inf.Ops is
// opaque).
//
// The walk runs again, up to maxPasses times in all, while the layers'
// requirements narrow the input symbols (requirements.go).
func Analyze(m *ir.Model, inf *ops.Inference, o Options) *Analysis {
	o.TrackedElems = cmp.Or(o.TrackedElems, DefaultTrackedElems)
	o.MaxExprDepth = min(cmp.Or(o.MaxExprDepth, DefaultMaxExprDepth), sym.MaxDepth-1)
	var narrowings map[inputKey]Narrowing
	for pass := 1; ; pass++ {
		a := walk(m, inf, o, narrowings)
		if !a.narrowedMore() || pass == maxPasses || !a.narrowingReachesDivide() {
			// Only where this walk found some layer unrunnable, which its
			// narrower ranges find wherever the strict walk does: a walk
			// more for every model with a pooling costs twice the time.
			if a.loose && (len(a.unrunnables) > 0 || len(a.unrunnablesDeclared) > 0) {
				strict := o
				strict.strict = true
				if sa := walk(m, inf, strict, nil); !sa.loose {
					a.strict = &unrunnableLayers{sa.unrunnables, sa.unrunnablesDeclared}
				}
			}
			return a
		}
		narrowings = a.current
	}
}

// walk works out the values of every layer once, the input symbols given
// the narrowings of an earlier walk.
func walk(m *ir.Model, inf *ops.Inference, o Options, narrowings map[inputKey]Narrowing) *Analysis {
	order := inf.Order
	a := &Analysis{
		B: sym.NewBuilder(), Model: m, Order: order, Sources: inf.Sources, Ops: inf.Ops, Infos: inf.Outputs,
		Values: make(map[ir.Output]*Value, len(order)), opts: o, narrowings: narrowings, current: make(map[inputKey]Narrowing),
	}
	a.Declared.b, a.Any.b = a.B, a.B
	a.TrackedElems = o.TrackedElems
	a.decide = sym.NewProver(a.B, &a.Any)
	for _, l := range order {
		outs := a.transfer(l)
		for i, v := range outs {
			a.flatten(l, v)
			a.track(l, v)
			a.Values[ir.Output{Layer: l, Index: i}] = v
		}
	}
	return a
}

// DefaultMaxExprDepth bounds the depth of the expressions the analysis
// keeps (sym.Builder.Depth; Options.MaxExprDepth): a layer's output
// deeper than it is a fresh symbol of its range instead, one per element
// or dim. That is sound (a symbol ranging over what the expression can
// be holds every value the expression has), but the search cannot
// evaluate through it, so it finds fewer counter-examples past it (a
// chain of 10,000 Neg has one at 16,384, none at 1,024). It bounds the
// depth of every walk of an expression that recurses (Copy's, the
// prover's linear bounds), however deep the model: a chain of 300,000
// Abs made expressions 300,000 atoms deep.
const DefaultMaxExprDepth = 1 << 14

// flatten replaces v's expressions deeper than Options.MaxExprDepth by fresh
// symbols of their ranges (under the declared shapes and under any).
func (a *Analysis) flatten(l *ir.Layer, v *Value) {
	if v == nil || v.Tensor != nil {
		return
	}
	cut := func(e sym.Expr, what string) sym.Expr {
		if a.B.Depth(e) <= a.opts.MaxExprDepth {
			return e
		}
		// The symbol is an element symbol where e depends on one, so
		// that Copy gives other elements a copy of it where it gave them
		// a copy of e, and keeps it where it kept e.
		element := a.B.HasElements(e)
		if a.declared == nil {
			a.declared = sym.NewProver(a.B, &a.Declared)
		}
		name := fmt.Sprintf("%s of %s (deeper than %d ops)", what, describe(l), a.opts.MaxExprDepth)
		s := a.newSym(name, element, a.declared.Range(e), a.decide.Range(e), Origin{Kind: Derived, Layer: l, Index: -1, Deep: true})
		return a.B.Var(s)
	}
	// Slices may be shared with other values: copied before a change.
	cutAll := func(es []sym.Expr, what string) []sym.Expr {
		out := es
		for i, e := range es {
			if c := cut(e, what); !c.Equal(e) {
				if &out[0] == &es[0] {
					out = slices.Clone(es)
				}
				out[i] = c
			}
		}
		return out
	}
	v.Dims = cutAll(v.Dims, "a dim")
	v.Elems = cutAll(v.Elems, "a value")
	if v.Elems == nil && v.Int {
		v.all = cut(v.all, "a value")
	}
	if v.summary != nil {
		s := cut(*v.summary, "a value")
		v.summary = &s
	}
}

// track charges a value's elements to the model's budget, and keeps only
// their summary once it is spent. A constant's elements are free: the
// file holds them.
func (a *Analysis) track(l *ir.Layer, v *Value) {
	if v == nil || v.Elems == nil || v.Tensor != nil {
		return
	}
	if len(v.Elems) <= a.TrackedElems {
		a.TrackedElems -= len(v.Elems)
		return
	}
	a.TrackedElems = 0
	v.all, v.Elems = a.All(v), nil
	if a.Summarized == nil {
		a.Summarized = l
	}
}

// newSym makes a symbol with its ranges and origin.
func (a *Analysis) newSym(name string, element bool, declared, anyShape sym.Range, o Origin) sym.Sym {
	s := a.B.NewSym(name, element)
	a.Declared.set(s, declared)
	a.Any.set(s, anyShape)
	for int(s) >= len(a.Origins) {
		a.Origins = append(a.Origins, Origin{})
	}
	a.Origins[s] = o
	return s
}

// Options returns the bounds in use (defaults filled in).
func (a *Analysis) Options() Options { return a.opts }

// OriginOf returns what a symbol stands for; copies made for other
// elements stand for the element they copy.
func (a *Analysis) OriginOf(s sym.Sym) Origin {
	if int(s) < len(a.Origins) && (a.Origins[s].Input != nil || a.Origins[s].Layer != nil) {
		return a.Origins[s]
	}
	return a.Origins[a.B.Info(s).Of]
}

// Prover returns a prover under the declared shapes, or any shape.
func (a *Analysis) Prover(anyShape bool) *sym.Prover {
	if anyShape {
		return sym.NewProver(a.B, &a.Any)
	}
	return sym.NewProver(a.B, &a.Declared)
}

// typeRange is every value of an integer type (booleans 0 and 1; u64 cut
// at 2^63-1, where this analysis stops).
func typeRange(t ir.ElementType) sym.Range {
	switch t {
	case ir.Boolean:
		return sym.R(0, 1)
	case ir.I8:
		return sym.R(math.MinInt8, math.MaxInt8)
	case ir.I16:
		return sym.R(math.MinInt16, math.MaxInt16)
	case ir.I32:
		return sym.R(math.MinInt32, math.MaxInt32)
	case ir.U8:
		return sym.R(0, math.MaxUint8)
	case ir.U16:
		return sym.R(0, math.MaxUint16)
	case ir.U32:
		return sym.R(0, math.MaxUint32)
	case ir.U64:
		return sym.R(0, math.MaxInt64)
	}
	return sym.R(math.MinInt64, math.MaxInt64)
}

// TypeRange is exported for the validator's messages.
func TypeRange(t ir.ElementType) sym.Range { return typeRange(t) }

func isInt(t ir.ElementType) bool { return t.IsInteger() || t == ir.Boolean }

// MaxDim is the largest dimension the analysis lets a tensor have: no
// tensor a model runs on has a dimension of 2^40 (a terabyte of bytes),
// and shape arithmetic that would overflow int64 only beyond it is taken
// not to.
const MaxDim = 1 << 40

func dimRange(d shapeinfer.Dim) sym.Range {
	return sym.R(min(d.Min, MaxDim), min(d.Max, MaxDim))
}

var anyDim = sym.R(0, MaxDim)

// input makes the symbols of a model input.
func (a *Analysis) input(l *ir.Layer, info ops.ValueInfo) *Value {
	in := &Input{Layer: l, Type: info.Type, Shape: info.Shape}
	a.Inputs = append(a.Inputs, in)
	v := &Value{Type: info.Type, Rank: -1}
	if !info.Shape.DynamicRank {
		v.Rank = len(info.Shape.Dims)
		v.Static, _ = info.Shape.ToStatic()
		for i, d := range info.Shape.Dims {
			declared, anyShape := a.narrowed(in, true, i, dimRange(d), anyDim)
			s := a.newSym(fmt.Sprintf("%s.shape[%d]", l.Name, i), false, declared, anyShape, Origin{Kind: InputDim, Input: in, Index: i})
			in.Dims = append(in.Dims, s)
			v.Dims = append(v.Dims, a.B.Var(s))
		}
	}
	if !isInt(info.Type) {
		return v
	}
	v.Int = true
	r := typeRange(info.Type)
	dims, static := info.Shape.ToStatic()
	n, err := ir.NumElements(dims)
	// A tensor empty at the declared shapes gets the summary symbol: it
	// holds elements at other shapes (x: i64[0] reshaped to [2]), of any
	// value, where tracking its none would make them nothing (A = 0).
	if static && err == nil && n > 0 && n <= MaxElems {
		for i := range int(n) {
			declared, anyShape := a.narrowed(in, false, i, r, r)
			s := a.newSym(fmt.Sprintf("%s[%d]", l.Name, i), false, declared, anyShape, Origin{Kind: InputElem, Input: in, Index: i})
			in.Elems = append(in.Elems, s)
			v.Elems = append(v.Elems, a.B.Var(s))
		}
		return v
	}
	s := a.newSym(l.Name+"[*]", true, r, r, Origin{Kind: InputElem, Input: in, Index: -1})
	in.Elems, in.Summary = []sym.Sym{s}, true
	v.all = a.B.Var(s)
	return v
}

// constant is the value of a known tensor: its elements exactly.
func (a *Analysis) constant(t *ir.Tensor) *Value {
	v := &Value{Type: t.Type, Rank: len(t.Shape), Tensor: t, Static: t.Shape}
	for _, d := range t.Shape {
		v.Dims = append(v.Dims, sym.Const(d))
	}
	// The range of a float constant matters where it scales a size (a
	// few elements); a model's weights, millions of them, are left
	// unbounded rather than read: reading them was half of validating
	// Faster R-CNN.
	if t.Type.IsFloat() && t.Len() <= MaxElems {
		f := &FloatRange{Lo: math.Inf(1), Hi: math.Inf(-1)}
		for i := range t.Len() {
			x := t.Float64At(i)
			if math.IsNaN(x) {
				f.NaN = true
				continue
			}
			f.Lo, f.Hi = min(f.Lo, x), max(f.Hi, x)
		}
		v.F = f
	}
	if !isInt(t.Type) {
		return v
	}
	v.Int = true
	n := t.Len()
	vals := make([]sym.Expr, 0, min(n, MaxElems))
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	exact := true
	for i := range n {
		x, ok := IntAt(t, i)
		if !ok {
			exact = false
			break
		}
		lo, hi = min(lo, x), max(hi, x)
		if n <= MaxElems {
			vals = append(vals, sym.Const(x))
		}
	}
	switch {
	case !exact:
		v.all = a.fresh(nil, typeRange(t.Type), "an element of a u64 constant above 2^63-1")
	case n <= MaxElems:
		v.Elems = vals
	case lo == hi:
		v.all = sym.Const(lo)
	default:
		// A symbol of its own, not an Unknown of this text: two such
		// constants are not one value.
		v.all = a.fresh(nil, sym.R(lo, hi), fmt.Sprintf("an element of a constant of %d elements", n))
	}
	return v
}

// IntAt reads element i of an integer or boolean tensor; ok is false for
// a u64 above 2^63-1.
func IntAt(t *ir.Tensor, i int) (int64, bool) {
	switch t.Type {
	case ir.I8:
		return int64(ir.View[int8](t)[i]), true
	case ir.I16:
		return int64(ir.View[int16](t)[i]), true
	case ir.I32:
		return int64(ir.View[int32](t)[i]), true
	case ir.I64:
		return ir.View[int64](t)[i], true
	case ir.U8:
		return int64(t.Data[i]), true
	case ir.Boolean:
		// Any byte but 0 is true, as ops reads a boolean.
		if t.Data[i] != 0 {
			return 1, true
		}
		return 0, true
	case ir.U16:
		return int64(ir.View[uint16](t)[i]), true
	case ir.U32:
		return int64(ir.View[uint32](t)[i]), true
	case ir.U64:
		v := ir.View[uint64](t)[i]
		return int64(v), v <= math.MaxInt64
	}
	return 0, false
}

// All is an expression every element of v satisfies: the one
// expression of a large tensor, one of the tracked ones of a small one.
func (a *Analysis) All(v *Value) sym.Expr {
	if v.Elems == nil {
		return v.all
	}
	if v.summary != nil {
		return *v.summary
	}
	var e sym.Expr
	switch {
	case len(v.Elems) == 0:
		e = a.fresh(nil, typeRange(v.Type), "an element of an empty tensor")
	case len(v.Elems) > maxSelect:
		e = a.B.Select(a.hullOf(v.Elems)...)
	default:
		e = a.B.Select(v.Elems...)
	}
	v.summary = &e
	return e
}

// hullOf shrinks many expressions to a few that bound them: the distinct
// ones when few, else an unknown of their constants' range.
func (a *Analysis) hullOf(es []sym.Expr) []sym.Expr {
	var distinct []sym.Expr
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	allConst := true
	for _, e := range es {
		if c, ok := e.IsConst(); ok {
			lo, hi = min(lo, c), max(hi, c)
		} else {
			allConst = false
		}
		if len(distinct) <= maxSelect && !slices.ContainsFunc(distinct, e.Equal) {
			distinct = append(distinct, e)
		}
	}
	if len(distinct) <= maxSelect {
		return distinct
	}
	if allConst {
		return []sym.Expr{sym.Const(lo), sym.Const(hi), a.fresh(nil, sym.R(lo, hi), fmt.Sprintf("one of %d constants in [%d, %d]", len(es), lo, hi))}
	}
	// A symbol of its own: two tensors of many elements are not one
	// value (an Unknown of the same text would be the same atom, and x -
	// y would be 0).
	return []sym.Expr{a.fresh(nil, sym.Range{Lo: sym.NegInf, Hi: sym.PosInf}, fmt.Sprintf("one of %d tracked elements", len(es)))}
}

// opaque is the value of an output irdiv does not follow: its dims are
// new symbols ranging over the inferred dims at the declared shapes and
// anything at other shapes; its integers are unknown, naming the layer.
func (a *Analysis) opaque(l *ir.Layer, i int, info ops.ValueInfo) *Value {
	v := &Value{Type: info.Type, Rank: -1}
	if !info.Shape.DynamicRank {
		v.Rank = len(info.Shape.Dims)
		v.Static, _ = info.Shape.ToStatic()
		for j, d := range info.Shape.Dims {
			s := a.newSym(fmt.Sprintf("%s.out%d.shape[%d]", l.Name, i, j), false, dimRange(d), anyDim, Origin{Kind: Derived, Layer: l, Index: j})
			v.Dims = append(v.Dims, a.B.Var(s))
		}
	}
	if isInt(info.Type) {
		v.Int = true
		r := typeRange(info.Type)
		if indexOutput(l.Type, i) {
			r = sym.R(0, min(MaxDim, r.Hi.V))
		}
		v.all = a.fresh(l, r, "a value")
	}
	return v
}

// indexOutput tells the outputs that are indices into a tensor, never
// negative, of the ops irdiv does not follow (ONNX's and OpenVINO's).
func indexOutput(typ string, i int) bool {
	switch strings.ToLower(typ) {
	case "argmax", "argmin", "nonzero", "nonmaxsuppression":
		return i == 0
	case "topk":
		return i == 1
	case "unique":
		return i > 0
	}
	return false
}

// describe names a layer for "the op that stopped the analysis".
func describe(l *ir.Layer) string {
	return fmt.Sprintf("%s %q", l.Type, truncate(l.Name))
}

func truncate(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

func (a *Analysis) issue(l *ir.Layer, kind IssueKind, format string, args ...any) {
	a.Issues = append(a.Issues, Issue{l, kind, fmt.Sprintf(format, args...)})
}

// In returns the value that feeds input i of l.
func (a *Analysis) In(l *ir.Layer, i int) *Value {
	src := a.Sources[l]
	if i < len(src) && src[i].Layer != nil {
		if v, ok := a.Values[src[i]]; ok {
			return v
		}
	}
	return &Value{Type: ir.Dynamic, Rank: -1}
}

// String prints a value: its dims and its elements (or the expression of
// all of them).
func (a *Analysis) String(v *Value) string {
	var s strings.Builder
	if v.Rank >= 0 {
		parts := make([]string, len(v.Dims))
		for i, d := range v.Dims {
			parts[i] = a.B.String(d)
		}
		s.WriteString("[" + strings.Join(parts, ",") + "]")
	} else {
		s.WriteString("[...]")
	}
	if !v.Int {
		return s.String()
	}
	if v.Elems != nil && len(v.Elems) <= 8 {
		parts := make([]string, len(v.Elems))
		for i, e := range v.Elems {
			parts[i] = a.B.String(e)
		}
		s.WriteString(" = {" + strings.Join(parts, ", ") + "}")
	} else {
		s.WriteString(" each " + a.B.String(a.All(v)))
	}
	return s.String()
}

// NormAxis resolves a negative axis against a rank, and reports whether
// the axis is in [-rank, rank).
func NormAxis(axis int64, rank int) (int, bool) {
	if axis < 0 {
		axis += int64(rank)
	}
	return int(axis), axis >= 0 && axis < int64(rank)
}

// NeverRuns says why a layer of a body never runs at any input the model
// runs on ("" where it may run): its Loop's trip count is 0, or its If's
// condition always picks the other branch.
func (a *Analysis) NeverRuns(l *ir.Layer) string {
	if a.reached[l] {
		return ""
	}
	return a.unreached[l]
}

// walkingDead walks what run does as a body that never runs, for why
// (nothing where why is "" and no enclosing body is dead).
func (a *Analysis) walkingDead(why string, run func()) {
	saved := a.dead
	if a.dead == "" {
		a.dead = why
	}
	run()
	a.dead = saved
}
