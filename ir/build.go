package ir

import (
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/shapeinfer"
)

// AddLayer appends a layer whose inputs are fed by ins and whose outputs are
// the given ports. It takes the next free layer id and numbers the ports as
// OpenVINO's serializer does: inputs 0..k-1, then outputs from k. Input
// ports copy the type and dims of the outputs that feed them.
func (m *Model) AddLayer(typ, version, name string, data []Attr, ins []Output, outs []*Port) *Layer {
	l := &Layer{ID: m.nextID(), Name: name, Type: typ, Version: version, Data: data, Outputs: outs}
	for i, in := range ins {
		src := in.Port()
		l.Inputs = append(l.Inputs, &Port{ID: uint64(i), Precision: src.Type.Precision(), Type: src.Type, Dims: append([]int64{}, src.Dims...)})
		m.Edges = append(m.Edges, Edge{FromLayer: in.Layer.ID, FromPort: src.ID, ToLayer: l.ID, ToPort: uint64(i)})
	}
	for i, p := range outs {
		p.ID = uint64(len(ins) + i)
		if p.Precision == "" {
			p.Precision = p.Type.Precision()
		}
	}
	m.Layers = append(m.Layers, l)
	return l
}

func (m *Model) nextID() uint64 {
	var id uint64
	for _, l := range m.Layers {
		id = max(id, l.ID+1)
	}
	return id
}

// AddParameter appends a Parameter of the given type and partial shape.
func (m *Model) AddParameter(name string, t ElementType, shape shapeinfer.Shape) *Layer {
	data := []Attr{{"shape", strings.Trim(shape.String(), "[]")}, {"element_type", t.String()}}
	return m.AddLayer("Parameter", "opset1", name, data, nil, []*Port{{Type: t, Dims: PortDims(shape), Names: []string{name}}})
}

// AddConst appends a Const holding v.
func (m *Model) AddConst(name string, v *Tensor) *Layer {
	data := []Attr{{"element_type", v.Type.String()}, {"shape", joinDims(v.Shape, ", ")}, {"offset", "0"}, {"size", strconv.Itoa(len(v.Data))}}
	l := m.AddLayer("Const", "opset1", name, data, nil, []*Port{{Type: v.Type, Dims: append([]int64{}, v.Shape...)}})
	l.Constant = v
	return l
}

// AddResult appends a Result fed by in.
func (m *Model) AddResult(name string, in Output) *Layer {
	return m.AddLayer("Result", "opset1", name, nil, []Output{in}, nil)
}

// PortDims converts a partial shape to <dim> values, -1 for every
// non-static dimension as the serializer writes them.
func PortDims(s shapeinfer.Shape) []int64 {
	dims := make([]int64, len(s.Dims))
	for i, d := range s.Dims {
		dims[i] = -1
		if d.IsStatic() {
			dims[i] = d.Min
		}
	}
	return dims
}

func joinDims(dims []int64, sep string) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return strings.Join(parts, sep)
}
