package absint

import (
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// A call is one layer's op applied to the abstract values of its inputs.
type call struct {
	l     *ir.Layer
	op    ops.Op
	ins   []*Value
	infos []ops.ValueInfo // the outputs at the declared shapes
}

// out is output i at the declared shapes; unknown beyond the layer's
// ports.
func (c *call) out(i int) ops.ValueInfo {
	if i < len(c.infos) {
		return c.infos[i]
	}
	return ops.ValueInfo{Type: ir.Dynamic, Shape: shapeinfer.DynamicRankShape()}
}

// t is the element type of the first output.
func (c *call) t() ir.ElementType { return c.out(0).Type }

// A rule is the abstract semantics of one op type: what its outputs can
// be, given what its inputs can be. Each must be sound: for any concrete
// inputs its abstract inputs allow, the op's concrete outputs (ops'
// evaluation) are among those its abstract outputs allow (the property
// tests of rules_test.go check it on random and edge inputs).
type rule struct {
	// inputs is the number of inputs the rule reads; a layer with fewer
	// stays opaque.
	inputs int
	// values gives the outputs' dims and integer elements; nil (or a nil
	// result) leaves them opaque.
	values func(a *Analysis, c *call) []*Value
	// floats bounds the elements of a float output (nil: unknown).
	floats func(a *Analysis, c *call) *FloatRange
}

// one is a rule's single output, or none.
func one(v *Value) []*Value {
	if v == nil {
		return nil
	}
	return []*Value{v}
}

// rules holds the rule of every op type the interpreter follows, keyed
// by the type ops gives it (OpType). Parameter, Const and Result are the
// walk's own; the ops of opaqueOps have no rule on purpose.
var rules = map[string]rule{
	// Binary arithmetic (binary.go), Divide (divide.go).
	"Add": arith(func(a *Analysis, t ir.ElementType, x, y sym.Expr) sym.Expr {
		return a.wrapExact(t, x, y, a.B.Add, func(p, q int64) int64 { return p + q })
	}, addF),
	"Subtract": {inputs: 2, values: subtract, floats: subtractFloats},
	"Multiply": arith(func(a *Analysis, t ir.ElementType, x, y sym.Expr) sym.Expr {
		return a.wrapExact(t, x, y, a.B.Mul, func(p, q int64) int64 { return p * q })
	}, mulF),
	"Minimum":           arith(func(a *Analysis, _ ir.ElementType, x, y sym.Expr) sym.Expr { return a.B.Min(x, y) }, minF),
	"Maximum":           arith(func(a *Analysis, _ ir.ElementType, x, y sym.Expr) sym.Expr { return a.B.Max(x, y) }, maxF),
	"FloorMod":          arith(func(a *Analysis, _ ir.ElementType, x, y sym.Expr) sym.Expr { return a.B.Mod(x, y, true) }, nil),
	"Mod":               arith(func(a *Analysis, _ ir.ElementType, x, y sym.Expr) sym.Expr { return a.B.Mod(x, y, false) }, nil),
	"SquaredDifference": arith(squaredDifference, nil),
	"Power":             {inputs: 2, values: power, floats: powerF},
	"Divide":            {inputs: 2, values: divide, floats: divideFloats},

	// Comparison and logic (compare.go).
	"Equal":        comparison(),
	"NotEqual":     comparison(),
	"Less":         comparison(),
	"LessEqual":    comparison(),
	"Greater":      comparison(),
	"GreaterEqual": comparison(),
	"LogicalAnd":   arith(func(a *Analysis, _ ir.ElementType, x, y sym.Expr) sym.Expr { return a.B.Min(x, y) }, nil),
	"LogicalOr":    arith(func(a *Analysis, _ ir.ElementType, x, y sym.Expr) sym.Expr { return a.B.Max(x, y) }, nil),
	"LogicalXor":   {inputs: 2, values: logicalXor},
	"LogicalNot":   elementwise(func(a *Analysis, _ ir.ElementType, x sym.Expr) sym.Expr { return a.B.Sub(sym.Const(1), x) }, nil),
	"Select":       {inputs: 3, values: selectRule, floats: selectF},

	// Unary (unary.go), conversion (convert.go).
	"Abs":                elementwise(func(a *Analysis, t ir.ElementType, x sym.Expr) sym.Expr { return a.wrap(a.B.Abs(x), t) }, absF),
	"Negative":           elementwise(func(a *Analysis, t ir.ElementType, x sym.Expr) sym.Expr { return a.wrap(a.B.Neg(x), t) }, negF),
	"Sign":               elementwise(sign, nil),
	"Floor":              elementwise(identity, floorF),
	"Ceiling":            elementwise(identity, ceilF),
	"Round":              elementwise(identity, roundF),
	"Relu":               elementwise(func(a *Analysis, _ ir.ElementType, x sym.Expr) sym.Expr { return a.B.Max(x, sym.Const(0)) }, reluF),
	"Clamp":              {inputs: 1, values: clampRule, floats: clampF},
	"Convert":            {inputs: 1, values: convertRule, floats: convertF},
	"Sqrt":               floatOnly(sqrtF),
	"Exp":                floatOnly(expF),
	"Sigmoid":            floatOnly(sigmoidF),
	"Tanh":               floatOnly(tanhF),
	"Log":                floatOnly(nil),
	"Elu":                floatOnly(nil),
	"Gelu":               floatOnly(nil),
	"HSwish":             floatOnly(nil),
	"HSigmoid":           floatOnly(nil),
	"Mish":               floatOnly(nil),
	"SoftPlus":           floatOnly(nil),
	"Swish":              floatOnly(nil),
	"Softmax":            floatOnly(nil),
	"FakeQuantize":       floatOnly(nil),
	"BatchNormInference": floatOnly(nil),
	"MVN":                floatOnly(nil),

	// ShapeOf (shapeof.go); reshapes and transposes (reshape.go).
	"ShapeOf": {inputs: 1, values: func(a *Analysis, c *call) []*Value { return one(a.shapeOf(c.ins[0], c.op.(*ops.ShapeOf).OutputType)) }},
	"Reshape": {inputs: 2, values: func(a *Analysis, c *call) []*Value {
		return one(a.reshape(c.l, c.ins, c.op.(*ops.Reshape).SpecialZero, c.t()))
	}},
	"Squeeze":   {inputs: 1, values: func(a *Analysis, c *call) []*Value { return one(a.squeeze(c.l, c.ins, c.out(0), c.t())) }},
	"Unsqueeze": {inputs: 2, values: func(a *Analysis, c *call) []*Value { return one(a.unsqueeze(c.ins, c.t())) }},
	"Transpose": {inputs: 2, values: func(a *Analysis, c *call) []*Value { return one(a.transpose(c.ins, c.t())) }},

	// Gather and slices (gather_slice.go); concatenation and splits
	// (concat_split.go).
	"Gather": {inputs: 3, values: func(a *Analysis, c *call) []*Value { return one(a.gather(c.l, c.ins, c.op.(*ops.Gather))) }},
	"Concat": {inputs: 1, values: func(a *Analysis, c *call) []*Value { return one(a.concat(c.ins, c.op.(*ops.Concat).Axis, c.t())) }},
	"Slice":  {inputs: 4, values: func(a *Analysis, c *call) []*Value { return one(a.slice(c.ins, c.t())) }},
	"StridedSlice": {inputs: 3, values: func(a *Analysis, c *call) []*Value {
		return one(a.stridedSlice(c.ins, c.op.(*ops.StridedSlice), c.t()))
	}},
	"Split": {inputs: 2, values: func(a *Analysis, c *call) []*Value {
		return a.split(c.ins, c.op.(*ops.Split).NumSplits, nil, c.infos)
	}},
	"VariadicSplit": {inputs: 3, values: variadicSplit},

	// Broadcast and Tile (broadcast.go), Range (range.go), Pad (pad.go).
	"Broadcast": {inputs: 2, values: func(a *Analysis, c *call) []*Value { return one(a.broadcast(c.l, c.ins, c.op.(*ops.Broadcast), c.t())) }},
	"Tile":      {inputs: 2, values: func(a *Analysis, c *call) []*Value { return one(a.tile(c.l, c.ins, c.t())) }},
	"Range":     {inputs: 3, values: func(a *Analysis, c *call) []*Value { return one(a.rangeOp(c.l, c.ins, c.t())) }},
	"Pad":       {inputs: 3, values: func(a *Analysis, c *call) []*Value { return one(a.pad(c.ins, c.t())) }},

	// Reductions (reduce.go), MatMul (matmul.go).
	"ReduceSum":        reduction(),
	"ReduceMean":       reduction(),
	"ReduceProd":       reduction(),
	"ReduceMin":        reduction(),
	"ReduceMax":        reduction(),
	"ReduceLogicalAnd": reduction(),
	"ReduceLogicalOr":  reduction(),
	"MatMul":           {inputs: 2, values: func(a *Analysis, c *call) []*Value { return one(a.matmul(c.ins, c.op.(*ops.MatMul), c.t())) }},

	// Convolution and pooling shapes (conv_pool.go), Interpolate
	// (interpolate.go).
	"Convolution":                  spatialRule(),
	"GroupConvolution":             spatialRule(),
	"ConvolutionBackpropData":      spatialRule(),
	"GroupConvolutionBackpropData": spatialRule(),
	"MaxPool":                      spatialRule(),
	"AvgPool":                      spatialRule(),
	"Interpolate": {inputs: 2, values: func(a *Analysis, c *call) []*Value {
		return one(a.interpolate(c.ins, c.op.(*ops.Interpolate), c.t()))
	}},
}

// The rules of control flow (controlflow.go) walk bodies with the walk
// that applies the rules: registered once the table exists.
func init() {
	rules["If"] = rule{inputs: 1, values: ifValues}
	rules["Loop"] = rule{inputs: 2, values: loopValues}
	rules["TensorIterator"] = rule{values: tensorIteratorValues}
}

// opaqueOps are the op types that have no rule, on purpose, and why:
// their outputs are new symbols, ranging over their type (and their
// declared dims at the declared shapes).
var opaqueOps = map[string]string{}

// walkOps are the op types the walk handles itself: the model's inputs,
// its constants and its outputs.
var walkOps = []string{"Parameter", "Constant", "Result"}

// ruleOf returns the rule of an op, if it has one.
func ruleOf(op ops.Op) (rule, bool) {
	typ, _ := op.OpType()
	r, ok := rules[typ]
	return r, ok
}

// apply computes a layer's outputs by its op's rule; nil leaves them
// opaque.
func (a *Analysis) apply(c *call) []*Value {
	r, ok := ruleOf(c.op)
	if !ok || len(c.ins) < max(r.inputs, 1) {
		return nil
	}
	var out []*Value
	if r.values != nil {
		out = r.values(a, c)
	}
	if len(out) == 1 && out[0].Type.IsFloat() && out[0].F == nil && r.floats != nil {
		out[0].F = roundOut(r.floats(a, c), out[0].Type)
		out[0].FD = a.declaredFloats(r, c, out[0])
	}
	return out
}

// declaredFloats bounds the elements of v, the float output of c, at the
// declared input shapes: the rule's floats again, of the inputs' ranges
// there (Value.FD), where some input has one narrower than at any shape,
// or is an integer (whose range there may be narrower). Nil where that is
// no narrower than v.F.
func (a *Analysis) declaredFloats(r rule, c *call, v *Value) *FloatRange {
	if !slices.ContainsFunc(c.ins, func(x *Value) bool { return x != nil && (x.FD != nil || x.Int) }) {
		return nil
	}
	declared := *c
	declared.ins = make([]*Value, len(c.ins))
	for i, x := range c.ins {
		if x != nil && x.FD != nil {
			y := *x
			y.F = x.FD
			x = &y
		}
		declared.ins[i] = x
	}
	a.atDeclared = true
	f := roundOut(r.floats(a, &declared), v.Type)
	a.atDeclared = false
	return narrowerF(f, v.F)
}
