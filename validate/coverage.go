package validate

import (
	"fmt"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/absint"
)

// Coverage says what became of every integer Divide of a model, so that
// no Divide is left unexamined in silence: a report ends with it.
type Coverage struct {
	// IntegerDivides counts the Divides of integers, those inside the
	// bodies of If, Loop and TensorIterator layers included.
	IntegerDivides int `json:"integer_divides"`
	// Of them: Errors have an error finding; Warnings a warning and no
	// error; Proven a proof (divide/floor-trunc-agree) and neither; Clean
	// were analysed and have nothing to report (a Divide of a model whose
	// flooring is meant, as an IR from PyTorch, where the CPU plugin
	// agrees).
	Proven   int `json:"proven"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Clean    int `json:"clean"`
	// RunsOnNoInput counts the Divides of models that run on no input
	// (structure/never-runs): their verdicts stand, but no input reaches
	// them.
	RunsOnNoInput int `json:"runs_on_no_input,omitempty"`
	// NotAnalysed are the Divides whose values irdiv did not follow, each
	// with the reason; each also has a divide/not-analysed warning.
	NotAnalysed []Unanalysed `json:"not_analysed"`
	// Divides are the integer Divides counted, in the model's order, as
	// Unanalysed names them (with no Reason), for reports that list each.
	Divides []Unanalysed `json:"-"`
}

// Unanalysed is an integer Divide that irdiv did not analyse.
type Unanalysed struct {
	// Layer is the Divide, or for a Divide inside a body, the layer of
	// the outer graph that holds the body; Path names the Divide inside
	// it, body by body ("" for a Divide of the outer graph).
	Layer  *ir.Layer
	Path   string
	Reason string
}

// String names the Divide: layer "div" (id 3), or a Divide in a body as
// layer "loop" (id 5) body > layer "div" (id 2).
func (u Unanalysed) String() string {
	if u.Path == "" {
		return u.Layer.String()
	}
	return u.Layer.String() + " " + u.Path
}

// String is the report's coverage line.
func (c Coverage) String() string {
	s := fmt.Sprintf("%s: %d proven, %s, %s, %d clean, %d not analysed", plural(c.IntegerDivides, "integer Divide"), c.Proven, plural(c.Errors, "with an error", "with errors"),
		plural(c.Warnings, "with a warning", "with warnings"), c.Clean, len(c.NotAnalysed))
	if len(c.NotAnalysed) > 0 {
		s += " (" + c.NotAnalysed[0].Reason
		if len(c.NotAnalysed) > 1 {
			s += fmt.Sprintf(", and %d more", len(c.NotAnalysed)-1)
		}
		s += ")"
	}
	if c.RunsOnNoInput > 0 {
		s += fmt.Sprintf("; %d in a model that runs on no input (structure/never-runs), their verdicts moot", c.RunsOnNoInput)
	}
	return s
}

// plural writes n with its noun: "1 integer Divide", "2 integer Divides";
// with two forms given, "1 with an error", "2 with errors".
func plural(n int, forms ...string) string {
	if len(forms) == 2 {
		if n == 1 {
			return "1 " + forms[0]
		}
		return fmt.Sprintf("%d %s", n, forms[1])
	}
	if n == 1 {
		return "1 " + forms[0]
	}
	return fmt.Sprintf("%d %ss", n, forms[0])
}

// Add adds another model's coverage (its NotAnalysed too).
func (c *Coverage) Add(o Coverage) {
	c.IntegerDivides += o.IntegerDivides
	c.Proven += o.Proven
	c.Errors += o.Errors
	c.Warnings += o.Warnings
	c.Clean += o.Clean
	c.RunsOnNoInput += o.RunsOnNoInput
	c.NotAnalysed = append(c.NotAnalysed, o.NotAnalysed...)
	c.Divides = append(c.Divides, o.Divides...)
}

// notAnalysed records an integer Divide left unanalysed, with a warning:
// when in doubt, a warning, never silence. what names the Divide in the
// message ("" for l itself).
func (v *validator) notAnalysed(l, inner *ir.Layer, path, what, reason string) {
	u := Unanalysed{Layer: l, Path: path, Reason: reason}
	v.r.Coverage.NotAnalysed = append(v.r.Coverage.NotAnalysed, u)
	if what == "" {
		what = "this integer Divide"
	}
	evidence := Evidence{{"reason", reason}}
	if path != "" {
		evidence = append(evidence, Fact{"divide", path})
	}
	v.r.add(Warning, NotAnalysed, l, evidence, "%s was not analysed: %s; floor and truncation may differ there", what, reason)
	v.r.Findings[len(v.r.Findings)-1].Inner = inner
}

// bodies examines the integer Divides inside the bodies of l (If, Loop,
// TensorIterator, an ONNX Scan), at any depth: with the values of the
// outer graph where the analysis walked the body (bodyDivide), else on
// their own (bodyAgrees), or as not analysed. The Mods, FloorMods,
// Selects and comparisons of a body the analysis walked are examined as
// those of the outer graph are (bodyRemainder, cpuSelect, cpuCompare),
// their findings l's.
func (v *validator) bodies(l *ir.Layer) {
	type body struct {
		m *ir.Model
		// path leads to the body from l ("body", "body > layer "if" (id
		// 3) then_body"); where says the same in words, innermost first.
		path, where string
	}
	var stack []body
	for _, e := range l.Extra {
		if e.Body != nil {
			stack = append(stack, body{e.Body, bodyTag(e.Node), fmt.Sprintf("the %s of %s %s", bodyTag(e.Node), l.Type, l)})
		}
	}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, inner := range b.m.Layers {
			for _, e := range inner.Extra {
				if e.Body != nil {
					stack = append(stack, body{e.Body, fmt.Sprintf("%s > %s %s", b.path, inner, bodyTag(e.Node)),
						fmt.Sprintf("the %s of %s %s in %s", bodyTag(e.Node), inner.Type, inner, b.where)})
				}
			}
			if _, walked := v.an.Values[ir.Output{Layer: inner}]; walked {
				switch o := v.an.Ops[inner].(type) {
				case *ops.Mod:
					v.bodyRemainder(l, inner, o.Broadcast, b.path+" > "+inner.String(), b.where)
				case *ops.FloorMod:
					v.bodyRemainder(l, inner, o.Broadcast, b.path+" > "+inner.String(), b.where)
				case *ops.Select:
					v.inBody(l, inner, b.path+" > "+inner.String(), fmt.Sprintf("the Select %s inside %s", inner, b.where), func() { v.cpuSelect(inner) })
				case *ops.Equal, *ops.NotEqual, *ops.Less, *ops.LessEqual, *ops.Greater, *ops.GreaterEqual:
					bc := o.(ops.Broadcaster).AutoBroadcast()
					v.inBody(l, inner, b.path+" > "+inner.String(), fmt.Sprintf("the %s %s inside %s", inner.Type, inner, b.where), func() { v.cpuCompare(inner, bc) })
				}
			}
			if !isIntegerDivide(inner) {
				continue
			}
			path := b.path + " > " + inner.String()
			v.r.Coverage.IntegerDivides++
			v.r.Coverage.Divides = append(v.r.Coverage.Divides, Unanalysed{Layer: l, Path: path})
			if d, ok := v.an.Ops[inner].(*ops.Divide); ok && v.an.Values[ir.Output{Layer: inner}] != nil {
				v.bodyDivide(l, inner, d, path, b.where)
				continue
			}
			if why, ok := v.bodyAgrees(b.m, inner); ok {
				v.r.Coverage.Proven++
				v.r.add(Note, FloorTruncAgree, l, Evidence{{"reason", why}, {"divide", path}},
					"the integer Divide %s inside %s floors where ONNX truncates, but they agree there for every value the body may receive: %s (the body's inputs taken as any value of their types and any shape, so that what the outer graph passes, at every iteration, is covered; zero divisors and MIN / -1 are not searched in a body examined on its own)", inner, b.where, why)
				v.r.Findings[len(v.r.Findings)-1].Inner = inner
				continue
			}
			v.notAnalysed(l, inner, path, "the integer Divide "+inner.String()+" inside "+b.where,
				"irdiv does not run this body (its layer is not an If, a Loop or a TensorIterator irdiv can build"+keptBecause(l)+"), so it examines the body on its own, any value for its inputs, and searches no counter-example through it")
		}
	}
}

// bodyDivide examines a Divide inside a body of l (at any depth) with the
// values the analysis gave it, which reach it from the outer graph, as
// divide examines one of the outer graph; its findings are l's, naming
// the Divide (Finding.Inner, and the path to it as evidence).
func (v *validator) bodyDivide(l, inner *ir.Layer, d *ops.Divide, path, where string) {
	worst, proven := Note, false
	for _, f := range v.inBody(l, inner, path, "the integer Divide "+inner.String()+" inside "+where, func() { v.divide(inner, d) }) {
		worst = max(worst, f.Severity)
		proven = proven || f.Code == FloorTruncAgree
	}
	switch {
	case worst == Error:
		v.r.Coverage.Errors++
	case worst == Warning:
		v.r.Coverage.Warnings++
	case proven:
		v.r.Coverage.Proven++
	default:
		v.r.Coverage.Clean++
	}
}

// bodyRemainder examines a Mod or FloorMod inside a body of l (at any
// depth), as remainder examines one of the outer graph: a zero divisor
// or MIN % -1, certain or reachable from the model's inputs.
func (v *validator) bodyRemainder(l, inner *ir.Layer, bc shapeinfer.Broadcast, path, where string) {
	v.inBody(l, inner, path, fmt.Sprintf("the %s %s inside %s", inner.Type, inner, where), func() { v.remainder(inner, bc) })
}

// inBody runs check, which examines inner, a layer inside a body of l,
// and makes the findings it adds about inner l's: Finding.Inner names
// inner, the evidence "divide" the path to it, and the message starts
// with what. It returns those findings.
func (v *validator) inBody(l, inner *ir.Layer, path, what string, check func()) []Finding {
	v.infos[inner], v.sources[inner] = v.an.Infos[inner], v.an.Sources[inner]
	first := len(v.r.Findings)
	check()
	var out []Finding
	for i := first; i < len(v.r.Findings); i++ {
		f := &v.r.Findings[i]
		if f.Layer != inner {
			continue
		}
		f.Layer, f.Inner = l, inner
		f.Evidence = f.Evidence.With(Fact{"divide", path})
		f.Message = fmt.Sprintf("%s: %s", what, f.Message)
		out = append(out, *f)
	}
	return out
}

// keptBecause says why the ONNX import kept l, a Scan, opaque rather than
// a TensorIterator, as it noted in l's rt_info: ": " and the reason, or
// "".
func keptBecause(l *ir.Layer) string {
	if l.RTInfo == nil {
		return ""
	}
	for _, a := range l.RTInfo.Children {
		if name, _ := a.Attr("name"); name == onnx.ScanKeptReason {
			why, _ := a.Attr("value")
			return "; the ONNX import kept this Scan as it is: " + why
		}
	}
	return ""
}

// bodyTag names a body by its tag: then_body, else_body, body.
func bodyTag(n *ir.Node) string {
	if n == nil {
		return "?"
	}
	return n.Tag
}

// isIntegerDivide reports whether l is a Divide whose output, as declared,
// is of an integer type (or of a type not declared, which may be one).
func isIntegerDivide(l *ir.Layer) bool {
	if !strings.EqualFold(l.Type, "Divide") {
		return false
	}
	if len(l.Outputs) == 0 {
		return true
	}
	t := l.Outputs[0].Type
	return t.IsInteger() || t == ir.Dynamic
}

// countDivides fills the coverage of the Divides of the outer graph from
// their findings, once every check has run.
func (v *validator) countDivides() {
	worst := make(map[*ir.Layer]Severity)
	proven := make(map[*ir.Layer]bool)
	for _, f := range v.r.Findings {
		if f.Layer == nil || !isIntegerDivide(f.Layer) || f.Code == NotAnalysed {
			continue
		}
		if s, ok := worst[f.Layer]; !ok || f.Severity > s {
			worst[f.Layer] = f.Severity
		}
		if f.Code == FloorTruncAgree {
			proven[f.Layer] = true
		}
	}
	unanalysed := make(map[*ir.Layer]bool)
	for _, u := range v.r.Coverage.NotAnalysed {
		if u.Path == "" {
			unanalysed[u.Layer] = true
		}
	}
	for _, l := range v.m.Layers {
		if !isIntegerDivide(l) {
			continue
		}
		if _, known := v.ops[l].(*ops.Divide); known && !v.infos[l][0].Type.IsInteger() {
			continue // inference says it divides floats
		}
		v.r.Coverage.IntegerDivides++
		v.r.Coverage.Divides = append(v.r.Coverage.Divides, Unanalysed{Layer: l})
		switch {
		case unanalysed[l]:
		case worst[l] == Error:
			v.r.Coverage.Errors++
		case worst[l] == Warning:
			v.r.Coverage.Warnings++
		case proven[l]:
			v.r.Coverage.Proven++
		default:
			v.r.Coverage.Clean++
		}
	}
}

// bodyAgrees tries to prove that floor and truncation agree for a
// flooring integer Divide d inside a body of a model from ONNX, whatever
// the body receives: the body is analysed on its own, its Parameters any
// value of their types at any shape of their rank. That covers every
// value the outer graph may pass, and every iteration of a Loop (its
// carried values widened to all of their type), so a proof here is
// sound; what it cannot prove stays a warning.
func (v *validator) bodyAgrees(body *ir.Model, d *ir.Layer) (string, bool) {
	if v.origin != fromONNX {
		return "", false
	}
	if v.bodyAnalyses == nil {
		v.bodyAnalyses = make(map[*ir.Model]*absint.Analysis)
	}
	an, ok := v.bodyAnalyses[body]
	if !ok {
		an = analyzeModel(body)
		v.bodyAnalyses[body] = an
	}
	op, ok := an.Ops[d].(*ops.Divide)
	if !ok || !op.PythonDiv {
		return "", false
	}
	if out := an.Values[ir.Output{Layer: d}]; out == nil || !out.Int || !out.Type.IsSigned() {
		return "", false
	}
	pairs := an.Pairs(d, op.Broadcast)
	if len(pairs) == 0 || an.DeclaredLayout(d) {
		return "", false
	}
	ok, why := v.agree(an, an.Prover(true), d, pairs, false)
	return why, ok
}
