package ir

import (
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/shapeinfer"
)

// AddLayer appends a layer whose inputs are fed by ins and whose outputs are
// the given ports. It takes the next free layer id (one above the largest,
// found in time proportional to the layers appended since the last call)
// and numbers the ports as
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

// idCache remembers what nextID found, so that building a model of n
// layers with AddLayer looks at each layer once, not n times.
type idCache struct {
	seen  int    // the layers m.Layers[:seen] have been looked at
	first *Layer // m.Layers[0] then: another one means a new slice
	next  uint64 // one above the largest id among them
}

// nextID is one above the largest layer id. It looks only at the layers
// appended since its last call (all of them again when the slice was
// replaced); an id changed in place on a layer it has seen goes
// unnoticed, and Check then reports any duplicate. When the slice was
// shortened (an importer taking back the layers of a node it gave up on),
// the layers left keep the largest id it knows, which stays above all
// of theirs: looking at every layer again after each such rollback would
// make an import quadratic in the model's size.
func (m *Model) nextID() uint64 {
	c := &m.ids
	switch {
	case len(m.Layers) == 0 || c.seen > 0 && m.Layers[0] != c.first:
		*c = idCache{}
	case c.seen > len(m.Layers):
		c.seen = len(m.Layers)
	}
	for _, l := range m.Layers[c.seen:] {
		c.next = max(c.next, l.ID+1)
	}
	c.seen = len(m.Layers)
	if c.seen > 0 {
		c.first = m.Layers[0]
	}
	return c.next
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
