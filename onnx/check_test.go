package onnx

import (
	"errors"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/onnx/internal/onnxpb"
	"google.golang.org/protobuf/proto"
)

func TestGraphRules(t *testing.T) {
	node := func(name string, ins []string, outs ...string) *onnxpb.NodeProto {
		return &onnxpb.NodeProto{Name: proto.String(name), OpType: proto.String("Div"), Input: ins, Output: outs}
	}
	i32 := int32(onnxpb.TensorProto_INT32)
	cases := []struct {
		name   string
		change func(g *onnxpb.GraphProto)
		want   string // "" when the graph is valid
	}{
		{"valid", func(*onnxpb.GraphProto) {}, ""},
		{"input declared twice", func(g *onnxpb.GraphProto) {
			g.Input = append(g.Input, tensorInfo("x", int32(onnxpb.TensorProto_FLOAT), 4))
		}, `graph input "x" is declared twice`},
		{"two nodes write one name", func(g *onnxpb.GraphProto) {
			g.Node = append(g.Node, node("d2", []string{"x", "y"}, "z"))
		}, `node "d2" (Div, #1) writes "z", which is already defined by node "d" (Div, #0)`},
		{"a node writes a graph input", func(g *onnxpb.GraphProto) {
			g.Node[0].Output = []string{"x"}
			g.Output[0].Name = proto.String("x")
		}, `node "d" (Div, #0) writes "x", which is already defined by graph input`},
		{"initializer twice", func(g *onnxpb.GraphProto) {
			init := &onnxpb.TensorProto{Name: proto.String("w"), DataType: proto.Int32(i32), RawData: []byte{1, 0, 0, 0}}
			g.Initializer = append(g.Initializer, init, init)
		}, `initializer "w" is defined twice`},
		{"read before written", func(g *onnxpb.GraphProto) {
			g.Node = append([]*onnxpb.NodeProto{node("first", []string{"z", "y"}, "w")}, g.Node...)
		}, `node "first" (Div, #0) reads "z", which no graph input, initializer or earlier node defines`},
		{"output defined by nothing", func(g *onnxpb.GraphProto) {
			g.Output = append(g.Output, tensorInfo("nowhere", i32, 4))
		}, `graph output "nowhere" is defined by no graph input, initializer or node`},
		{"output that is an input", func(g *onnxpb.GraphProto) {
			g.Output = append(g.Output, tensorInfo("x", i32, 4))
		}, ""},
		{"initializer that is also an input", func(g *onnxpb.GraphProto) {
			g.Initializer = append(g.Initializer, &onnxpb.TensorProto{Name: proto.String("y"), Dims: []int64{4}, DataType: proto.Int32(i32), RawData: make([]byte, 16)})
		}, ""},
		{"no op_type", func(g *onnxpb.GraphProto) { g.Node[0].OpType = proto.String("") }, `node "d" (, #0) has no op_type`},
	}
	for _, c := range cases {
		mp := divModel(14, i32, []int64{4}, []int64{4}, []int64{4})
		c.change(mp.Graph)
		data, err := proto.Marshal(mp)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Read(data, ReadOptions{})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrFormat)):
			t.Errorf("%s: got %v, want an ErrFormat saying %q", c.name, err, c.want)
		case err != nil && strings.Count(err.Error(), "onnx: ") != 1:
			t.Errorf("%s: %q does not carry one prefix", c.name, err)
		}
	}
}
