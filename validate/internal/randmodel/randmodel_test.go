package randmodel

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/plugin"
)

// TestGenerate: a model is a function of its seed, has an integer Div,
// and imports; its variants load on ONNX Runtime where it is installed.
func TestGenerate(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	r, ortErr := ortreplay.Find()
	if ortErr != nil {
		t.Logf("ONNX Runtime is not available (%v): the models are not loaded on it", ortErr)
	}
	dir := t.TempDir()
	var jobs []ortreplay.Job
	var models []*Model
	refused := 0
	for seed := range uint64(n) {
		m := Generate(seed)
		if !bytes.Equal(m.Bytes(), Generate(seed).Bytes()) {
			t.Fatalf("seed %d: two models", seed)
		}
		if len(m.Divs) == 0 {
			t.Errorf("%v: no integer Div", m)
		}
		om, err := onnx.Read(m.Bytes(), onnx.ReadOptions{})
		if err == nil {
			_, err = onnx.Import(om, onnx.ImportOptions{})
		}
		if err != nil {
			// The generator does not prove every Reshape of constants
			// valid: a few models are wrong at their declared shapes.
			t.Logf("irdiv refuses %v: %v", m, err)
			refused++
			continue
		}
		for i, v := range []Variant{{}, {Guard: true, Hazards: true, SizesOnly: true, Relaxed: true}, {Guard: true, Floor: true}} {
			path := filepath.Join(dir, fmt.Sprintf("m%d_%d.onnx", seed, i))
			if err := os.WriteFile(path, m.Variant(v), 0o644); err != nil {
				t.Fatal(err)
			}
			var runs []map[string]*ir.Tensor
			for _, s := range m.Samples(1, 4, v.Relaxed) {
				if v.Guard { // an unguarded model may divide by zero
					runs = append(runs, s.Inputs)
				}
			}
			jobs = append(jobs, ortreplay.Job{Model: path, Runs: runs})
			models = append(models, m)
		}
	}
	// About 2% (at least one: -short's 40 models hold seed 38, whose
	// Reshape of [4, 5] to [4] irdiv's import refuses since it works out
	// ConstantOfShape's shape).
	if refused > max(1, n/50) {
		t.Errorf("irdiv refuses %d of %d models", refused, n)
	}
	if ortErr != nil {
		return
	}
	res, err := r.RunJobs(jobs)
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for i, outcomes := range res {
		for _, o := range outcomes {
			if o.Err != nil && strings.Contains(o.Err.Error(), "cannot load") {
				t.Errorf("%v: %v\n%s", models[i], o.Err, models[i].Listing())
				break
			}
			if o.Err == nil {
				ran++
			}
		}
	}
	t.Logf("%d of %d runs ran", ran, 4*len(jobs)*2/3)
}

// TestBodies: about one model in four holds Divs inside If or Loop
// bodies, one in twenty-five a Scan (imported as a TensorIterator); irdiv reads and imports those models, every integer Div of a
// file, inside bodies too, is one of Model.Divs with the body it is in
// (and the other way round), and the probing variant has the probes of
// every Div as graph outputs. ONNX Runtime loading them is TestGenerate's.
func TestBodies(t *testing.T) {
	n := uint64(800)
	if testing.Short() {
		n = 200
	}
	withBodies, refused, scans := 0, 0, 0
	for seed := range n {
		m := Generate(seed)
		want := map[string]string{}
		for _, d := range m.Divs {
			want[d.Output] = d.Body
		}
		if !slices.ContainsFunc(m.Divs, func(d Div) bool { return d.Body != "" }) {
			continue
		}
		withBodies++
		om, err := onnx.Read(m.Bytes(), onnx.ReadOptions{})
		if err != nil {
			t.Fatalf("%v: %v\n%s", m, err, m.Listing())
		}
		got := map[string]string{}
		fileDivs(om.Graph, "", got)
		maps.DeleteFunc(got, func(out, _ string) bool { return !m.types[out].IsInteger() })
		if !maps.Equal(got, want) {
			t.Errorf("%v: integer Divs of the file (output: body) %v, Model.Divs %v\n%s", m, got, want, m.Listing())
		}
		imported, err := onnx.Import(om, onnx.ImportOptions{})
		if err != nil {
			t.Logf("irdiv refuses %v: %v", m, err)
			refused++
		}
		if slices.ContainsFunc(om.Graph.Nodes, func(n *onnx.Node) bool { return n.OpType == "Scan" }) {
			scans++
			// Imported as a TensorIterator irdiv runs, not kept opaque.
			if imported != nil && slices.ContainsFunc(imported.Layers, func(l *ir.Layer) bool { return l.Type == "Scan" }) {
				t.Errorf("%v: a Scan stays opaque\n%s", m, m.Listing())
			}
		}
		probe, err := onnx.Read(m.Variant(Variant{Guard: true, Hazards: true, SizesOnly: true, Relaxed: true}), onnx.ReadOptions{})
		if err != nil {
			t.Fatalf("%v: the probing variant: %v", m, err)
		}
		outputs := map[string]bool{}
		for _, o := range probe.Graph.Outputs {
			outputs[o.Name] = true
		}
		for _, d := range m.Divs {
			if !outputs[HazardsOutput(d.Node)] || !outputs[FaultsOutput(d.Node)] {
				t.Errorf("%v: the probing variant has no probes of %s (%s)", m, d.Node, d.Body)
			}
		}
	}
	if withBodies < int(n)/6 || withBodies > int(n)/3 {
		t.Errorf("%d of %d models hold Divs in bodies, want about a quarter", withBodies, n)
	}
	if scans < int(n)/50 || scans > int(n)/12 {
		t.Errorf("%d of %d models hold a Scan, want about one in twenty-five", scans, n)
	}
	// A model of the generator's own fault now and then (a Reshape it
	// made inconsistent, a dead branch dividing a constant by 0): 2 of
	// the 53 of -short's seeds.
	if refused > max(2, withBodies/25) {
		t.Errorf("irdiv refuses %d of %d models with bodies", refused, withBodies)
	}
}

// fileDivs collects the Div nodes of g and its subgraphs, by output, with
// the body path Div.Body gives.
func fileDivs(g *onnx.Graph, path string, divs map[string]string) {
	for _, n := range g.Nodes {
		if n.OpType == "Div" {
			divs[n.Outputs[0]] = path
		}
		for _, name := range slices.Sorted(maps.Keys(n.Attrs)) {
			if a := n.Attrs[name]; a.Graph != nil {
				inner := n.Name + " " + name
				if path != "" {
					inner = path + " > " + inner
				}
				fileDivs(a.Graph, inner, divs)
			}
		}
	}
}

// bodyCase is a model made by hand with a Div in each kind of body: in
// an If's then_branch (its else_branch has none), in a Loop's body on
// the loop-carried value, and in an If inside that body, giving a scan
// output, whose divisor y + 7 is 0 at y = -7:
//
//	q = If(y < 0, then: y / 2, else: -y)
//	final, scan = Loop(2, -, y, body(i, c, v): c, v / 3, If(v < 0, then: v / (y + 7), else: |v|))
func bodyCase() *Model {
	m := &Model{Opset: 13, Inputs: []Input{{Name: "y", Type: ir.I64, Dims: []onnxwire.Dim{}}}, types: map[string]ir.ElementType{}}
	for name, t := range map[string]ir.ElementType{"y": ir.I64, "zero": ir.I64, "seven": ir.I64, "two": ir.I64, "three": ir.I64, "trip": ir.I64,
		"negative": ir.Boolean, "q": ir.I64, "half": ir.I64, "minus": ir.I64, "shifted": ir.I64, "final": ir.I64, "scan": ir.I64,
		"i": ir.I64, "c": ir.Boolean, "v": ir.I64, "c_out": ir.Boolean, "third": ir.I64, "v_negative": ir.Boolean, "w": ir.I64, "w_div": ir.I64, "w_abs": ir.I64} {
		m.types[name] = t
	}
	for name, v := range map[string]int64{"zero": 0, "seven": 7, "trip": 2} {
		m.consts = append(m.consts, constant{name: name, t: ir.I64, dims: []int64{}, ints: []int64{v}})
	}
	konst := func(name string, v int64) node {
		return node{op: "Constant", name: name, outputs: []string{name}, attrs: []attr{tensorAttr("value", constant{t: ir.I64, dims: []int64{}, ints: []int64{v}})}}
	}
	op := func(op, name string, out string, ins ...string) node {
		return node{op: op, name: name, inputs: ins, outputs: []string{out}}
	}
	innerIf := node{op: "If", name: "inner_if", inputs: []string{"v_negative"}, outputs: []string{"w"}, bodies: []*graph{
		{attr: "then_branch", nodes: []node{op("Div", "div2", "w_div", "v", "shifted")}, outputs: []port{{"w_div", ir.I64, 0}}},
		{attr: "else_branch", nodes: []node{op("Abs", "abs", "w_abs", "v")}, outputs: []port{{"w_abs", ir.I64, 0}}},
	}}
	m.nodes = []node{
		op("Less", "less", "negative", "y", "zero"),
		{op: "If", name: "if", inputs: []string{"negative"}, outputs: []string{"q"}, bodies: []*graph{
			{attr: "then_branch", nodes: []node{konst("two", 2), op("Div", "div0", "half", "y", "two")}, outputs: []port{{"half", ir.I64, 0}}},
			{attr: "else_branch", nodes: []node{op("Neg", "neg", "minus", "y")}, outputs: []port{{"minus", ir.I64, 0}}},
		}},
		op("Add", "add", "shifted", "y", "seven"),
		{op: "Loop", name: "loop", inputs: []string{"trip", "", "y"}, outputs: []string{"final", "scan"}, bodies: []*graph{{
			attr: "body", inputs: []port{{"i", ir.I64, 0}, {"c", ir.Boolean, 0}, {"v", ir.I64, 0}},
			nodes: []node{
				op("Identity", "identity", "c_out", "c"), konst("three", 3), op("Div", "div1", "third", "v", "three"),
				op("Less", "v_less", "v_negative", "v", "zero"), innerIf,
			},
			outputs: []port{{"c_out", ir.Boolean, 0}, {"third", ir.I64, 0}, {"w", ir.I64, 0}},
		}}},
	}
	m.Outputs = []string{"q", "final", "scan"}
	m.Divs = []Div{{"div0", "half", "if then_branch"}, {"div1", "third", "loop body"}, {"div2", "w_div", "loop body > inner_if then_branch"}}
	return m
}

// TestVariantBodies: the variants reach inside bodies. At y = -5 the
// flooring variant gives other outputs than the model (so that it cannot
// skip a body and still pass), the probes count each Div's hazards over
// the iterations and give 0 for an If branch not taken; at y = -7 the
// guarded Div inside the inner If is counted as a fault, not run. On
// irdiv's plugin, and on ONNX Runtime where it is installed.
func TestVariantBodies(t *testing.T) {
	m := bodyCase()
	scalar := func(v int64) map[string]*ir.Tensor {
		y, _ := ir.NewTensor(ir.I64, []int64{})
		setInt(y, 0, v)
		return map[string]*ir.Tensor{"y": y}
	}
	ints := func(t *ir.Tensor) []int64 { return slices.Clone(ir.View[int64](t)) }
	type check struct {
		variant Variant
		y       int64
		want    map[string][]int64
	}
	checks := []check{
		{Variant{}, -5, map[string][]int64{"q": {-2}, "final": {0}, "scan": {-2, 0}}},
		{Variant{Floor: true}, -5, map[string][]int64{"q": {-3}, "final": {-1}, "scan": {-3, -1}}},
		{Variant{Floor: true, Guard: true}, -5, map[string][]int64{"q": {-3}, "final": {-1}, "scan": {-3, -1}}},
		{Variant{Hazards: true}, -5, map[string][]int64{"q": {-2}, "final": {0}, "scan": {-2, 0},
			HazardsOutput("div0"): {1}, HazardsOutput("div1"): {2}, HazardsOutput("div2"): {2}}},
		{Variant{Hazards: true}, 5, map[string][]int64{"q": {-5}, "final": {0}, "scan": {5, 1},
			HazardsOutput("div0"): {0}, HazardsOutput("div1"): {0}, HazardsOutput("div2"): {0}}},
		{Variant{Guard: true, Hazards: true}, -7, map[string][]int64{"q": {-3},
			FaultsOutput("div0"): {0}, FaultsOutput("div1"): {0}, FaultsOutput("div2"): {2}}},
	}
	for _, c := range checks {
		cm := compiledVariant(t, m.Variant(c.variant), c.variant)
		out, err := cm.Run(scalar(c.y))
		if err != nil {
			t.Fatalf("%+v at y = %d: %v", c.variant, c.y, err)
		}
		for name, want := range c.want {
			if got := out[name]; got == nil || !slices.Equal(ints(got), want) {
				t.Errorf("%+v at y = %d: %s is %v, want %v", c.variant, c.y, name, got, want)
			}
		}
	}
	r, err := ortreplay.Find()
	if err != nil {
		t.Logf("ONNX Runtime is not available (%v): the variants run on irdiv's plugin only", err)
		return
	}
	dir := t.TempDir()
	var jobs []ortreplay.Job
	for i, c := range checks {
		path := filepath.Join(dir, fmt.Sprintf("v%d.onnx", i))
		if err := os.WriteFile(path, m.Variant(c.variant), 0o644); err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, ortreplay.Job{Model: path, Runs: []map[string]*ir.Tensor{scalar(c.y)}})
	}
	res, err := r.RunJobs(jobs)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range checks {
		o := res[i][0]
		if o.Err != nil {
			t.Errorf("ONNX Runtime, %+v at y = %d: %v", c.variant, c.y, o.Err)
			continue
		}
		for name, want := range c.want {
			if got := o.Outputs[name]; got == nil || !slices.Equal(ints(got), want) {
				t.Errorf("ONNX Runtime, %+v at y = %d: %s is %v, want %v", c.variant, c.y, name, got, want)
			}
		}
	}
}

// twoDivs is a model made by hand with two Divs of the graph, both
// inexact with operands of opposite signs at y = -5: a = y / 2, b = y / 3.
func twoDivs() *Model {
	m := &Model{Opset: 13, Inputs: []Input{{Name: "y", Type: ir.I64, Dims: []onnxwire.Dim{}}}, Outputs: []string{"a", "b"}, types: map[string]ir.ElementType{}}
	for _, name := range []string{"y", "two", "three", "a", "b"} {
		m.types[name] = ir.I64
	}
	m.consts = []constant{{name: "two", t: ir.I64, dims: []int64{}, ints: []int64{2}}, {name: "three", t: ir.I64, dims: []int64{}, ints: []int64{3}}}
	m.nodes = []node{
		{op: "Div", name: "div0", inputs: []string{"y", "two"}, outputs: []string{"a"}},
		{op: "Div", name: "div1", inputs: []string{"y", "three"}, outputs: []string{"b"}},
	}
	m.Divs = []Div{{"div0", "a", ""}, {"div1", "b", ""}}
	return m
}

// TestFloorOnly: Variant.FloorOnly floors the Div it names and no other,
// Variant.FloorExcept every Div but the one it names, in the graph and
// inside If and Loop bodies, with and without the guards and probes the
// differential test adds. At y = -5 every Div of
// both models is a hazard, and each way of flooring gives other outputs
// (flooring none, one Div, another, or all): a variant that floored the
// wrong Div, all of them or none fails. On irdiv's plugin (the faithful
// import, Div truncating, so that only the variant's own rewriting
// floors), and on ONNX Runtime where it is installed.
func TestFloorOnly(t *testing.T) {
	y := func(v int64) map[string]*ir.Tensor {
		y, _ := ir.NewTensor(ir.I64, []int64{})
		setInt(y, 0, v)
		return map[string]*ir.Tensor{"y": y}
	}
	type check struct {
		m       *Model
		variant Variant
		want    map[string][]int64
	}
	flat, bodies := twoDivs(), bodyCase()
	checks := []check{
		{flat, Variant{}, map[string][]int64{"a": {-2}, "b": {-1}}},
		{flat, Variant{FloorOnly: "div0"}, map[string][]int64{"a": {-3}, "b": {-1}}},
		{flat, Variant{FloorOnly: "div1"}, map[string][]int64{"a": {-2}, "b": {-2}}},
		{flat, Variant{FloorOnly: "div1", Guard: true, Hazards: true}, map[string][]int64{"a": {-2}, "b": {-2},
			HazardsOutput("div0"): {1}, HazardsOutput("div1"): {1}, FaultsOutput("div0"): {0}}},
		{flat, Variant{Floor: true, FloorOnly: "div1"}, map[string][]int64{"a": {-3}, "b": {-2}}},
		// bodyCase at y = -5: q = y / 2 in an If; the Loop's first
		// iteration v = -5, third = v / 3, w = v / (y + 7); its second
		// v = third (-1 truncating, -2 flooring div1).
		{bodies, Variant{}, map[string][]int64{"q": {-2}, "final": {0}, "scan": {-2, 0}}},
		{bodies, Variant{FloorOnly: "div0"}, map[string][]int64{"q": {-3}, "final": {0}, "scan": {-2, 0}}},
		{bodies, Variant{FloorOnly: "div1"}, map[string][]int64{"q": {-2}, "final": {-1}, "scan": {-2, -1}}},
		{bodies, Variant{FloorOnly: "div2"}, map[string][]int64{"q": {-2}, "final": {0}, "scan": {-3, -1}}},
		{bodies, Variant{FloorOnly: "div2", Guard: true}, map[string][]int64{"q": {-2}, "final": {0}, "scan": {-3, -1}, FaultsOutput("div2"): {0}}},
		// FloorExcept: every Div floors but the one named.
		{flat, Variant{Floor: true}, map[string][]int64{"a": {-3}, "b": {-2}}},
		{flat, Variant{Floor: true, FloorExcept: "div0"}, map[string][]int64{"a": {-2}, "b": {-2}}},
		{flat, Variant{Floor: true, FloorExcept: "div1", Guard: true}, map[string][]int64{"a": {-3}, "b": {-1}}},
		{bodies, Variant{Floor: true}, map[string][]int64{"q": {-3}, "final": {-1}, "scan": {-3, -1}}},
		{bodies, Variant{Floor: true, FloorExcept: "div0"}, map[string][]int64{"q": {-2}, "final": {-1}, "scan": {-3, -1}}},
		{bodies, Variant{Floor: true, FloorExcept: "div1"}, map[string][]int64{"q": {-3}, "final": {0}, "scan": {-3, -1}}},
		{bodies, Variant{Floor: true, FloorExcept: "div2", Guard: true}, map[string][]int64{"q": {-3}, "final": {-1}, "scan": {-2, -1}}},
	}
	r, ortErr := ortreplay.Find()
	if ortErr != nil {
		t.Logf("ONNX Runtime is not available (%v): the variants run on irdiv's plugin only", ortErr)
	}
	dir := t.TempDir()
	var jobs []ortreplay.Job
	for i, c := range checks {
		data := c.m.Variant(c.variant)
		cm := compiledVariant(t, data, c.variant)
		out, err := cm.Run(y(-5))
		if err != nil {
			t.Fatalf("%+v: %v", c.variant, err)
		}
		for name, want := range c.want {
			if got := out[name]; got == nil || !slices.Equal(ir.View[int64](got), want) {
				t.Errorf("%+v at y = -5: %s is %v, want %v", c.variant, name, got, want)
			}
		}
		path := filepath.Join(dir, fmt.Sprintf("v%d.onnx", i))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, ortreplay.Job{Model: path, Runs: []map[string]*ir.Tensor{y(-5)}})
	}
	for _, v := range []Variant{{FloorOnly: "div2"}, {Floor: true, FloorExcept: "div2"}, {FloorExcept: "div0"}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v (no div2 in the model, or FloorExcept without Floor): no panic", v)
				}
			}()
			flat.Variant(v)
		}()
	}
	if ortErr != nil {
		return
	}
	res, err := r.RunJobs(jobs)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range checks {
		o := res[i][0]
		if o.Err != nil {
			t.Errorf("ONNX Runtime, %+v: %v", c.variant, o.Err)
			continue
		}
		for name, want := range c.want {
			if got := o.Outputs[name]; got == nil || !slices.Equal(ir.View[int64](got), want) {
				t.Errorf("ONNX Runtime, %+v at y = -5: %s is %v, want %v", c.variant, name, got, want)
			}
		}
	}
}

// compiledVariant compiles a variant's bytes on irdiv's plugin, imported
// faithfully (each op as ONNX defines it).
func compiledVariant(t *testing.T, data []byte, v Variant) *plugin.CompiledModel {
	t.Helper()
	om, err := onnx.Read(data, onnx.ReadOptions{})
	if err != nil {
		t.Fatalf("%+v: %v", v, err)
	}
	im, err := onnx.Import(om, onnx.ImportOptions{Faithful: true})
	if err != nil {
		t.Fatalf("%+v: %v", v, err)
	}
	cm, err := plugin.NewCore().CompileModel(im, plugin.Config{})
	if err != nil {
		t.Fatalf("%+v: %v", v, err)
	}
	return cm
}
