package absint

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// TestRulesCoverRegistry: every op type ops knows has a rule, is opaque
// on purpose (with the reason), or is the walk's own; and the table names
// no type ops does not know.
func TestRulesCoverRegistry(t *testing.T) {
	known := map[string]bool{}
	for _, v := range ops.Catalog() {
		known[v.Name] = true
		_, ruled := rules[v.Name]
		reason, opaque := opaqueOps[v.Name]
		switch {
		case slices.Contains(walkOps, v.Name):
		case ruled && opaque:
			t.Errorf("%s has a rule and is listed as opaque", v.Name)
		case opaque && reason == "":
			t.Errorf("%s is opaque without a reason", v.Name)
		case !ruled && !opaque:
			t.Errorf("%s has no abstract rule: add one to rules (and a case to propertyCases), or list it in opaqueOps with the reason", v.Name)
		}
	}
	for name := range rules {
		if !known[name] {
			t.Errorf("rules names %s, which ops does not know", name)
		}
	}
	for name := range opaqueOps {
		if !known[name] {
			t.Errorf("opaqueOps names %s, which ops does not know", name)
		}
	}
}

// propModel builds the small models of the property tests.
type propModel struct {
	m *ir.Model
	n int
}

func (b *propModel) name(prefix string) string {
	b.n++
	return fmt.Sprintf("%s%d", prefix, b.n)
}

// param is an input of type t and declared shape ("2,3", "1..4,3").
func (b *propModel) param(t ir.ElementType, shape string) ir.Output {
	return ir.Output{Layer: b.m.AddParameter(b.name("x"), t, shapeinfer.MustParseShape(shape))}
}

// ints is a constant of type t and dims holding vs.
func (b *propModel) ints(t ir.ElementType, dims []int64, vs ...int64) ir.Output {
	x, err := ir.NewTensor(t, dims)
	if err != nil {
		panic(err)
	}
	for i, v := range vs {
		x.SetInt64(i, v)
	}
	return ir.Output{Layer: b.m.AddConst(b.name("c"), x)}
}

// vec is a 1-D i64 constant.
func (b *propModel) vec(vs ...int64) ir.Output { return b.ints(ir.I64, []int64{int64(len(vs))}, vs...) }

// scalar is an i64 scalar constant.
func (b *propModel) scalar(v int64) ir.Output { return b.ints(ir.I64, nil, v) }

// floats is a 1-D f32 constant.
func (b *propModel) floats(vs ...float64) ir.Output {
	x, err := ir.NewTensor(ir.F32, []int64{int64(len(vs))})
	if err != nil {
		panic(err)
	}
	for i, v := range vs {
		x.SetFloat64(i, v)
	}
	return ir.Output{Layer: b.m.AddConst(b.name("f"), x)}
}

// op adds a layer of typ ("Gather" or "Gather/opset8") with outs outputs
// and attributes given as name, value pairs.
func (b *propModel) op(typ string, outs int, attrs []string, ins ...ir.Output) []ir.Output {
	version := "opset1"
	if t, v, ok := strings.Cut(typ, "/"); ok {
		typ, version = t, v
	}
	var data []ir.Attr
	for i := 0; i+1 < len(attrs); i += 2 {
		data = append(data, ir.Attr{Name: attrs[i], Value: attrs[i+1]})
	}
	ports := make([]*ir.Port, outs)
	for i := range ports {
		ports[i] = &ir.Port{Type: ir.Dynamic}
	}
	l := b.m.AddLayer(typ, version, b.name(typ), data, ins, ports)
	out := make([]ir.Output, outs)
	for i := range out {
		out[i] = ir.Output{Layer: l, Index: i}
	}
	return out
}

// one is op of one output.
func (b *propModel) one(typ string, attrs []string, ins ...ir.Output) ir.Output {
	return b.op(typ, 1, attrs, ins...)[0]
}

// toF32 converts an integer input to f32, the way into a float path.
func (b *propModel) toF32(x ir.Output) ir.Output {
	return b.one("Convert", []string{"destination_type", "f32"}, x)
}

// A propertyCase is a model whose outputs' abstract values are checked
// against their concrete values; rule names the rule it exercises.
type propertyCase struct {
	rule  string
	name  string
	build func(b *propModel) []ir.Output
}

// portEntry is an <input> or <output> of a port map.
func portEntry(tag string, ext int, internal uint64, attrs ...string) *ir.Node {
	n := &ir.Node{Tag: tag, Attrs: []ir.Attr{{Name: "external_port_id", Value: fmt.Sprint(ext)}, {Name: "internal_layer_id", Value: fmt.Sprint(internal)}}}
	for i := 0; i+1 < len(attrs); i += 2 {
		n.Attrs = append(n.Attrs, ir.Attr{Name: attrs[i], Value: attrs[i+1]})
	}
	return n
}

// bodyBuild makes a body's outputs from its Parameters.
type bodyBuild func(b *propModel, params []ir.Output) []ir.Output

// body builds a body whose Parameters are declared as shapes says (of
// the types of ins), and returns it with its Parameters and Results.
func (b *propModel) body(types []ir.ElementType, shapes []string, build bodyBuild) (*ir.Model, []ir.Output, []*ir.Layer) {
	bb := &propModel{m: &ir.Model{}, n: 1000 + b.n}
	b.n += 1000
	var params []ir.Output
	for i, t := range types {
		params = append(params, bb.param(t, shapes[i]))
	}
	var results []*ir.Layer
	for i, o := range build(bb, params) {
		results = append(results, bb.m.AddResult(fmt.Sprintf("r%d", i), o))
	}
	return bb.m, params, results
}

// ifOp adds an If on cond whose branches read ins (Parameters declared as
// shapes says) and give outs outputs each.
func (b *propModel) ifOp(cond ir.Output, ins []ir.Output, types []ir.ElementType, shapes []string, outs int, then, els bodyBuild) []ir.Output {
	ports := make([]*ir.Port, outs)
	for i := range ports {
		ports[i] = &ir.Port{Type: ir.Dynamic}
	}
	l := b.m.AddLayer("If", "opset8", b.name("If"), nil, append([]ir.Output{cond}, ins...), ports)
	for k, build := range []bodyBuild{then, els} {
		name := []string{"then", "else"}[k]
		m, params, results := b.body(types, shapes, build)
		var entries []*ir.Node
		for i, p := range params {
			entries = append(entries, portEntry("input", i+1, p.Layer.ID))
		}
		for i, r := range results {
			entries = append(entries, portEntry("output", len(ins)+1+i, r.ID))
		}
		l.Extra = append(l.Extra, ir.Extra{Node: &ir.Node{Tag: name + "_port_map", Children: entries}}, ir.Extra{Node: &ir.Node{Tag: name + "_body"}, Body: m})
	}
	out := make([]ir.Output, outs)
	for i := range out {
		out[i] = ir.Output{Layer: l, Index: i}
	}
	return out
}

// loopOp adds a Loop of trip count trip (its condition true) whose body
// reads the current iteration (i64 scalar), the invariant inv and the
// loop-carried acc, and gives acc's next value first, then outputs
// concatenated over the iterations. The Loop's outputs: acc's last value
// and the concatenations.
func (b *propModel) loopOp(trip, inv, acc ir.Output, invType, accType ir.ElementType, invShape, accShape string, scans int, build bodyBuild) []ir.Output {
	ins := []ir.Output{trip, b.ints(ir.Boolean, nil, 1), inv, acc}
	ports := make([]*ir.Port, 1+scans)
	for i := range ports {
		ports[i] = &ir.Port{Type: ir.Dynamic}
	}
	l := b.m.AddLayer("Loop", "opset5", b.name("Loop"), nil, ins, ports)
	m, params, results := b.body([]ir.ElementType{ir.I64, invType, accType}, []string{"", invShape, accShape}, build)
	entries := []*ir.Node{
		portEntry("input", -1, params[0].Layer.ID, "purpose", "current_iteration"),
		portEntry("input", 2, params[1].Layer.ID), portEntry("input", 3, params[2].Layer.ID),
		portEntry("output", 4, results[0].ID),
	}
	for i := range scans {
		entries = append(entries, portEntry("output", 5+i, results[1+i].ID, "axis", "0"))
	}
	back := &ir.Node{Tag: "edge", Attrs: []ir.Attr{{Name: "from-layer", Value: fmt.Sprint(results[0].ID)}, {Name: "to-layer", Value: fmt.Sprint(params[2].Layer.ID)}}}
	l.Extra = []ir.Extra{{Node: &ir.Node{Tag: "port_map", Children: entries}}, {Node: &ir.Node{Tag: "back_edges", Children: []*ir.Node{back}}}, {Node: &ir.Node{Tag: "body"}, Body: m}}
	out := make([]ir.Output, 1+scans)
	for i := range out {
		out[i] = ir.Output{Layer: l, Index: i}
	}
	return out
}

// tiOp adds a TensorIterator that cuts x along axis 0 into parts of one
// (last to first where reverse) and reads the invariant inv and the
// loop-carried acc (body Parameters declared as shapes says: x's part,
// inv, acc); its body gives acc's next value first, then outputs
// concatenated along axis 0 (in reverse order where reverse). The
// TensorIterator's outputs: acc's last value and the concatenations.
func (b *propModel) tiOp(x, inv, acc ir.Output, types []ir.ElementType, shapes []string, reverse bool, concats int, build bodyBuild) []ir.Output {
	ports := make([]*ir.Port, 1+concats)
	for i := range ports {
		ports[i] = &ir.Port{Type: ir.Dynamic}
	}
	l := b.m.AddLayer("TensorIterator", "opset1", b.name("TensorIterator"), nil, []ir.Output{x, inv, acc}, ports)
	m, params, results := b.body(types, shapes, build)
	cut := []string{"axis", "0", "start", "0", "end", "-1", "stride", "1", "part_size", "1"}
	if reverse {
		cut = []string{"axis", "0", "start", "-1", "end", "0", "stride", "-1", "part_size", "1"}
	}
	entries := []*ir.Node{
		portEntry("input", 0, params[0].Layer.ID, cut...),
		portEntry("input", 1, params[1].Layer.ID), portEntry("input", 2, params[2].Layer.ID),
		portEntry("output", 3, results[0].ID),
	}
	for i := range concats {
		entries = append(entries, portEntry("output", 4+i, results[1+i].ID, cut...))
	}
	back := &ir.Node{Tag: "edge", Attrs: []ir.Attr{{Name: "from-layer", Value: fmt.Sprint(results[0].ID)}, {Name: "to-layer", Value: fmt.Sprint(params[2].Layer.ID)}}}
	l.Extra = []ir.Extra{{Node: &ir.Node{Tag: "port_map", Children: entries}}, {Node: &ir.Node{Tag: "back_edges", Children: []*ir.Node{back}}}, {Node: &ir.Node{Tag: "body"}, Body: m}}
	out := make([]ir.Output, 1+concats)
	for i := range out {
		out[i] = ir.Output{Layer: l, Index: i}
	}
	return out
}

func binaryCase(rule string, t ir.ElementType, attrs ...string) propertyCase {
	return propertyCase{rule, t.String(), func(b *propModel) []ir.Output {
		x, y := b.param(t, "2,3"), b.param(t, "3")
		z := b.param(t, "1..3")
		return []ir.Output{b.one(rule, attrs, x, y), b.one(rule, attrs, y, z), b.one(rule, attrs, x, b.ints(t, []int64{1}, 3))}
	}}
}

func unaryCase(rule string, t ir.ElementType, attrs ...string) propertyCase {
	return propertyCase{rule, t.String(), func(b *propModel) []ir.Output {
		return []ir.Output{b.one(rule, attrs, b.param(t, "2,2")), b.one(rule, attrs, b.param(t, "1..5"))}
	}}
}

// floatCase follows a float op on integers converted to f32 and back.
func floatCase(rule string, attrs ...string) propertyCase {
	return propertyCase{rule, "f32", func(b *propModel) []ir.Output {
		// Quarters, so that Floor, Ceiling and Round differ.
		x := b.one("Multiply", nil, b.toF32(b.param(ir.I8, "1,2,3")), b.floats(0.25))
		y := b.one(rule, attrs, x)
		return []ir.Output{y, b.one("Convert", []string{"destination_type", "i32"}, b.one("Floor", nil, y))}
	}}
}

func reduceCase(rule string, t ir.ElementType) propertyCase {
	return propertyCase{rule, t.String(), func(b *propModel) []ir.Output {
		x := b.param(t, "2,3")
		return []ir.Output{
			b.one(rule, []string{"keep_dims", "true"}, x, b.vec(1)),
			b.one(rule, nil, x, b.vec(0, 1)),
			b.one(rule, nil, b.param(t, "2..4"), b.vec(0)),
		}
	}}
}

func spatialCase(rule string, attrs ...string) propertyCase {
	return propertyCase{rule, "", func(b *propModel) []ir.Output {
		x := b.param(ir.F32, "1,2,1..9,1..9")
		var y ir.Output
		switch op, _, _ := strings.Cut(rule, "/"); op {
		case "MaxPool":
			outs := 1
			if strings.Contains(rule, "/") {
				outs = 2 // MaxPool-8 and later give the indices too
			}
			y = b.op(rule, outs, attrs, x)[0]
		case "AvgPool":
			y = b.op(rule, 1, attrs, x)[0]
		case "Convolution", "ConvolutionBackpropData":
			y = b.one(rule, attrs, x, b.ints(ir.F32, []int64{2, 2, 2, 2}))
			if rule == "ConvolutionBackpropData" {
				y = b.one(rule, attrs, x, b.ints(ir.F32, []int64{2, 2, 2, 2}))
			}
		default: // grouped
			y = b.one(rule, attrs, x, b.ints(ir.F32, []int64{2, 1, 1, 2, 2}))
		}
		return []ir.Output{y, b.one("ShapeOf", nil, y)}
	}}
}

// fixup builds PyTorch's floor division of x by k as opset 9 exports
// it: q = Div(x, k) (m_pythondiv as given: "false" truncates; "true"
// floors already, and the fix-up then over-corrects), r = x - q * kMul,
// fix = And(Xor(Less(x, 0), negK), Not(Equal(r, 0))), floordiv = q -
// fix, through Converts to i64 and a Multiply by 1; and x's remainder
// x - floordiv * kMul, and that over 2 (the Divide validate checks).
func (b *propModel) fixup(x, k, kMul, negK ir.Output, pythondiv string) []ir.Output {
	return b.fixupSign(x, k, kMul, negK, pythondiv, false)
}

// fixupSign is fixup, testing r's sign instead of x's where ofR (as the
// floor twins of testdata/pytorch do).
func (b *propModel) fixupSign(x, k, kMul, negK ir.Output, pythondiv string, ofR bool) []ir.Output {
	i64 := []string{"destination_type", "i64"}
	q := b.one("Divide", []string{"m_pythondiv", pythondiv}, x, k)
	r := b.one("Subtract", nil, x, b.one("Multiply", nil, q, kMul))
	signed := x
	if ofR {
		signed = r
	}
	neg := b.one("Less", nil, b.one("Convert", i64, signed), b.scalar(0))
	if negK != (ir.Output{}) { // else no Xor, as Xor(x < 0, false) folds
		neg = b.one("LogicalXor", nil, neg, negK)
	}
	nonZero := b.one("LogicalNot", nil, b.one("Equal", nil, b.one("Convert", i64, r), b.scalar(0)))
	fix := b.one("Multiply", nil, b.one("Convert", i64, b.one("LogicalAnd", nil, neg, nonZero)), b.scalar(1))
	floordiv := b.one("Subtract", nil, b.one("Convert", i64, q), fix)
	mod := b.one("Subtract", nil, b.one("Convert", i64, x), b.one("Multiply", nil, floordiv, b.one("Convert", i64, kMul)))
	return []ir.Output{floordiv, mod, b.one("Divide", []string{"m_pythondiv", "false"}, mod, b.scalar(2))}
}

// fixupConst is fixup of an i32 x by a constant k (Xor's other operand
// the constant k < 0 is, or not where wrongSign).
func (b *propModel) fixupConst(shape string, k int64, wrongSign bool, pythondiv string) []ir.Output {
	x := b.param(ir.I32, shape)
	neg := int64(0)
	if k < 0 != wrongSign {
		neg = 1
	}
	return b.fixup(x, b.ints(ir.I32, nil, k), b.ints(ir.I32, nil, k), b.ints(ir.Boolean, nil, neg), pythondiv)
}

// fixupCases are the floor division of PyTorch's fix-up (binary.go's
// floorFixup): constant divisors of either sign and the ends of i32
// (the edge inputs give x MIN, MAX, 0, +-1...), divisors that are dims or
// less than -1 at every shape, and the cases the rule must leave to the
// generic one: a divisor of unknown sign, -1 (x / -1 overflows), a Xor
// of the wrong sign, a Divide that floors already.
func fixupCases() []propertyCase {
	var out []propertyCase
	for _, k := range []int64{8, -3, 2, -2, 1, 7, math.MaxInt32, math.MinInt32} {
		out = append(out, propertyCase{"Subtract", fmt.Sprintf("fix-up by %d", k), func(b *propModel) []ir.Output {
			return append(b.fixupConst("2,3", k, false, "false"), b.fixupConst("1..4", k, false, "false")...)
		}})
	}
	return append(out,
		propertyCase{"Subtract", "fix-up by a dim", func(b *propModel) []ir.Output {
			d := b.one("Gather/opset8", nil, b.one("ShapeOf", nil, b.param(ir.F32, "1..5,2")), b.scalar(0), b.scalar(0))
			nd := b.one("Subtract", nil, b.scalar(-1), d) // in [-6, -2]
			x := b.param(ir.I64, "3")
			return append(b.fixup(x, d, d, b.one("Less", nil, d, b.scalar(0)), "false"),
				b.fixup(x, nd, nd, b.one("Less", nil, nd, b.scalar(0)), "false")...)
		}},
		propertyCase{"Subtract", "fix-up, broadcast", func(b *propModel) []ir.Output {
			// A divisor of dims, one per column; a divisor of shape
			// [1, 1] that adds a dim to the Div's output only.
			k := b.one("ShapeOf", nil, b.param(ir.F32, "1..3,1..4,2"))
			x := b.param(ir.I64, "2,3")
			eight := b.ints(ir.I32, []int64{1, 1}, 8)
			return append(b.fixup(x, k, k, b.one("Less", nil, k, b.scalar(0)), "false"),
				b.fixup(b.param(ir.I32, "3"), eight, b.ints(ir.I32, nil, 8), b.ints(ir.Boolean, nil, 0), "false")...)
		}},
		propertyCase{"Subtract", "fix-up by a divisor of unknown sign", func(b *propModel) []ir.Output {
			k := b.param(ir.I64, "1")
			return b.fixup(b.param(ir.I64, "2"), k, k, b.one("Less", nil, k, b.scalar(0)), "false")
		}},
		propertyCase{"Subtract", "fix-up by a divisor of unknown sign, Xor with false", func(b *propModel) []ir.Output {
			// Right for a positive divisor only.
			k := b.param(ir.I32, "1")
			return b.fixup(b.param(ir.I32, "2,3"), k, k, b.ints(ir.Boolean, nil, 0), "false")
		}},
		propertyCase{"Subtract", "fix-up without Xor", func(b *propModel) []ir.Output {
			// Right for a positive divisor only.
			x := b.param(ir.I32, "2,3")
			return append(b.fixup(x, b.ints(ir.I32, nil, 8), b.ints(ir.I32, nil, 8), ir.Output{}, "false"),
				b.fixup(x, b.ints(ir.I32, nil, -3), b.ints(ir.I32, nil, -3), ir.Output{}, "false")...)
		}},
		propertyCase{"Subtract", "fix-up testing the remainder's sign", func(b *propModel) []ir.Output {
			var out []ir.Output
			for _, k := range []int64{8, -3, math.MinInt32} {
				neg := int64(0)
				if k < 0 {
					neg = 1
				}
				x := b.param(ir.I32, "2,3")
				out = append(out, b.fixupSign(x, b.ints(ir.I32, nil, k), b.ints(ir.I32, nil, k), b.ints(ir.Boolean, nil, neg), "false", true)...)
			}
			return out
		}},
		propertyCase{"Subtract", "fix-up by -1", func(b *propModel) []ir.Output { return b.fixupConst("2,3", -1, false, "false") }},
		propertyCase{"Subtract", "fix-up of the wrong sign", func(b *propModel) []ir.Output {
			return append(b.fixupConst("2,3", 8, true, "false"), b.fixupConst("2,3", -3, true, "false")...)
		}},
		propertyCase{"Subtract", "fix-up after a flooring Divide", func(b *propModel) []ir.Output {
			return append(b.fixupConst("2,3", 8, false, "true"), b.fixupConst("2,3", -3, false, "true")...)
		}},
	)
}

// propertyCases exercise every rule: each model's inputs are symbols,
// so that the rules, not constant folding, compute the outputs.
var propertyCases = []propertyCase{
	binaryCase("Add", ir.I64), binaryCase("Add", ir.I8), binaryCase("Add", ir.U8),
	binaryCase("Subtract", ir.I32), binaryCase("Subtract", ir.U16),
	binaryCase("Multiply", ir.I64), binaryCase("Multiply", ir.I16),
	{"Multiply", "one value whose products leave int64", func(b *propModel) []ir.Output {
		// H / H is 1 at every H of 1 or more, times 2^40 + 3 twice: a
		// coefficient beyond int64, and the value, wrapped, is known.
		h := b.one("Gather/opset8", nil, b.one("ShapeOf", nil, b.param(ir.F32, "1..6")), b.scalar(0), b.scalar(0))
		one := b.one("Divide", []string{"m_pythondiv", "false"}, h, h)
		k := b.scalar(1<<40 + 3)
		twice := b.one("Multiply", nil, b.one("Multiply", nil, one, k), k)
		small := b.one("Multiply", nil, b.one("Convert", []string{"destination_type", "i32"}, twice), b.ints(ir.I32, nil, 1<<30+1))
		return []ir.Output{twice, b.one("Multiply", nil, twice, k), b.one("Add", nil, twice, b.scalar(math.MaxInt64)),
			b.one("Add", nil, b.one("Multiply", nil, twice, b.scalar(3)), b.scalar(math.MinInt64)), small}
	}},
	{"Multiply", "operands whose expansion leaves int64", func(b *propModel) []ir.Output {
		// (H % 4) * (2^61 + 1) expands to coefficients beyond int64, and
		// is at most 3 * (2^61 + 1); times 2^62 + 1 it wraps.
		h := b.one("Gather/opset8", nil, b.one("ShapeOf", nil, b.param(ir.F32, "0..6")), b.scalar(0), b.scalar(0))
		m := b.one("FloorMod", nil, h, b.scalar(4))
		return []ir.Output{
			b.one("Multiply", nil, m, b.scalar(1<<61+1)),
			b.one("Multiply", nil, m, b.scalar(1<<62+1)),
			b.one("Add", nil, b.one("Multiply", nil, m, b.scalar(3<<61)), b.scalar(math.MaxInt64)),
		}
	}},
	binaryCase("Minimum", ir.I32), binaryCase("Maximum", ir.I64),
	binaryCase("FloorMod", ir.I32), binaryCase("Mod", ir.I64), binaryCase("Mod", ir.I8),
	binaryCase("SquaredDifference", ir.I32),
	binaryCase("Power", ir.I32),
	binaryCase("Divide", ir.I64), binaryCase("Divide", ir.I32, "m_pythondiv", "false"), binaryCase("Divide", ir.I8), binaryCase("Divide", ir.U8),
	binaryCase("Equal", ir.I64), binaryCase("NotEqual", ir.I32), binaryCase("Less", ir.I64), binaryCase("LessEqual", ir.I8),
	binaryCase("Greater", ir.U8), binaryCase("GreaterEqual", ir.I64),
	binaryCase("LogicalAnd", ir.Boolean), binaryCase("LogicalOr", ir.Boolean), binaryCase("LogicalXor", ir.Boolean),
	unaryCase("LogicalNot", ir.Boolean),
	{"Select", "", func(b *propModel) []ir.Output {
		c, x, y := b.param(ir.Boolean, "2,3"), b.param(ir.I64, "3"), b.param(ir.I64, "2,1")
		lt := b.one("Less", nil, x, b.scalar(2))
		return []ir.Output{b.one("Select", nil, c, x, y), b.one("Select", nil, lt, x, b.scalar(-7)),
			b.one("Floor", nil, b.one("Select", nil, c, b.toF32(x), b.floats(0.5, 7, -3)))}
	}},
	{"Select", "a condition of one value at every element", func(b *propModel) []ir.Output {
		// y * 0 > 6 is false at every element of y, however many: the
		// else branch, and y * 0 >= 0 true: the then branch.
		y := b.param(ir.I64, "0..4")
		zero := b.one("Multiply", nil, y, b.scalar(0))
		return []ir.Output{b.one("Select", nil, b.one("Greater", nil, zero, b.scalar(6)), y, b.scalar(16)),
			b.one("Select", nil, b.one("GreaterEqual", nil, zero, b.scalar(0)), b.scalar(-5), y)}
	}},
	{"If", "values from outside", func(b *propModel) []ir.Output {
		x, y := b.param(ir.I64, ""), b.param(ir.I64, "1..3")
		neg := b.one("Less", nil, x, b.scalar(0))
		types, shapes := []ir.ElementType{ir.I64, ir.I64}, []string{"", "?"}
		then := func(bb *propModel, p []ir.Output) []ir.Output {
			// x < 0 here: x / 3 floors, and 2 - x is positive.
			return []ir.Output{bb.one("Divide", []string{"m_pythondiv", "true"}, p[0], bb.scalar(3)), bb.one("ShapeOf", nil, p[1])}
		}
		els := func(bb *propModel, p []ir.Output) []ir.Output {
			return []ir.Output{bb.one("Subtract", nil, p[1], p[0]), bb.one("Concat", []string{"axis", "0"}, bb.one("ShapeOf", nil, p[1]), bb.vec(7))}
		}
		o := b.ifOp(neg, []ir.Output{x, y}, types, shapes, 2, then, els)
		// The same branches picked by another condition differ.
		c := b.param(ir.Boolean, "")
		o2 := b.ifOp(c, []ir.Output{x, y}, types, shapes, 2, then, els)
		return []ir.Output{o[0], o[1], b.one("Subtract", nil, o[0], o2[0]), o2[1]}
	}},
	{"Loop", "carried and invariant values", func(b *propModel) []ir.Output {
		t, x, acc := b.param(ir.I64, ""), b.param(ir.I64, "2"), b.param(ir.I64, "1")
		trip := b.one("Minimum", nil, b.one("Maximum", nil, t, b.scalar(0)), b.scalar(4))
		o := b.loopOp(trip, x, acc, ir.I64, ir.I64, "2", "1", 1, func(bb *propModel, p []ir.Output) []ir.Output {
			iter, inv, carried := p[0], p[1], p[2]
			// The next value may have another shape: carried values are
			// any dims of their rank.
			next := bb.one("Add", nil, bb.one("Multiply", nil, carried, bb.scalar(2)), bb.one("Divide", []string{"m_pythondiv", "true"}, inv, bb.scalar(3)))
			return []ir.Output{next, bb.one("Subtract", nil, bb.one("ReduceMax", []string{"keep_dims", "true"}, inv, bb.vec(0)), bb.one("Unsqueeze", nil, iter, bb.scalar(0)))}
		})
		return []ir.Output{o[0], o[1]}
	}},
	{"Select", "branches under their condition", func(b *propModel) []ir.Output {
		// Each branch knows its condition: where(x > 0, -x, x) is never
		// positive; element by element, and with the compared value
		// shifted or negated.
		x, v := b.param(ir.I64, ""), b.param(ir.I32, "3")
		neg := b.one("Negative", nil, x)
		return []ir.Output{
			b.one("Select", nil, b.one("Greater", nil, x, b.scalar(0)), neg, x),
			b.one("Select", nil, b.one("Less", nil, x, b.scalar(-3)), b.one("Add", nil, x, b.scalar(8)), b.one("Multiply", nil, x, b.scalar(2))),
			b.one("Select", nil, b.one("Equal", nil, x, b.scalar(5)), b.one("Subtract", nil, x, b.scalar(5)), x),
			b.one("Select", nil, b.one("LessEqual", nil, b.one("Subtract", nil, b.scalar(3), x), b.scalar(7)), neg, b.one("Add", nil, x, b.scalar(1))),
			b.one("Select", nil, b.one("GreaterEqual", nil, v, b.ints(ir.I32, []int64{3}, 1, -2, 7)), b.one("Subtract", nil, v, b.ints(ir.I32, nil, 1)), b.one("Negative", nil, v)),
			b.one("Select", nil, b.one("NotEqual", nil, x, b.scalar(math.MinInt64)), neg, x),
		}
	}},
	{"Select", "summarized branches under their condition", func(b *propModel) []ir.Output {
		// Tensors of free dims, followed as one expression each; the
		// condition of a column broadcast over rows.
		v, col := b.param(ir.I32, "1..3,2"), b.param(ir.I32, "1..3,1")
		zero := b.one("Subtract", nil, v, v)
		wide := b.one("Add", nil, col, b.one("Subtract", nil, v, v))
		return []ir.Output{
			b.one("Select", nil, b.one("Greater", nil, v, zero), b.one("Negative", nil, v), v),
			b.one("Select", nil, b.one("Less", nil, col, b.ints(ir.I32, nil, 2)), b.one("Negative", nil, wide), b.one("Subtract", nil, wide, b.ints(ir.I32, nil, 2))),
			b.one("Select", nil, b.one("Less", nil, v, col), b.one("Subtract", nil, v, col), b.one("Subtract", nil, col, v)),
		}
	}},
	{"Loop", "ranges every iteration keeps", func(b *propModel) []ir.Output {
		// From [0, 5], +1 leaves any range, / 2 + 1 keeps [0, 5].
		t, acc := b.param(ir.I64, ""), b.param(ir.I64, "1")
		trip := b.one("Minimum", nil, b.one("Maximum", nil, t, b.scalar(0)), b.scalar(4))
		init := b.one("Minimum", nil, b.one("Maximum", nil, acc, b.scalar(0)), b.scalar(5))
		grows := b.loopOp(trip, t, init, ir.I64, ir.I64, "", "1", 1, func(bb *propModel, p []ir.Output) []ir.Output {
			next := bb.one("Add", nil, p[2], bb.scalar(1))
			return []ir.Output{next, bb.one("Subtract", nil, next, bb.one("Unsqueeze", nil, p[0], bb.scalar(0)))}
		})
		keeps := b.loopOp(trip, t, init, ir.I64, ir.I64, "", "1", 1, func(bb *propModel, p []ir.Output) []ir.Output {
			next := bb.one("Add", nil, bb.one("Divide", []string{"m_pythondiv", "true"}, p[2], bb.scalar(2)), bb.scalar(1))
			return []ir.Output{next, bb.one("Multiply", nil, next, bb.scalar(3))}
		})
		return []ir.Output{grows[0], grows[1], keeps[0], keeps[1]}
	}},
	{"Loop", "carried dims every iteration keeps", func(b *propModel) []ir.Output {
		// c / -3 + i keeps c's dims (0 to 3 elements), at every
		// iteration; c with i appended grows by one element each.
		t, acc := b.param(ir.I64, ""), b.param(ir.I64, "0..3")
		trip := b.one("Minimum", nil, b.one("Maximum", nil, t, b.scalar(0)), b.scalar(4))
		keeps := b.loopOp(trip, t, acc, ir.I64, ir.I64, "", "?", 1, func(bb *propModel, p []ir.Output) []ir.Output {
			next := bb.one("Add", nil, bb.one("Divide", []string{"m_pythondiv", "true"}, p[2], bb.scalar(-3)), p[0])
			return []ir.Output{next, bb.one("Multiply", nil, next, bb.scalar(2))}
		})
		grows := b.loopOp(trip, t, acc, ir.I64, ir.I64, "", "?", 1, func(bb *propModel, p []ir.Output) []ir.Output {
			next := bb.one("Concat", []string{"axis", "0"}, p[2], bb.one("Unsqueeze", nil, p[0], bb.scalar(0)))
			return []ir.Output{next, bb.one("Divide", []string{"m_pythondiv", "true"}, next, bb.scalar(2))}
		})
		// grows' dims come from ops' inference of the Loop, which widens
		// the carried dims until no iteration changes them (it stopped
		// after one widening: [0, 5] of a dim of 7).
		return []ir.Output{keeps[0], keeps[1], grows[0], grows[1]}
	}},
	{"Loop", "a fixed trip count's last values", func(b *propModel) []ir.Output {
		// Three iterations of c = 2c - i, always: the last value is
		// exactly 8c - 4, each iteration walked in turn.
		t, acc := b.param(ir.I64, ""), b.param(ir.I64, "1")
		init := b.one("Minimum", nil, b.one("Maximum", nil, acc, b.scalar(-9)), b.scalar(9))
		out := b.loopOp(b.scalar(3), t, init, ir.I64, ir.I64, "", "1", 1, func(bb *propModel, p []ir.Output) []ir.Output {
			next := bb.one("Subtract", nil, bb.one("Multiply", nil, p[2], bb.scalar(2)), bb.one("Unsqueeze", nil, p[0], bb.scalar(0)))
			return []ir.Output{next, next}
		})
		return []ir.Output{out[0], out[1], b.one("Subtract", nil, out[0], b.one("Multiply", nil, init, b.scalar(8)))}
	}},
	{"Loop", "bodies that never run", func(b *propModel) []ir.Output {
		// A Loop of min(max(t, 0), 0) = 0 iterations, an If whose
		// condition |clip(t, -5, 5)| + 1 > 0 always holds: the body and
		// the else branch never run; a Loop of min(max(t, 0), 1) may.
		t, acc := b.param(ir.I64, ""), b.param(ir.I64, "1")
		none := b.one("Minimum", nil, b.one("Maximum", nil, t, b.scalar(0)), b.scalar(0))
		some := b.one("Minimum", nil, b.one("Maximum", nil, t, b.scalar(0)), b.scalar(1))
		body := func(bb *propModel, p []ir.Output) []ir.Output {
			next := bb.one("Divide", []string{"m_pythondiv", "true"}, p[2], bb.scalar(-3))
			return []ir.Output{next, next}
		}
		dead := b.loopOp(none, t, acc, ir.I64, ir.I64, "", "1", 1, body)
		live := b.loopOp(some, t, acc, ir.I64, ir.I64, "", "1", 1, body)
		always := b.one("Greater", nil, b.one("Add", nil, b.one("Abs", nil, b.one("Minimum", nil, b.one("Maximum", nil, t, b.scalar(-5)), b.scalar(5))), b.scalar(1)), b.scalar(0))
		branch := b.ifOp(always, []ir.Output{t}, []ir.ElementType{ir.I64}, []string{""}, 1,
			func(bb *propModel, p []ir.Output) []ir.Output {
				return []ir.Output{bb.one("Add", nil, p[0], bb.scalar(1))}
			},
			func(bb *propModel, p []ir.Output) []ir.Output { return []ir.Output{bb.one("Negative", nil, p[0])} })
		return []ir.Output{dead[0], live[0], live[1], branch[0]}
	}},
	{"TensorIterator", "sliced, carried and invariant values", func(b *propModel) []ir.Output {
		x, inv, acc := b.param(ir.I64, "3,2"), b.param(ir.I64, "2"), b.param(ir.I64, "1,2")
		types := []ir.ElementType{ir.I64, ir.I64, ir.I64}
		o := b.tiOp(x, inv, acc, types, []string{"1,2", "2", "1,2"}, false, 2, func(bb *propModel, p []ir.Output) []ir.Output {
			part, inv, carried := p[0], p[1], p[2]
			next := bb.one("Add", nil, carried, bb.one("Divide", []string{"m_pythondiv", "true"}, part, bb.scalar(2)))
			return []ir.Output{next, bb.one("Subtract", nil, part, inv), bb.one("Multiply", nil, part, bb.one("Divide", []string{"m_pythondiv", "false"}, inv, bb.scalar(3)))}
		})
		return []ir.Output{o[0], o[1], o[2]}
	}},
	{"TensorIterator", "parts within their input, the initial value where no iteration runs", func(b *propModel) []ir.Output {
		// Parts of [-20, 20] read last to first; from [-5, -1], |part| +
		// 10 leaves it, then keeps [-5, 30]; an empty axis runs no
		// iteration and gives the initial value.
		x := b.one("Minimum", nil, b.one("Maximum", nil, b.param(ir.I64, "0..3,2"), b.scalar(-20)), b.scalar(20))
		init := b.one("Minimum", nil, b.one("Maximum", nil, b.param(ir.I64, "1,2"), b.scalar(-5)), b.scalar(-1))
		types := []ir.ElementType{ir.I64, ir.I64, ir.I64}
		o := b.tiOp(x, b.scalar(3), init, types, []string{"1,2", "", "1,2"}, true, 1, func(bb *propModel, p []ir.Output) []ir.Output {
			next := bb.one("Add", nil, bb.one("Abs", nil, p[0]), bb.scalar(10))
			return []ir.Output{next, bb.one("Divide", []string{"m_pythondiv", "true"}, bb.one("Multiply", nil, p[0], p[1]), bb.scalar(4))}
		})
		return []ir.Output{o[0], o[1], b.one("Subtract", nil, o[0], b.scalar(31)), b.one("Add", nil, o[1], b.scalar(61))}
	}},
	{"Select", "a minimum or a maximum", func(b *propModel) []ir.Output {
		// where(x > y, x, y) is max(x, y), broadcast; its swaps and <=, >=
		// too; a shape and its Gather at [0] are the same elements.
		x, y, z := b.param(ir.I64, "1..3"), b.param(ir.I64, ""), b.param(ir.I32, "2,1")
		s := b.one("ShapeOf", nil, x)
		first := b.one("Gather/opset8", []string{"batch_dims", "0"}, s, b.vec(0), b.scalar(0))
		zc := b.one("Convert", []string{"destination_type", "i32"}, b.one("Add", nil, y, b.scalar(1)))
		maxXY := b.one("Select", nil, b.one("Greater", nil, x, y), x, y)
		return []ir.Output{
			maxXY, b.one("Subtract", nil, maxXY, x), b.one("Subtract", nil, maxXY, y),
			b.one("Select", nil, b.one("Less", nil, x, y), y, x),
			b.one("Subtract", nil, b.one("Select", nil, b.one("LessEqual", nil, x, y), x, y), y),
			b.one("Subtract", nil, b.one("Select", nil, b.one("GreaterEqual", nil, y, x), x, y), y),
			b.one("Select", nil, b.one("Greater", nil, s, y), first, y),
			b.one("Subtract", nil, b.one("Select", nil, b.one("Less", nil, zc, z), zc, z), z),
		}
	}},
	{"Select", "conditions of their own", func(b *propModel) []ir.Output {
		// The same branches picked by two conditions, and by two elements
		// of one condition broadcast over scalars, are different values.
		x, y, c := b.param(ir.I64, ""), b.param(ir.I64, ""), b.param(ir.Boolean, "2")
		w1 := b.one("Select", nil, b.one("Less", nil, x, b.scalar(0)), x, y)
		w2 := b.one("Select", nil, b.one("Less", nil, y, b.scalar(0)), x, y)
		w := b.one("Select", nil, c, x, y)
		first := b.one("Gather/opset8", []string{"batch_dims", "0"}, w, b.scalar(0), b.scalar(0))
		last := b.one("Gather/opset8", []string{"batch_dims", "0"}, w, b.scalar(1), b.scalar(0))
		return []ir.Output{b.one("Subtract", nil, w1, w2), b.one("Subtract", nil, first, last)}
	}},
	unaryCase("Abs", ir.I64), unaryCase("Abs", ir.I8), unaryCase("Negative", ir.I32), unaryCase("Sign", ir.I64),
	unaryCase("Floor", ir.I32), unaryCase("Ceiling", ir.I64), unaryCase("Round/opset5", ir.I32, "mode", "half_to_even"),
	unaryCase("Relu", ir.I64), unaryCase("Clamp", ir.I32, "min", "-3.5", "max", "7.2"),
	unaryCase("Clamp", ir.I64, "min", "0", "max", "1e30"),
	unaryCase("Convert", ir.I64, "destination_type", "i8"), unaryCase("Convert", ir.I32, "destination_type", "u8"),
	unaryCase("Convert", ir.I8, "destination_type", "boolean"), unaryCase("Convert", ir.U8, "destination_type", "i64"),
	{"Convert", "float to boolean", func(b *propModel) []ir.Output {
		x := b.one("Multiply", nil, b.toF32(b.param(ir.I8, "3")), b.floats(0.25))
		return []ir.Output{b.one("Convert", []string{"destination_type", "boolean"}, x)}
	}},
	floatCase("Floor"), floatCase("Ceiling"), floatCase("Round/opset5", "mode", "half_to_even"), floatCase("Relu"), floatCase("Abs"),
	floatCase("Negative"), floatCase("Sqrt"), floatCase("Exp"), floatCase("Sigmoid"), floatCase("Tanh"),
	floatCase("Clamp", "min", "-2.5", "max", "3"), floatCase("Log"), floatCase("Elu", "alpha", "1"),
	floatCase("Gelu/opset7", "approximation_mode", "erf"), floatCase("HSwish/opset4"), floatCase("HSigmoid/opset5"),
	floatCase("Mish/opset4"), floatCase("SoftPlus/opset4"), floatCase("Swish/opset4"), floatCase("Softmax", "axis", "1"),
	{"Convert", "float to int", func(b *propModel) []ir.Output {
		x := b.toF32(b.param(ir.I16, "2,2"))
		scaled := b.one("Multiply", nil, x, b.floats(0.5))
		return []ir.Output{b.one("Convert", []string{"destination_type", "i32"}, scaled),
			b.one("Convert", []string{"destination_type", "i64"}, b.one("Divide", nil, x, b.floats(3)))}
	}},
	{"Convert", "dims through floats at the declared shapes", func(b *propModel) []ir.Output {
		// Dims of fixed and ranging declared shapes, to i32 (which wraps
		// beyond them only), scaled in f32 and back: bounded at the
		// declared shapes (Value.FD), through Concat, Floor and a Reduce.
		x := b.param(ir.F32, "3,0..5,2")
		dims := b.toF32(b.one("Convert", []string{"destination_type", "i32"}, b.one("ShapeOf", nil, x)))
		scaled := b.one("Add", nil, b.one("Multiply", nil, dims, b.floats(1.5)), b.floats(0.5))
		both := b.one("Concat", []string{"axis", "0"}, scaled, b.one("Negative", nil, dims))
		top := b.one("ReduceMax", []string{"keep_dims", "false"}, both, b.vec(0))
		return []ir.Output{scaled, both, top,
			b.one("Convert", []string{"destination_type", "i32"}, b.one("Floor", nil, both)),
			b.one("Convert", []string{"destination_type", "i64"}, top)}
	}},
	{"Add", "float", func(b *propModel) []ir.Output {
		x, y := b.toF32(b.param(ir.I8, "3")), b.toF32(b.param(ir.I8, "3"))
		out := []ir.Output{}
		for _, op := range []string{"Add", "Subtract", "Multiply", "Minimum", "Maximum", "Divide"} {
			out = append(out, b.one("Convert", []string{"destination_type", "i64"}, b.one(op, nil, x, y)))
		}
		return out
	}},
	{"Power", "reciprocal", func(b *propModel) []ir.Output {
		x := b.one("Add", nil, b.toF32(b.one("Abs", nil, b.param(ir.I8, "3"))), b.floats(1))
		return []ir.Output{b.one("Convert", []string{"destination_type", "i32"}, b.one("Multiply", nil, b.one("Power", nil, x, b.floats(-1)), b.floats(100)))}
	}},
	{"FakeQuantize", "", func(b *propModel) []ir.Output {
		x := b.toF32(b.param(ir.I8, "1,2"))
		return []ir.Output{b.one("FakeQuantize", []string{"levels", "4"}, x, b.floats(-10), b.floats(10), b.floats(-1), b.floats(1))}
	}},
	{"BatchNormInference", "", func(b *propModel) []ir.Output {
		x := b.toF32(b.param(ir.I8, "1,2,2"))
		return []ir.Output{b.one("BatchNormInference/opset5", []string{"epsilon", "0.001"}, x, b.floats(1, 2), b.floats(0, 1), b.floats(0, 0), b.floats(1, 1))}
	}},
	{"MVN", "", func(b *propModel) []ir.Output {
		x := b.toF32(b.param(ir.I8, "1,2,3"))
		return []ir.Output{b.one("MVN/opset6", []string{"eps", "0.001", "eps_mode", "inside_sqrt", "normalize_variance", "true"}, x, b.vec(2)),
			b.one("MVN/opset6", []string{"eps", "0.5", "eps_mode", "outside_sqrt", "normalize_variance", "false"}, x, b.vec(1, 2))}
	}},
	{"ShapeOf", "", func(b *propModel) []ir.Output {
		x := b.param(ir.F32, "1..8,3,2..5")
		s := b.one("ShapeOf/opset3", nil, x)
		return []ir.Output{s, b.one("ShapeOf", nil, b.param(ir.I32, "0..3"))}
	}},
	{"Reshape", "", func(b *propModel) []ir.Output {
		x := b.param(ir.I64, "2,3")
		y := b.param(ir.I32, "2..4,6")
		return []ir.Output{
			b.one("Reshape", []string{"special_zero", "false"}, x, b.vec(3, -1)),
			b.one("Reshape", []string{"special_zero", "true"}, x, b.vec(0, 3)),
			b.one("Reshape", []string{"special_zero", "true"}, y, b.vec(-1, 3)),
		}
	}},
	{"Reshape", "computed pattern", func(b *propModel) []ir.Output {
		// q.shape[0] floormod -2 is 0 or -1: a pattern element that is a
		// dim, copies one (special_zero) or asks for one to be inferred,
		// by the input's shape (seed 8512).
		x := b.param(ir.I64, "2..4,6")
		m := b.one("FloorMod", nil, b.one("ShapeOf", nil, b.param(ir.I64, "1..3")), b.vec(-2))
		pattern := b.one("Concat", []string{"axis", "0"}, m, b.vec(6))
		return []ir.Output{
			b.one("ShapeOf", nil, b.one("Reshape", []string{"special_zero", "true"}, x, pattern)),
			b.one("ShapeOf", nil, b.one("Reshape", []string{"special_zero", "false"}, x, pattern)),
		}
	}},
	{"Squeeze", "", func(b *propModel) []ir.Output {
		return []ir.Output{b.one("Squeeze", nil, b.param(ir.I64, "1,3,1"), b.vec(0)), b.one("Squeeze", nil, b.param(ir.I32, "1,2"))}
	}},
	{"Unsqueeze", "", func(b *propModel) []ir.Output {
		return []ir.Output{b.one("Unsqueeze", nil, b.param(ir.I64, "2,3"), b.vec(0, -1)), b.one("Unsqueeze", nil, b.param(ir.I64, "1..4"), b.vec(1))}
	}},
	{"Transpose", "", func(b *propModel) []ir.Output {
		return []ir.Output{b.one("Transpose", nil, b.param(ir.I64, "2,3"), b.vec(1, 0)), b.one("Transpose", nil, b.param(ir.I8, "1..3,2,4"), b.vec(2, 0, 1))}
	}},
	{"Gather", "", func(b *propModel) []ir.Output {
		x := b.param(ir.I64, "3,2")
		i := b.param(ir.I32, "2")
		s := b.one("ShapeOf", nil, b.param(ir.F32, "1..5,2..7"))
		return []ir.Output{
			b.one("Gather/opset8", nil, x, b.vec(2, 0, -1), b.scalar(0)),
			b.one("Gather/opset8", nil, s, b.scalar(1), b.scalar(0)),
			b.one("Gather/opset8", nil, x, i, b.scalar(1)),
		}
	}},
	{"Concat", "", func(b *propModel) []ir.Output {
		s := b.one("ShapeOf", nil, b.param(ir.F32, "1..5,2"))
		return []ir.Output{b.one("Concat", []string{"axis", "0"}, b.param(ir.I64, "2"), s, b.vec(-4)),
			b.one("Concat", []string{"axis", "1"}, b.param(ir.I32, "2,1..3"), b.param(ir.I32, "2,2"))}
	}},
	{"Slice", "", func(b *propModel) []ir.Output {
		x := b.param(ir.I64, "5")
		s := b.one("ShapeOf", nil, b.param(ir.F32, "1..5,2,3"))
		return []ir.Output{
			b.one("Slice/opset8", nil, x, b.vec(1), b.vec(math.MaxInt64), b.vec(2)),
			b.one("Slice/opset8", nil, s, b.vec(-2), b.vec(-4), b.vec(-1)),
			b.one("Slice/opset8", nil, b.param(ir.I8, "1..9"), b.vec(1), b.vec(-1), b.vec(1)),
		}
	}},
	{"Slice", "computed starts", func(b *propModel) []ir.Output {
		// A start of a dim is never negative, its negation always is:
		// each counts from one end only (seed 1454).
		x := b.param(ir.I64, "2..6")
		d := b.one("Slice/opset8", nil, b.one("ShapeOf", nil, b.param(ir.F32, "0..7,2")), b.vec(0), b.vec(1), b.vec(1))
		return []ir.Output{
			b.one("Slice/opset8", nil, x, d, b.vec(math.MaxInt64), b.vec(1)),
			b.one("Slice/opset8", nil, x, b.one("Negative", nil, d), b.vec(math.MaxInt64), b.vec(1)),
			b.one("Slice/opset8", nil, x, b.one("Negative", nil, d), b.vec(math.MinInt64), b.vec(-1)),
			// A start before the first element walking down starts at it
			// (x[-7::-1] is [x[0]]), where numpy's would be empty.
			b.one("StridedSlice", []string{"begin_mask", "0", "end_mask", "1", "new_axis_mask", "", "shrink_axis_mask", "", "ellipsis_mask", ""}, x, b.vec(-7), b.vec(0), b.vec(-1)),
		}
	}},
	{"StridedSlice", "", func(b *propModel) []ir.Output {
		x := b.param(ir.I64, "4,3")
		m := []string{"begin_mask", "0,1", "end_mask", "0,1", "new_axis_mask", "", "shrink_axis_mask", "", "ellipsis_mask", ""}
		return []ir.Output{
			b.one("StridedSlice", m, x, b.vec(1, 0), b.vec(-1, 0), b.vec(1, 1)),
			b.one("StridedSlice", []string{"begin_mask", "0", "end_mask", "0", "shrink_axis_mask", "1"}, b.param(ir.I32, "2..6,2"), b.vec(1), b.vec(2), b.vec(1)),
		}
	}},
	{"Split", "", func(b *propModel) []ir.Output {
		return b.op("Split", 2, []string{"num_splits", "2"}, b.param(ir.I64, "4,1..3"), b.scalar(0))
	}},
	{"VariadicSplit", "", func(b *propModel) []ir.Output {
		return b.op("VariadicSplit", 2, nil, b.param(ir.I64, "2..6"), b.scalar(0), b.vec(1, -1))
	}},
	{"Broadcast", "", func(b *propModel) []ir.Output {
		s := b.one("ShapeOf", nil, b.param(ir.F32, "1..4,3"))
		return []ir.Output{
			b.one("Broadcast/opset3", []string{"mode", "numpy"}, b.param(ir.I64, "3"), s),
			b.one("Broadcast/opset3", []string{"mode", "bidirectional"}, b.param(ir.I32, "2,1"), b.vec(1, 3)),
		}
	}},
	{"Broadcast", "one element, then taken apart", func(b *propModel) []ir.Output {
		// Every element of a Broadcast of one element is that element:
		// two taken from it are equal, and differ by 0; two of a
		// Broadcast of a vector need not be (a Pad's fill, which ops
		// does not evaluate, TestPadFillsFloats checks).
		s := b.one("ShapeOf", nil, b.param(ir.F32, "1..4,3"))
		flat := func(x ir.Output) ir.Output {
			wide := b.one("Broadcast/opset3", []string{"mode", "numpy"}, x, s)
			return b.one("Reshape", []string{"special_zero", "false"}, wide, b.vec(-1))
		}
		apart := func(x ir.Output) ir.Output {
			last := b.one("Gather/opset8", nil, x, b.scalar(-1), b.scalar(0))
			first := b.one("Gather/opset8", nil, x, b.scalar(0), b.scalar(0))
			return b.one("Subtract", nil, last, first)
		}
		return []ir.Output{apart(flat(b.param(ir.I64, ""))), apart(flat(b.param(ir.I64, "3")))}
	}},
	{"Tile", "", func(b *propModel) []ir.Output {
		return []ir.Output{b.one("Tile", nil, b.param(ir.I64, "2"), b.vec(3)), b.one("Tile", nil, b.param(ir.I8, "1..3,2"), b.vec(2, 1))}
	}},
	{"Range", "", func(b *propModel) []ir.Output {
		// Samples reach the declared dim's ends (at most 6 above its
		// minimum), where the length, and the last element, are largest.
		n := b.one("Gather/opset8", nil, b.one("ShapeOf", nil, b.param(ir.F32, "0..6")), b.scalar(0), b.scalar(0))
		// A step that is an input, of either sign (0 fails): every
		// element between start and stop.
		start, stop, step := b.param(ir.I8, ""), b.param(ir.I8, ""), b.param(ir.I8, "")
		return []ir.Output{
			b.one("Range/opset4", []string{"output_type", "i64"}, b.scalar(0), n, b.scalar(2)),
			b.one("Range/opset4", []string{"output_type", "i64"}, n, b.scalar(-3), b.scalar(-2)),
			// Steps of 1 and -1 reach stop - 1 and stop + 1, the ends
			// each element is clamped to.
			b.one("Range/opset4", []string{"output_type", "i64"}, b.scalar(-4), n, b.scalar(1)),
			b.one("Range/opset4", []string{"output_type", "i64"}, n, b.scalar(-3), b.scalar(-1)),
			b.one("Range/opset4", []string{"output_type", "i8"}, start, stop, step),
			b.one("Range/opset4", []string{"output_type", "i64"}, b.scalar(-5), n, b.one("Convert", []string{"destination_type", "i64"}, step)),
		}
	}},
	{"Pad", "", func(b *propModel) []ir.Output {
		return []ir.Output{b.one("Pad", []string{"pad_mode", "constant"}, b.param(ir.I64, "1..3,2"), b.vec(1, 0), b.vec(0, 2), b.scalar(-9))}
	}},
	reduceCase("ReduceSum", ir.I64), reduceCase("ReduceSum", ir.I8), reduceCase("ReduceMean", ir.I32), reduceCase("ReduceProd", ir.I16),
	reduceCase("ReduceMin", ir.I64), reduceCase("ReduceMax", ir.U8),
	reduceCase("ReduceLogicalAnd", ir.Boolean), reduceCase("ReduceLogicalOr", ir.Boolean),
	{"MatMul", "", func(b *propModel) []ir.Output {
		y := b.one("MatMul", nil, b.param(ir.F32, "1..3,2,4"), b.param(ir.F32, "4,5"))
		return []ir.Output{y, b.one("ShapeOf", nil, y), b.one("MatMul", []string{"transpose_a", "true"}, b.param(ir.F32, "4,2"), b.param(ir.F32, "4"))}
	}},
	spatialCase("Convolution", "strides", "2,1", "pads_begin", "1,0", "pads_end", "0,0", "dilations", "1,2", "auto_pad", "explicit"),
	spatialCase("GroupConvolution", "strides", "1,2", "pads_begin", "0,1", "pads_end", "1,0", "dilations", "1,1"),
	spatialCase("ConvolutionBackpropData", "strides", "2,2", "pads_begin", "0,1", "pads_end", "1,0", "dilations", "1,1"),
	spatialCase("GroupConvolutionBackpropData", "strides", "2,1", "pads_begin", "0,0", "pads_end", "0,0", "dilations", "1,1"),
	spatialCase("MaxPool", "strides", "2,2", "pads_begin", "1,0", "pads_end", "1,0", "kernel", "3,2", "rounding_type", "ceil"),
	spatialCase("MaxPool/opset14", "strides", "3,1", "pads_begin", "1,0", "pads_end", "1,0", "kernel", "3,1", "rounding_type", "ceil_torch", "dilations", "1,1"),
	// An end padding past a stride and the kernel: the ceil formula is two
	// or more above the window starts in the input, and one is dropped.
	spatialCase("MaxPool/opset14", "strides", "2,1", "pads_begin", "1,0", "pads_end", "5,0", "kernel", "2,1", "rounding_type", "ceil_torch", "dilations", "1,1"),
	spatialCase("AvgPool", "strides", "1,2", "pads_begin", "0,0", "pads_end", "0,0", "kernel", "2,2", "exclude-pad", "true", "rounding_type", "floor"),
	{"Interpolate", "", func(b *propModel) []ir.Output {
		x := b.param(ir.F32, "1,1,1..6,2")
		s := b.one("ShapeOf", nil, x)
		h := b.one("Multiply", nil, b.one("Gather/opset8", nil, s, b.vec(2), b.scalar(0)), b.scalar(2))
		sizes := b.one("Concat", []string{"axis", "0"}, h, b.vec(3))
		y := b.one("Interpolate/opset11", []string{"mode", "nearest", "shape_calculation_mode", "sizes"}, x, sizes, b.vec(2, 3))
		return []ir.Output{y, b.one("ShapeOf", nil, y)}
	}},
}

// TestPadFillsFloats: the fill of a Pad is among its float elements (0
// where it has no value), and among the integers converted from them:
// x in [300, 555] padded with -9 and converted is no longer positive.
// (ops does not evaluate Pad, so TestRuleProperties cannot check it.)
func TestPadFillsFloats(t *testing.T) {
	b := &propModel{m: &ir.Model{}}
	x := b.one("Add", nil, b.toF32(b.param(ir.U8, "1..3,2")), b.one("Convert", []string{"destination_type", "f32"}, b.scalar(300)))
	zero := b.one("Pad", []string{"pad_mode", "constant"}, x, b.vec(1, 0), b.vec(0, 2))
	minus9 := b.one("Pad", []string{"pad_mode", "constant"}, x, b.vec(0, 1), b.vec(0, 0), b.one("Convert", []string{"destination_type", "f32"}, b.scalar(-9)))
	ints := b.one("Convert", []string{"destination_type", "i32"}, minus9)
	b.m.AddResult("zero", zero)
	b.m.AddResult("ints", ints)
	inf, err := ops.InferModel(b.m)
	if err != nil {
		t.Fatal(err)
	}
	a := Analyze(b.m, inf, Options{})
	for _, c := range []struct {
		o    ir.Output
		fill float64
	}{{zero, 0}, {minus9, -9}} {
		for _, f := range []*FloatRange{a.Values[c.o].F, a.Values[c.o].DeclaredF()} {
			if f != nil && (c.fill < f.Lo || c.fill > f.Hi) {
				t.Errorf("%s: elements claimed in [%g, %g], but %g fills it", c.o.Layer.Name, f.Lo, f.Hi, c.fill)
			}
		}
	}
	for _, declared := range []bool{false, true} {
		if r := a.Prover(!declared).Range(a.All(a.Values[ints])); !r.Contains(-9) {
			t.Errorf("the integers converted (declared shapes %v) claimed in %s, but -9 fills the Pad", declared, r)
		}
	}
}

// TestProductOfARemainder: (H % 4) * (2^61 + 1), whose expansion has
// coefficients beyond int64, is at most 3 * (2^61 + 1) and never
// negative (seed 2873 of the differential: it was any int64).
func TestProductOfARemainder(t *testing.T) {
	b := &propModel{m: &ir.Model{}}
	h := b.one("Gather/opset8", nil, b.one("ShapeOf", nil, b.param(ir.F32, "0..6")), b.scalar(0), b.scalar(0))
	p := b.one("Multiply", nil, b.one("FloorMod", nil, h, b.scalar(4)), b.scalar(1<<61+1))
	b.m.AddResult("p", p)
	inf, err := ops.InferModel(b.m)
	if err != nil {
		t.Fatal(err)
	}
	a := Analyze(b.m, inf, Options{})
	if r, want := a.Prover(true).Range(a.All(a.Values[p])), sym.R(0, 3*(1<<61+1)); r != want {
		t.Errorf("(H %% 4) * (2^61 + 1) claimed %s, want %s", r, want)
	}
}

// TestOneValueTakenApart: two elements taken from a Broadcast of one
// element (Value.Uniform) are that element, and differ by 0 (seed 402 of
// the differential: last - first of Expand(n, [k])); a Pad of it holds
// its fill too, and its last element less its first is y - -9 (ops does
// not evaluate Pad, so that TestRuleProperties cannot check it).
func TestOneValueTakenApart(t *testing.T) {
	b := &propModel{m: &ir.Model{}}
	s := b.one("ShapeOf", nil, b.param(ir.F32, "1..4,3"))
	wide := b.one("Broadcast/opset3", []string{"mode", "numpy"}, b.param(ir.I64, ""), s)
	flat := b.one("Reshape", []string{"special_zero", "false"}, wide, b.vec(-1))
	padded := b.one("Pad", []string{"pad_mode", "constant"}, flat, b.vec(1), b.vec(0), b.scalar(-9))
	apart := func(x ir.Output) ir.Output {
		last := b.one("Gather/opset8", nil, x, b.scalar(-1), b.scalar(0))
		first := b.one("Gather/opset8", nil, x, b.scalar(0), b.scalar(0))
		return b.one("Subtract", nil, last, first)
	}
	same, filled := apart(flat), apart(padded)
	b.m.AddResult("same", same)
	b.m.AddResult("filled", filled)
	inf, err := ops.InferModel(b.m)
	if err != nil {
		t.Fatal(err)
	}
	a := Analyze(b.m, inf, Options{})
	if r := a.Prover(true).Range(a.All(a.Values[same])); r != sym.R(0, 0) {
		t.Errorf("last - first of the Broadcast claimed %s, want 0", r)
	}
	if a.Values[padded].Uniform {
		t.Error("the Pad is said to hold one value")
	}
	if r := a.Prover(true).Range(a.All(a.Values[filled])); r == sym.R(0, 0) {
		t.Errorf("last - first of the Pad claimed %s", r)
	}
}

// TestRuleProperties: for every case, on random and edge inputs, the
// concrete values (ops' evaluation of the model) are among what the
// abstract values claim: each dim and integer element within the bounds
// of its expression with the inputs' symbols pinned to the concrete
// inputs, each float within its range.
func TestRuleProperties(t *testing.T) {
	covered := map[string]bool{}
	for _, pc := range append(propertyCases, fixupCases()...) {
		covered[strings.Split(pc.rule, "/")[0]] = true
		t.Run(pc.rule+"/"+pc.name, func(t *testing.T) { checkProperty(t, pc) })
	}
	for name, r := range rules {
		if r.values != nil && !covered[name] {
			t.Errorf("rule %s has no property case", name)
		}
	}
}

const propertySamples = 300

// uncheckedValues are the rules whose cases claim values that ops cannot
// compute concretely, each with the test that checks the claim instead.
var uncheckedValues = map[string]string{
	"Pad": "ops does not evaluate Pad; TestPadFillsFloats checks that its fill is among the values",
}

func checkProperty(t *testing.T, pc propertyCase, opts ...Options) {
	b := &propModel{m: &ir.Model{}}
	outs := pc.build(b)
	for i, o := range outs {
		b.m.AddResult(fmt.Sprintf("out%d", i), o)
	}
	inf, err := ops.InferModel(b.m)
	if err != nil {
		t.Fatalf("the case's model does not infer: %v", err)
	}
	a := Analyze(b.m, inf, append(opts, Options{})[0])
	r := rand.New(rand.NewPCG(7, uint64(len(pc.rule))))
	ran, bodyValues, valuesChecked, claims := 0, 0, 0, false
	var firstErr error
	for sample := range propertySamples {
		inputs := make(map[*ir.Layer]*ir.Tensor, len(a.Inputs))
		env := &pinned{a: a, r: map[sym.Sym]sym.Range{}}
		for _, in := range a.Inputs {
			inputs[in.Layer] = randomInput(r, in, env, sample)
		}
		inBodies := make(map[ir.Output][]*ir.Tensor)
		got, err := concrete(b.m, inf.Order, inf.Ops, inputs, func(l *ir.Layer, in []*ir.Tensor) {
			if why := a.NeverRuns(l); why != "" {
				t.Fatalf("layer %s of a body runs on inputs %v, claimed never to run: %s", l, inputs, why)
			}
			for i, src := range a.Sources[l] {
				if i < len(in) && in[i] != nil {
					inBodies[src] = append(inBodies[src], in[i])
				}
			}
		})
		if err != nil {
			firstErr = cmp.Or(firstErr, err)
			continue // the model does not run on these inputs: nothing is claimed
		}
		ran++
		p := sym.NewProver(a.B, env)
		for i, o := range outs {
			v := a.Values[o]
			if v == nil {
				continue
			}
			// A claim narrower than the type's every value.
			claims = claims || v.F != nil || v.Int && p.Range(a.All(v)) != TypeRange(v.Type)
			if got[o].Value != nil {
				valuesChecked++
			}
			if msg := contains(a, p, v, got[o]); msg != "" {
				t.Fatalf("output %d (%s of %s) on inputs %v: %s\nabstract value: %s", i, o.Layer.Type, o.Layer.Name, inputs, msg, a.String(v))
			}
		}
		// Inside bodies, every value a layer reads, at every iteration.
		for o, ts := range inBodies {
			v := a.Values[o]
			if v == nil {
				continue
			}
			for _, x := range ts {
				info := ops.ValueInfo{Type: x.Type, Shape: shapeinfer.StaticShape(x.Shape...), Value: x}
				if msg := contains(a, p, v, info); msg != "" {
					t.Fatalf("inside a body, %s of %s on inputs %v: %s\nabstract value: %s", o.Layer.Type, o.Layer.Name, inputs, msg, a.String(v))
				}
			}
			bodyValues++
		}
	}
	hasBodies := slices.ContainsFunc(b.m.Layers, func(l *ir.Layer) bool { return l.Type == "If" || l.Type == "Loop" || l.Type == "TensorIterator" })
	if hasBodies && bodyValues == 0 {
		t.Errorf("no value inside a body was checked")
	}
	if why, ok := uncheckedValues[strings.Split(pc.rule, "/")[0]]; claims && valuesChecked == 0 && !ok {
		t.Errorf("the case's outputs claim values, but none was computed concretely (ops evaluates none): the claims are untested")
	} else if ok && valuesChecked > 0 {
		t.Errorf("uncheckedValues says of %s %q, but its values were checked: take it off the list", pc.rule, why)
	}
	if ran < propertySamples/10 {
		t.Errorf("the model ran on %d of %d samples: the case tests little (first error: %v)", ran, propertySamples, firstErr)
	}
}

// concrete evaluates the model on inputs as ops' inference with folding
// does: the shapes of every output, and the values of those ops can
// compute (the others keep their shape: ops that only infer shapes).
// The layers of bodies are passed to inBody with their inputs, at every
// iteration.
func concrete(m *ir.Model, order []*ir.Layer, opsOf map[*ir.Layer]ops.Op, inputs map[*ir.Layer]*ir.Tensor, inBody func(*ir.Layer, []*ir.Tensor)) (map[ir.Output]ops.ValueInfo, error) {
	sources := m.Sources()
	out := make(map[ir.Output]ops.ValueInfo)
	for _, l := range order {
		switch op := opsOf[l].(type) {
		case *ops.Parameter:
			x := inputs[l]
			out[ir.Output{Layer: l}] = ops.ValueInfo{Type: x.Type, Shape: shapeinfer.StaticShape(x.Shape...), Value: x}
			continue
		case *ops.Const:
			out[ir.Output{Layer: l}] = ops.ValueInfo{Type: op.Tensor.Type, Shape: shapeinfer.StaticShape(op.Tensor.Shape...), Value: op.Tensor}
			continue
		case *ops.Result:
			continue
		}
		in := make([]ops.ValueInfo, len(sources[l]))
		for i, src := range sources[l] {
			in[i] = out[src]
		}
		res, err := ops.InferFold(opsOf[l], in)
		if err != nil {
			return nil, err
		}
		if _, holdsBodies := opsOf[l].(ops.BodyHolder); holdsBodies {
			tensors := make([]*ir.Tensor, len(in))
			for i, info := range in {
				tensors[i] = info.Value
			}
			watch := func(l *ir.Layer, op ops.Op, in []*ir.Tensor) (ops.Op, error) {
				inBody(l, in)
				return op, nil
			}
			values, err := ops.Evaluate(opsOf[l], tensors, ops.Options{BodyLayer: watch, MaxBodyRuns: 1000})
			if err != nil {
				return nil, err
			}
			for i := range res {
				res[i].Value = values[i]
				res[i].Shape = shapeinfer.StaticShape(values[i].Shape...)
			}
		}
		for i, info := range res {
			out[ir.Output{Layer: l, Index: i}] = info
		}
	}
	return out, nil
}

// pinned gives the symbols of the model's inputs the concrete values of
// one sample (an element symbol standing for every element ranges over
// the sample's elements), and every other symbol the range the analysis
// gave it: the claim checked is that some choice of them gives the
// concrete value.
type pinned struct {
	a *Analysis
	r map[sym.Sym]sym.Range
}

func (e *pinned) Range(s sym.Sym) sym.Range {
	if r, ok := e.r[s]; ok {
		return r
	}
	if of := e.a.B.Info(s).Of; of != s {
		return e.Range(of)
	}
	return e.a.Declared.Range(s)
}

// edgeValues are tried first for every element: the ends of the type and
// the values around zero.
func edgeValues(t ir.ElementType) []int64 {
	tr := TypeRange(t)
	vs := []int64{tr.Lo.V, tr.Lo.V + 1, tr.Hi.V, tr.Hi.V - 1, -3, -2, -1, 0, 1, 2, 3, 7}
	return slices.DeleteFunc(vs, func(v int64) bool { return !tr.Contains(v) })
}

// randomInput makes one sample of an input: dims within the declared
// ranges (often their ends, sometimes 0), elements from the edges or at
// random; and pins its symbols to them.
func randomInput(r *rand.Rand, in *Input, env *pinned, sample int) *ir.Tensor {
	dims := make([]int64, len(in.Dims))
	for i, s := range in.Dims {
		d := in.Shape.Dims[i]
		hi := min(d.Max, d.Min+6)
		switch r.IntN(4) {
		case 0:
			dims[i] = d.Min
		case 1:
			dims[i] = hi
		default:
			dims[i] = d.Min + r.Int64N(hi-d.Min+1)
		}
		env.r[s] = sym.R(dims[i], dims[i])
	}
	n, err := ir.NumElements(dims)
	if err != nil {
		panic(err)
	}
	x, err := ir.NewTensor(in.Type, dims)
	if err != nil {
		panic(err)
	}
	edges := edgeValues(in.Type)
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i := range int(n) {
		var v int64
		switch {
		case in.Type == ir.Boolean:
			v = r.Int64N(2)
		case sample < len(edges):
			v = edges[(sample+i)%len(edges)]
		case r.IntN(3) == 0:
			v = edges[r.IntN(len(edges))]
		default:
			v = r.Int64N(21) - 10
			if TypeRange(in.Type).Lo.V == 0 {
				v = r.Int64N(21)
			}
		}
		x.SetInt64(i, v)
		lo, hi = min(lo, v), max(hi, v)
		if !in.Summary && i < len(in.Elems) {
			env.r[in.Elems[i]] = sym.R(v, v)
		}
	}
	if in.Summary && len(in.Elems) == 1 {
		if n == 0 {
			lo, hi = 0, 0
		}
		env.r[in.Elems[0]] = sym.R(lo, hi)
	}
	return x
}

// contains says how the concrete output falls outside the abstract
// value v ("" where it does not).
func contains(a *Analysis, p *sym.Prover, v *Value, info ops.ValueInfo) string {
	dims, ok := info.Shape.ToStatic()
	if !ok {
		return "the concrete shape is not static: " + info.Shape.String()
	}
	if v.Rank >= 0 {
		if v.Rank != len(dims) {
			return fmt.Sprintf("rank %d, claimed %d", len(dims), v.Rank)
		}
		for i, d := range v.Dims {
			if r := p.Range(d); !r.Contains(dims[i]) {
				return fmt.Sprintf("dim %d is %d, claimed %s = %s", i, dims[i], a.B.String(d), r)
			}
		}
	}
	x := info.Value
	if x == nil {
		return ""
	}
	if v.Int && x.Type.IsInteger() || v.Int && x.Type == ir.Boolean {
		for i := range x.Len() {
			got, ok := IntAt(x, i)
			if !ok {
				continue
			}
			e := a.All(v)
			if v.Elems != nil && len(v.Elems) == x.Len() {
				e = v.Elems[i]
			}
			if r := p.Range(e); !r.Contains(got) {
				return fmt.Sprintf("element %d is %d, claimed %s = %s", i, got, a.B.String(e), r)
			}
		}
	}
	// The samples are of the declared shapes: their floats are within
	// both ranges.
	for _, f := range []*FloatRange{v.F, v.FD} {
		if f == nil || !x.Type.IsFloat() {
			continue
		}
		for i := range x.Len() {
			got := x.Float64At(i)
			if math.IsNaN(got) && !f.NaN || !math.IsNaN(got) && (got < f.Lo || got > f.Hi) {
				return fmt.Sprintf("element %d is %g, claimed [%g, %g] (NaN %v)", i, got, f.Lo, f.Hi, f.NaN)
			}
		}
	}
	return ""
}

// TestFloorFixup: the fix-up's floor division is recognised where the
// pattern is exactly right, so that x's remainder is within [0, k-1]
// (or [k+1, 0]) at every input; not where the Divide floors already or
// Xor's constant is of the other sign (the remainder then reaches
// beyond, concretely), nor where the divisor's sign is unknown.
func TestFloorFixup(t *testing.T) {
	for _, tc := range []struct {
		name   string
		build  func(b *propModel) []ir.Output
		lo, hi int64
		floor  bool // the remainder is claimed within [lo, hi]
		// quotient: check instead that the quotient is claimed a floor
		// (or not, as floor says): the prover bounds no remainder by a
		// divisor that is not a constant.
		quotient bool
	}{
		{"by 8", func(b *propModel) []ir.Output { return b.fixupConst("2,3", 8, false, "false") }, 0, 7, true, false},
		{"by 8, dynamic shape", func(b *propModel) []ir.Output { return b.fixupConst("?,?", 8, false, "false") }, 0, 7, true, false},
		{"by -3", func(b *propModel) []ir.Output { return b.fixupConst("1..4", -3, false, "false") }, -2, 0, true, false},
		{"by MIN", func(b *propModel) []ir.Output { return b.fixupConst("2", math.MinInt32, false, "false") }, math.MinInt32 + 1, 0, true, false},
		{"by a dim", func(b *propModel) []ir.Output {
			d := b.one("Gather/opset8", nil, b.one("ShapeOf", nil, b.param(ir.F32, "1..5,2")), b.scalar(0), b.scalar(0))
			return b.fixup(b.param(ir.I64, "?"), d, d, b.one("Less", nil, d, b.scalar(0)), "false")
		}, 0, 0, true, true},
		{"without Xor", func(b *propModel) []ir.Output {
			return b.fixup(b.param(ir.I32, "2,3"), b.ints(ir.I32, nil, 8), b.ints(ir.I32, nil, 8), ir.Output{}, "false")
		}, 0, 7, true, false},
		{"without Xor, by -3", func(b *propModel) []ir.Output {
			return b.fixup(b.param(ir.I32, "2,3"), b.ints(ir.I32, nil, -3), b.ints(ir.I32, nil, -3), ir.Output{}, "false")
		}, -2, 0, false, false},
		{"by [[8]]", func(b *propModel) []ir.Output {
			return b.fixup(b.param(ir.I32, "3"), b.ints(ir.I32, []int64{1, 1}, 8), b.ints(ir.I32, nil, 8), b.ints(ir.Boolean, nil, 0), "false")
		}, 0, 7, true, false},
		{"Xor of the wrong sign", func(b *propModel) []ir.Output { return b.fixupConst("2,3", 8, true, "false") }, 0, 7, false, false},
		{"after a flooring Divide", func(b *propModel) []ir.Output { return b.fixupConst("2,3", 8, false, "true") }, 0, 7, false, false},
		{"by a divisor of unknown sign", func(b *propModel) []ir.Output {
			k := b.one("Add", nil, b.one("Relu", nil, b.param(ir.I64, "")), b.scalar(1)) // wraps to MIN at MAX
			return b.fixup(b.param(ir.I64, "?"), k, k, b.one("Less", nil, k, b.scalar(0)), "false")
		}, 0, 0, false, true},
	} {
		b := &propModel{m: &ir.Model{}}
		outs := tc.build(b)
		for i, o := range outs {
			b.m.AddResult(fmt.Sprintf("out%d", i), o)
		}
		inf, err := ops.InferModel(b.m)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		a := Analyze(b.m, inf, Options{})
		if tc.quotient {
			if got := a.B.String(a.All(a.Values[outs[0]])); strings.HasPrefix(got, "floor(") != tc.floor {
				t.Errorf("%s: the quotient is %s; want floor(x / d): %v", tc.name, got, tc.floor)
			}
			continue
		}
		r := a.Prover(true).Range(a.All(a.Values[outs[1]]))
		if within := r.Lo.AtLeast(tc.lo) && r.Hi.AtMost(tc.hi); within != tc.floor {
			t.Errorf("%s: the remainder is claimed in %s; want within [%d, %d]: %v", tc.name, r, tc.lo, tc.hi, tc.floor)
		}
	}
}

// TestIterationRecords: the operands a Loop's Divides are recorded with
// at each iteration walked one at a time (IterationPairs) hold at that
// iteration, concretely: a Divide that runs at iteration k has operands
// recorded there (none where the walk found its If's branch never taken
// then: c < i at i = 0 of c at least 0) within their ranges, and the
// trip count exceeds k.
func TestIterationRecords(t *testing.T) {
	b := &propModel{m: &ir.Model{}}
	tr, acc := b.param(ir.I64, ""), b.param(ir.I64, "")
	trip := b.one("Minimum", nil, b.one("Maximum", nil, tr, b.scalar(0)), b.scalar(2))
	init := b.one("Minimum", nil, b.one("Maximum", nil, acc, b.scalar(0)), b.scalar(9))
	var below *ir.Layer
	out := b.loopOp(trip, tr, init, ir.I64, ir.I64, "", "", 1, func(bb *propModel, p []ir.Output) []ir.Output {
		c := p[2]
		less := bb.one("Less", nil, c, p[0])
		below = less.Layer
		next := bb.ifOp(less, []ir.Output{c}, []ir.ElementType{ir.I64}, []string{""}, 1,
			func(bb *propModel, q []ir.Output) []ir.Output {
				return []ir.Output{bb.one("Divide", []string{"m_pythondiv", "true"}, bb.one("Subtract", nil, q[0], bb.scalar(7)), bb.scalar(2))}
			},
			func(bb *propModel, q []ir.Output) []ir.Output {
				return []ir.Output{bb.one("Subtract", nil, q[0], bb.scalar(5))}
			})[0]
		each := bb.one("Divide", []string{"m_pythondiv", "true"}, bb.one("Subtract", nil, c, bb.scalar(16)), bb.scalar(3))
		return []ir.Output{next, bb.one("Unsqueeze", nil, each, bb.scalar(0))}
	})
	b.m.AddResult("c", out[0])
	b.m.AddResult("each", out[1])
	inf, err := ops.InferModel(b.m)
	if err != nil {
		t.Fatal(err)
	}
	a := Analyze(b.m, inf, Options{})
	r := rand.New(rand.NewPCG(7, 27))
	recorded, idle, checked := 0, 0, 0
	for l := range a.Holders {
		if it, ok := a.IterationPairs(l); ok {
			recorded++
			if !it.TripKnown {
				t.Errorf("%s: no trip count recorded", l)
			}
			for _, ps := range it.Pairs {
				if len(ps) == 0 {
					idle++
				}
			}
		}
	}
	if recorded != 2 || idle != 1 {
		t.Fatalf("%d Divides recorded, %d iterations without operands; want 2 and 1 (the branch's at iteration 0)", recorded, idle)
	}
	for sample := range propertySamples {
		inputs := make(map[*ir.Layer]*ir.Tensor, len(a.Inputs))
		env := &pinned{a: a, r: map[sym.Sym]sym.Range{}}
		for _, in := range a.Inputs {
			inputs[in.Layer] = randomInput(r, in, env, sample)
		}
		p := sym.NewProver(a.B, env)
		k := int64(-1)
		_, err := concrete(b.m, inf.Order, inf.Ops, inputs, func(l *ir.Layer, in []*ir.Tensor) {
			if l == below {
				k, _ = IntAt(in[1], 0)
			}
			it, ok := a.IterationPairs(l)
			if !ok {
				return
			}
			if k < 0 || k >= int64(len(it.Pairs)) || len(it.Pairs[k]) == 0 {
				t.Fatalf("%s runs at iteration %d on inputs %v, recorded %d iterations: %v", l, k, inputs, len(it.Pairs), it.Pairs)
			}
			if tr := p.Range(it.Trip); tr.Hi.Less(sym.Finite(k + 1)) {
				t.Fatalf("%s runs at iteration %d on inputs %v, the trip count recorded %s", l, k, inputs, tr)
			}
			for i, e := range []sym.Expr{it.Pairs[k][0].A, it.Pairs[k][0].B} {
				if got, _ := IntAt(in[i], 0); !p.Range(e).Contains(got) {
					t.Fatalf("%s at iteration %d on inputs %v: operand %d is %d, recorded %s = %s", l, k, inputs, i, got, a.B.String(e), p.Range(e))
				}
			}
			checked++
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked == 0 {
		t.Error("no Divide was checked")
	}
}
