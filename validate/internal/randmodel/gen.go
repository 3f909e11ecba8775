package randmodel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/ir"
)

// val is a value of the model being generated, with what the generator
// needs to keep the model well typed and its shapes broadcastable.
type val struct {
	name string
	t    ir.ElementType
	rank int
	// n is the length of a rank-1 value when the generator knows it
	// (-1 otherwise).
	n int
	// class says which values broadcast together: "" for a scalar,
	// "v<n>" for a vector of known length n, a name of its own for any
	// other shape. Values of one class have one shape.
	class string
	// shape is what Shape of the value gives, when the generator made it.
	shape *val
	// dims are the sizes of the float tensors windows read, -1 where
	// symbolic (nil: not known).
	dims []int64
}

func (v *val) vector() bool { return v.rank == 1 && v.n > 0 }

// broadcasts tells whether a and b have shapes numpy broadcasting joins
// for every input.
func broadcasts(a, b *val) bool {
	return a.class == b.class || a.rank == 0 || b.rank == 0 || a.class == "v1" || b.class == "v1"
}

// joined is the class, rank and length of broadcast(a, b).
func joined(a, b *val) (class string, rank, n int) {
	if a.rank == 0 || a.class == "v1" && b.rank >= 1 {
		return b.class, b.rank, b.n
	}
	return a.class, a.rank, a.n
}

type gen struct {
	r       *rand.Rand
	m       *Model
	ints    []*val // integer values (I32, I64)
	tensors []*val // values whose Shape the model may take
	x, y    *val
	count   int
	// scope prefixes the names of the nodes of the body being generated,
	// body the path of bodies Div.Body gives ("" outside any).
	scope, body string
}

// Generate returns the model of a seed.
func Generate(seed uint64) *Model {
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), m: &Model{Seed: seed, types: make(map[string]ir.ElementType)}}
	g.m.Opset = 13 + g.r.Int64N(5)
	g.inputs()
	steps := 3 + g.r.IntN(9)
	for i := 0; i < steps || len(g.m.Divs) == 0; i++ {
		if i >= steps {
			g.div()
			continue
		}
		g.step()
	}
	for range g.r.IntN(4) {
		g.step()
	}
	g.controlFlow(seed)
	g.scanFlow(seed)
	g.finish()
	return g.m
}

func (g *gen) fresh(prefix string) string {
	g.count++
	return fmt.Sprintf("%s%d", prefix, g.count)
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func pick[T any](g *gen, xs ...T) T { return xs[g.r.IntN(len(xs))] }

// add appends a node of one output and returns the output.
func (g *gen) add(op string, ins []*val, attrs []attr, out *val) *val {
	names := make([]string, len(ins))
	for i, in := range ins {
		if in != nil {
			names[i] = in.name
		}
	}
	if out.name == "" {
		out.name = g.fresh("v")
	}
	name := g.nodeName(op)
	sizes := map[string]int{"ConstantOfShape": 1, "Expand": 2, "Resize": 4}[op]
	if op == "Div" && out.t.IsInteger() {
		name = fmt.Sprintf("div%d", len(g.m.Divs))
		g.m.Divs = append(g.m.Divs, Div{Node: name, Output: out.name, Body: g.body})
	}
	g.m.nodes = append(g.m.nodes, node{op: op, name: name, inputs: names, outputs: []string{out.name}, attrs: attrs, sizes: sizes})
	g.m.types[out.name] = out.t
	if out.t.IsInteger() {
		g.ints = append(g.ints, out)
	}
	return out
}

// nodeName names the next node of the graph being generated.
func (g *gen) nodeName(op string) string {
	return fmt.Sprintf("%sn%d_%s", g.scope, len(g.m.nodes), op)
}

// konst is a constant of the given dims (nil: a scalar), an initializer
// or, now and then (always inside a body, as exporters write them), a
// Constant node.
func (g *gen) konst(t ir.ElementType, dims []int64, vs ...int64) *val {
	c := constant{t: t, dims: dims, ints: vs}
	if dims == nil {
		c.dims = []int64{}
	}
	out := &val{t: t, rank: len(dims), n: -1, class: ""}
	if len(dims) == 1 {
		out.n, out.class = int(dims[0]), fmt.Sprintf("v%d", dims[0])
	}
	if g.chance(0.2) || g.body != "" {
		out.name = g.fresh("k")
		g.m.nodes = append(g.m.nodes, node{op: "Constant", name: g.nodeName("Constant"), outputs: []string{out.name}, attrs: []attr{tensorAttr("value", c)}})
		g.m.types[out.name] = t
		return out
	}
	c.name = g.fresh("c")
	out.name = c.name
	g.m.consts = append(g.m.consts, c)
	g.m.types[c.name] = t
	return out
}

func (g *gen) kfloat(v float32) *val {
	c := constant{name: g.fresh("c"), t: ir.F32, dims: []int64{}, floats: []float32{v}}
	g.m.consts = append(g.m.consts, c)
	g.m.types[c.name] = ir.F32
	return &val{name: c.name, t: ir.F32, n: -1}
}

// as converts v to type t.
func (g *gen) as(v *val, t ir.ElementType) *val {
	if v.t == t {
		return v
	}
	out := *v
	out.name, out.t, out.shape = "", t, nil
	return g.add("Cast", []*val{v}, []attr{intAttr("to", int64(dataType(t)))}, &out)
}

// derived is a value of v's shape and class.
func derived(v *val, t ir.ElementType) *val {
	return &val{t: t, rank: v.rank, n: v.n, class: v.class}
}

// unique is a value of a shape of its own.
func (g *gen) unique(t ir.ElementType, rank int) *val {
	if rank == 0 {
		return &val{t: t, n: -1}
	}
	return &val{t: t, rank: rank, n: -1, class: g.fresh("shape")}
}

// intType is I32 or I64, mostly I64 as shape arithmetic is.
func (g *gen) intType() ir.ElementType {
	if g.chance(0.3) {
		return ir.I32
	}
	return ir.I64
}

var dimNames = []string{"N", "C", "H", "W", "L", "T", "K", "S"}

func (g *gen) inputs() {
	used := map[string]bool{}
	dims := func(rank int, fixed []int64) []onnxwire.Dim {
		ds := make([]onnxwire.Dim, rank)
		for i := range ds {
			if g.chance(0.55) {
				name := pick(g, dimNames...)
				if used[name] && !g.chance(0.2) {
					name = g.fresh(name)
				}
				used[name] = true
				ds[i] = onnxwire.Dim{Param: name}
			} else {
				ds[i] = onnxwire.Dim{Value: pick(g, fixed...)}
			}
		}
		return ds
	}
	xt, xrank := ir.F32, 3+g.r.IntN(2)
	if g.chance(0.3) {
		xt, xrank = g.intType(), 1+g.r.IntN(3)
	}
	x := Input{Name: "x", Type: xt, Dims: dims(xrank, []int64{1, 2, 3, 4, 5, 8, 16})}
	y := Input{Name: "y", Type: g.intType(), Dims: dims(g.r.IntN(3), []int64{1, 2, 3, 4})}
	g.m.Inputs = []Input{x, y}
	for _, in := range g.m.Inputs {
		v := &val{name: in.Name, t: in.Type, rank: len(in.Dims), n: -1, class: "input " + in.Name}
		if v.rank == 0 {
			v.class = ""
		}
		if v.rank == 1 && in.Dims[0].Param == "" {
			v.n = int(in.Dims[0].Value)
		}
		for _, d := range in.Dims {
			v.dims = append(v.dims, d.Value)
			if d.Param != "" {
				v.dims[len(v.dims)-1] = -1
			}
		}
		g.m.types[in.Name] = in.Type
		g.tensors = append(g.tensors, v)
		if in.Type.IsInteger() {
			g.ints = append(g.ints, v)
		}
		if in.Name == "x" {
			g.x = v
		} else {
			g.y = v
		}
	}
	// Real exports start from the dims of their input.
	g.dim()
	if g.chance(0.5) {
		g.dim()
	}
}

// anyInt picks an integer value, the recent ones first, so that chains
// of ops form.
func (g *gen) anyInt(ok func(*val) bool) *val {
	var cands []*val
	for _, v := range g.ints {
		if ok == nil || ok(v) {
			cands = append(cands, v)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	if g.chance(0.5) {
		return cands[len(cands)-1-g.r.IntN(min(3, len(cands)))]
	}
	return cands[g.r.IntN(len(cands))]
}

func scalar(v *val) bool { return v.rank == 0 }

// smallInt is a constant operand: small, of either sign, now and then
// large (shape arithmetic near the limits of its type).
func (g *gen) smallInt(t ir.ElementType) int64 {
	if g.chance(0.06) {
		if t == ir.I32 {
			return pick[int64](g, 1<<30, math.MaxInt32, -1<<30, 1<<24+1)
		}
		return pick[int64](g, 1<<31, 1<<40, 1<<62, math.MaxInt64, -1<<62, 1<<53+1)
	}
	return pick[int64](g, -3, -2, -1, 0, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8, 16)
}

// operand is a second operand for v: a constant mostly, or a value that
// broadcasts with it, converted to v's type.
func (g *gen) operand(v *val) *val {
	if g.chance(0.55) {
		return g.konst(v.t, nil, g.smallInt(v.t))
	}
	o := g.anyInt(func(o *val) bool { return o != v && broadcasts(v, o) })
	if o == nil {
		return g.konst(v.t, nil, g.smallInt(v.t))
	}
	return g.as(o, v.t)
}

// binary adds op(a, b) of a's type.
func (g *gen) binary(op string, a, b *val, attrs ...attr) *val {
	class, rank, n := joined(a, b)
	return g.add(op, []*val{a, b}, attrs, &val{t: a.t, rank: rank, n: n, class: class})
}

// step adds one random group of nodes.
func (g *gen) step() {
	type template struct {
		weight int
		f      func() bool
	}
	templates := []template{
		{6, g.dim}, {8, g.arith}, {10, func() bool { g.div(); return true }}, {3, g.mod},
		{3, g.minMax}, {2, g.unary}, {3, g.clip}, {3, g.where}, {4, g.floatPath}, {1, g.castInt},
		{3, g.concat}, {2, g.squeeze}, {4, g.slice}, {2, g.gather}, {4, g.reshape}, {2, g.expand},
		{2, g.constantOfShape}, {2, g.rangeOp}, {2, g.reduceSum}, {5, g.window}, {1, g.resize},
		{1, g.size}, {1, g.wrap}, {2, g.gatherPair},
	}
	total := 0
	for _, t := range templates {
		total += t.weight
	}
	for range 20 {
		k := g.r.IntN(total)
		for _, t := range templates {
			if k < t.weight {
				if t.f() {
					return
				}
				break
			}
			k -= t.weight
		}
	}
}

// shapeOf is Shape(t), once per value; where partial allows, from opset
// 15 now and then with start, which keeps the dims from there on (callers
// that index the dims by axis need them all).
func (g *gen) shapeOf(t *val, partial bool) *val {
	if t.shape != nil && (!partial || !g.chance(0.2)) {
		return t.shape
	}
	out := &val{t: ir.I64, rank: 1, n: t.rank, class: fmt.Sprintf("v%d", t.rank)}
	var attrs []attr
	if partial && g.m.Opset >= 15 && t.rank >= 2 && g.chance(0.2) {
		start := int64(g.r.IntN(t.rank))
		if g.chance(0.4) {
			start -= int64(t.rank)
		}
		attrs = append(attrs, intAttr("start", start))
		out.n = t.rank - int(start+int64(t.rank))%t.rank
		out.class = fmt.Sprintf("v%d", out.n)
		return g.add("Shape", []*val{t}, attrs, out)
	}
	t.shape = g.add("Shape", []*val{t}, nil, out)
	return t.shape
}

// dim adds Gather(Shape(t), k): a dim of a tensor, as a scalar.
func (g *gen) dim() bool {
	var cands []*val
	for _, t := range g.tensors {
		if t.rank >= 1 {
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		return false
	}
	t := cands[len(cands)-1]
	if g.chance(0.5) {
		t = pick(g, cands...)
	}
	s := g.shapeOf(t, true)
	k := int64(g.r.IntN(s.n))
	if g.chance(0.25) {
		k -= int64(s.n)
	}
	if g.chance(0.2) {
		// Gather with a 1-element index vector keeps a vector.
		return g.add("Gather", []*val{s, g.konst(ir.I64, []int64{1}, k)}, []attr{intAttr("axis", 0)}, &val{t: ir.I64, rank: 1, n: 1, class: "v1"}) != nil
	}
	g.add("Gather", []*val{s, g.konst(ir.I64, nil, k)}, []attr{intAttr("axis", 0)}, &val{t: ir.I64, n: -1})
	return true
}

func (g *gen) arith() bool {
	a := g.anyInt(nil)
	if a == nil {
		return false
	}
	g.binary(pick(g, "Add", "Sub", "Sub", "Mul"), a, g.operand(a))
	return true
}

// div adds an integer Div: a dividend from the values, nested Divs
// often; a divisor that is a constant of either sign, or a value (a dim,
// a dim plus a constant, another Div).
func (g *gen) div() {
	a := g.anyInt(nil)
	if n := len(g.m.Divs); n > 0 && g.chance(0.3) {
		last := g.m.Divs[n-1].Output
		a = g.anyInt(func(v *val) bool { return v.name == last })
	}
	if a == nil {
		return
	}
	var b *val
	switch k := g.r.IntN(10); {
	case k < 6:
		b = g.konst(a.t, nil, pick[int64](g, 2, 2, 3, 4, -2, -3, 5, 8, -1, 1, 16, 7))
	case k < 8:
		b = g.anyInt(func(o *val) bool { return o != a && broadcasts(a, o) })
		if b == nil {
			b = g.konst(a.t, nil, 2)
		}
		b = g.as(b, a.t)
		if g.chance(0.5) {
			b = g.binary(pick(g, "Add", "Max"), b, g.konst(a.t, nil, pick[int64](g, 1, 1, 2, -1)))
		}
	default:
		if s := g.anyInt(scalar); a.rank == 0 && s != nil {
			b = g.as(s, a.t)
		} else {
			b = g.konst(a.t, []int64{1}, pick[int64](g, 2, -2, 3))
		}
	}
	g.binary("Div", a, b)
}

func (g *gen) mod() bool {
	a := g.anyInt(nil)
	if a == nil {
		return false
	}
	b := g.konst(a.t, nil, pick[int64](g, 2, 3, 4, -2, -3, 8))
	if g.chance(0.25) {
		b = g.operand(a)
	}
	// fmod=1 only for int32: ONNX Runtime computes an integer fmod in
	// double, which is not exact beyond 2^53.
	fmod := int64(0)
	if a.t == ir.I32 && g.chance(0.5) {
		fmod = 1
	}
	g.binary("Mod", a, b, intAttr("fmod", fmod))
	return true
}

func (g *gen) minMax() bool {
	a := g.anyInt(nil)
	if a == nil {
		return false
	}
	g.binary(pick(g, "Min", "Max"), a, g.operand(a))
	return true
}

func (g *gen) unary() bool {
	a := g.anyInt(nil)
	if a == nil {
		return false
	}
	g.add(pick(g, "Abs", "Neg"), []*val{a}, nil, derived(a, a.t))
	return true
}

// clip adds Clip(a, min, max) with either bound left out now and then
// (the type's limit, for integers).
func (g *gen) clip() bool {
	a := g.anyInt(nil)
	if a == nil {
		return false
	}
	lo, hi := g.smallInt(a.t), g.smallInt(a.t)
	if lo > hi {
		lo, hi = hi, lo
	}
	ins := []*val{a, g.konst(a.t, nil, lo), g.konst(a.t, nil, hi)}
	switch g.r.IntN(5) {
	case 0:
		ins = ins[:2] // no max
	case 1:
		ins[1] = nil // no min
	case 2:
		ins = ins[:1]
	}
	g.add("Clip", ins, nil, derived(a, a.t))
	return true
}

// compare adds Less, Greater or Equal of a and a second operand.
func (g *gen) compare(a *val) *val {
	b := g.operand(a)
	class, rank, n := joined(a, b)
	return g.add(pick(g, "Less", "Greater", "Equal"), []*val{a, b}, nil, &val{t: ir.Boolean, rank: rank, n: n, class: class})
}

// where adds Where(cond, p, q), or a comparison cast to an integer.
func (g *gen) where() bool {
	a := g.anyInt(nil)
	if a == nil {
		return false
	}
	cond := g.compare(a)
	if g.chance(0.25) {
		g.as(cond, g.intType())
		return true
	}
	p := a
	if g.chance(0.5) {
		p = g.operand(a)
	}
	q := g.operand(a)
	class, rank, n := joined(cond, p)
	out := &val{t: a.t, rank: rank, n: n, class: class}
	if !broadcasts(out, q) {
		q = g.konst(a.t, nil, 0)
	}
	out.class, out.rank, out.n = joined(out, q)
	g.add("Where", []*val{cond, p, q}, nil, out)
	return true
}

// floatPath adds a float detour: Cast to float32, maybe scaled, maybe
// rounded, cast back (an image size scaled by a factor, say).
func (g *gen) floatPath() bool {
	a := g.anyInt(nil)
	if a == nil {
		return false
	}
	f := g.as(a, ir.F32)
	if g.chance(0.7) {
		op := pick(g, "Mul", "Mul", "Div", "Add")
		c := pick[float32](g, 0.5, 0.25, 1.5, 2, 3, 0.75, 1.0/3)
		if op == "Add" {
			c = pick[float32](g, 0.5, -0.5, 0.1)
		}
		f = g.binary(op, f, g.kfloat(c))
	}
	if g.chance(0.7) {
		f = g.add(pick(g, "Floor", "Ceil", "Round"), []*val{f}, nil, derived(f, ir.F32))
	}
	g.as(f, g.intType())
	return true
}

func (g *gen) castInt() bool {
	a := g.anyInt(nil)
	if a == nil {
		return false
	}
	t := ir.I32
	if a.t == ir.I32 {
		t = ir.I64
	}
	g.as(a, t)
	return true
}

// vec1 makes a 1-element int64 vector of a scalar or v1 value.
func (g *gen) vec1(v *val) *val {
	v = g.as(v, ir.I64)
	if v.rank == 1 {
		return v
	}
	return g.add("Unsqueeze", []*val{v, g.konst(ir.I64, []int64{1}, 0)}, nil, &val{t: ir.I64, rank: 1, n: 1, class: "v1"})
}

// vector builds an int64 vector of known length from 1 to maxLen of
// scalars, constants and vectors; -1 among the constants only for a
// Reshape (anywhere else a constant -1 is refused statically).
func (g *gen) vector(maxLen int, reshape bool) *val {
	var parts []*val
	n, want := 0, 1+g.r.IntN(maxLen)
	for n < want {
		switch k := g.r.IntN(10); {
		case k < 5:
			if s := g.anyInt(func(v *val) bool { return v.rank == 0 || v.class == "v1" }); s != nil {
				parts = append(parts, g.vec1(s))
				n++
				continue
			}
			fallthrough
		case k < 8:
			c := pick[int64](g, -1, 0, 1, 2, 3, 4)
			if c < 0 && !reshape {
				c = 2
			}
			parts = append(parts, g.konst(ir.I64, []int64{1}, c))
			n++
		default:
			if v := g.anyInt(func(v *val) bool { return v.vector() && v.n <= maxLen-n }); v != nil {
				parts = append(parts, g.as(v, ir.I64))
				n += v.n
			}
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return g.add("Concat", parts, []attr{intAttr("axis", 0)}, &val{t: ir.I64, rank: 1, n: n, class: fmt.Sprintf("v%d", n)})
}

func (g *gen) concat() bool {
	g.vector(4, false)
	return true
}

// squeeze adds Squeeze of a 1-element vector, or of a tensor axis whose
// dim may not be 1 at every input.
func (g *gen) squeeze() bool {
	axes := g.konst(ir.I64, []int64{1}, 0)
	if v := g.anyInt(func(v *val) bool { return v.class == "v1" }); v != nil && g.chance(0.7) {
		g.add("Squeeze", []*val{v, axes}, nil, &val{t: v.t, n: -1})
		return true
	}
	// Not a dim ONNX Runtime's shape inference knows is not 1: it would
	// refuse the model.
	t := g.anyInt(func(v *val) bool {
		return v.rank == 1 && v.n < 0 && v.class != "input x" || v == g.y && v.rank >= 1 && g.m.Inputs[1].Dims[0].Param != ""
	})
	if t == nil {
		return false
	}
	g.add("Squeeze", []*val{t, axes}, nil, g.unique(t.t, t.rank-1))
	return true
}

// sliceLen is the length of v[start:end:step] for a length n, as ONNX
// clamps.
func sliceLen(n, start, end, step int64) int64 {
	clamp := func(i int64, lo, hi int64) int64 {
		if i < 0 {
			i += n
		}
		return max(lo, min(hi, i))
	}
	if step > 0 {
		s, e := clamp(start, 0, n), clamp(end, 0, n)
		return max(0, (e-s+step-1)/step)
	}
	s, e := clamp(start, -1, n-1), clamp(end, -1, n-1)
	return max(0, (s-e-step-1)/(-step))
}

// slice adds a Slice of a vector or of an integer tensor's first or last
// axis, with constant bounds or computed ones (a centre crop's).
func (g *gen) slice() bool {
	data := g.anyInt(func(v *val) bool { return v.rank >= 1 })
	if data == nil {
		return false
	}
	axis := int64(0)
	if data.rank > 1 && g.chance(0.5) {
		axis = -1
	}
	step := pick[int64](g, 1, 1, 1, 2, -1)
	var starts, ends *val
	var s, e int64
	computed := g.chance(0.4)
	if computed {
		v := g.anyInt(scalar)
		if v == nil {
			computed = false
		} else if g.chance(0.5) {
			starts, ends = g.vec1(v), g.konst(ir.I64, []int64{1}, math.MaxInt64)
			if step < 0 {
				ends = g.konst(ir.I64, []int64{1}, math.MinInt64)
			}
		} else {
			starts, ends = g.konst(ir.I64, []int64{1}, 0), g.vec1(v)
			if step < 0 {
				starts = g.konst(ir.I64, []int64{1}, -1)
			}
		}
	}
	if !computed {
		s, e = pick[int64](g, 0, 1, -1, 2, -2), pick[int64](g, math.MaxInt64, -1, 2, 3, 1)
		if step < 0 {
			s, e = pick[int64](g, -1, -2, math.MaxInt64), pick[int64](g, math.MinInt64, 0, -3)
		}
		starts, ends = g.konst(ir.I64, []int64{1}, s), g.konst(ir.I64, []int64{1}, e)
	}
	ins := []*val{data, starts, ends}
	if axis != 0 || step != 1 || g.chance(0.5) {
		ins = append(ins, g.konst(ir.I64, []int64{1}, axis))
		if step != 1 || g.chance(0.3) {
			ins = append(ins, g.konst(ir.I64, []int64{1}, step))
		}
	}
	out := g.unique(data.t, data.rank)
	if data.vector() && !computed {
		out.n = int(sliceLen(int64(data.n), s, e, step))
		out.class = fmt.Sprintf("v%d", out.n)
		if out.n == 0 {
			out.n, out.class = -1, g.fresh("empty")
		}
	}
	g.tensors = append(g.tensors, g.add("Slice", ins, nil, out))
	return true
}

// gather adds Gather of a vector at a constant or computed index (which
// may be out of range), or of a row of an integer tensor.
func (g *gen) gather() bool {
	data := g.anyInt(func(v *val) bool { return v.rank >= 1 })
	if data == nil {
		return false
	}
	var idx *val
	if data.vector() && g.chance(0.5) {
		k := int64(g.r.IntN(data.n))
		if g.chance(0.3) {
			k -= int64(data.n)
		}
		idx = g.konst(ir.I64, nil, k)
	} else if v := g.anyInt(scalar); v != nil && g.chance(0.6) {
		idx = g.as(v, pick(g, ir.I32, ir.I64))
	} else {
		idx = g.konst(ir.I64, nil, pick[int64](g, 0, 1, -1))
	}
	out := &val{t: data.t, rank: data.rank - 1, n: -1, class: ""}
	if out.rank > 0 {
		out.class = g.fresh("rows")
	}
	g.add("Gather", []*val{data, idx}, []attr{intAttr("axis", 0)}, out)
	return true
}

// reshape adds a Reshape of a tensor to a computed shape, followed by a
// dim of the result: to [q, -1], to [0, -1] (an empty tensor's is
// ambiguous), to its own dims multiplied, or to any computed vector.
func (g *gen) reshape() bool {
	var cands []*val
	for _, t := range g.tensors {
		if t.rank >= 1 {
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		return false
	}
	t := pick(g, cands...)
	var target *val
	switch k := g.r.IntN(4); {
	case k == 0:
		q := g.anyInt(scalar)
		if q == nil {
			return false
		}
		target = g.add("Concat", []*val{g.vec1(q), g.konst(ir.I64, []int64{1}, -1)}, []attr{intAttr("axis", 0)}, &val{t: ir.I64, rank: 1, n: 2, class: "v2"})
	case k == 1:
		target = g.konst(ir.I64, []int64{2}, pick[int64](g, 0, 0, 1, 2), -1)
	case k == 2 && t.rank >= 2:
		s := g.shapeOf(t, false)
		first := g.add("Gather", []*val{s, g.konst(ir.I64, []int64{1}, 0)}, []attr{intAttr("axis", 0)}, &val{t: ir.I64, rank: 1, n: 1, class: "v1"})
		rest := g.add("Slice", []*val{s, g.konst(ir.I64, []int64{1}, 1), g.konst(ir.I64, []int64{1}, math.MaxInt64)}, nil, g.unique(ir.I64, 1))
		prod := g.add("ReduceProd", []*val{rest}, []attr{intAttr("keepdims", 1)}, &val{t: ir.I64, rank: 1, n: 1, class: "v1"})
		target = g.add("Concat", []*val{first, prod}, []attr{intAttr("axis", 0)}, &val{t: ir.I64, rank: 1, n: 2, class: "v2"})
	default:
		target = g.vector(3, true)
	}
	var attrs []attr
	if g.m.Opset >= 14 && g.chance(0.3) {
		attrs = append(attrs, intAttr("allowzero", g.r.Int64N(2)))
	}
	out := g.add("Reshape", []*val{t, target}, attrs, g.unique(t.t, target.n))
	g.tensors = append(g.tensors, out)
	if g.chance(0.7) {
		s := g.shapeOf(out, false)
		g.add("Gather", []*val{s, g.konst(ir.I64, nil, int64(g.r.IntN(target.n)))}, []attr{intAttr("axis", 0)}, &val{t: ir.I64, n: -1})
	}
	return true
}

// bounded is min(v, hi) as an int64 vector: a size a runtime can
// allocate whatever v is, though it may still be negative.
func (g *gen) bounded(v *val, hi int64) *val {
	v = g.as(v, ir.I64)
	return g.binary("Min", v, g.konst(ir.I64, nil, hi))
}

// expand adds Expand of a scalar to a computed length, or of an integer
// tensor to one more axis in front.
func (g *gen) expand() bool {
	src := g.anyInt(func(v *val) bool { return v.rank == 0 })
	if src == nil {
		return false
	}
	if t := g.anyInt(func(v *val) bool { return v.rank >= 1 && v.rank <= 2 }); t != nil && g.chance(0.3) {
		s := g.shapeOf(t, false)
		lead := g.bounded(g.vec1(g.anyInt(scalar)), 4)
		shape := g.add("Concat", []*val{lead, s}, []attr{intAttr("axis", 0)}, &val{t: ir.I64, rank: 1, n: t.rank + 1, class: fmt.Sprintf("v%d", t.rank+1)})
		out := g.add("Expand", []*val{t, shape}, nil, g.unique(t.t, t.rank+1))
		g.tensors = append(g.tensors, out)
		return true
	}
	shape := g.bounded(g.vec1(g.anyInt(scalar)), 6)
	out := g.add("Expand", []*val{src, shape}, nil, g.unique(src.t, 1))
	g.tensors = append(g.tensors, out)
	return true
}

// constantOfShape adds ConstantOfShape of a computed (bounded) vector,
// filled with a small constant of either sign.
func (g *gen) constantOfShape() bool {
	shape := g.bounded(g.vector(3, false), 6)
	t := g.intType()
	c := constant{t: t, dims: []int64{1}, ints: []int64{pick[int64](g, 0, 1, -1, 3, -5)}}
	out := g.add("ConstantOfShape", []*val{shape}, []attr{tensorAttr("value", c)}, g.unique(t, shape.n))
	g.tensors = append(g.tensors, out)
	return true
}

// rangeOp adds Range of clipped computed bounds and a constant or
// computed step.
func (g *gen) rangeOp() bool {
	t := g.intType()
	clipped := func(v *val) *val {
		if v == nil {
			return g.konst(t, nil, g.smallInt(t))
		}
		v = g.as(v, t)
		return g.add("Clip", []*val{v, g.konst(t, nil, -8), g.konst(t, nil, 8)}, nil, derived(v, t))
	}
	start := g.konst(t, nil, pick[int64](g, 0, 0, 1, -2))
	if g.chance(0.4) {
		start = clipped(g.anyInt(scalar))
	}
	limit := clipped(g.anyInt(scalar))
	delta := g.konst(t, nil, pick[int64](g, 1, 1, 2, -1, 3))
	if s := g.anyInt(scalar); s != nil && g.chance(0.2) {
		delta = g.as(s, t)
	}
	out := g.add("Range", []*val{start, limit, delta}, nil, g.unique(t, 1))
	g.tensors = append(g.tensors, out)
	return true
}

// reduceSum adds ReduceSum over every axis, or the first.
func (g *gen) reduceSum() bool {
	t := g.anyInt(func(v *val) bool { return v.rank >= 1 })
	if t == nil {
		return false
	}
	keep := g.r.Int64N(2)
	if t.rank >= 2 && g.chance(0.5) {
		out := g.unique(t.t, t.rank-1+int(keep))
		g.add("ReduceSum", []*val{t, g.konst(ir.I64, []int64{1}, 0)}, []attr{intAttr("keepdims", keep)}, out)
		return true
	}
	out := &val{t: t.t, n: -1}
	if keep == 1 {
		out = g.unique(t.t, t.rank)
		if t.rank == 1 {
			out.n, out.class = 1, "v1"
		}
	}
	g.add("ReduceSum", []*val{t}, []attr{intAttr("keepdims", keep)}, out)
	return true
}

// window adds MaxPool, AveragePool or Conv of the float input (or of an
// earlier window's output), whose output dims shape arithmetic then
// reads.
func (g *gen) window() bool {
	var cands []*val
	for _, t := range g.tensors {
		if t.t == ir.F32 && t.rank >= 3 {
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		return false
	}
	src := pick(g, cands...)
	spatial := src.rank - 2
	kernel, strides, pads, dilations := make([]int64, spatial), make([]int64, spatial), make([]int64, 2*spatial), make([]int64, spatial)
	op := pick(g, "MaxPool", "MaxPool", "AveragePool", "Conv")
	channels, convolves := g.channels(src)
	if op == "Conv" && !convolves {
		op = "MaxPool"
	}
	padded := g.chance(0.7)
	ceil := g.r.Int64N(2)
	outDims := make([]int64, src.rank)
	copy(outDims, src.dims)
	for i := range spatial {
		kernel[i] = pick[int64](g, 1, 2, 2, 3, 3, 4)
		strides[i] = pick[int64](g, 1, 2, 2, 3)
		dilations[i] = 1
		if op != "AveragePool" && g.chance(0.2) {
			dilations[i] = 2
		}
		if padded {
			pads[i], pads[i+spatial] = g.r.Int64N(kernel[i]), g.r.Int64N(kernel[i])
		}
		// A fixed dim gets a window that fits it: the model must run.
		in := int64(-1)
		if src.dims != nil {
			in = src.dims[2+i]
		}
		for in >= 0 && dilations[i]*(kernel[i]-1)+1 > in+pads[i]+pads[i+spatial] && kernel[i] > 1 {
			kernel[i]--
			pads[i], pads[i+spatial] = min(pads[i], kernel[i]-1), min(pads[i+spatial], kernel[i]-1)
		}
		if in >= 0 && dilations[i]*(kernel[i]-1)+1 > in+pads[i]+pads[i+spatial] {
			dilations[i] = 1
		}
		if in >= 0 {
			span := in + pads[i] + pads[i+spatial] - dilations[i]*(kernel[i]-1) - 1
			outDims[2+i] = span/strides[i] + 1
			if ceil == 1 && op != "Conv" {
				outDims[2+i] = (span+strides[i]-1)/strides[i] + 1
			}
		} else if src.dims != nil {
			outDims[2+i] = -1
		}
	}
	attrs := []attr{intsAttr("kernel_shape", kernel...), intsAttr("strides", strides...)}
	if padded {
		attrs = append(attrs, intsAttr("pads", pads...))
	}
	ins := []*val{src}
	switch op {
	case "Conv":
		w := constant{name: g.fresh("weights"), t: ir.F32, dims: append([]int64{1 + g.r.Int64N(2), channels}, kernel...)}
		size := int64(1)
		for _, d := range w.dims {
			size *= d
		}
		w.floats = make([]float32, size)
		for i := range w.floats {
			w.floats[i] = 0.5
		}
		g.m.consts = append(g.m.consts, w)
		g.m.types[w.name] = ir.F32
		ins = append(ins, &val{name: w.name, dims: w.dims})
		attrs = append(attrs, intsAttr("dilations", dilations...))
	case "AveragePool":
		attrs = append(attrs, intAttr("ceil_mode", ceil))
		if g.chance(0.3) {
			attrs = append(attrs, intAttr("count_include_pad", 1))
		}
	}
	if op == "MaxPool" {
		attrs = append(attrs, intAttr("ceil_mode", ceil), intsAttr("dilations", dilations...))
	}
	out := g.add(op, ins, attrs, g.unique(ir.F32, src.rank))
	need := make([]int64, spatial)
	for i := range need {
		need[i] = dilations[i]*(kernel[i]-1) + 1 - pads[i] - pads[i+spatial]
	}
	g.m.nodes[len(g.m.nodes)-1].need = need
	if src.dims != nil {
		out.dims = outDims
		if op == "Conv" {
			out.dims[1] = ins[1].dims[0]
		}
	}
	g.tensors = append(g.tensors, out)
	// Its spatial dims, as real code reads them.
	axis := int64(2 + g.r.IntN(spatial))
	after := g.add("Gather", []*val{g.shapeOf(out, false), g.konst(ir.I64, nil, axis)}, []attr{intAttr("axis", 0)}, &val{t: ir.I64, n: -1})
	if g.chance(0.5) {
		// What a U-Net's skip connection computes: the difference between
		// the dim before and the dim after times the stride, halved to
		// pad or crop each side. Its sign rests on the exact formula of
		// the window's output dim.
		before := g.add("Gather", []*val{g.shapeOf(src, false), g.konst(ir.I64, nil, axis)}, []attr{intAttr("axis", 0)}, &val{t: ir.I64, n: -1})
		scaled := g.binary("Mul", after, g.konst(ir.I64, nil, pick(g, strides[axis-2], strides[axis-2], 2)))
		if g.chance(0.3) {
			scaled = g.binary(pick(g, "Add", "Sub"), scaled, g.konst(ir.I64, nil, pick[int64](g, 1, 2, kernel[axis-2])))
		}
		diff := g.binary("Sub", before, scaled)
		if g.chance(0.5) {
			diff = g.binary("Sub", scaled, before)
		}
		g.binary("Div", diff, g.konst(ir.I64, nil, pick[int64](g, 2, 2, 3)))
	}
	return true
}

// wrap adds shape arithmetic that leaves int64: a dim times a large
// constant, or plus one, which two's complement wraps negative.
func (g *gen) wrap() bool {
	d := g.anyInt(func(v *val) bool { return v.t == ir.I64 && v.rank == 0 })
	if d == nil {
		return false
	}
	op, c := "Mul", pick[int64](g, 1<<62, 3<<61, 1<<61+1, 1<<40+3)
	if g.chance(0.3) {
		op, c = "Add", pick[int64](g, math.MaxInt64-2, math.MaxInt64)
	}
	w := g.binary(op, d, g.konst(ir.I64, nil, c))
	g.binary("Div", w, g.konst(ir.I64, nil, pick[int64](g, 3, 3, 2, 5, 7)))
	return true
}

// gatherPair subtracts two elements of one integer tensor, picked by
// constant indices that name the same element at the declared shape
// (the last one, and the one before the declared end): whether they are
// the same depends on the shape.
func (g *gen) gatherPair() bool {
	data := g.anyInt(func(v *val) bool { return v.rank == 1 })
	if data == nil {
		return false
	}
	i, j := int64(-1), int64(0)
	if data.n > 0 {
		j = int64(data.n) - 1 - g.r.Int64N(2)
	}
	if g.chance(0.3) {
		i, j = 0, -int64(max(data.n, 1))
	}
	a := g.add("Gather", []*val{data, g.konst(ir.I64, nil, i)}, []attr{intAttr("axis", 0)}, &val{t: data.t, n: -1})
	b := g.add("Gather", []*val{data, g.konst(ir.I64, nil, j)}, []attr{intAttr("axis", 0)}, &val{t: data.t, n: -1})
	diff := g.binary("Sub", a, b)
	if g.chance(0.5) {
		g.binary("Div", diff, g.konst(data.t, nil, pick[int64](g, 2, 3, -2)))
	}
	return true
}

// channels is the fixed dim 1 of the float input a Conv's weights must
// match (windows keep it, Conv replaces it).
func (g *gen) channels(t *val) (int64, bool) {
	if t != g.x {
		return 0, false
	}
	d := g.m.Inputs[0].Dims[1]
	return d.Value, d.Param == ""
}

// resize adds Resize of the float input to sizes of its first two dims
// and computed (bounded) spatial dims.
func (g *gen) resize() bool {
	if g.x.t != ir.F32 {
		return false
	}
	s := g.shapeOf(g.x, false)
	parts := []*val{g.add("Slice", []*val{s, g.konst(ir.I64, []int64{1}, 0), g.konst(ir.I64, []int64{1}, 2)}, nil, &val{t: ir.I64, rank: 1, n: 2, class: "v2"})}
	for range g.x.rank - 2 {
		q := g.anyInt(scalar)
		if q == nil {
			return false
		}
		parts = append(parts, g.bounded(g.vec1(q), 8))
	}
	sizes := g.add("Concat", parts, []attr{intAttr("axis", 0)}, &val{t: ir.I64, rank: 1, n: g.x.rank, class: fmt.Sprintf("v%d", g.x.rank)})
	// mode is nearest by default.
	out := g.add("Resize", []*val{g.x, nil, nil, sizes}, nil, g.unique(ir.F32, g.x.rank))
	g.tensors = append(g.tensors, out)
	g.add("Gather", []*val{g.shapeOf(out, false), g.konst(ir.I64, nil, int64(g.x.rank-1))}, []attr{intAttr("axis", 0)}, &val{t: ir.I64, n: -1})
	return true
}

func (g *gen) size() bool {
	t := pick(g, g.tensors...)
	g.add("Size", []*val{t}, nil, &val{t: ir.I64, n: -1})
	return true
}

// finish chooses the outputs (every value no node reads that depends on
// an integer Div, and now and then one that does not) and drops the
// nodes they do not need.
func (g *gen) finish() {
	m := g.m
	read := map[string]bool{}
	for _, n := range m.nodes {
		for _, in := range n.uses() {
			read[in] = true
		}
	}
	fromDiv := map[string]bool{}
	for _, d := range m.Divs {
		fromDiv[d.Output] = true
	}
	for _, n := range m.nodes {
		derived := false
		for _, b := range n.bodies {
			derived = derived || m.holdsDiv(b.nodes)
		}
		for _, in := range n.uses() {
			derived = derived || fromDiv[in]
		}
		for _, o := range n.outputs {
			fromDiv[o] = fromDiv[o] || derived
		}
	}
	var other []string
	for _, n := range m.nodes {
		for _, o := range n.outputs {
			switch {
			case read[o]:
			case fromDiv[o]:
				m.Outputs = append(m.Outputs, o)
			default:
				other = append(other, o)
			}
		}
	}
	if len(other) > 0 && g.chance(0.3) {
		m.Outputs = append(m.Outputs, pick(g, other...))
	}
	needed := map[string]bool{}
	for _, o := range m.Outputs {
		needed[o] = true
	}
	var kept []node
	for i := len(m.nodes) - 1; i >= 0; i-- {
		n := m.nodes[i]
		if !slices.ContainsFunc(n.outputs, func(o string) bool { return needed[o] }) {
			continue
		}
		for _, in := range n.uses() {
			needed[in] = true
		}
		kept = append(kept, n)
	}
	slices.Reverse(kept)
	m.nodes = kept
	var consts []constant
	for _, c := range m.consts {
		if needed[c.name] {
			consts = append(consts, c)
		}
	}
	m.consts = consts
	for _, n := range m.nodes {
		m.Ops = append(m.Ops, opText(n))
	}
}

// opText is a node's op type, with the ops of its bodies in brackets:
// If[Constant Div | Neg].
func opText(n node) string {
	if len(n.bodies) == 0 {
		return n.op
	}
	var bodies []string
	for _, b := range n.bodies {
		var ops []string
		for _, in := range b.nodes {
			ops = append(ops, opText(in))
		}
		bodies = append(bodies, strings.Join(ops, " "))
	}
	return n.op + "[" + strings.Join(bodies, " | ") + "]"
}
