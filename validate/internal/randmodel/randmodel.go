// Package randmodel generates small random ONNX models of the shape
// arithmetic and integer value paths that real exports contain, each with
// at least one integer Div, for validate's differential test: every
// verdict validate gives on a Div is checked against what the model
// computes on ONNX Runtime (or irdiv's own evaluation) at many inputs.
//
// A model is a pure function of its seed. Its inputs are a tensor x
// (float32 for pooling and convolution, or integer) and an integer tensor
// y, each with symbolic and fixed dims. The ops are the ones a Div of a
// real export is fed by: Shape, Gather, Slice, Squeeze, Unsqueeze,
// Concat, Reshape, Cast (int to float to int, Floor/Ceil/Round of scaled
// dims), Add, Sub, Mul, Div (chained and nested), Mod, Min, Max, Abs,
// Neg, Clip, Where, Less, Greater, Equal, Expand, ConstantOfShape, Range,
// ReduceSum, Size, Resize, and the output dims of MaxPool, AveragePool
// and Conv (pads, strides, dilations, ceil_mode). Values that become the
// size of a tensor (ConstantOfShape, Expand, Range, Resize) pass through
// Min or Clip first, so that no input, however large its elements, makes
// a runtime allocate more than a few hundred elements; they can still be
// negative or zero, which a runtime refuses.
//
// Besides the model itself (Bytes), a Model writes the variants a
// differential test needs (Variant): every integer Div flooring as
// OpenVINO's import computes it, with standard ONNX ops; the divisors of
// Div and Mod guarded, so that a division by zero or MIN / -1 is counted
// in an output instead of killing ONNX Runtime with SIGFPE; per Div the
// number of elements where floor and truncation differ; fixed input dims
// made symbolic, to run other input shapes.
package randmodel

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/ir"
)

// Input is a graph input: a symbolic dim has Param set.
type Input struct {
	Name string
	Type ir.ElementType
	Dims []onnxwire.Dim
}

func (in Input) String() string {
	parts := make([]string, len(in.Dims))
	for i, d := range in.Dims {
		parts[i] = d.Param
		if d.Param == "" {
			parts[i] = strconv.FormatInt(d.Value, 10)
		}
	}
	return in.Name + ": " + in.Type.String() + "[" + strings.Join(parts, ",") + "]"
}

// Model is a generated model.
type Model struct {
	Seed    uint64
	Opset   int64
	Inputs  []Input
	Outputs []string
	// Divs are the integer Div nodes in graph order: node name and output.
	Divs []Div
	// Ops are the op types of the nodes, in graph order.
	Ops    []string
	types  map[string]ir.ElementType
	consts []constant
	nodes  []node
}

// Div is an integer Div node of a model.
type Div struct {
	Node, Output string
	// Body is where the Div is, "" for the model's graph, else the path
	// of bodies that hold it, outermost first: "n12_Loop body > body3/n2_If
	// then_branch".
	Body string
}

type node struct {
	op      string
	name    string
	inputs  []string
	outputs []string
	attrs   []attr
	// need is, for a window (MaxPool, AveragePool, Conv), the least size
	// of each spatial dim of its input: its dilated kernel less its pads.
	need []int64
	// sizes is 1 + the input holding the dims of its output, for
	// ConstantOfShape, Expand and Resize (0 for other ops).
	sizes int
	// bodies are the subgraphs of an If (then_branch, else_branch) or a
	// Loop (body).
	bodies []*graph
}

// graph is a subgraph, the value of an attribute of type GRAPH. Its nodes
// read the names of the graphs around it as their own (ONNX's outer
// scope), which its node's inputs do not list.
type graph struct {
	attr            string // then_branch, else_branch, body
	inputs, outputs []port
	nodes           []node
	// consts are initializers of the subgraph: the constants a variant
	// adds there (the generator writes Constant nodes in bodies, as
	// exporters do).
	consts []constant
}

// port is an input or output of a subgraph: its dims are left unknown,
// its rank declared (ONNX Runtime gives a Loop's scan output of no
// iteration the rank its body declares).
type port struct {
	name string
	t    ir.ElementType
	rank int
}

func (p port) value() []byte {
	dims := make([]int64, p.rank)
	for i := range dims {
		dims[i] = -1
	}
	return onnxwire.ValueInfo(p.name, dataType(p.t), dims...)
}

// uses is what a node reads: its inputs, and the names of enclosing
// graphs its bodies read.
func (n node) uses() []string {
	if len(n.bodies) == 0 {
		return n.inputs
	}
	ins := slices.Clone(n.inputs)
	for _, b := range n.bodies {
		ins = append(ins, b.free()...)
	}
	return ins
}

// free is what a subgraph reads of the graphs around it.
func (b *graph) free() []string {
	defined := map[string]bool{}
	for _, in := range b.inputs {
		defined[in.name] = true
	}
	for _, c := range b.consts {
		defined[c.name] = true
	}
	var free []string
	for _, n := range b.nodes {
		for _, in := range n.uses() {
			if in != "" && !defined[in] {
				free = append(free, in)
			}
		}
		for _, o := range n.outputs {
			defined[o] = true
		}
	}
	return free
}

// holdsDiv reports whether nodes, or the bodies of any, hold an integer
// Div.
func (m *Model) holdsDiv(nodes []node) bool {
	for _, n := range nodes {
		if n.op == "Div" && m.types[n.outputs[0]].IsInteger() {
			return true
		}
		for _, b := range n.bodies {
			if m.holdsDiv(b.nodes) {
				return true
			}
		}
	}
	return false
}

type attr struct {
	text string // name=value, for listings
	wire []byte
}

// constant is an initializer; floats hold float32 values.
type constant struct {
	name   string
	t      ir.ElementType
	dims   []int64
	ints   []int64
	floats []float32
}

func (c constant) raw() []byte {
	t, _ := ir.NewTensor(c.t, c.dims)
	for i := range t.Len() {
		switch c.t {
		case ir.F32:
			binary.LittleEndian.PutUint32(t.Data[4*i:], math.Float32bits(c.floats[i]))
		case ir.I32:
			binary.LittleEndian.PutUint32(t.Data[4*i:], uint32(int32(c.ints[i])))
		case ir.I64:
			binary.LittleEndian.PutUint64(t.Data[8*i:], uint64(c.ints[i]))
		case ir.Boolean:
			t.Data[i] = byte(c.ints[i])
		}
	}
	return t.Data
}

func (c constant) text() string {
	var parts []string
	for _, v := range c.ints {
		parts = append(parts, strconv.FormatInt(v, 10))
	}
	for _, f := range c.floats {
		parts = append(parts, strconv.FormatFloat(float64(f), 'g', -1, 32))
	}
	s := strings.Join(parts, ",")
	if len(c.dims) > 0 {
		s = "[" + s + "]"
	}
	return s + ":" + c.t.String()
}

// dataType maps element types to TensorProto.DataType.
func dataType(t ir.ElementType) int32 {
	switch t {
	case ir.F32:
		return onnxwire.Float
	case ir.I32:
		return onnxwire.Int32
	case ir.I64:
		return onnxwire.Int64
	case ir.Boolean:
		return onnxwire.Bool
	}
	panic("randmodel: no ONNX type for " + t.String())
}

// String is the model in one line: seed, opset, inputs and ops.
func (m *Model) String() string {
	var ins []string
	for _, in := range m.Inputs {
		ins = append(ins, in.String())
	}
	return fmt.Sprintf("seed %d, opset %d, %s: %s", m.Seed, m.Opset, strings.Join(ins, ", "), strings.Join(m.Ops, " "))
}

// Listing is the model one node a line, constants written in place.
func (m *Model) Listing() string {
	consts := make(map[string]string, len(m.consts))
	for _, c := range m.consts {
		consts[c.name] = c.text()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "opset %d, seed %d\n", m.Opset, m.Seed)
	for _, in := range m.Inputs {
		fmt.Fprintf(&b, "input %s\n", in)
	}
	list(&b, m.nodes, consts, "")
	fmt.Fprintf(&b, "outputs %s\n", strings.Join(m.Outputs, ", "))
	return b.String()
}

// list writes nodes one a line, each body indented under its node with
// its inputs and, last, its outputs.
func list(b *strings.Builder, nodes []node, consts map[string]string, indent string) {
	for _, n := range nodes {
		args := make([]string, len(n.inputs))
		for i, in := range n.inputs {
			args[i] = in
			if c, ok := consts[in]; ok {
				args[i] = c
			}
			if in == "" {
				args[i] = "-"
			}
		}
		for _, a := range n.attrs {
			args = append(args, a.text)
		}
		fmt.Fprintf(b, "%s%s = %s(%s)\n", indent, strings.Join(n.outputs, ", "), n.op, strings.Join(args, ", "))
		for _, g := range n.bodies {
			fmt.Fprintf(b, "%s  %s(%s):\n", indent, g.attr, strings.Join(portNames(g.inputs), ", "))
			list(b, g.nodes, consts, indent+"    ")
			fmt.Fprintf(b, "%s    return %s\n", indent, strings.Join(portNames(g.outputs), ", "))
		}
	}
}

func portNames(ps []port) []string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.name
	}
	return names
}

// Bytes is the model as an ONNX file.
func (m *Model) Bytes() []byte { return m.Variant(Variant{}) }

// Variant selects what Variant writes besides the model.
type Variant struct {
	// Floor makes every integer Div floor, as OpenVINO's import computes
	// it: q = Div(a, b) truncates, r = a - q*b has a's sign, and q - 1 is
	// the floor where r != 0 and r and b have opposite signs.
	Floor bool
	// Guard replaces the divisor of every Div and integer Mod by 1 where
	// it is 0, or -1 under a dividend MIN, and adds an output
	// "probe/NODE/faults" (int64 scalar) counting those elements: ONNX
	// Runtime dies of SIGFPE there, so the model does not run on such
	// inputs. It adds the same output to every window, counting the
	// spatial dims of its input smaller than its dilated kernel less its
	// pads: ONNX gives such a window no output (floor of a negative
	// fraction, plus one) and OpenVINO refuses it, but ONNX Runtime
	// divides with truncation and runs it with one. And it counts the
	// negative dims given to ConstantOfShape, Expand and Resize, which
	// ONNX refuses, and gives those ops 0 instead: ONNX Runtime refuses a
	// negative dim only where the product of the dims is negative, and
	// allocates gigabytes for [0, -4] or [-2, -3].
	Guard bool
	// Hazards adds per integer Div an output "probe/NODE/hazards" (int64
	// scalar): the elements where the truncating quotient has a nonzero
	// remainder and the operands have opposite signs, where floor and
	// truncation differ.
	Hazards bool
	// SizesOnly replaces each output o by "size/o", its Size: the run
	// still computes it, but answers a number.
	SizesOnly bool
	// Relaxed makes every fixed input dim symbolic, so that a runtime
	// accepts other input shapes.
	Relaxed bool
	// FloorOnly, a Div's node name (Div.Node), makes that one integer
	// Div floor, wherever it is (inside bodies too), every other one
	// truncating as in the model (Floor, if set, floors them all): which
	// Div's flooring changes the model's outputs, where the probes only
	// say which Divs' quotients differ. Variant panics if the model has
	// no such Div, so that a misspelt name does not pass for a Div whose
	// flooring changes nothing.
	FloorOnly string
	// FloorExcept, a Div's node name, keeps that one Div truncating
	// where Floor floors every other: whether flooring that Div changes
	// the outputs of the model as OpenVINO's import computes it, where a
	// Div's difference may show only through another Div's flooring
	// (x / 3 / 4 at x = -2: 0 / 4 and -1 / 4 both truncate to 0). It
	// must name a Div of the model, and comes with Floor.
	FloorExcept string
}

// floors reports whether v makes the integer Div node floor (node names
// are never empty).
func (v Variant) floors(node string) bool {
	if v.Floor {
		return node != v.FloorExcept
	}
	return node == v.FloorOnly
}

// HazardsOutput and FaultsOutput name the probes of a Div node.
func HazardsOutput(div string) string { return "probe/" + div + "/hazards" }
func FaultsOutput(div string) string  { return "probe/" + div + "/faults" }

// Variant writes the model, changed as v says. The Divs inside bodies
// are changed as those outside, and their probes pass out of each body as
// outputs of its node, up to the graph's outputs.
func (m *Model) Variant(v Variant) []byte {
	if v.FloorExcept != "" && !v.Floor {
		panic("randmodel: Variant.FloorExcept without Floor")
	}
	for field, name := range map[string]string{"FloorOnly": v.FloorOnly, "FloorExcept": v.FloorExcept} {
		if name != "" && !slices.ContainsFunc(m.Divs, func(d Div) bool { return d.Node == name }) {
			panic("randmodel: Variant." + field + " " + name + ": no integer Div of that name in seed " + strconv.FormatUint(m.Seed, 10))
		}
	}
	w := &writer{m: m, v: v}
	w.rewrite(m.nodes)
	var inputs, outputs, inits, nodes [][]byte
	params := 0
	for _, in := range m.Inputs {
		dims := slices.Clone(in.Dims)
		if v.Relaxed {
			for i := range dims {
				if dims[i].Param == "" {
					params++
					dims[i] = onnxwire.Dim{Param: fmt.Sprintf("fixed_%s_%d", in.Name, i)}
				}
			}
		}
		inputs = append(inputs, onnxwire.ValueDims(in.Name, dataType(in.Type), dims))
	}
	for _, o := range m.Outputs {
		if v.SizesOnly {
			w.add("Size", "size/"+o, []string{o}, nil)
			outputs = append(outputs, onnxwire.ValueDims("size/"+o, onnxwire.Int64, nil))
			continue
		}
		outputs = append(outputs, onnxwire.ValueDims(o, dataType(m.types[o]), nil))
	}
	for _, p := range w.probes {
		outputs = append(outputs, onnxwire.ValueDims(p.tensor, onnxwire.Int64, []onnxwire.Dim{}))
	}
	for _, c := range append(slices.Clone(m.consts), w.consts...) {
		inits = append(inits, c.tensor())
	}
	for _, n := range w.nodes {
		nodes = append(nodes, n.bytes())
	}
	return onnxwire.Model(m.Opset, onnxwire.Graph("randmodel", nodes, inits, inputs, outputs))
}

func (c constant) tensor() []byte {
	return onnxwire.Tensor(c.name, dataType(c.t), c.dims, c.raw())
}

// bytes encodes a node, its bodies as attributes after the others.
func (n node) bytes() []byte {
	var attrs [][]byte
	for _, a := range n.attrs {
		attrs = append(attrs, a.wire)
	}
	for _, b := range n.bodies {
		attrs = append(attrs, onnxwire.GraphAttr(b.attr, b.bytes()))
	}
	return onnxwire.NodeAttrs(n.op, n.name, n.inputs, n.outputs, attrs...)
}

func (b *graph) bytes() []byte {
	var nodes, inits, inputs, outputs [][]byte
	for _, n := range b.nodes {
		nodes = append(nodes, n.bytes())
	}
	for _, c := range b.consts {
		inits = append(inits, c.tensor())
	}
	for _, p := range b.inputs {
		inputs = append(inputs, p.value())
	}
	for _, p := range b.outputs {
		outputs = append(outputs, p.value())
	}
	return onnxwire.Graph(b.attr, nodes, inits, inputs, outputs)
}

// writer rewrites the nodes of a graph for a Variant.
type writer struct {
	m      *Model
	v      Variant
	nodes  []node
	consts []constant
	probes []probe
	// scope prefixes the names of the probes of a body ("" in the
	// model's graph), which must differ from the names they take outside
	// it.
	scope string
}

// probe is an int64 scalar output a variant adds: its name as a graph
// output (HazardsOutput, FaultsOutput), and the tensor that holds it in
// the graph being written.
type probe struct {
	name, tensor string
}

// rewrite appends nodes to w's, changed as the variant says.
func (w *writer) rewrite(nodes []node) {
	m, v := w.m, w.v
	for _, n := range nodes {
		switch {
		case len(n.bodies) > 0:
			w.control(n)
		case n.op == "Div" && m.types[n.outputs[0]].IsInteger():
			w.div(n)
		case n.op == "Mod" && m.types[n.outputs[0]].IsInteger() && v.Guard:
			w.mod(n)
		case (n.op == "Clip" || n.op == "Min" || n.op == "Max") && m.types[n.outputs[0]].IsInteger() && v.Guard:
			w.minMax(n)
		case n.need != nil && v.Guard:
			w.window(n)
		case n.sizes > 0 && v.Guard:
			w.sizes(n)
		default:
			w.nodes = append(w.nodes, n)
		}
	}
}

// control rewrites an If, a Loop or a Scan: its bodies as the variant
// asks, and the probes of the nodes inside them passed out as outputs of
// the node: an If's branch without a probe the other has gives 0, and a
// Loop or a Scan sums each probe over its iterations in a loop-carried
// value (a Scan's state variable), 0 before the first.
func (w *writer) control(n node) {
	n.inputs, n.outputs = slices.Clone(n.inputs), slices.Clone(n.outputs)
	subs := make([]*writer, len(n.bodies))
	var probes []string
	seen := map[string]bool{}
	for i, b := range n.bodies {
		subs[i] = &writer{m: w.m, v: w.v, scope: n.name + "/" + b.attr + "/"}
		subs[i].rewrite(b.nodes)
		for _, p := range subs[i].probes {
			if !seen[p.name] {
				seen[p.name] = true
				probes = append(probes, p.name)
			}
		}
	}
	bodies := make([]*graph, len(n.bodies))
	for i, b := range n.bodies {
		sub := subs[i]
		have := map[string]string{}
		for _, p := range sub.probes {
			have[p.name] = p.tensor
		}
		g := &graph{attr: b.attr, inputs: slices.Clone(b.inputs), outputs: slices.Clone(b.outputs)}
		switch n.op {
		case "If":
			for _, p := range probes {
				t, ok := have[p]
				if !ok {
					t = sub.scope + p + "/none"
					zero := constant{t: ir.I64, dims: []int64{}, ints: []int64{0}}
					sub.nodes = append(sub.nodes, node{op: "Constant", name: t, outputs: []string{t}, attrs: []attr{tensorAttr("value", zero)}})
				}
				g.outputs = append(g.outputs, port{t, ir.I64, 0})
			}
		case "Loop", "Scan":
			var ins, outs []port
			for _, p := range probes {
				before := sub.scope + p + "/before"
				after := sub.add("Add", sub.scope+p+"/after", []string{before, have[p]}, nil)
				ins, outs = append(ins, port{before, ir.I64, 0}), append(outs, port{after, ir.I64, 0})
			}
			if n.op == "Loop" {
				carried := len(b.inputs) - 2
				g.inputs = append(g.inputs, ins...)
				g.outputs = slices.Concat(g.outputs[:1+carried], outs, g.outputs[1+carried:])
				break
			}
			// A Scan's state variables come first, its one scanned
			// element last.
			states := len(b.inputs) - 1
			g.inputs = slices.Concat(g.inputs[:states], ins, g.inputs[states:])
			g.outputs = slices.Concat(g.outputs[:states], outs, g.outputs[states:])
		default:
			panic("randmodel: no probes through the bodies of " + n.op)
		}
		g.nodes, g.consts = sub.nodes, sub.consts
		bodies[i] = g
	}
	n.bodies = bodies
	outer := make([]string, len(probes))
	for i, p := range probes {
		outer[i] = w.scope + p
		w.probes = append(w.probes, probe{p, outer[i]})
	}
	switch n.op {
	case "Loop":
		carried := len(n.inputs) - 2
		for _, p := range probes {
			n.inputs = append(n.inputs, w.konst(w.scope+p+"/initial", ir.I64, 0))
		}
		n.outputs = slices.Concat(n.outputs[:carried], outer, n.outputs[carried:])
	case "Scan":
		states := len(n.inputs) - 1
		var initial []string
		for _, p := range probes {
			initial = append(initial, w.konst(w.scope+p+"/initial", ir.I64, 0))
		}
		n.inputs = slices.Concat(n.inputs[:states], initial, n.inputs[states:])
		n.outputs = slices.Concat(n.outputs[:states], outer, n.outputs[states:])
	default:
		n.outputs = append(n.outputs, outer...)
	}
	w.nodes = append(w.nodes, n)
}

func (w *writer) add(op, out string, ins []string, attrs []attr) string {
	w.nodes = append(w.nodes, node{op: op, name: out, inputs: ins, outputs: []string{out}, attrs: attrs})
	return out
}

func (w *writer) konst(name string, t ir.ElementType, v int64) string {
	w.consts = append(w.consts, constant{name: name, t: t, dims: []int64{}, ints: []int64{v}})
	return name
}

func minOf(t ir.ElementType) int64 {
	if t == ir.I32 {
		return math.MinInt32
	}
	return math.MinInt64
}

// guard returns the divisor to divide by: b, or with Guard b with 1
// where the division would fault (and a probe counting those).
func (w *writer) guard(n node, a, b string, t ir.ElementType) string {
	if !w.v.Guard {
		return b
	}
	p := n.name + "/guard/"
	zero, one := w.konst(p+"zero", t, 0), w.konst(p+"one", t, 1)
	minus, minimum := w.konst(p+"minus_one", t, -1), w.konst(p+"min", t, minOf(t))
	byZero := w.add("Equal", p+"by_zero", []string{b, zero}, nil)
	atMin := w.add("Equal", p+"at_min", []string{a, minimum}, nil)
	byMinus := w.add("Equal", p+"by_minus_one", []string{b, minus}, nil)
	overflow := w.add("And", p+"overflow", []string{atMin, byMinus}, nil)
	fault := w.add("Or", p+"fault", []string{byZero, overflow}, nil)
	safe := w.add("Where", p+"divisor", []string{fault, one, b}, nil)
	w.count(p+"fault_count", fault, FaultsOutput(n.name))
	return safe
}

// count adds an output counting the true elements of a boolean tensor.
func (w *writer) count(p, mask, out string) {
	asInt := w.add("Cast", p+"/as_int", []string{mask}, []attr{intAttr("to", int64(onnxwire.Int64))})
	t := w.add("ReduceSum", w.scope+out, []string{asInt}, []attr{intAttr("keepdims", 0)})
	w.probes = append(w.probes, probe{out, t})
}

// minMax writes an integer Clip, Min or Max with Less and Where, which
// ONNX defines alike, in the variants that give the ground truth: ONNX
// Runtime 1.30 (onnxruntime-node on x86-64) compares int64 values in
// [2^31, 2^32) as negative in Clip, Min and Max (Min(2147483648, 0) is
// 2147483648, Min(4294967296, 0) is 0), and a correct proof of
// Clip(y, max=0) / -3 looked false (seed 22479); Less is right.
func (w *writer) minMax(n node) {
	pick := func(x, y string, least bool, out string) string {
		less := w.add("Less", out+"/less", []string{x, y}, nil)
		if least {
			return w.add("Where", out, []string{less, x, y}, nil)
		}
		return w.add("Where", out, []string{less, y, x}, nil)
	}
	ins := n.inputs
	type bound struct {
		in    string
		least bool // a Min: keep the lesser
	}
	var bounds []bound
	switch n.op {
	case "Clip":
		if len(ins) > 1 && ins[1] != "" {
			bounds = append(bounds, bound{ins[1], false})
		}
		if len(ins) > 2 && ins[2] != "" {
			bounds = append(bounds, bound{ins[2], true})
		}
	default:
		for _, in := range ins[1:] {
			bounds = append(bounds, bound{in, n.op == "Min"})
		}
	}
	x := ins[0]
	for i, b := range bounds {
		out := fmt.Sprintf("%s/minmax%d", n.name, i)
		if i == len(bounds)-1 {
			out = n.outputs[0]
		}
		x = pick(x, b.in, b.least, out)
	}
	if len(bounds) == 0 {
		w.add("Identity", n.outputs[0], []string{x}, nil)
	}
}

func (w *writer) div(n node) {
	t := w.m.types[n.outputs[0]]
	a, b, y := n.inputs[0], n.inputs[1], n.outputs[0]
	b = w.guard(n, a, b, t)
	floor := w.v.floors(n.name)
	if !floor && !w.v.Hazards {
		w.nodes = append(w.nodes, node{op: "Div", name: n.name, inputs: []string{a, b}, outputs: []string{y}})
		return
	}
	p := n.name + "/floor/"
	q := w.add("Div", p+"q", []string{a, b}, nil)
	qb := w.add("Mul", p+"qb", []string{q, b}, nil)
	r := w.add("Sub", p+"r", []string{a, qb}, nil)
	zero := w.konst(p+"zero", t, 0)
	exact := w.add("Equal", p+"exact", []string{r, zero}, nil)
	inexact := w.add("Not", p+"inexact", []string{exact}, nil)
	rNegative := w.add("Less", p+"r_negative", []string{r, zero}, nil)
	bNegative := w.add("Less", p+"b_negative", []string{b, zero}, nil)
	differ := w.add("Xor", p+"signs_differ", []string{rNegative, bNegative}, nil)
	adjust := w.add("And", p+"adjust", []string{inexact, differ}, nil)
	if w.v.Hazards {
		w.count(p+"hazards", adjust, HazardsOutput(n.name))
	}
	if !floor {
		w.add("Identity", y, []string{q}, nil)
		return
	}
	one := w.add("Cast", p+"one", []string{adjust}, []attr{intAttr("to", int64(dataType(t)))})
	w.add("Sub", y, []string{q, one}, nil)
}

// window counts the spatial dims of a window's input that are too small
// for it.
func (w *writer) window(n node) {
	p := n.name + "/guard/"
	shape := w.add("Shape", p+"shape", []string{n.inputs[0]}, nil)
	w.consts = append(w.consts,
		constant{name: p + "two", t: ir.I64, dims: []int64{1}, ints: []int64{2}},
		constant{name: p + "end", t: ir.I64, dims: []int64{1}, ints: []int64{math.MaxInt64}},
		constant{name: p + "need", t: ir.I64, dims: []int64{int64(len(n.need))}, ints: n.need})
	spatial := w.add("Slice", p+"spatial", []string{shape, p + "two", p + "end"}, nil)
	small := w.add("Less", p+"small", []string{spatial, p + "need"}, nil)
	w.count(p+"small_count", small, FaultsOutput(n.name))
	w.nodes = append(w.nodes, n)
}

// sizes counts the negative dims an op is given, and gives it 0 for them.
func (w *writer) sizes(n node) {
	p := n.name + "/guard/"
	zero := w.konst(p+"zero", ir.I64, 0)
	negative := w.add("Less", p+"negative", []string{n.inputs[n.sizes-1], zero}, nil)
	w.count(p+"negative_count", negative, FaultsOutput(n.name))
	n.inputs = slices.Clone(n.inputs)
	n.inputs[n.sizes-1] = w.add("Max", p+"dims", []string{n.inputs[n.sizes-1], zero}, nil)
	w.nodes = append(w.nodes, n)
}

func (w *writer) mod(n node) {
	t := w.m.types[n.outputs[0]]
	b := w.guard(n, n.inputs[0], n.inputs[1], t)
	w.nodes = append(w.nodes, node{op: n.op, name: n.name, inputs: []string{n.inputs[0], b}, outputs: n.outputs, attrs: n.attrs})
}

func intAttr(name string, v int64) attr {
	return attr{text: name + "=" + strconv.FormatInt(v, 10), wire: onnxwire.IntAttr(name, v)}
}

func intsAttr(name string, vs ...int64) attr {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = strconv.FormatInt(v, 10)
	}
	return attr{text: name + "=[" + strings.Join(parts, ",") + "]", wire: onnxwire.IntsAttr(name, vs...)}
}

func tensorAttr(name string, c constant) attr {
	return attr{text: name + "=" + c.text(), wire: onnxwire.TensorAttr(name, onnxwire.Tensor("", dataType(c.t), c.dims, c.raw()))}
}
