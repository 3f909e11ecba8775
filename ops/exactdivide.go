package ops

import (
	"fmt"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/shapeinfer"
)

// The exact form of an integer Divide: the quotient of i32 (and i64)
// operands, exact under OpenVINO's reference and under its CPU plugin,
// which divides i32 in float32 (CPUPluginDivide) and is exact only where
// both operands are below 2^24. The Divide q = A / B stays; a Newton step
// of ops that the CPU plugin computes exactly corrects it:
//
//	s = Minimum(Maximum(B, -1), 1)       the sign of B
//	d = B * s                            |B|
//	k = 512 / d + 2                      so that k*d > d + 512
//	r = (A - q*B) * s                    small: |r| < d + 512 (below)
//	t = (r + k*d) / d                    0 <= r + k*d < 3d + 1024 <= 2^24
//	F = q + (t - k)                      floor(A / B)
//
// and, for truncation, T = F + (rem > 0 and (A < 0 xor B < 0)) with
// rem = (r + k*d) - t*d, which is 0 exactly where B divides A.
//
// Why it is exact. Under the reference, q is A / B rounded one way or
// the other, so |A - q*B| < |B|. Under the CPU plugin, with |B| <= 2^22,
// float32(B) is B, float32(A) is within 64 of A, and the float32 quotient
// Q within 2^-24 of float32(A)/B relatively, so |A - Q*B| <= 64 + 128;
// q is Q truncated, or -2^31 where Q is 2^31 (B = ±1), which is Q modulo
// 2^32. Add, Subtract and Multiply are exact i32 ops that wrap (vpaddd,
// vpsubd, vpmulld; s, from Maximum and Minimum, is the sign of B even
// where the plugin fuses them into a float32 kernel), so A - q*B is
// computed modulo 2^32 and, being below 2^31 in magnitude, exactly:
// |r| < d + 193 (d + 321 on builds whose DecomposeIntegerDivide puts a
// Floor after the Divide, which sends q through float32 once more:
// still within the slack of 512). Both operands of the two Divides of the form are then
// positive and below 2^24, where float32 division truncated is exact,
// and F is floor(A/B) modulo 2^32, so floor(A/B) wherever that is an i32.
// The comparisons, which the CPU plugin computes in float32, compare
// with 0 (float32 keeps the sign) or small values only. A divisor beyond
// 2^22 would take r + k*d past 2^24: no form is written for one
// (ExactDivideMaxDivisor).
//
// An i64 is held as i32 by the CPU plugin: the form is exact there for
// values that are i32s, and no form helps a value that is not one.

// ExactDivideMaxDivisor is the largest |B| for which the exact form is
// exact under the CPU plugin.
const ExactDivideMaxDivisor = 1 << 22

// exactSlack bounds |A - q*B| - |B| under the CPU plugin (193) with room.
const exactSlack = 512

// exactMarker joins a Divide's name and a step's in the names of the
// layers of its form.
const exactMarker = "/irdiv_exact/"

// exactStep is one layer of the form: its name after the marker, its op
// (of the element type t) and the steps (or "a", "b", "q") it reads.
type exactStep struct {
	name string
	op   func(t ir.ElementType) Op
	in   []string
}

var numpy = shapeinfer.Broadcast{Mode: shapeinfer.Numpy} // the form's broadcast

// exactConsts are the scalars the form reads.
var exactConsts = []struct {
	name  string
	value int64
}{{"minus_one", -1}, {"one", 1}, {"zero", 0}, {"slack", exactSlack}, {"two", 2}}

// binary is a step's binary op, numpy broadcast.
func binary[T any, P interface {
	*T
	Op
	setBroadcast(shapeinfer.Broadcast)
}](ir.ElementType) Op {
	p := P(new(T))
	p.setBroadcast(numpy)
	return p
}

func (o *binaryOp[K]) setBroadcast(bc shapeinfer.Broadcast) { o.Broadcast = bc }

func truncating(ir.ElementType) Op { return NewDivide(numpy, false) }

// exactFloor computes F = floor(A / B); exactTrunc then T = trunc(A / B).
var (
	exactFloor = []exactStep{
		{"sign_low", binary[Maximum], []string{"b", "minus_one"}},
		{"sign", binary[Minimum], []string{"sign_low", "one"}},
		{"abs", binary[Multiply], []string{"b", "sign"}},
		{"bias_count_low", truncating, []string{"slack", "abs"}},
		{"bias_count", binary[Add], []string{"bias_count_low", "two"}},
		{"bias", binary[Multiply], []string{"bias_count", "abs"}},
		{"product", binary[Multiply], []string{"q", "b"}},
		{"residual", binary[Subtract], []string{"a", "product"}},
		{"signed_residual", binary[Multiply], []string{"residual", "sign"}},
		{"shifted", binary[Add], []string{"signed_residual", "bias"}},
		{"shifted_quotient", truncating, []string{"shifted", "abs"}},
		{"correction", binary[Subtract], []string{"shifted_quotient", "bias_count"}},
		{"floor", binary[Add], []string{"q", "correction"}},
	}
	exactTrunc = []exactStep{
		{"shifted_product", binary[Multiply], []string{"shifted_quotient", "abs"}},
		{"remainder", binary[Subtract], []string{"shifted", "shifted_product"}},
		{"inexact", binary[Greater], []string{"remainder", "zero"}},
		{"a_negative", binary[Less], []string{"a", "zero"}},
		{"b_negative", binary[Less], []string{"b", "zero"}},
		{"opposite", binary[LogicalXor], []string{"a_negative", "b_negative"}},
		{"up", binary[LogicalAnd], []string{"inexact", "opposite"}},
		{"up_count", func(t ir.ElementType) Op { return &Convert{DestinationType: t} }, []string{"up"}},
		{"trunc", binary[Add], []string{"floor", "up_count"}},
	}
)

// AddExactDivide rewrites the i32 or i64 Divide l of m (auto_broadcast
// none or numpy) into the exact form, flooring (as Python's //) or
// truncating (as ONNX's Div) whatever l's m_pythondiv said: l becomes the
// truncating q, the form's layers are named after it, and the layers
// that read l read the form's result, which takes l's output names. It
// returns the layer of the result. The form is exact under the CPU
// plugin where |B| <= ExactDivideMaxDivisor, which the caller checks.
func AddExactDivide(m *ir.Model, l *ir.Layer, floor bool) (*ir.Layer, error) {
	return addExact(m, l, floor, false)
}

// AddExactRemainder rewrites the i32 or i64 FloorMod or Mod l of m
// (auto_broadcast none or numpy) into a - F*B (FloorMod) or a - T*B
// (Mod), with F and T the exact form's floor and truncation, so that the
// CPU plugin, which computes both in float32 (cpuF32Mod), computes them
// exactly where |B| <= ExactDivideMaxDivisor. a - F*B is the remainder
// modulo 2^32 whatever F is modulo 2^32 (Multiply and Subtract wrap), and
// the remainder, below |B|, is then exact: even MIN % -1, whose quotient
// wraps, gives 0. l itself becomes the form's truncating Divide q (keeping
// its name and inputs), as in AddExactDivide, and the layers that read l
// read the remainder, which takes l's output names.
func AddExactRemainder(m *ir.Model, l *ir.Layer) (*ir.Layer, error) {
	var floor bool
	switch {
	case strings.EqualFold(l.Type, "FloorMod"):
		floor = true
	case strings.EqualFold(l.Type, "Mod"):
	default:
		return nil, fmt.Errorf("ops: %s: not a FloorMod or Mod", l)
	}
	if s, ok := l.DataAttr("auto_broadcast"); ok {
		if mode, err := shapeinfer.ParseMode(s); err != nil || mode == shapeinfer.PDPD {
			return nil, fmt.Errorf("ops: %s: auto_broadcast %s, which the form's numpy ops would align otherwise", l, s)
		}
	}
	if len(l.Outputs) != 1 || l.Outputs[0].Type != ir.I32 && l.Outputs[0].Type != ir.I64 {
		return nil, fmt.Errorf("ops: %s: the exact form is for i32 and i64", l)
	}
	l.Type, l.Version = "Divide", "opset1"
	return addExact(m, l, floor, true)
}

func addExact(m *ir.Model, l *ir.Layer, floor, remainder bool) (*ir.Layer, error) {
	sources := m.Sources()[l]
	if len(sources) != 2 || len(l.Outputs) != 1 {
		return nil, fmt.Errorf("ops: %s: not a Divide of two inputs and one output", l)
	}
	op, err := divideFromLayer(l)
	if err != nil {
		return nil, &LayerError{l, err}
	}
	if op.Broadcast.Mode == shapeinfer.PDPD {
		return nil, fmt.Errorf("ops: %s: auto_broadcast pdpd, which the form's numpy ops would align otherwise", l)
	}
	t := l.Outputs[0].Type
	if t != ir.I32 && t != ir.I64 {
		return nil, fmt.Errorf("ops: %s: the exact form is for i32 and i64, not %s", l, t)
	}
	out := l.Outputs[0]
	var readers []int
	for i, e := range m.Edges {
		if e.FromLayer == l.ID && e.FromPort == out.ID {
			readers = append(readers, i)
		}
	}
	l.SetDataAttr("m_pythondiv", "false")
	values := map[string]ir.Output{"a": sources[0], "b": sources[1], "q": {Layer: l}}
	for _, c := range exactConsts {
		v, err := ir.NewTensor(t, nil)
		if err != nil {
			return nil, err
		}
		v.SetInt64(0, c.value)
		values[c.name] = ir.Output{Layer: m.AddConst(l.Name+exactMarker+c.name, v)}
	}
	steps := exactSteps(floor, remainder)
	var last *ir.Layer
	for _, s := range steps {
		op := s.op(t)
		ins := make([]ir.Output, len(s.in))
		infos := make([]ValueInfo, len(s.in))
		for i, name := range s.in {
			ins[i] = values[name]
			p := ins[i].Port()
			infos[i] = ValueInfo{Type: p.Type, Shape: p.Shape()}
		}
		res, err := op.Infer(infos)
		if err != nil {
			return nil, fmt.Errorf("ops: %s: step %s of the exact form: %w", l, s.name, err)
		}
		typ, version := op.OpType()
		last = m.AddLayer(typ, version, l.Name+exactMarker+s.name, op.Attrs(), ins,
			[]*ir.Port{{Type: res[0].Type, Dims: ir.PortDims(res[0].Shape)}})
		values[s.name] = ir.Output{Layer: last}
	}
	for _, i := range readers {
		m.Edges[i].FromLayer, m.Edges[i].FromPort = last.ID, last.Outputs[0].ID
	}
	last.Outputs[0].Names, out.Names = out.Names, nil
	return last, nil
}

// exactSteps are the form's steps: the quotient, floored or truncated,
// or the remainder of that division.
func exactSteps(floor, remainder bool) []exactStep {
	steps := exactFloor
	if !floor {
		steps = slices.Concat(exactFloor, exactTrunc)
	}
	if remainder {
		steps = slices.Concat(steps, exactRemainder(quotientStep(floor)))
	}
	return steps
}

// quotientStep names the step of the quotient, floored or truncated.
func quotientStep(floor bool) string {
	if floor {
		return exactFloor[len(exactFloor)-1].name
	}
	return exactTrunc[len(exactTrunc)-1].name
}

// exactRemainder computes a - quotient*b, the remainder of the division
// whose quotient is the step named quotient.
func exactRemainder(quotient string) []exactStep {
	return []exactStep{
		{"mod_product", binary[Multiply], []string{quotient, "b"}},
		{"mod", binary[Subtract], []string{"a", "mod_product"}},
	}
}

// ExactForm is an exact form in a model: the Divide it corrects (a
// FloorMod or Mod made the form's Divide, for a remainder), whether it
// floors (else it truncates), and whether it computes the remainder
// (FloorMod where it floors, Mod where it truncates) and not the quotient.
type ExactForm struct {
	Divide    *ir.Layer
	Floor     bool
	Remainder bool
}

// ExactDivides finds the exact forms of m (AddExactDivide): for each
// Divide of one, the corrected Divide and the form's own Divides, whose
// operands are small, the form. It checks each whole form, not names
// alone: every layer's type, what it reads and the constants' values, and
// that only the form reads the corrected Divide.
func ExactDivides(m *ir.Model) map[*ir.Layer]ExactForm {
	var found map[*ir.Layer]ExactForm
	byName := map[string]*ir.Layer{}
	var qs []string
	for _, x := range m.Layers {
		if _, dup := byName[x.Name]; dup {
			byName[x.Name] = nil // ambiguous: no form can use the name
			continue
		}
		byName[x.Name] = x
		if q, ok := strings.CutSuffix(x.Name, exactMarker+"floor"); ok {
			qs = append(qs, q)
		}
	}
	if len(qs) == 0 {
		return nil
	}
	sources := m.Sources()
	readers := map[*ir.Layer][]*ir.Layer{}
	for x, ins := range sources {
		for _, o := range ins {
			readers[o.Layer] = append(readers[o.Layer], x)
		}
	}
	for _, name := range qs {
		if f, form, ok := exactForm(byName, sources, readers, name); ok {
			if found == nil {
				found = map[*ir.Layer]ExactForm{}
			}
			for x := range form {
				if strings.EqualFold(x.Type, "Divide") {
					found[x] = f
				}
			}
			found[f.Divide] = f
		}
	}
	return found
}

// exactForm checks the form of the Divide named name, and returns it
// with its layers.
func exactForm(byName map[string]*ir.Layer, sources map[*ir.Layer][]ir.Output, readers map[*ir.Layer][]*ir.Layer, name string) (ExactForm, map[*ir.Layer]bool, bool) {
	q := byName[name]
	if q == nil || !strings.EqualFold(q.Type, "Divide") || len(sources[q]) != 2 || len(q.Outputs) != 1 {
		return ExactForm{}, nil, false
	}
	t := q.Outputs[0].Type
	want := map[string]ir.Output{"a": sources[q][0], "b": sources[q][1], "q": {Layer: q}}
	form := map[*ir.Layer]bool{}
	for _, c := range exactConsts {
		x := byName[name+exactMarker+c.name]
		if x == nil || x.Constant == nil || x.Constant.Type != t || x.Constant.Len() != 1 || intAt(x.Constant, 0) != c.value {
			return ExactForm{}, nil, false
		}
		want[c.name] = ir.Output{Layer: x}
		form[x] = true
	}
	check := func(steps []exactStep) bool {
		for _, s := range steps {
			x := byName[name+exactMarker+s.name]
			op := s.op(t)
			typ, _ := op.OpType()
			if x == nil || !strings.EqualFold(x.Type, typ) || len(x.Outputs) != 1 || !slices.Equal(sources[x], mapNames(want, s.in)) {
				return false
			}
			for _, a := range op.Attrs() {
				// m_pythondiv does not matter: both operands are positive.
				if v, _ := x.DataAttr(a.Name); a.Name != "m_pythondiv" && !strings.EqualFold(v, a.Value) {
					return false
				}
			}
			want[s.name] = ir.Output{Layer: x}
			form[x] = true
		}
		return true
	}
	if !check(exactFloor) {
		return ExactForm{}, nil, false
	}
	floor := byName[name+exactMarker+exactTrunc[0].name] == nil
	if !floor && !check(exactTrunc) {
		return ExactForm{}, nil, false
	}
	remainder := byName[name+exactMarker+"mod"] != nil
	if remainder && !check(exactRemainder(quotientStep(floor))) {
		return ExactForm{}, nil, false
	}
	for _, x := range readers[q] {
		if !form[x] {
			return ExactForm{}, nil, false // q itself reaches a layer of the model
		}
	}
	return ExactForm{Divide: q, Floor: floor, Remainder: remainder}, form, true
}

func mapNames(values map[string]ir.Output, names []string) []ir.Output {
	out := make([]ir.Output, len(names))
	for i, n := range names {
		out[i] = values[n]
	}
	return out
}
