package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate"
)

// fixIR fixes the integer Divides of an IR by what its source meant:
//   - from ONNX (rt_info framework onnx), whose Div truncates: the Divide
//     gets m_pythondiv="false", which OpenVINO's reference, its constant
//     folding and its CPU plugin (which truncates whatever the flag says)
//     all compute;
//   - from PyTorch, whose // floors: the Divide truncates and a correction
//     floors it, q - (r != 0 and (a < 0 xor b < 0)) with r = a - q*b, the
//     construction OpenVINO's PyTorch frontend would need (#38260), so
//     that the CPU plugin, which ignores m_pythondiv, floors too;
//   - either way, where validate finds that the CPU plugin's float32
//     division can get an i32 (or i64) Divide wrong and that the divisor is
//     at most 2^22 in magnitude, the Divide gets the exact form instead
//     (ops.AddExactDivide): a Newton step of integer ops that the plugin
//     computes exactly, rounding as the source meant. Where the divisor may
//     be larger, or an i64 beyond the i32 range, validate's note, printed
//     with the fix, says why no form helps;
//   - an i32 (or i64) FloorMod or Mod that the CPU plugin, which computes
//     them in float32, can get wrong by validate's note, and whose divisor
//     is at most 2^22, becomes a - F*B or a - T*B with the exact form's
//     floor or truncation (ops.AddExactRemainder); the others are left as
//     they are (validate's note says why);
//   - an i32 (or i64 of i32 values) Select whose values may pass 2^24,
//     which the CPU plugin passes through float32, becomes
//     y + Convert(c)*(x - y) (ops.AddExactSelect), exact in i32;
//   - an i32 comparison whose operands may pass 2^24 and be closer than
//     their float32 rounding, which the CPU plugin compares in float32,
//     compares Subtract(x, y) with 0 instead (ops.AddExactCompare) where
//     validate finds that x - y is an i32 (exact_form).
//
// Each of these is fixed wherever it is: in the main graph, or inside a
// body of an If, Loop or TensorIterator at any depth (irSites), where the
// layers a fix adds join that body, which is a model of its own: they take
// ids of its own, and no port map names them (they are no Parameter or
// Result). What is decided of a layer is decided from validate's findings
// about that layer (Finding.Inner for one inside a body).
//
// Nothing else changes: an IR irdiv wrote reads back and writes again byte
// for byte but for the layers fixed, and, where a body gains constants,
// the offsets of the constants the .bin packs after them (in layer order,
// a body's with its layer, as OpenVINO's serializer does).
func fixIR(path, out string, keepProven bool, stdout io.Writer) error {
	if !strings.EqualFold(fileExt(out), ".xml") {
		return usageErr("-o %s: want an .xml file (and its .bin beside it)", out)
	}
	bin := strings.TrimSuffix(out, fileExt(out)) + ".bin"
	inputs := inputFiles{path, strings.TrimSuffix(path, fileExt(path)) + ".bin"}
	for _, p := range []string{out, bin} {
		if err := inputs.checkOutput("-o "+out, p); err != nil {
			return err
		}
	}
	m, err := ir.ReadFile(path, ir.ReadOptions{})
	if err != nil {
		return err
	}
	report := validate.Model(m, path, validate.Options{})
	framework := strings.ToLower(m.Framework())
	if framework != "onnx" && framework != "pytorch" {
		return fmt.Errorf("%s: its rt_info names no framework irdiv fixes for (framework %q): an IR from ONNX gets m_pythondiv=\"false\" and one from PyTorch a flooring correction; say which by converting again, or validate it with --onnx", path, m.Framework())
	}
	sites := irSites(m)
	var fixed, kept []irSite
	how := map[*ir.Layer]string{}
	for _, s := range sites {
		l := s.l
		if !strings.EqualFold(l.Type, "Divide") || len(l.Outputs) == 0 || !l.Outputs[0].Type.IsSigned() || !l.Outputs[0].Type.IsInteger() {
			continue
		}
		floors := true
		if v, ok := l.DataAttr("m_pythondiv"); ok && v == "false" {
			floors = false
		}
		// What the source meant: ONNX's Div truncates, PyTorch's // floors
		// (a truncating Divide from PyTorch truncates on purpose).
		floor := framework == "pytorch" && floors
		if exactFormTakes(report, l) {
			if _, err := ops.AddExactDivide(s.m, l, floor); err != nil {
				return err
			}
			how[l] = "exact form (a Newton step of integer ops): truncates, as ONNX's Div, and OpenVINO's CPU plugin, which divides i32 in float32, computes it exactly (|B| <= 2^22)"
			if floor {
				how[l] = "exact form (a Newton step of integer ops): floors, as PyTorch's //, on every OpenVINO device, and OpenVINO's CPU plugin, which divides i32 in float32, computes it exactly (|B| <= 2^22)"
			}
			fixed = append(fixed, s)
			continue
		}
		switch framework {
		case "onnx":
			if !floors {
				continue // truncates already
			}
			if keepProven && proven(report, l) {
				kept = append(kept, s)
				continue
			}
			l.SetDataAttr("m_pythondiv", "false")
			how[l] = `m_pythondiv="false": truncates, as ONNX's Div`
		case "pytorch":
			if !floors {
				continue // truncates on purpose
			}
			// Kept where validate analysed it and found no input where
			// the CPU plugin's truncation differs; one it did not analyse
			// is corrected, which costs nothing where they agree.
			if keepProven && !hasFinding(report, l, validate.CPUPythonDivIgnore) && !hasFinding(report, l, validate.NotAnalysed) {
				kept = append(kept, s)
				continue
			}
			if err := flooringCorrection(s.m, l); err != nil {
				return err
			}
			how[l] = "truncates, then floors by a correction every OpenVINO device computes"
		}
		fixed = append(fixed, s)
	}
	var others []irSite // FloorMods, Mods, Selects and comparisons
	var otherTypes []string
	for _, s := range sites {
		l := s.l
		op := l.Type
		switch {
		case !exactFormTakes(report, l):
			continue
		case strings.EqualFold(op, "FloorMod"), strings.EqualFold(op, "Mod"):
			if _, err := ops.AddExactRemainder(s.m, l); err != nil {
				return err
			}
			how[l] = fmt.Sprintf("%s: exact form (A - q*B, q a Newton step's quotient): OpenVINO's CPU plugin, which computes %s in float32, computes it exactly (|B| <= 2^22)", op, op)
		case strings.EqualFold(op, "Select"):
			if _, err := ops.AddExactSelect(s.m, l); err != nil {
				return err
			}
			how[l] = "Select: y + Convert(c)*(x - y), which OpenVINO's CPU plugin, whose Select passes values through float32, computes exactly in i32"
		case ops.IsComparison(op):
			if _, err := ops.AddExactCompare(s.m, l); err != nil {
				return err
			}
			how[l] = fmt.Sprintf("%s: Subtract(A, B) compared with 0, which OpenVINO's CPU plugin, which compares i32 in float32, computes exactly (a nonzero integer keeps its sign in float32; A - B is an i32)", op)
		default:
			continue
		}
		others = append(others, s)
		if !slices.Contains(otherTypes, op) {
			otherTypes = append(otherTypes, op)
		}
	}
	if len(fixed)+len(others) == 0 {
		fmt.Fprintf(stdout, "%s: nothing to fix (%d integer Divides kept); no file written\n", path, len(kept))
		return nil
	}
	after := validate.Model(m, out, validate.Options{})
	for _, f := range after.Findings {
		if f.Severity == validate.Error {
			where := "the model"
			if f.Layer != nil {
				where = f.Layer.String()
			}
			if p, ok := f.Evidence.Get("divide").(string); ok && f.Inner != nil {
				where += " " + p
			}
			return fmt.Errorf("the fixed IR still has an error, nothing written: %s %s: %s", f.Code, where, f.Message)
		}
	}
	if err := ir.Write(m, out, bin); err != nil {
		return err
	}
	what := plural(len(fixed), "integer Divide")
	if len(others) > 0 {
		slices.SortStableFunc(otherTypes, func(a, b string) int { return cmp.Compare(otherOrder(a), otherOrder(b)) })
		what += " and " + plural(len(others), "other integer op") + " (" + strings.Join(otherTypes, ", ") + ")"
	}
	inBodies := ""
	switch n := bodyCount(slices.Concat(fixed, others)); {
	case n == 1 && len(fixed)+len(others) == 1:
		inBodies = ", inside a body"
	case n > 0:
		inBodies = fmt.Sprintf(", %d of them inside bodies", n)
	}
	fmt.Fprintf(stdout, "%s -> %s: fixed %s from %s%s (kept %d)\n", path, out, what, m.Framework(), inBodies, len(kept))
	for _, s := range slices.Concat(fixed, others) {
		textln(stdout, "  %s: %s", s, how[s.l])
		for _, f := range after.Findings {
			if about(f) == s.l && (f.Code == validate.CPUI32Float32 || f.Code == validate.CPUI64Narrowed) {
				textln(stdout, "    note: %s", f.Message)
			}
		}
	}
	fmt.Fprintf(stdout, "checked: validate finds no error in the fixed IR\n")
	return nil
}

// exactFormTakes reports whether validate found that OpenVINO's CPU
// plugin computes l, a Divide, FloorMod, Mod, Select or comparison,
// inexactly and that the exact form (ops.AddExactDivide,
// ops.AddExactRemainder, ops.AddExactSelect, ops.AddExactCompare)
// corrects it there: a Divide's, FloorMod's or Mod's divisor is at most
// 2^22 in magnitude, a comparison's A - B an i32.
func exactFormTakes(r *validate.Report, l *ir.Layer) bool {
	if v, ok := l.DataAttr("auto_broadcast"); ok && strings.EqualFold(v, "pdpd") {
		return false // the form's numpy ops would align B otherwise
	}
	return slices.ContainsFunc(r.Findings, func(f validate.Finding) bool {
		return about(f) == l && (f.Code == validate.CPUI32Float32 || f.Code == validate.CPUI64Narrowed) && f.Evidence.Get("exact_form") == true
	})
}

func fileExt(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 && !strings.ContainsAny(path[i:], `/\`) {
		return path[i:]
	}
	return ""
}

func hasFinding(r *validate.Report, l *ir.Layer, code validate.Code) bool {
	return slices.ContainsFunc(r.Findings, func(f validate.Finding) bool { return about(f) == l && f.Code == code })
}

// otherOrder orders the types of the other ops fixed in the summary:
// FloorMod, Mod, Select, then the comparisons.
func otherOrder(op string) int {
	for i, o := range []string{"floormod", "mod", "select"} {
		if strings.EqualFold(op, o) {
			return i
		}
	}
	return 3
}

// about is the layer a finding is about: for a layer inside a body, that
// layer (Finding.Inner), not the layer of the main graph that holds it.
func about(f validate.Finding) *ir.Layer { return cmp.Or(f.Inner, f.Layer) }

// irSite is a layer fixIR may rewrite: one of the main graph, or one
// inside a body of an If, Loop or TensorIterator at any depth, which is
// rewritten in its own body (m), whose new layers stay there.
type irSite struct {
	m *ir.Model // the model or body that holds l
	l *ir.Layer
	// outer is the layer of the main graph whose body holds l, nil for
	// a layer of the main graph; path leads to l from it as validate
	// names it: body > layer "if" (id 3) then_body > layer "div" (id 2).
	outer *ir.Layer
	path  string
}

// String names the layer: layer "div" (id 3), or one inside a body as
// layer "loop" (id 5) body > layer "div" (id 2).
func (s irSite) String() string {
	if s.outer == nil {
		return s.l.String()
	}
	return s.outer.String() + " " + s.path
}

// irSites lists the layers of m and those of its bodies, at any depth:
// each model's own layers, then the bodies of each. They are listed
// before anything changes, so that the layers a fix adds are not in it.
func irSites(m *ir.Model) []irSite {
	var out []irSite
	var walk func(b *ir.Model, outer *ir.Layer, path string)
	walk = func(b *ir.Model, outer *ir.Layer, path string) {
		for _, l := range b.Layers {
			s := irSite{m: b, l: l, outer: outer}
			if outer != nil {
				s.path = path + " > " + l.String()
			}
			out = append(out, s)
		}
		for _, l := range b.Layers {
			for _, x := range l.Extra {
				if x.Body == nil {
					continue
				}
				tag := "?"
				if x.Node != nil {
					tag = x.Node.Tag
				}
				if outer == nil {
					walk(x.Body, l, tag)
				} else {
					walk(x.Body, outer, path+" > "+l.String()+" "+tag)
				}
			}
		}
	}
	walk(m, nil, "")
	return out
}

// bodyCount counts the sites inside bodies.
func bodyCount(sites []irSite) int {
	n := 0
	for _, s := range sites {
		if s.outer != nil {
			n++
		}
	}
	return n
}

// flooringCorrection makes the flooring Divide l truncate and floors its
// quotient with OpenVINO ops every device computes alike:
//
//	q = Divide(a, b, m_pythondiv=false)
//	r = a - q*b                          the remainder of truncation
//	z = q - Convert(r != 0 and (a < 0 xor b < 0))
//
// with zero made as r - r, so that no constant of the type is needed; the
// layers that read l read z instead. r is made of Multiply and Subtract,
// which OpenVINO's CPU plugin computes in i32, not of Mod, which it
// computes in float32 (jit_mod_emitter).
func flooringCorrection(m *ir.Model, l *ir.Layer) error {
	sources := m.Sources()[l]
	if len(sources) != 2 {
		return fmt.Errorf("%s has %d inputs", l, len(sources))
	}
	a, b := sources[0], sources[1]
	bc, ok := l.DataAttr("auto_broadcast")
	if !ok {
		bc = "numpy"
	}
	q := ir.Output{Layer: l}
	t := l.Outputs[0]
	like := func() *ir.Port { return &ir.Port{Type: t.Type, Dims: slices.Clone(t.Dims), DynamicRank: t.DynamicRank} }
	boolean := func() *ir.Port {
		return &ir.Port{Type: ir.Boolean, Dims: slices.Clone(t.Dims), DynamicRank: t.DynamicRank}
	}
	data := func(kv ...string) []ir.Attr {
		var out []ir.Attr
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, ir.Attr{Name: kv[i], Value: kv[i+1]})
		}
		return out
	}
	name := func(s string) string { return l.Name + "/irdiv_floor/" + s }
	// The consumers of l, before the new layers read it too.
	var readers []int
	for i, e := range m.Edges {
		if e.FromLayer == l.ID && e.FromPort == t.ID {
			readers = append(readers, i)
		}
	}
	l.SetDataAttr("m_pythondiv", "false")
	qb := m.AddLayer("Multiply", "opset1", name("product"), data("auto_broadcast", bc), []ir.Output{q, b}, []*ir.Port{like()})
	r := m.AddLayer("Subtract", "opset1", name("remainder"), data("auto_broadcast", bc), []ir.Output{a, {Layer: qb}}, []*ir.Port{like()})
	ro := ir.Output{Layer: r}
	zero := m.AddLayer("Subtract", "opset1", name("zero"), data("auto_broadcast", "numpy"), []ir.Output{ro, ro}, []*ir.Port{like()})
	zo := ir.Output{Layer: zero}
	inexact := m.AddLayer("NotEqual", "opset1", name("inexact"), data("auto_broadcast", "numpy"), []ir.Output{ro, zo}, []*ir.Port{boolean()})
	aNeg := m.AddLayer("Less", "opset1", name("a_negative"), data("auto_broadcast", "numpy"), []ir.Output{a, zo}, []*ir.Port{boolean()})
	bNeg := m.AddLayer("Less", "opset1", name("b_negative"), data("auto_broadcast", "numpy"), []ir.Output{b, zo}, []*ir.Port{boolean()})
	opposite := m.AddLayer("LogicalXor", "opset1", name("opposite"), data("auto_broadcast", "numpy"), []ir.Output{{Layer: aNeg}, {Layer: bNeg}}, []*ir.Port{boolean()})
	down := m.AddLayer("LogicalAnd", "opset1", name("down"), data("auto_broadcast", "numpy"), []ir.Output{{Layer: inexact}, {Layer: opposite}}, []*ir.Port{boolean()})
	adjust := m.AddLayer("Convert", "opset1", name("adjust"), data("destination_type", t.Type.String()), []ir.Output{{Layer: down}}, []*ir.Port{like()})
	z := m.AddLayer("Subtract", "opset1", name("floor"), data("auto_broadcast", "numpy"), []ir.Output{q, {Layer: adjust}}, []*ir.Port{like()})
	for _, i := range readers {
		m.Edges[i].FromLayer, m.Edges[i].FromPort = z.ID, z.Outputs[0].ID
	}
	z.Outputs[0].Names, t.Names = t.Names, nil
	return nil
}
