package onnx

import (
	"fmt"
	"math"

	"google.golang.org/protobuf/proto"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx/internal/onnxpb"
)

// TruncatingDivs rewrites the Div nodes of a model (its subgraphs, the
// bodies of If, Loop and Scan, included) whose first output is named in
// outputs into a division that ONNX's reading of Div (truncation) and
// OpenVINO's (floor, m_pythondiv) compute alike:
//
//	r = Mod(a, b, fmod=1)   the remainder of truncation, the sign of a
//	z = Div(a - r, b)       exact, so floor and truncation agree
//
// which is ONNX's truncating a / b for every input: a - r never overflows
// (r has the sign of a and is no larger), and it fails where a / b fails
// (b = 0, MIN / -1). Mod appeared in opset 10: in an older model the
// operands are made non-positive instead, whose quotient is never
// negative, so that both readings agree, and the sign is put back
// (truncation, below); an unsigned Div, whose floor and truncation agree,
// stays as it is there.
//
// The Div keeps its name (the last node of the form has it) and output,
// the new nodes are named after it, and nothing else in the model
// changes: initializers, metadata, opsets and fields irdiv does not read
// are written back as they were. data is the model file, types the
// element type of each Div; it returns the rewritten model and the Divs
// rewritten, in graph order.
func TruncatingDivs(data []byte, outputs []string, types map[string]ir.ElementType) ([]byte, []Rewrite, error) {
	var done []Rewrite
	fixed, _, err := rewriteDivs(data, outputs, func(d divNode) ([]*onnxpb.NodeProto, error) {
		n, a, b, out, fresh := d.n, d.a, d.b, d.out, d.fresh
		base := nodeBase(n, out)
		switch {
		case d.opset >= 10:
			rem, exact := fresh(out+"_irdiv_remainder"), fresh(out+"_irdiv_exact")
			fixed := proto.Clone(n).(*onnxpb.NodeProto)
			fixed.Input = []string{exact, b}
			fixed.DocString = proto.String("irdiv fix: an exact division, which floor (OpenVINO's m_pythondiv) and truncation (ONNX) compute alike")
			done = append(done, Rewrite{Output: out, Divide: out, Form: "Mod(fmod=1), Sub, Div"})
			return []*onnxpb.NodeProto{
				node("Mod", fresh(base+"_irdiv_remainder"), []string{a, b}, rem, "irdiv fix: the remainder of truncation, the sign of "+a, intAttrProto("fmod", 1)),
				node("Sub", fresh(base+"_irdiv_exact"), []string{a, rem}, exact, "irdiv fix: a multiple of "+b+", so that the Div below is exact"),
				fixed,
			}, nil
		case d.t.IsInteger() && !d.t.IsSigned():
			done = append(done, Rewrite{Output: out, Divide: out, Form: "kept: unsigned, floor and truncation agree"})
			return []*onnxpb.NodeProto{n}, nil
		}
		nodes, q, err := truncation(d, out, "irdiv")
		if err != nil {
			return nil, err
		}
		nodes[len(nodes)-1].Name = proto.String(base)
		done = append(done, Rewrite{Output: out, Divide: q, Form: "Where, Neg, Div of the operands made non-positive, Where"})
		return nodes, nil
	}, types)
	return fixed, done, err
}

// Rewrite is a Div TruncatingDivs rewrote: its output, the output of the
// Div the form holds (which floor and truncation compute alike), and the
// form, in words.
type Rewrite struct {
	Output, Divide, Form string
}

// truncation computes ONNX's a / b into out without Mod (opset 9), by a
// Div of both operands made non-positive (a positive value negated, which
// never overflows; MIN kept), whose quotient is never negative, so that
// floor and truncation agree, then the sign put back:
//
//	an = Where(a > 0, -a, a), bn = Where(b > 0, -b, b)
//	special = an == MIN and bn == -1      (a = MIN, b = +-1: -MIN overflows)
//	q = Div(an, Where(special, -2, bn))
//	out = Where(special, a, Where(a < 0 xor b < 0, -q, q))
//
// which is a / b wherever a / b is defined, and MIN where a = MIN, b =
// -1 (undefined). The zeros compared with are a - a and b - b. It returns
// the nodes, the last one writing out, and the Div's output.
func truncation(d divNode, out, tag string) ([]*onnxpb.NodeProto, string, error) {
	if d.t != ir.I32 && d.t != ir.I64 {
		return nil, "", errorf("%w: the Div of %q divides %s, whose opset-9 form irdiv does not write (it writes those of i32 and i64)", ErrUnsupported, d.out, d.t)
	}
	lo := int64(math.MinInt64)
	if d.t == ir.I32 {
		lo = math.MinInt32
	}
	base := nodeBase(d.n, d.out)
	name := func(s string) string { return d.fresh(base + "_" + tag + "_" + s) }
	tensor := func(s string) string { return d.fresh(out + "_" + tag + "_" + s) }
	var nodes []*onnxpb.NodeProto
	add := func(op, s string, in []string, doc string) string {
		t := tensor(s)
		nodes = append(nodes, node(op, name(s), in, t, doc))
		return t
	}
	constant := func(s string, v int64) string {
		t := tensor(s)
		nodes = append(nodes, constantNode(name(s), t, d.t, v))
		return t
	}
	var negative, forms [2]string
	for i, x := range []string{d.a, d.b} {
		side := []string{"a", "b"}[i]
		zero := add("Sub", side+"_zero", []string{x, x}, "")
		positive := add("Greater", side+"_positive", []string{x, zero}, "")
		negative[i] = add("Less", side+"_negative", []string{x, zero}, "")
		negated := add("Neg", side+"_negated", []string{x}, "")
		forms[i] = add("Where", side+"_non_positive", []string{positive, negated, x}, "irdiv fix: "+x+" made non-positive (a positive value negated, which never overflows)")
	}
	minimum, minusOne, minusTwo := constant("min", lo), constant("minus_one", -1), constant("minus_two", -2)
	special := add("And", "special", []string{add("Equal", "a_min", []string{forms[0], minimum}, ""), add("Equal", "b_minus_one", []string{forms[1], minusOne}, "")},
		"irdiv fix: a = MIN and b = +-1, where -MIN does not fit")
	divisor := add("Where", "divisor", []string{special, minusTwo, forms[1]}, "")
	q := tensor("quotient")
	div := proto.Clone(d.n).(*onnxpb.NodeProto)
	div.Name = proto.String(name("quotient"))
	div.Input = []string{forms[0], divisor}
	div.Output = []string{q}
	div.DocString = proto.String("irdiv fix: a division of non-positive operands, never negative, which floor (OpenVINO's m_pythondiv) and truncation (ONNX) compute alike")
	nodes = append(nodes, div)
	opposite := add("Xor", "opposite", []string{negative[0], negative[1]}, "")
	signed := add("Where", "signed", []string{opposite, add("Neg", "negated", []string{q}, ""), q}, "irdiv fix: truncation, the sign put back")
	nodes = append(nodes, node("Where", name("result"), []string{special, d.a, signed}, out, ""))
	return nodes, q, nil
}

// constantNode is a Constant of a scalar of type t (i32 or i64).
func constantNode(name, out string, t ir.ElementType, v int64) *onnxpb.NodeProto {
	x := &onnxpb.TensorProto{DataType: proto.Int32(int32(onnxDataType(t)))}
	if t == ir.I64 {
		x.Int64Data = []int64{v}
	} else {
		x.Int32Data = []int32{int32(v)}
	}
	return node("Constant", name, nil, out, "", &onnxpb.AttributeProto{Name: proto.String("value"), Type: onnxpb.AttributeProto_TENSOR.Enum(), T: x})
}

// FlooringDivs rewrites the Div nodes of a model (subgraphs included)
// whose first output is named in outputs, of the signed integer types given for each,
// into what OpenVINO's ONNX import computes for them: a Divide with
// m_pythondiv=true, which floors. It is built from standard ONNX ops, so
// that any runtime computes OpenVINO's side of a counter-example:
//
//	q = Div(a, b)                                  truncation
//	r = Mod(a, b, fmod=1)                          its remainder
//	z = q - Cast(r != 0 and (a < 0 xor b < 0))     one down where they part
//
// with the zeros of the comparisons made as r - r, so that no constant of
// the type is needed. types gives the element type of each Div.
func FlooringDivs(data []byte, outputs []string, types map[string]ir.ElementType) ([]byte, []string, error) {
	return rewriteDivs(data, outputs, func(d divNode) ([]*onnxpb.NodeProto, error) {
		n, a, b, out, fresh, t := d.n, d.a, d.b, d.out, d.fresh, d.t
		base := nodeBase(n, out)
		name := func(s string) string { return fresh(base + "_openvino_" + s) }
		tensor := func(s string) string { return fresh(out + "_openvino_" + s) }
		q, r, zero, rem0, inexact, aNeg, bNeg, opposite, down, adjust := tensor("trunc"), tensor("remainder"), tensor("zero"),
			tensor("exact"), tensor("inexact"), tensor("a_negative"), tensor("b_negative"), tensor("opposite"), tensor("down"), tensor("adjust")
		last := node("Sub", nodeBase(n, out), []string{q, adjust}, out, "OpenVINO's floor: truncation, one down where the operands part and the division is not exact")
		var head []*onnxpb.NodeProto
		if d.opset >= 10 {
			trunc := proto.Clone(n).(*onnxpb.NodeProto)
			trunc.Output = []string{q}
			trunc.Name = proto.String(name("trunc"))
			head = []*onnxpb.NodeProto{trunc, node("Mod", name("remainder"), []string{a, b}, r, "", intAttrProto("fmod", 1))}
		} else {
			// No Mod before opset 10: truncation as TruncatingDivs
			// writes it there, and its remainder a - q*b.
			nodes, _, err := truncation(d, q, "openvino")
			if err != nil {
				return nil, err
			}
			prod := tensor("product")
			head = append(nodes, node("Mul", name("product"), []string{q, b}, prod, ""), node("Sub", name("remainder"), []string{a, prod}, r, ""))
		}
		return append(head,
			node("Sub", name("zero"), []string{r, r}, zero, ""),
			node("Equal", name("exact"), []string{r, zero}, rem0, ""),
			node("Not", name("inexact"), []string{rem0}, inexact, ""),
			node("Less", name("a_negative"), []string{a, zero}, aNeg, ""),
			node("Less", name("b_negative"), []string{b, zero}, bNeg, ""),
			node("Xor", name("opposite"), []string{aNeg, bNeg}, opposite, ""),
			node("And", name("down"), []string{inexact, opposite}, down, ""),
			node("Cast", name("adjust"), []string{down}, adjust, "", intAttrProto("to", int64(onnxDataType(t)))),
			last,
		), nil
	}, types)
}

// divNode is one Div node to rewrite: inputs a and b, first output out,
// of element type t, in a model of this opset; fresh makes a name no
// other has.
type divNode struct {
	n     *onnxpb.NodeProto
	a, b  string
	out   string
	t     ir.ElementType
	opset int64
	fresh func(string) string
}

// rewriter replaces one Div node by the nodes it returns, in order.
type rewriter func(d divNode) ([]*onnxpb.NodeProto, error)

func nodeBase(n *onnxpb.NodeProto, out string) string {
	if n.GetName() != "" {
		return n.GetName()
	}
	return out
}

func node(op, name string, in []string, out, doc string, attrs ...*onnxpb.AttributeProto) *onnxpb.NodeProto {
	n := &onnxpb.NodeProto{OpType: proto.String(op), Name: proto.String(name), Input: in, Output: []string{out}, Attribute: attrs}
	if doc != "" {
		n.DocString = proto.String(doc)
	}
	return n
}

func intAttrProto(name string, v int64) *onnxpb.AttributeProto {
	return &onnxpb.AttributeProto{Name: proto.String(name), Type: onnxpb.AttributeProto_INT.Enum(), I: proto.Int64(v)}
}

// onnxDataType is TensorProto.DataType of an element type (0 if none).
func onnxDataType(t ir.ElementType) onnxpb.TensorProto_DataType {
	for dt, et := range elementTypes {
		if et == t {
			return dt
		}
	}
	return 0
}

func rewriteDivs(data []byte, outputs []string, rewrite rewriter, types ...map[string]ir.ElementType) ([]byte, []string, error) {
	var mp onnxpb.ModelProto
	if err := proto.Unmarshal(data, &mp); err != nil {
		return nil, nil, errorf("%w: not a ModelProto: %v", ErrFormat, err)
	}
	g := mp.GetGraph()
	if g == nil {
		return nil, nil, errorf("%w: the model has no graph", ErrFormat)
	}
	opset := int64(-1)
	for _, op := range mp.GetOpsetImport() {
		if d := op.GetDomain(); d == "" || d == "ai.onnx" {
			opset = op.GetVersion()
		}
	}
	want := make(map[string]bool, len(outputs))
	for _, o := range outputs {
		want[o] = true
	}
	// The names of every graph, subgraphs included: a subgraph sees the
	// names of the graphs around it, so a new name must be new to all.
	used := make(map[string]bool)
	for _, g := range graphsOf(g) {
		for _, n := range g.GetNode() {
			used[n.GetName()] = true
			for _, o := range n.GetOutput() {
				used[o] = true
			}
			for _, i := range n.GetInput() {
				used[i] = true
			}
		}
		for _, v := range append(append(append([]*onnxpb.ValueInfoProto{}, g.GetInput()...), g.GetOutput()...), g.GetValueInfo()...) {
			used[v.GetName()] = true
		}
		for _, t := range g.GetInitializer() {
			used[t.GetName()] = true
		}
	}
	fresh := func(base string) string {
		name := base
		for i := 1; used[name]; i++ {
			name = fmt.Sprintf("%s_%d", base, i)
		}
		used[name] = true
		return name
	}
	var done []string
	for _, g := range graphsOf(g) {
		var nodes []*onnxpb.NodeProto
		for _, n := range g.GetNode() {
			if len(n.GetOutput()) == 0 || !want[n.GetOutput()[0]] {
				nodes = append(nodes, n)
				continue
			}
			out := n.GetOutput()[0]
			if d := n.GetDomain(); n.GetOpType() != "Div" || d != "" && d != "ai.onnx" || len(n.GetInput()) != 2 {
				return nil, nil, errorf("%w: %q is the output of a %s node, not of a Div", ErrUnsupported, out, n.GetOpType())
			}
			delete(want, out)
			d := divNode{n: n, a: n.GetInput()[0], b: n.GetInput()[1], out: out, opset: opset, fresh: fresh}
			if len(types) > 0 {
				d.t = types[0][out]
			}
			rewritten, err := rewrite(d)
			if err != nil {
				return nil, nil, err
			}
			nodes = append(nodes, rewritten...)
			done = append(done, out)
		}
		g.Node = nodes
	}
	for o := range want {
		return nil, nil, errorf("%w: no Div of the model outputs %q", ErrUnsupported, o)
	}
	fixed, err := proto.MarshalOptions{Deterministic: true}.Marshal(&mp)
	if err != nil {
		return nil, nil, errorf("writing the fixed model: %v", err)
	}
	return fixed, done, nil
}

// graphsOf lists g and its subgraphs (the GRAPH and GRAPHS attributes of
// its nodes, at any depth), g first. A stack, not a recursion: Read has
// bounded the nesting already, but a walk need not rely on it.
func graphsOf(g *onnxpb.GraphProto) []*onnxpb.GraphProto {
	var out []*onnxpb.GraphProto
	stack := []*onnxpb.GraphProto{g}
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, g)
		for _, n := range g.GetNode() {
			for _, a := range n.GetAttribute() {
				if a.G != nil {
					stack = append(stack, a.G)
				}
				stack = append(stack, a.GetGraphs()...)
			}
		}
	}
	return out
}
