// Package validate finds what is wrong, or provably right, in a model,
// above all in the integer Divides of models converted from ONNX and
// PyTorch.
//
// OpenVINO's ONNX importer writes every Div as a Divide with the default
// m_pythondiv="true", which floors, where ONNX truncates; its CPU plugin
// ignores the flag and divides integers in float32. Model reports, with
// a counter-example at the model's inputs where one exists (confirmed by
// evaluating the model both ways) or a proof where one holds:
//
//   - structure: what the reader tolerated, layers no Result reaches,
//     declared port shapes and types that disagree with inference, shape
//     sub-graphs that cannot run (an index out of range, a reshape of
//     the wrong size);
//   - for every integer Divide, the values that reach it, as expressions
//     over the model's input dims and elements (validate/internal/absint)
//     that keep the relations of shape arithmetic; from them, whether
//     floor and truncation can differ, zero divisors, MIN / -1;
//   - what OpenVINO's CPU plugin computes differently;
//   - with the ONNX model, a Div-by-Div comparison on the values that
//     reach each Div in the ONNX model.
//
// The package touches no file: models and test data are values.
package validate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/irdiv/irdiv/internal/pkgerr"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate/internal/absint"
	"github.com/irdiv/irdiv/validate/internal/search"
	"github.com/irdiv/irdiv/validate/internal/sym"
)

// Options configure Model. The zero value validates the model alone.
type Options struct {
	// ONNX is the model the IR was converted from: its Divs are compared
	// with the IR's Divides, and its origin makes the floor/truncation
	// check apply whatever the IR's metadata says.
	ONNX *onnx.Model
	// ONNXTestData are inputs of the ONNX model by graph input name (a
	// test_data_set of it): the comparison evaluates the ONNX model on
	// them first.
	ONNXTestData map[string]*ir.Tensor
	// Imported says that the model is an ONNX model imported as
	// OpenVINO's ONNX frontend does (onnx.Import), not an IR file: the
	// findings then speak of "OpenVINO's import" rather than "this IR".
	Imported bool
	// Producer is the ONNX model's producer_name ("pytorch 1.13.1"): an
	// integer Div exported by PyTorch may be Python's //, which floors,
	// written as ONNX's truncating Div, and the findings say so.
	Producer string
	// Seed seeds the random inputs of the comparison with ONNX.
	Seed uint64
	// MaxTensorBytes bounds every tensor validation computes (0 means
	// 16 MiB): larger ones are not computed, and a comparison that needs
	// one says so.
	MaxTensorBytes int64
	// TrackedElems bounds the integer elements the analysis follows one
	// by one in the whole model (0 means absint.DefaultTrackedElems);
	// beyond it a tensor's elements are one expression, and a note says
	// from which layer on.
	TrackedElems int
	// SearchSteps and SearchLayers bound the counter-example searches of
	// the whole model: the work of the symbolic search (0 means
	// search.DefaultSteps) and the layers evaluated to confirm
	// counter-examples (0 means search.DefaultRunLayers). Once either is
	// spent, the later Divides are not searched, and a note says from
	// which one on.
	SearchSteps, SearchLayers int
}

// The default budgets of Options: DefaultSearchSteps and
// DefaultSearchLayers bound each model's counter-example searches,
// DefaultTrackedElems the integer elements followed one by one.
const (
	DefaultSearchSteps  = search.DefaultSteps
	DefaultSearchLayers = search.DefaultRunLayers
	DefaultTrackedElems = absint.DefaultTrackedElems
)

// origin is the framework a model came from, as its rt_info says.
type origin uint8

const (
	fromOther origin = iota
	fromONNX
	fromPyTorch
)

// validator holds one model's analysis.
type validator struct {
	m        *ir.Model
	r        *Report
	opts     Options
	order    []*ir.Layer
	position map[*ir.Layer]int
	sources  map[*ir.Layer][]ir.Output
	ops      map[*ir.Layer]ops.Op
	infos    map[*ir.Layer][]ops.ValueInfo
	// failed holds the ops of the layers whose inference failed: the
	// analysis takes their outputs as opaque, but what they need of
	// their inputs as it is.
	failed map[*ir.Layer]ops.Op
	an     *absint.Analysis
	search *search.Searcher
	// bodyAnalyses are the analyses of the bodies of If and Loop layers,
	// each on its own (bodyAgrees).
	bodyAnalyses map[*ir.Model]*absint.Analysis
	declared     *sym.Prover // under the declared input shapes
	anyShape     *sym.Prover // under any input shape
	// withFacts are provers like declared and anyShape that also know
	// what the model's layers require of values (factProver), made
	// when first needed.
	withFacts map[*sym.Prover]*sym.Prover
	origin    origin
	// constTexts remembers constText: every finding's expression text
	// shows the constants of up to six layers above its Divide.
	constTexts map[*absint.Value]string
	// neverRuns are the layers of the model's graph that run on no input
	// (structure/never-runs): the analysis's, and the Divides that divide
	// by 0 at every input.
	neverRuns []absint.Unrunnable
	// neverRunsDeclared are those that run on no input of the declared
	// shapes, where none runs on no input at all: at the declared shapes,
	// the Divides divide nothing.
	neverRunsDeclared []absint.Unrunnable
	// exactForms are the model's exact forms of Divides
	// (ops.ExactDivides), found at the first Divide the CPU plugin
	// computes inexactly.
	exactForms map[*ir.Layer]ops.ExactForm
	// deepProofs counts the Divides agree tried deep (agreeByInnerValue)
	// on; at most maxDeepProofs a model.
	deepProofs int
}

// Model validates m; path names it in the report.
func Model(m *ir.Model, path string, opts Options) *Report {
	return analyze(m, path, opts).r
}

// analyze runs every check and keeps what it computed.
func analyze(m *ir.Model, path string, opts Options) *validator {
	v := &validator{m: m, r: &Report{Model: path}, opts: opts, ops: make(map[*ir.Layer]ops.Op, len(m.Layers)), infos: make(map[*ir.Layer][]ops.ValueInfo, len(m.Layers)), constTexts: make(map[*absint.Value]string)}
	switch fw := strings.ToLower(m.Framework()); {
	case fw == "onnx" || opts.ONNX != nil:
		v.origin = fromONNX
	case fw == "pytorch":
		v.origin = fromPyTorch
	}
	v.position = make(map[*ir.Layer]int, len(m.Layers))
	for i, l := range m.Layers {
		v.position[l] = i
	}
	for _, w := range m.Warnings {
		v.r.add(Note, IRReaderWarning, nil, nil, "the reader tolerated: %s", w)
	}
	if err := m.Check(); err != nil {
		v.r.add(Error, StructureGraph, nil, nil, "%v", err)
		return v
	}
	inf := v.infer()
	v.order, v.sources = inf.Order, inf.Sources
	v.unreachable()
	v.an = absint.Analyze(m, inf, absint.Options{TrackedElems: opts.TrackedElems, ONNX: v.origin == fromONNX, Failed: v.failed})
	v.search = search.New(v.an, v.searchOptions())
	v.declared, v.anyShape = v.an.Prover(false), v.an.Prover(true)
	for _, is := range v.an.Issues {
		code := map[absint.IssueKind]Code{absint.GatherIndex: StructureGatherIndex, absint.EvaluateFails: StructureEvaluate}[is.Kind]
		v.r.add(Error, code, is.Layer, nil, "%s", is.Message)
	}
	v.neverRuns = v.an.Unrunnables()
	if len(v.neverRuns) == 0 {
		v.neverRunsDeclared = v.an.UnrunnablesDeclared()
	}
	if l := v.an.Summarized; l != nil {
		n := v.an.Options().TrackedElems
		v.r.add(Note, AnalysisSummarized, l, Evidence{{"tracked_elements", n}},
			"the model has more integer elements than irdiv follows one by one (%d): from this layer on, a tensor's elements are followed as one expression, which proves less and finds fewer counter-examples", n)
	}
	var spentAt *ir.Layer
	for _, l := range v.order {
		switch o := v.ops[l].(type) {
		case *ops.Divide:
			v.divide(l, o)
		case *ops.Mod:
			v.remainder(l, o.Broadcast)
		case *ops.FloorMod:
			v.remainder(l, o.Broadcast)
		case *ops.Select:
			v.cpuSelect(l)
		case *ops.Equal, *ops.NotEqual, *ops.Less, *ops.LessEqual, *ops.Greater, *ops.GreaterEqual:
			v.cpuCompare(l, o.(ops.Broadcaster).AutoBroadcast())
		}
		v.bodies(l)
		if spentAt == nil && v.search.Exhausted() {
			spentAt = l
		}
	}
	v.crossCheck()
	v.interpolates()
	if spentAt != nil {
		o := v.search.Options()
		v.r.add(Note, AnalysisBudget, spentAt, Evidence{{"search_steps", o.Steps}, {"search_layers", o.RunLayers}},
			"the counter-example searches spent their budget here (%d steps, %d layers evaluated): the Divides after it were not searched, and are warnings where they would have had a counter-example (raise --search-steps or --search-layers)", o.Steps, o.RunLayers)
	}
	v.v10()
	if opts.ONNX != nil {
		v.compareONNX(opts.ONNX)
	}
	v.runsOnNoInput()
	v.countDivides()
	if len(v.neverRuns) > 0 {
		v.r.Coverage.RunsOnNoInput = v.r.Coverage.IntegerDivides
	}
	v.r.sort(v.position)
	return v
}

// runsOnNoDeclaredInput reports each layer that runs on no input of the
// declared shapes: an error for an ONNX model, which its runtimes run at
// those shapes only, a warning for an IR, which a reshape may run. The
// Divides' verdicts took it in (agree).
func (v *validator) runsOnNoDeclaredInput() {
	severity := Warning
	if v.opts.Imported {
		severity = Error
	}
	for _, u := range v.neverRunsDeclared {
		v.r.add(severity, StructureNeverRuns, u.Layer, Evidence{{"needs", u.Needs}, {"at_every_input", u.Detail}, {"declared_shapes_only", true}},
			"the model runs on no input of its declared shapes: this %s %s, but gets %s (other input shapes may run it)", u.Layer.Type, u.Needs, u.Detail)
	}
}

// runsOnNoInput reports each layer that runs on no input, and says so in
// the verdict of every integer Divide: it stands (no proof comes of the
// contradiction), but no input reaches the Divide.
func (v *validator) runsOnNoInput() {
	if len(v.neverRuns) == 0 {
		v.runsOnNoDeclaredInput()
		return
	}
	for _, u := range v.neverRuns {
		v.r.add(Error, StructureNeverRuns, u.Layer, Evidence{{"needs", u.Needs}, {"at_every_input", u.Detail}},
			"the model runs on no input: this %s %s, but gets %s; nothing after it computes", u.Layer.Type, u.Needs, u.Detail)
	}
	first := v.neverRuns[0].Layer
	moot := fmt.Sprintf("; moot: the model runs on no input (%s %s, structure/never-runs)", first.Type, first)
	for i := range v.r.Findings {
		f := &v.r.Findings[i]
		switch f.Code {
		case FloorTrunc, FloorTruncReshape, FloorTruncPossible, FloorTruncAgree, NotAnalysed:
			f.Message += moot
			f.Evidence = f.Evidence.With(Fact{"model_runs_on_no_input", first.String()})
		}
	}
}

// crossCheck evaluates the model at a few edge inputs and holds every
// floor/truncation proof of the outer graph against them: a proof that an
// evaluation contradicts is wrong, and becomes an error of its own
// (analysis/internal-error) instead of a proof.
func (v *validator) crossCheck() {
	var proven []*ir.Layer
	for _, f := range v.r.Findings {
		if d := f.divide(); f.Code == FloorTruncAgree && d != nil && isIntegerDivide(d) && v.an.Values[ir.Output{Layer: d}] != nil {
			proven = append(proven, d)
		}
	}
	onnxRun := search.RunOptions{Floor: truncating, MaxTensorBytes: v.opts.MaxTensorBytes, ONNX: true}
	bad := v.search.CrossCheck(proven, floorDiffers, onnxRun)
	if len(bad) == 0 {
		return
	}
	kept := v.r.Findings[:0]
	for _, f := range v.r.Findings {
		if c := bad[f.divide()]; c != nil && f.Code == FloorTruncAgree {
			w := &search.Witness{Inputs: c.Inputs, Index: c.Index, A: c.A, B: c.B}
			e := v.witness(Evidence{{"proof", f.Evidence.Get("reason")}}, w, "ONNX", v.subject())
			if path := f.Evidence.Get("divide"); path != nil {
				e = e.With(Fact{"divide", path})
			}
			if f.Inner != nil {
				// Counted by bodyDivide as proven; countDivides counts
				// the outer graph's Divides after this.
				v.r.Coverage.Proven--
				v.r.Coverage.Errors++
			}
			kept = append(kept, Finding{Severity: Error, Code: AnalysisInternalError, Layer: f.Layer, Inner: f.Inner, Evidence: e,
				Message: fmt.Sprintf("irdiv proved that floor and truncation agree here (%s), but evaluating the model contradicts it: %s; the proof is wrong, an internal error of irdiv (please report it with the model)", f.Evidence.Get("reason"), e.Get("counter_example"))})
			continue
		}
		kept = append(kept, f)
	}
	v.r.Findings = kept
}

// searchOptions are the search's budgets the options ask for.
func (v *validator) searchOptions() search.Options {
	return search.Options{Steps: v.opts.SearchSteps, RunLayers: v.opts.SearchLayers}
}

// infer infers every layer as ops does (ops.Walk), folding constants as
// OpenVINO's inference does (so that a shape sub-graph that cannot run is
// found), but goes on after a failure so that all findings are gathered;
// a layer that fails, or that irdiv does not know, keeps the outputs its
// ports declare.
func (v *validator) infer() *ops.Inference {
	inf := &ops.Inference{Sources: make(map[*ir.Layer][]ir.Output, len(v.m.Layers)), Ops: v.ops, Outputs: v.infos}
	walk := ops.WalkOptions{Error: func(err *ops.LayerError) {
		// An input of the layer itself that is not connected, not one in
		// a body that makes its op fail.
		if errors.Is(err.Err, ops.ErrUnconnected) && !errors.As(err.Err, new(*ops.LayerError)) {
			v.r.add(Error, StructureUnconnected, err.Layer, nil, "%v", detail(err))
			return
		}
		v.r.add(Error, StructureLayer, err.Layer, nil, "%v", err)
	}}
	// m.Check found no cycle, the one error Walk returns here.
	_ = ops.Walk(v.m, walk, func(s *ops.Step) error {
		l := s.Layer
		inf.Order = append(inf.Order, l)
		if s.Sources != nil {
			inf.Sources[l] = s.Sources
		}
		v.infos[l] = ops.DeclaredOutputs(l)
		if s.Op == nil {
			return nil
		}
		in := s.Inputs(v.infos)
		out, err := ops.InferFold(s.Op, in)
		if errors.Is(err, ops.ErrDivideByZero) || errors.Is(err, ops.ErrOverflow) {
			// A Divide of constants that fails is the Divide's finding.
			out, err = s.Op.Infer(in)
		}
		if err != nil {
			v.r.add(Error, StructureInference, l, nil, "%v", err)
			if v.failed == nil {
				v.failed = make(map[*ir.Layer]ops.Op)
			}
			v.failed[l] = s.Op
			return nil
		}
		if err := s.CheckOutputs(len(out)); err != nil {
			v.r.add(Error, StructurePorts, l, nil, "%v", detail(err))
			return nil
		}
		v.ops[l] = s.Op
		v.infos[l] = out
		for i, info := range out {
			v.checkPort(l, l.Outputs[i], info)
			v.checkSource(l, l.Outputs[i], info)
		}
		return nil
	})
	return inf
}

// detail is an error of ops without the layer and the package's name,
// for a finding that names its layer.
func detail(err error) error {
	if le, ok := err.(*ops.LayerError); ok {
		err = le.Err
	}
	err, _ = pkgerr.Detail("ops", err)
	return err
}

func (v *validator) sourceOf(l *ir.Layer, i int) ir.Output {
	if s := v.sources[l]; i < len(s) {
		return s[i]
	}
	return ir.Output{}
}

// checkPort compares a declared output port with inference: OpenVINO
// never reads these declarations for the ops it knows, so a wrong one
// misleads only the people and tools that read the file.
func (v *validator) checkPort(l *ir.Layer, p *ir.Port, inferred ops.ValueInfo) {
	if p.Type != inferred.Type && p.Type != ir.Dynamic && inferred.Type != ir.Dynamic {
		v.r.add(Error, StructurePortType, l, Evidence{{"declared", p.Type.Precision()}, {"inferred", inferred.Type.String()}},
			"output port %d declares %s, but the layer computes %s", p.ID, p.Type.Precision(), inferred.Type)
	}
	// A port without dims is a scalar or of dynamic rank: OpenVINO's
	// serializer writes the dims of a shape, and one of dynamic rank has
	// none, so the file cannot tell them apart.
	if inferred.Shape.DynamicRank || p.DynamicRank || len(p.Dims) == 0 {
		return
	}
	ok := len(p.Dims) == len(inferred.Shape.Dims)
	for i := 0; ok && i < len(p.Dims); i++ {
		ok = p.Dims[i] < 0 || inferred.Shape.Dims[i].Contains(p.Dims[i])
	}
	if !ok {
		declared := p.Shape().String()
		v.r.add(Error, StructurePortShape, l, Evidence{{"declared", declared}, {"inferred", inferred.Shape.String()}},
			"output port %d declares shape %s, but the layer computes %s", p.ID, declared, inferred.Shape)
	}
}

// checkSource compares what the source model states about an output (an
// ONNX value_info or graph output) with inference, in the words of ONNX's
// shape inference: the import keeps the op's own type and shape, so the
// statement would otherwise be lost. A type that disagrees is an error
// (ONNX Runtime refuses to load the model); a shape a warning (it merges
// shapes leniently, and warns).
func (v *validator) checkSource(l *ir.Layer, p *ir.Port, inferred ops.ValueInfo) {
	d := p.Source
	if d == nil {
		return
	}
	if d.Type != ir.Dynamic && inferred.Type != ir.Dynamic && d.Type != inferred.Type {
		v.r.add(Error, StructurePortType, l, Evidence{{"declared", onnx.DataTypeName(d.Type)}, {"inferred", onnx.DataTypeName(inferred.Type)}},
			"output port %d: the model's %s states %s, but the layer computes %s: Inferred elem type differs from existing elem type: (%s) vs (%s)",
			p.ID, d.What, onnx.DataTypeName(d.Type), onnx.DataTypeName(inferred.Type), onnx.DataTypeName(inferred.Type), onnx.DataTypeName(d.Type))
	}
	if d.Shape.DynamicRank || inferred.Shape.DynamicRank {
		return
	}
	shapeErr := func(detail string, args ...any) {
		v.r.add(Warning, StructurePortShape, l, Evidence{{"declared", d.Shape.String()}, {"inferred", inferred.Shape.String()}},
			"output port %d: the model's %s states shape %s, but the layer computes %s: "+detail, append([]any{p.ID, d.What, d.Shape, inferred.Shape}, args...)...)
	}
	if len(d.Shape.Dims) != len(inferred.Shape.Dims) {
		shapeErr("Inferred shape and existing shape differ in rank: (%d) vs (%d)", len(inferred.Shape.Dims), len(d.Shape.Dims))
		return
	}
	for i, dd := range d.Shape.Dims {
		if dd.IsStatic() && !inferred.Shape.Dims[i].Contains(dd.Min) {
			shapeErr("Inferred shape and existing shape differ in dimension %d: (%s) vs (%d)", i, inferred.Shape.Dims[i], dd.Min)
			return
		}
	}
}

func (v *validator) unreachable() {
	dead := v.m.Unreachable()
	if len(dead) == 0 {
		return
	}
	var names []string
	for _, l := range dead[:min(len(dead), 5)] {
		names = append(names, l.String())
	}
	v.r.add(Note, StructureUnreachable, nil, Evidence{{"count", len(dead)}},
		"%s no Result (OpenVINO drops them): %s", plural(len(dead), "layer reaches", "layers reach"), strings.Join(names, ", ")+more(len(dead), 5))
}

func more(n, shown int) string {
	if n > shown {
		return fmt.Sprintf(" and %d more", n-shown)
	}
	return ""
}

// v10 notes what OpenVINO's runtime converts in an IR v10 model
// (update_v10_model), which irdiv does not.
func (v *validator) v10() {
	if v.m.Version != 10 {
		return
	}
	for _, l := range v.m.Parameters() {
		if infos := v.infos[l]; len(infos) == 1 && infos[0].Type == ir.F16 {
			v.r.add(Note, CPUV10Input, l, nil, "IR v10: OpenVINO's runtime takes this f16 input as f32")
		}
	}
	for _, l := range v.m.Results() {
		src := v.sourceOf(l, 0)
		if src.Layer == nil {
			continue
		}
		t := v.infos[src.Layer][src.Index].Type
		to := ir.F32
		switch t {
		case ir.I64, ir.U64, ir.I32, ir.U32:
			to = ir.I32
		case ir.F32, ir.Dynamic:
			to = t
		}
		if to != t {
			v.r.add(Note, CPUV10Output, l, Evidence{{"computed", t.String()}, {"returned", to.String()}},
				"IR v10: OpenVINO's runtime returns this %s output as %s", t, to)
		}
	}
}

// layerJSON names a layer in the JSON form.
type layerJSON struct {
	ID   uint64 `json:"id"`
	Name string `json:"name"`
}
