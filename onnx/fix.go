package onnx

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/irdiv/irdiv/onnx/internal/onnxpb"
)

// TruncatingDivs rewrites the Div nodes of a model's main graph whose
// first output is named in outputs into a division that ONNX's reading of
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
// that are not those of a Div of the main graph.
func TruncatingDivs(data []byte, outputs []string) ([]byte, []string, error) {
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
	used := make(map[string]bool)
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
	fresh := func(base string) string {
		name := base
		for i := 1; used[name]; i++ {
			name = fmt.Sprintf("%s_%d", base, i)
		}
		used[name] = true
		return name
	}
	var nodes []*onnxpb.NodeProto
	var done []string
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
		base := n.GetName()
		if base == "" {
			base = out
		}
		rem, exact := fresh(out+"_irdiv_remainder"), fresh(out+"_irdiv_exact")
		nodes = append(nodes,
			&onnxpb.NodeProto{OpType: proto.String("Mod"), Name: proto.String(fresh(base + "_irdiv_remainder")), Input: []string{a, b}, Output: []string{rem},
				Attribute: []*onnxpb.AttributeProto{{Name: proto.String("fmod"), Type: onnxpb.AttributeProto_INT.Enum(), I: proto.Int64(1)}},
				DocString: proto.String("irdiv fix: the remainder of truncation, the sign of " + a)},
			&onnxpb.NodeProto{OpType: proto.String("Sub"), Name: proto.String(fresh(base + "_irdiv_exact")), Input: []string{a, rem}, Output: []string{exact},
				DocString: proto.String("irdiv fix: a multiple of " + b + ", so that the Div below is exact")},
		)
		fixed := proto.Clone(n).(*onnxpb.NodeProto)
		fixed.Input = []string{exact, b}
		fixed.DocString = proto.String("irdiv fix: an exact division, which floor (OpenVINO's m_pythondiv) and truncation (ONNX) compute alike")
		nodes = append(nodes, fixed)
		done = append(done, out)
	}
	for o := range want {
		return nil, nil, errorf("%w: no Div of the main graph outputs %q", ErrUnsupported, o)
	}
	g.Node = nodes
	fixed, err := proto.MarshalOptions{Deterministic: true}.Marshal(&mp)
	if err != nil {
		return nil, nil, errorf("writing the fixed model: %v", err)
	}
	return fixed, done, nil
}
