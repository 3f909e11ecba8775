// Package onnxwire encodes small ONNX messages field by field, for the
// examples, the hostile-input corpus, the random models of validate's
// differential test and the one-node models of the structure-aware fuzz
// targets (HostileModel): it can write what onnx.proto
// forbids or the onnx package would never produce (wrong types, escaping
// paths, absurd dims). Field numbers are those of onnx.proto.
package onnxwire

import (
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// TensorProto.DataType values.
const (
	Float  = 1
	Int32  = 6
	String = 8
	Int64  = 7
	Bool   = 9
)

func str(b []byte, field protowire.Number, s string) []byte {
	return protowire.AppendString(protowire.AppendTag(b, field, protowire.BytesType), s)
}

func msg(b []byte, field protowire.Number, m []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(b, field, protowire.BytesType), m)
}

func varint(b []byte, field protowire.Number, v uint64) []byte {
	return protowire.AppendVarint(protowire.AppendTag(b, field, protowire.VarintType), v)
}

// Model is a ModelProto with IR version 8, the default domain at opset and
// the graph.
func Model(opset int64, graph []byte) []byte {
	m := varint(nil, 1, 8)
	m = str(m, 2, "irdiv")
	m = msg(m, 7, graph)
	return msg(m, 8, varint(str(nil, 1, ""), 2, uint64(opset)))
}

// Graph is a GraphProto; each list holds encoded messages.
func Graph(name string, nodes, initializers, inputs, outputs [][]byte) []byte {
	var g []byte
	for _, n := range nodes {
		g = msg(g, 1, n)
	}
	g = str(g, 2, name)
	for _, t := range initializers {
		g = msg(g, 5, t)
	}
	for _, v := range inputs {
		g = msg(g, 11, v)
	}
	for _, v := range outputs {
		g = msg(g, 12, v)
	}
	return g
}

// Node is a NodeProto of the default domain.
func Node(opType, name string, inputs, outputs []string) []byte {
	var n []byte
	for _, in := range inputs {
		n = str(n, 1, in)
	}
	for _, out := range outputs {
		n = str(n, 2, out)
	}
	n = str(n, 3, name)
	return str(n, 4, opType)
}

// Value is a ValueInfoProto of a tensor with static dims.
func Value(name string, dataType int32, dims ...int64) []byte {
	var shape []byte
	for _, d := range dims {
		shape = msg(shape, 1, varint(nil, 1, uint64(d)))
	}
	tensor := msg(varint(nil, 1, uint64(dataType)), 2, shape)
	return msg(str(nil, 1, name), 2, msg(nil, 1, tensor))
}

// Tensor is a TensorProto with raw data.
func Tensor(name string, dataType int32, dims []int64, raw []byte) []byte {
	var t []byte
	for _, d := range dims {
		t = varint(t, 1, uint64(d))
	}
	t = varint(t, 2, uint64(dataType))
	t = str(t, 8, name)
	return msg(t, 9, raw)
}

// ExternalTensor is a TensorProto whose data lies in the file location.
func ExternalTensor(name string, dataType int32, dims []int64, location string) []byte {
	var t []byte
	for _, d := range dims {
		t = varint(t, 1, uint64(d))
	}
	t = varint(t, 2, uint64(dataType))
	t = str(t, 8, name)
	t = msg(t, 13, str(str(nil, 1, "location"), 2, location))
	return varint(t, 14, 1) // data_location = EXTERNAL
}

// NodeAttrs is Node with attributes (encoded AttributeProtos).
func NodeAttrs(opType, name string, inputs, outputs []string, attrs ...[]byte) []byte {
	n := Node(opType, name, inputs, outputs)
	for _, a := range attrs {
		n = msg(n, 5, a)
	}
	return n
}

// TensorAttr is an AttributeProto of type TENSOR holding an encoded
// TensorProto.
func TensorAttr(name string, tensor []byte) []byte {
	return varint(msg(str(nil, 1, name), 5, tensor), 20, 4)
}

// GraphAttr is an AttributeProto of type GRAPH holding an encoded
// GraphProto: an If's branch, a Loop's or a Scan's body.
func GraphAttr(name string, graph []byte) []byte {
	return varint(msg(str(nil, 1, name), 6, graph), 20, 5)
}

// IntAttr is an AttributeProto of type INT.
func IntAttr(name string, v int64) []byte {
	return varint(varint(str(nil, 1, name), 3, uint64(v)), 20, 2)
}

// IntsAttr is an AttributeProto of type INTS (packed, as onnx.helper
// writes them).
func IntsAttr(name string, vs ...int64) []byte {
	var packed []byte
	for _, v := range vs {
		packed = protowire.AppendVarint(packed, uint64(v))
	}
	return varint(msg(str(nil, 1, name), 8, packed), 20, 7)
}

// FloatAttr is an AttributeProto of type FLOAT.
func FloatAttr(name string, v float32) []byte {
	a := protowire.AppendTag(str(nil, 1, name), 2, protowire.Fixed32Type)
	a = protowire.AppendFixed32(a, math.Float32bits(v))
	return varint(a, 20, 1)
}

// Dim is one dim of a ValueInfo's shape: a size, or when Param is set a
// symbolic dim of that name (dim_param).
type Dim struct {
	Value int64
	Param string
}

// ValueDims is a ValueInfoProto of a tensor whose dims may be symbolic.
// A nil dims slice leaves the shape out (unknown rank), as a model's
// intermediate values or outputs often do; an empty one is a scalar.
func ValueDims(name string, dataType int32, dims []Dim) []byte {
	tensor := varint(nil, 1, uint64(dataType))
	if dims != nil {
		shape := []byte{}
		for _, d := range dims {
			if d.Param != "" {
				shape = msg(shape, 1, str(nil, 2, d.Param))
			} else {
				shape = msg(shape, 1, varint(nil, 1, uint64(d.Value)))
			}
		}
		tensor = msg(tensor, 2, shape)
	}
	return msg(str(nil, 1, name), 2, msg(nil, 1, tensor))
}

// StringAttr is an AttributeProto of type STRING.
func StringAttr(name, v string) []byte {
	return varint(str(str(nil, 1, name), 4, v), 20, 3)
}

// DomainNode is NodeAttrs for a node of another domain than the default.
func DomainNode(domain, opType, name string, inputs, outputs []string, attrs ...[]byte) []byte {
	return str(NodeAttrs(opType, name, inputs, outputs, attrs...), 7, domain)
}

// WithOpset adds the import of domain at version to an encoded model.
func WithOpset(model []byte, domain string, version int64) []byte {
	return msg(model, 8, varint(str(nil, 1, domain), 2, uint64(version)))
}

// ValueInfo is a ValueInfoProto of a tensor whose dims may be unknown
// (a negative dim has no dim_value).
func ValueInfo(name string, dataType int32, dims ...int64) []byte {
	var shape []byte
	for _, d := range dims {
		var dim []byte
		if d >= 0 {
			dim = varint(nil, 1, uint64(d))
		}
		shape = msg(shape, 1, dim)
	}
	tensor := msg(varint(nil, 1, uint64(dataType)), 2, shape)
	return msg(str(nil, 1, name), 2, msg(nil, 1, tensor))
}

// Rankless is a ValueInfoProto of a tensor of unknown rank (no shape).
func Rankless(name string, dataType int32) []byte {
	return msg(str(nil, 1, name), 2, msg(nil, 1, varint(nil, 1, uint64(dataType))))
}

// GraphWithInfo is Graph with value_info entries.
func GraphWithInfo(name string, nodes, initializers, inputs, outputs, infos [][]byte) []byte {
	g := Graph(name, nodes, initializers, inputs, outputs)
	for _, v := range infos {
		g = msg(g, 13, v)
	}
	return g
}
