package absint

import (
	"errors"
	"fmt"
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// foldBytes bounds the constants the analysis computes.
const foldBytes = 1 << 20

// fresh is a value in r that the analysis does not follow, one for each
// element: an element symbol, so that elements moved elsewhere get
// independent copies. l is the layer that made it: the op that stopped
// the analysis.
func (a *Analysis) fresh(l *ir.Layer, r sym.Range, what string) sym.Expr {
	return a.freshIn(l, r, r, what)
}

// freshIn is fresh of range declared at the declared input shapes,
// anyShape at any.
func (a *Analysis) freshIn(l *ir.Layer, declared, anyShape sym.Range, what string) sym.Expr {
	name := what
	if l != nil {
		name = fmt.Sprintf("%s of %s", what, describe(l))
	}
	return a.B.Var(a.newSym(name, true, declared, anyShape, Origin{Kind: Derived, Layer: l, Index: -1}))
}

// requirements records what l needs of its inputs to run
// (requirements.go), before folding or tracing, which compute
// OpenVINO's ops: its Squeeze keeps a dim that is not 1, where ONNX's
// fails, and its Range-4 makes no elements of a step of 0, where ONNX's
// fails.
func (a *Analysis) requirements(l *ir.Layer, op ops.Op, ins []*Value) {
	switch o := op.(type) {
	case *ops.Gather:
		if a.opts.ONNX && len(ins) == 3 {
			a.gatherRequires(l, ins, o)
		}
	case *ops.Squeeze:
		if a.opts.ONNX {
			a.squeezeRequires(l, ins)
		}
	case *ops.Range:
		a.rangeRequires(l, ins, o)
	case *ops.Reshape:
		a.reshapeRequires(l, ins, o.SpecialZero)
	case *ops.Broadcast:
		a.broadcastRequires(l, ins, o)
	case *ops.Interpolate:
		if a.opts.ONNX {
			a.resizeRequires(l, ins, o)
		}
	case *ops.TensorIterator:
		if a.opts.ONNX {
			a.scanRequires(l, ins, o)
		}
	case *ops.Divide:
		a.divisorRequires(l, ins, o.Broadcast, "divides integers, which ONNX Runtime refuses to do by 0 (\"Integer division by zero\")")
	case *ops.FloorMod:
		a.divisorRequires(l, ins, o.Broadcast, "takes the remainder of integers, which ONNX Runtime refuses to do by 0 (\"Integer modulo by zero\")")
	}
}

// transfer computes the values of l's outputs.
func (a *Analysis) transfer(l *ir.Layer) []*Value {
	infos := a.Infos[l]
	fallback := func() []*Value {
		out := make([]*Value, len(infos))
		for i, info := range infos {
			out[i] = a.opaque(l, i, info)
		}
		return out
	}
	op := a.Ops[l]
	switch o := op.(type) {
	case nil:
		if f := a.opts.Failed[l]; f != nil {
			// Opaque, but what its op needs of its inputs holds.
			ins := make([]*Value, len(l.Inputs))
			for i := range ins {
				ins[i] = a.In(l, i)
			}
			a.requirements(l, f, ins)
		}
		return fallback()
	case *ops.Parameter:
		return []*Value{a.input(l, infos[0])}
	case *ops.Const:
		if o.Tensor == nil {
			// Its values are not read (a model's weights), but its shape
			// is the one it declares, whatever the inputs.
			out := fallback()
			if static, ok := infos[0].Shape.ToStatic(); ok && out[0].Rank == len(static) {
				for i, d := range static {
					out[0].Dims[i] = sym.Const(d)
				}
			}
			return out
		}
		return []*Value{a.constant(o.Tensor)}
	case *ops.Result:
		return nil
	}
	ins := make([]*Value, len(l.Inputs))
	for i := range ins {
		ins[i] = a.In(l, i)
	}
	if g, ok := op.(*ops.Gather); ok && len(ins) == 3 {
		a.checkGather(l, ins, g)
	}
	a.requirements(l, op, ins)
	// An If or a Loop is never computed from constants or traced: the
	// Divides of its bodies need values of their own (controlflow.go).
	if _, holdsBodies := op.(ops.BodyHolder); !holdsBodies {
		if out := a.fold(l, op, ins); out != nil {
			return out
		}
		if out := a.trace(op, ins, infos); out != nil {
			a.markLayout(op, ins, out, !a.ruleDims(l, op, ins, infos, out))
			return out
		}
	}
	out := a.apply(&call{l: l, op: op, ins: ins, infos: infos})
	if out == nil {
		return fallback()
	}
	a.markLayout(op, ins, out, false)
	for i, v := range out {
		if i >= len(infos) || infos[i].Shape.DynamicRank {
			continue
		}
		// Where a rule gives no rank, the inference at the declared
		// shapes may: keep its dims as symbols.
		if v.Rank < 0 {
			o := a.opaque(l, i, infos[i])
			v.Rank, v.Dims = o.Rank, o.Dims
		}
		if static, ok := infos[i].Shape.ToStatic(); ok && len(static) == v.Rank {
			v.Static = static
			if n, err := ir.NumElements(static); v.Elems != nil && (err != nil || n != int64(len(v.Elems))) {
				// A layer that cannot run at the declared shapes (a
				// Reshape to another number of elements) keeps its
				// input's elements: they no longer fit its dims.
				v.all, v.Elems = a.All(v), nil
			}
		}
	}
	return out
}

// markLayout sets DeclaredLayout on the outputs of an op that places,
// picks or counts the tracked elements of a value whose dims vary with
// the input shapes, or reads elements that hold DeclaredLayout: those
// elements are laid out as at the declared shapes only. Element-wise
// ops pair the same positions at every shape, and keep a value's layout
// free. It sets DeclaredDims where the dims come from such a layout too:
// trace gives the dims at the declared shapes as constants, and an op
// whose shape, indices or axes are marked elements sizes its output by
// them. ShapeOf's elements are dims: marked where those are.
func (a *Analysis) markLayout(op ops.Op, ins []*Value, out []*Value, traced bool) {
	layout, dims := false, false
	for i, v := range ins {
		if _, ok := op.(*ops.ShapeOf); ok {
			layout, dims = layout || v.DeclaredDims, dims || v.DeclaredDims
			continue
		}
		dims = dims || v.DeclaredDims || v.DeclaredLayout && !isData(op, len(ins), i)
		if v.DeclaredLayout {
			layout = true
		}
		if v.Elems != nil && !elementWise(op) && !constantDims(v) {
			layout = true
			dims = dims || traced
		}
	}
	for _, v := range out {
		if v != nil {
			v.DeclaredLayout = v.DeclaredLayout || layout || dims
			v.DeclaredDims = v.DeclaredDims || dims
		}
	}
}

// isData tells whether input i of op is data whose elements do not size
// the output (conservatively: the inputs irdiv's rules read as data).
func isData(op ops.Op, n, i int) bool {
	switch op.(type) {
	case *ops.Reduce:
		return i == 0
	case *ops.MatMul:
		return true
	}
	return elementWise(op) || slices.Contains(dataInputs(op, n), i)
}

// ruleDims gives traced outputs the dims of the op's rule where a data
// input's dims vary with the input shapes: trace's are the constants of
// the declared shapes, the rule's hold at every shape. It reports
// whether the dims hold at every shape.
func (a *Analysis) ruleDims(l *ir.Layer, op ops.Op, ins []*Value, infos []ops.ValueInfo, out []*Value) bool {
	varying := false
	for _, i := range dataInputs(op, len(ins)) {
		varying = varying || i < len(ins) && !constantDims(ins[i])
	}
	if !varying {
		return true
	}
	r := a.apply(&call{l: l, op: op, ins: ins, infos: infos})
	if len(r) != len(out) {
		return false
	}
	for i, v := range r {
		if v == nil || v.Rank != out[i].Rank {
			return false
		}
	}
	for i, v := range r {
		out[i].Dims = v.Dims
	}
	return true
}

// constantDims tells whether a value's dims are constants at every input
// shape (not only at the declared ones, which Static holds).
func constantDims(v *Value) bool {
	if v.Rank < 0 {
		return false
	}
	for _, d := range v.Dims {
		if _, ok := d.IsConst(); !ok {
			return false
		}
	}
	return true
}

// elementWise lists the ops whose every output element is computed from
// the input elements at its own position (broadcast): their rules pair
// elements the same way at every shape.
func elementWise(op ops.Op) bool {
	switch op.(type) {
	case *ops.Add, *ops.Subtract, *ops.Multiply, *ops.Divide, *ops.FloorMod, *ops.Mod, *ops.Minimum, *ops.Maximum,
		*ops.SquaredDifference, *ops.Power, *ops.LogicalAnd, *ops.LogicalOr, *ops.LogicalXor, *ops.LogicalNot,
		*ops.Equal, *ops.NotEqual, *ops.Less, *ops.LessEqual, *ops.Greater, *ops.GreaterEqual, *ops.Select,
		*ops.Abs, *ops.Negative, *ops.Sign, *ops.Floor, *ops.Ceiling, *ops.Round, *ops.Relu, *ops.Clamp, *ops.Convert:
		return true
	}
	return false
}

// fold computes an op of constants, as OpenVINO's constant folding does.
func (a *Analysis) fold(l *ir.Layer, op ops.Op, ins []*Value) []*Value {
	if !ops.Evaluable(op) {
		return nil
	}
	tensors := make([]*ir.Tensor, len(ins))
	for i, v := range ins {
		if v.Tensor == nil {
			return nil
		}
		tensors[i] = v.Tensor
	}
	if d, ok := op.(*ops.Divide); ok && d.PythonDiv != a.floors(d) {
		// Constants divide as the analysis divides (divide.go): 5 / -3
		// is -1 in a model from ONNX, and the floor's -2 would make
		// -2 / 2 "exact" where ONNX divides -1 by 2.
		copied := *d
		copied.PythonDiv = a.floors(d)
		op = &copied
	}
	res, err := ops.Evaluate(op, tensors, ops.Options{MaxTensorBytes: foldBytes})
	if err != nil {
		if !errors.Is(err, ir.ErrTooLarge) && !errors.Is(err, ops.ErrUnsupportedOp) && !errors.Is(err, ops.ErrType) &&
			!errors.Is(err, ops.ErrDivideByZero) && !errors.Is(err, ops.ErrOverflow) {
			a.issue(l, EvaluateFails, "computing it from its constant inputs fails: %v", err)
		}
		return nil
	}
	out := make([]*Value, len(res))
	for i, t := range res {
		out[i] = a.constant(t)
	}
	return out
}

// dataInputs lists, for the ops that only move elements, which inputs are
// data (the others must be constants: indices, axes, shapes).
func dataInputs(op ops.Op, n int) []int {
	switch op.(type) {
	case *ops.Gather, *ops.Slice, *ops.StridedSlice, *ops.Reshape, *ops.Squeeze, *ops.Unsqueeze,
		*ops.Transpose, *ops.Tile, *ops.Broadcast, *ops.Split, *ops.VariadicSplit:
		return []int{0}
	case *ops.Concat:
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		return all
	case *ops.Select:
		return []int{1, 2}
	}
	return nil
}

// trace follows the elements of small tensors through ops that move
// them, by evaluating the op on tensors of element numbers: every output
// element then names the input element it is (0 for a zero filled in, as
// Gather does for an index out of range).
func (a *Analysis) trace(op ops.Op, ins []*Value, infos []ops.ValueInfo) []*Value {
	data := dataInputs(op, len(ins))
	if data == nil {
		return nil
	}
	tensors := make([]*ir.Tensor, len(ins))
	var sources []sym.Expr
	for i, v := range ins {
		if !slices.Contains(data, i) {
			t, ok := a.tensorOf(v)
			if !ok {
				return nil
			}
			tensors[i] = t
			continue
		}
		dims, ok := v.ConstDims()
		if !ok || !v.Int || v.Elems == nil {
			return nil
		}
		t, err := ir.NewTensor(ir.I64, dims)
		if err != nil {
			return nil
		}
		for j := range v.Elems {
			ir.View[int64](t)[j] = int64(len(sources) + j + 1)
		}
		sources = append(sources, v.Elems...)
		tensors[i] = t
	}
	res, err := ops.Evaluate(op, tensors, ops.Options{MaxTensorBytes: MaxElems * 8})
	if err != nil {
		return nil
	}
	var moved []*Value
	for _, i := range data {
		if i < len(ins) {
			moved = append(moved, ins[i])
		}
	}
	shape := shapeOperands(moved...)
	out := make([]*Value, len(res))
	for i, t := range res {
		v := &Value{Type: ir.I64, Rank: len(t.Shape), Int: true, Elems: make([]sym.Expr, t.Len()), Shape: shape, Static: t.Shape}
		if i < len(infos) {
			v.Type = infos[i].Type
		}
		for _, d := range t.Shape {
			v.Dims = append(v.Dims, sym.Const(d))
		}
		for j, k := range ir.View[int64](t) {
			if k == 0 {
				v.Elems[j] = sym.Const(0)
			} else {
				v.Elems[j] = sources[k-1]
			}
		}
		out[i] = v
	}
	return out
}

// tensorOf returns the tensor of a value whose elements are all known
// constants.
func (a *Analysis) tensorOf(v *Value) (*ir.Tensor, bool) {
	if v.Tensor != nil {
		return v.Tensor, true
	}
	dims, ok := v.ConstDims()
	if !ok || !v.Int || v.Elems == nil || !isInt(v.Type) {
		return nil, false
	}
	t, err := ir.NewTensor(v.Type, dims)
	if err != nil {
		return nil, false
	}
	for i, e := range v.Elems {
		c, ok := e.IsConst()
		if !ok {
			return nil, false
		}
		t.SetInt64(i, c)
	}
	return t, true
}

// constInts returns the elements of a value that are all constants.
func constInts(v *Value) ([]int64, bool) {
	if !v.Int {
		return nil, false
	}
	if v.Elems == nil {
		if n, ok := v.NumElems(); ok && n == 1 {
			if c, ok := v.all.IsConst(); ok {
				return []int64{c}, true
			}
		}
		return nil, false
	}
	out := make([]int64, len(v.Elems))
	for i, e := range v.Elems {
		c, ok := e.IsConst()
		if !ok {
			return nil, false
		}
		out[i] = c
	}
	return out, true
}
