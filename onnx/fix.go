package onnx

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx/internal/onnxpb"
)

// TruncatingDivs rewrites the Div nodes of a model (its subgraphs, the
// bodies of If, Loop and Scan, included) whose first output is named in
// outputs into a division that ONNX's reading of
// Div (truncation) and OpenVINO's (floor, m_pythondiv) compute alike:
//
//	r = Mod(a, b, fmod=1)   the remainder of truncation, the sign of a
//	z = Div(a - r, b)       exact, so floor and truncation agree
//
// which is ONNX's truncating a / b for every input: a - r never overflows
// (r has the sign of a and is no larger), and it fails where a / b fails
// (b = 0, MIN / -1). The Div keeps its name and output, the new nodes
// are named after it, and nothing else in the model changes: initializers,
// metadata, opsets and fields irdiv does not read are written back as
// they were. data is the model file; it returns the rewritten model and
// the outputs of the Divs rewritten, in graph order.
//
// Mod appeared in opset 10: an older model is refused, as are outputs
// that are not those of a Div.
func TruncatingDivs(data []byte, outputs []string) ([]byte, []string, error) {
	return rewriteDivs(data, outputs, func(n *onnxpb.NodeProto, a, b, out string, fresh func(string) string, _ ir.ElementType) []*onnxpb.NodeProto {
		rem, exact := fresh(out+"_irdiv_remainder"), fresh(out+"_irdiv_exact")
		base := nodeBase(n, out)
		fixed := proto.Clone(n).(*onnxpb.NodeProto)
		fixed.Input = []string{exact, b}
		fixed.DocString = proto.String("irdiv fix: an exact division, which floor (OpenVINO's m_pythondiv) and truncation (ONNX) compute alike")
		return []*onnxpb.NodeProto{
			node("Mod", fresh(base+"_irdiv_remainder"), []string{a, b}, rem, "irdiv fix: the remainder of truncation, the sign of "+a, intAttrProto("fmod", 1)),
			node("Sub", fresh(base+"_irdiv_exact"), []string{a, rem}, exact, "irdiv fix: a multiple of "+b+", so that the Div below is exact"),
			fixed,
		}
	})
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
	return rewriteDivs(data, outputs, func(n *onnxpb.NodeProto, a, b, out string, fresh func(string) string, t ir.ElementType) []*onnxpb.NodeProto {
		base := nodeBase(n, out)
		name := func(s string) string { return fresh(base + "_openvino_" + s) }
		tensor := func(s string) string { return fresh(out + "_openvino_" + s) }
		q, r, zero, rem0, inexact, aNeg, bNeg, opposite, down, adjust := tensor("trunc"), tensor("remainder"), tensor("zero"),
			tensor("exact"), tensor("inexact"), tensor("a_negative"), tensor("b_negative"), tensor("opposite"), tensor("down"), tensor("adjust")
		trunc := proto.Clone(n).(*onnxpb.NodeProto)
		trunc.Output = []string{q}
		trunc.Name = proto.String(name("trunc"))
		last := node("Sub", nodeBase(n, out), []string{q, adjust}, out, "OpenVINO's floor: truncation, one down where the operands part and the division is not exact")
		return []*onnxpb.NodeProto{
			trunc,
			node("Mod", name("remainder"), []string{a, b}, r, "", intAttrProto("fmod", 1)),
			node("Sub", name("zero"), []string{r, r}, zero, ""),
			node("Equal", name("exact"), []string{r, zero}, rem0, ""),
			node("Not", name("inexact"), []string{rem0}, inexact, ""),
			node("Less", name("a_negative"), []string{a, zero}, aNeg, ""),
			node("Less", name("b_negative"), []string{b, zero}, bNeg, ""),
			node("Xor", name("opposite"), []string{aNeg, bNeg}, opposite, ""),
			node("And", name("down"), []string{inexact, opposite}, down, ""),
			node("Cast", name("adjust"), []string{down}, adjust, "", intAttrProto("to", int64(onnxDataType(t)))),
			last,
		}
	}, types)
}

// rewriter replaces one Div node (inputs a and b, first output out) by
// the nodes it returns, in order; fresh makes a name no other has.
type rewriter func(n *onnxpb.NodeProto, a, b, out string, fresh func(string) string, t ir.ElementType) []*onnxpb.NodeProto

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
	if len(outputs) > 0 && opset < 10 {
		return nil, nil, errorf("%w: the model imports opset %d, which has no Mod (opset 10): convert it to opset 10 or later first (onnx.version_converter), or export it so", ErrUnsupported, opset)
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
			a, b := n.GetInput()[0], n.GetInput()[1]
			var t ir.ElementType
			if len(types) > 0 {
				t = types[0][out]
			}
			nodes = append(nodes, rewrite(n, a, b, out, fresh, t)...)
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
