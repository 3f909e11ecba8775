package onnxwire

import (
	"encoding/binary"
	"strconv"
)

// DeepChain is an ONNX model x: int64[4] -> op -> op -> ... (n nodes) ->
// Div by 3 -> y, op one of "Abs", "Neg" or "Add" (v + 1): the crafted
// model of issue 28, whose depth is its size; "DivAdd" makes each step
// (v + x) / 3 and "Mul" v * x. validate's tests of deep models and the
// command line's test of --max-memory build it.
func DeepChain(op string, n int) []byte {
	i64 := func(name string, v int64) []byte {
		return Tensor(name, Int64, nil, binary.LittleEndian.AppendUint64(nil, uint64(v)))
	}
	inits := [][]byte{i64("three", 3), i64("one", 1)}
	nodes := make([][]byte, 0, n+1)
	prev := "x"
	for i := range n {
		out := "v" + strconv.Itoa(i)
		switch op {
		case "Add":
			nodes = append(nodes, Node(op, out, []string{prev, "one"}, []string{out}))
		case "DivAdd": // (v + x) / 3: truncations whose bounds relate to x
			nodes = append(nodes, Node("Add", out+"s", []string{prev, "x"}, []string{out + "s"}),
				Node("Div", out, []string{out + "s", "three"}, []string{out}))
		case "Mul": // v * x: products
			nodes = append(nodes, Node(op, out, []string{prev, "x"}, []string{out}))
		default:
			nodes = append(nodes, Node(op, out, []string{prev}, []string{out}))
		}
		prev = out
	}
	nodes = append(nodes, Node("Div", "div", []string{prev, "three"}, []string{"y"}))
	g := Graph("chain", nodes, inits, [][]byte{Value("x", Int64, 4)}, [][]byte{Value("y", Int64, 4)})
	return Model(13, g)
}
