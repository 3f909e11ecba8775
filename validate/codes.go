package validate

// Code names a kind of finding. Codes are stable, for scripts and CI
// baselines; each is declared here once, with its severity and its
// documentation (Codes), from which the README's table is generated.
type Code string

// The finding codes, by family: divide/ for what a Divide computes,
// mod/ for the integer remainders (Mod, FloorMod), which divide too,
// onnx/ for the comparison with the ONNX source, cpu/ for OpenVINO's CPU
// plugin, structure/ and ir/ for the model itself, analysis/ for the
// limits of the analysis.
const (
	FloorTrunc         Code = "divide/floor-trunc"
	FloorTruncReshape  Code = "divide/floor-trunc-reshape"
	FloorTruncPossible Code = "divide/floor-trunc-possible"
	FloorTruncAgree    Code = "divide/floor-trunc-agree"
	NotAnalysed        Code = "divide/not-analysed"
	ZeroDivisor        Code = "divide/zero-divisor"
	Overflow           Code = "divide/overflow"
	DivideAttribute    Code = "divide/attribute"
	ModZeroDivisor     Code = "mod/zero-divisor"
	ModOverflow        Code = "mod/overflow"

	ONNXSemantics      Code = "onnx/semantics"
	ONNXMismatch       Code = "onnx/mismatch"
	ONNXRule           Code = "onnx/rule"
	ONNXBroadcast      Code = "onnx/broadcast"
	ONNXMissingDivide  Code = "onnx/missing-divide"
	ONNXAgree          Code = "onnx/agree"
	ONNXExtraDivide    Code = "onnx/extra-divide"
	ONNXNotCompared    Code = "onnx/not-compared"
	ONNXAntialias      Code = "onnx/antialias-ignored"
	ONNXResizeLength   Code = "onnx/resize-length"
	CPUPythonDivIgnore Code = "cpu/pythondiv-ignored"
	CPUI32Float32      Code = "cpu/i32-float32"
	CPUI64Narrowed     Code = "cpu/i64-narrowed"
	CPUV10Input        Code = "cpu/v10-input"
	CPUV10Output       Code = "cpu/v10-output"

	StructureGraph        Code = "structure/graph"
	StructureLayer        Code = "structure/layer"
	StructureInference    Code = "structure/inference"
	StructurePorts        Code = "structure/ports"
	StructureUnconnected  Code = "structure/unconnected"
	StructurePortType     Code = "structure/port-type"
	StructurePortShape    Code = "structure/port-shape"
	StructureGatherIndex  Code = "structure/gather-index"
	StructureEvaluate     Code = "structure/evaluate"
	StructureUnreachable  Code = "structure/unreachable"
	StructureNeverRuns    Code = "structure/never-runs"
	IRReaderWarning       Code = "ir/reader-warning"
	IRUnreadable          Code = "ir/unreadable"
	AnalysisSummarized    Code = "analysis/summarized"
	AnalysisBudget        Code = "analysis/budget"
	AnalysisInternalError Code = "analysis/internal-error"
)

// CodeDoc documents a finding code, as analysis.Analyzer documents a
// check: its severities (the usual one first), a one-line summary and a
// paragraph that says what it means and what to do.
type CodeDoc struct {
	Code       Code
	Severities []Severity
	// Summary is one line; Evidence names the evidence keys its findings
	// carry, for scripts.
	Summary, Evidence string
	Doc               string
}

// Codes documents every finding code, in the order of the README's table.
var Codes = []CodeDoc{
	{FloorTrunc, []Severity{Error}, "floors where ONNX truncates, and inputs make the outputs differ", "`counter_example`, `inputs`, `counter_example_dir`",
		"The Divide floors (m_pythondiv=true, as OpenVINO's ONNX importer writes every Div) where the ONNX model truncates, and irdiv found inputs of the model under which the operands have opposite signs and do not divide exactly, confirmed by evaluating the model both ways. Fix the model (irdiv fix, or m_pythondiv=\"false\"), or make the operands non-negative."},
	{FloorTruncReshape, []Severity{Warning}, "agrees at the declared input shapes (or is neither proven nor refuted there), not at others", "`reason`, `counter_example`",
		"At the input shapes the model declares, floor and truncation agree (or irdiv can neither prove it nor find inputs of those shapes where they differ: the message says which); at other shapes, which OpenVINO's reshape may give the model, they differ. Keep the shapes static, or fix the Divide."},
	{FloorTruncPossible, []Severity{Warning}, "neither proven nor refuted; the message names the ops that stopped the analysis", "`masked_at`, `masked_example` (inputs where the quotients differ and no output does)",
		"irdiv could neither prove that floor and truncation agree nor find inputs where they differ. The message names the ops whose values irdiv does not follow, and any inputs where the quotients differ but every output of the model is the same both ways (the difference vanishes on the way: not an error of this model, but one of any model that reads the Divide)."},
	{FloorTruncAgree, []Severity{Note}, "provably agrees", "`reason`, `assumes` (where the proof rests on an assumption), `runs_only_where` (what the model's layers require of the inputs it rests on)",
		"A proof that floor and truncation give the same quotients for every input the model accepts: the operands never have opposite signs, or every division is exact. The reason states the argument and any assumption; `runs_only_where` lists the input dims or values the proof takes as narrowed by what the model's layers need to run (a pooling's window, a dim Squeeze removes), with the layer that needs it. A pooling's window is what OpenVINO needs: ONNX Runtime also runs a pooling on some inputs smaller than its window (its output dim then 0 or 1), where OpenVINO fails rather than computing other values."},
	{NotAnalysed, []Severity{Warning}, "an integer Divide whose values irdiv did not follow (one inside an If, Loop or TensorIterator body, or whose operands it does not track); the report's coverage lists each", "`reason`",
		"No Divide is skipped in silence: one irdiv did not analyse gets this warning, on the layer of the outer graph that holds it, and is listed in the report's coverage with the reason."},
	{ZeroDivisor, []Severity{Error, Warning}, "a zero divisor, certain (error) or reachable from the inputs (warning)", "`index`, `example`, `inputs`, `empty_inputs` (a warning's counter-example)",
		"An integer division by zero: certain when the divisor is a constant zero; reachable when irdiv found inputs of the model under which it runs up to the Divide and an element the Divide computes has a divisor of 0 (a warning, with the counter-example). A Divide whose output is empty divides nothing; a counter-example with an empty input divides the other operand's elements by zero for real, and `empty_inputs` names the inputs that are empty. Only divisors that read elements (an input's, or a Loop's iteration or carried value, a sliced part) are searched: one computed from dims alone is 0 only where an input is empty, and large models hold many. Where the divisor's range holds 0 but no such input is found, nothing is said. ONNX Runtime fails the model there (\"Integer division by zero\"), OpenVINO's reference throws, its CPU plugin computes what the hardware gives: guard the divisor, or declare the dims that are never 0 (`1..?`). A Divide inside an If, Loop or TensorIterator body that irdiv runs is searched the same way, through the layer that holds it (its counter-example is at the model's inputs); the finding is on that layer and names the Divide."},
	{Overflow, []Severity{Error, Warning}, "`MIN / -1`, certain (error) or reachable from the inputs (warning)", "`index`, `example`, `inputs` (a warning's counter-example)",
		"The signed minimum divided by -1 overflows; certain or reachable from the inputs (a warning with the counter-example, also for a Divide inside an If, Loop or TensorIterator body, on the layer that holds it). irdiv's evaluation fails there (\"integer division overflow\", as OpenVINO's reference does with PR #38215; released versions are undefined there); ONNX Runtime 1.30 may die of SIGFPE, the whole process and not the run: guard the divisor or the dividend."},
	{DivideAttribute, []Severity{Warning}, "an attribute value OpenVINO ignores", "",
		"A Divide attribute that OpenVINO's reader ignores or reads otherwise than its text suggests."},
	{ModZeroDivisor, []Severity{Error, Warning}, "an integer Mod or FloorMod whose divisor is 0, certain (error) or reachable from the inputs (warning)", "`index`, `a`, `b`, `example`, `inputs`, `empty_inputs` (a warning's counter-example)",
		"The remainder of an integer division by a divisor that is 0 (ONNX's Mod, OpenVINO's Mod and FloorMod): integer division by zero, which fails the model there (irdiv's evaluation, ONNX Runtime: \"Integer modulo by zero\") or is undefined (OpenVINO's CPU plugin). An error where the divisor is a constant 0: nothing after it computes, fix the divisor. A warning, with a counter-example, where irdiv found inputs of the model that make it 0 at an element the op computes, as for divide/zero-divisor; inside an If, Loop or TensorIterator body too, on the layer that holds it."},
	{ModOverflow, []Severity{Error, Warning}, "an i32 or i64 Mod or FloorMod of `MIN % -1`, certain (error) or reachable from the inputs (warning)", "`index`, `a`, `b`, `example`, `inputs` (a warning's counter-example)",
		"The remainder of the signed minimum divided by -1 is 0, but the quotient it comes from overflows, and C's % of i32 or i64, x86's idiv, traps there. ONNX Runtime 1.30 dies of SIGFPE, the whole process and not the run, on ONNX's Mod with fmod 0 (OpenVINO's FloorMod), and computes 0 with fmod 1; OpenVINO's reference computes 0 for FloorMod (in double) and C++'s x % y for Mod, undefined there; irdiv computes 0. Certain where both operands are constants (an error); a warning with a counter-example where irdiv found inputs of the model that make them MIN and -1 at an element the op computes, inside an If, Loop or TensorIterator body too, on the layer that holds it. i8 and i16 are promoted to int before %, which does not trap. Guard the divisor or the dividend."},
	{ONNXSemantics, []Severity{Error}, "with `--onnx`: the Divide computes something else than its Div", "",
		"With --onnx, the Divide and the ONNX Div it comes from give different values on the inputs that reach the Div."},
	{ONNXMismatch, []Severity{Error}, "with `--onnx`: the Divide cannot be the same Div (types, shapes)", "",
		"With --onnx, the Divide paired with a Div has other element types or shapes, so the IR was not converted from this model as it is."},
	{ONNXRule, []Severity{Error}, "with `--onnx`: the Div breaks its opset's rules", "",
		"With --onnx, the Div itself breaks the rules of its opset (types, broadcasting)."},
	{ONNXBroadcast, []Severity{Warning}, "with `--onnx`: the Divide broadcasts otherwise than its Div", "",
		"With --onnx, the Divide's auto_broadcast differs from the Div's numpy broadcasting."},
	{ONNXMissingDivide, []Severity{Warning}, "with `--onnx`: a Div without a Divide", "",
		"With --onnx, a Div of the ONNX model has no Divide in the IR."},
	{ONNXAgree, []Severity{Note}, "with `--onnx`: the Divide agrees with its Div", "",
		"With --onnx, the Divide and its Div agree on the values compared."},
	{ONNXExtraDivide, []Severity{Note}, "with `--onnx`: a Divide without a Div", "",
		"With --onnx, a Divide of the IR has no Div in the ONNX model (a Reciprocal, or a converter's own)."},
	{ONNXNotCompared, []Severity{Note}, "with `--onnx`: operands beyond `MaxTensorBytes`", "",
		"With --onnx, the operands were larger than the bound on computed tensors, so the Div was not compared."},
	{ONNXAntialias, []Severity{Warning, Note}, "an Interpolate of mode `linear_onnx` or `cubic` with `antialias=true`, which OpenVINO's reference ignores: from ONNX's Resize with `antialias=1`, OpenVINO differs from ONNX where it downscales (warning); a note where no axis is downscaled, or for an IR not from ONNX", "`mode`, `downscales` (the axes made smaller at the declared shapes)",
		"OpenVINO's ONNX frontend writes a Resize with antialias=1 as an Interpolate with antialias=true in mode linear_onnx (ONNX's linear) or cubic, but OpenVINO's reference reads antialias in mode linear only: it resizes without the antialiasing filter that ONNX's Resize applies where it downscales, so OpenVINO's results differ from ONNX's (against ONNX Runtime 1.30, on inputs of standard deviation 10, by up to 16.4 in irdiv's tests). A warning for a model from ONNX where an axis is, or may be, downscaled; a note where every axis keeps or grows its length at the declared shapes (ONNX's filter does nothing there), and for an IR not from ONNX, where the attribute simply has no effect. irdiv convert refuses such a Resize, no Interpolate computing it. Where the model must match ONNX, downscale without antialias, or before the model."},
	{ONNXResizeLength, []Severity{Warning, Note}, "an Interpolate by scales from ONNX's Resize whose output is, or may be, longer than ONNX's on an axis: OpenVINO multiplies the length by scale + 1e-6, ONNX floors length x scale; for scales computed when the model runs, a warning where irdiv cannot exclude it on axes below 65536 elements, a note where it is so on longer axes only", "`axes` (each axis with its length, scale, ONNX's length and OpenVINO's; for scales computed when the model runs, what irdiv knows of the scale and the first length, or an instance, where they differ), `scales` (`run-time` for those)",
		"OpenVINO's ONNX frontend writes a Resize by scales as an Interpolate-11 in shape_calculation_mode scales, whose shape inference computes an axis' length as floor(length x (scale + 1e-6)) in float32, where ONNX's Resize gives floor(length x scale) (ONNX Runtime multiplies in float32, ONNX's reference in float64): where the product falls just below an integer, as 25 x 2.12 (52.999996 in float32), OpenVINO's output is one element longer than ONNX's (53 against ONNX Runtime's 52), and everything after it is computed on other shapes. Reported at the declared input shapes, for a model from ONNX; irdiv convert refuses such a Resize. Where the scales are computed when the model runs (an input of the model, or computed from its dims), the lengths cannot be compared before it runs: irdiv uses what it knows of the scales (a constant part, an integer's range, a multiple of a dim divided by that dim, the range of the values) and of the lengths (the declared dims). Where it knows nothing, or only a range, a warning says that a longer output cannot be excluded, with an instance of the rule; where it knows the scale, a warning names the first length at which they differ, or a note where that is 65536 or more: every scale other than 1 and those from 32 on differs from some length on, as length x 1e-6 grows (2 from 983040, 0.5 from 485739), and where no length the model can have reaches it, nothing is said. irdiv convert writes such a Resize and says the same on stderr. Where the model must match ONNX, resize by sizes (the output lengths themselves), or pick a scale whose product is not within 1e-6 of an integer."},
	{CPUPythonDivIgnore, []Severity{Note, Warning}, "OpenVINO's CPU plugin ignores `m_pythondiv` and truncates (a warning for a model from PyTorch, which floors on purpose)", "`example`, `counter_example`",
		"OpenVINO's CPU plugin truncates whatever m_pythondiv says (#38248): where the operands can have opposite signs, it computes otherwise than the reference. For a model from PyTorch, whose // floors, that is a warning with a counter-example."},
	{CPUI32Float32, []Severity{Note}, "OpenVINO's CPU plugin divides i32 in float32 (Divide, FloorMod, Mod), passes Select's values through float32, and compares i32 in float32", "`example`, `exact_form` (a comparison: `a`, `b`, `difference`)",
		"OpenVINO's CPU plugin divides i32 in float32 (#35830): quotients of operands above 2^24 can come out wrong, and so can the remainders of FloorMod and Mod, which it computes in float32 too; its Select rounds i32 values above 2^24 to float32; its comparisons (Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual) round their i32 operands to float32, so that two of 2^24 and beyond that differ by less than their rounding (at most 256) compare as equal. `exact_form` says whether `irdiv fix` can write a form that the plugin computes exactly: for a Divide, a Newton step of exact integer ops, which needs |B| <= 2^22; for a FloorMod or Mod, A - q*B with that step's quotient (|B| <= 2^22, and no MIN % -1, whose quotient the form would overflow); for a Select, y + Convert(c)*(x - y) in i32; for a comparison, Subtract(A, B) compared with 0, which needs A - B to be an i32 (a nonzero integer keeps its sign in float32). The note is given as well for these layers inside If, Loop and TensorIterator bodies, where irdiv fix writes the forms too. After the fix, the layers corrected have no such note."},
	{CPUI64Narrowed, []Severity{Note}, "OpenVINO's CPU plugin narrows i64 to i32", "`example`, `exact_form`",
		"OpenVINO's CPU plugin narrows i64 to i32 and divides in float32 (#37766): quotients (and FloorMod's and Mod's remainders, Select's values) of operands above 2^24 can come out wrong, and operands beyond the i32 range are lost before any op runs. `exact_form` says whether `irdiv fix` can write a form that the plugin computes exactly: where the operands are i32 values (and for a division |B| <= 2^22); none helps beyond the i32 range."},
	{CPUV10Input, []Severity{Note}, "IR v10: OpenVINO's runtime converts this input", "",
		"IR v10: OpenVINO's runtime takes an f16 input as f32 (update_v10_model)."},
	{CPUV10Output, []Severity{Note}, "IR v10: OpenVINO's runtime converts this output", "`computed`, `returned`",
		"IR v10: OpenVINO's runtime returns i64 and u32 outputs as i32 (update_v10_model)."},
	{StructureGraph, []Severity{Error}, "the graph cannot be built (ids, ports, edges, cycles)", "",
		"The model's graph is broken: a duplicate id, an edge to a missing port, a cycle."},
	{StructureLayer, []Severity{Error}, "a layer irdiv knows cannot be built from its attributes", "",
		"A layer of an op irdiv knows has attributes or inputs that op does not accept."},
	{StructureInference, []Severity{Error}, "a layer's types and shapes cannot be inferred", "",
		"Type and shape inference fails at this layer, as OpenVINO's would."},
	{StructurePorts, []Severity{Error}, "a layer declares another number of output ports than its op has", "",
		"The layer declares more or fewer output ports than its op computes."},
	{StructureUnconnected, []Severity{Error}, "an input port with no edge", "",
		"An input port of the layer is not connected."},
	{StructurePortType, []Severity{Error}, "a declared output type disagrees with inference (a port of an IR, a value_info or graph output of an ONNX model)", "`declared`, `inferred`",
		"The output port declares another element type than the layer computes; OpenVINO ignores the declaration, but the tools and people that read it do not. For an ONNX model, the type its value_info or graph output states for the tensor: ONNX Runtime refuses to load such a model."},
	{StructurePortShape, []Severity{Error, Warning}, "a declared output shape disagrees with inference (a warning for a shape an ONNX model states)", "`declared`, `inferred`",
		"The output port declares another shape than the layer computes. For an ONNX model, the shape its value_info or graph output states for the tensor, a warning: ONNX Runtime merges such shapes leniently (and warns), and exporters state wrong ones."},
	{StructureGatherIndex, []Severity{Error}, "a shape sub-graph gathers out of range", "",
		"A Gather of constant indices reads outside its axis: OpenVINO gives zeros there, ONNX Runtime fails."},
	{StructureEvaluate, []Severity{Error}, "a shape sub-graph that cannot run", "",
		"A layer of constant inputs fails when computed (a reshape of the wrong size, an index out of range)."},
	{StructureUnreachable, []Severity{Note}, "layers that reach no Result", "`count`",
		"Layers from which no Result can be reached; OpenVINO drops them."},
	{StructureNeverRuns, []Severity{Error, Warning}, "a layer that runs on no input, so neither does the model (a warning where that holds at the declared input shapes only, of an IR)", "`needs` (what the layer needs of its inputs), `at_every_input` (why no input gives it), `declared_shapes_only`",
		"A layer of the model's graph that some Result depends on, so that every run runs it, fails at every input the model accepts, whatever its shapes: a Gather whose index is outside its axis (ONNX requires it within), a Squeeze of a dim that is never 1 (ONNX), a Reshape given a dim below -1, a pooling whose window never fits its input (OpenVINO), an integer Divide whose divisor is 0 at every input and whose output is never empty (ONNX). Said only where a constant or a proof over every input shows it, of layers outside If, Loop and TensorIterator bodies (which may not run), and in the semantics the model has: ONNX's for a model from ONNX (OpenVINO's Gather gives zeros outside its axis, and runs), OpenVINO's otherwise. The verdicts of the model's Divides stand, but are moot: no input reaches them, and their messages say so. Fix the layer: the model, as it is, computes nothing. Where the layer fails at every input of the model's declared input shapes but may run at others (`declared_shapes_only`: a Gather of index 3 of Shape(x) with x declared [2, 3] runs where x has four dims), the finding is an error for a model from ONNX, whose runtimes take its declared shapes only, and a warning for an IR, which a reshape may give others; the Divides then agree at the declared shapes (nothing is divided there) and are examined at other shapes (`divide/floor-trunc-reshape`, or a proof)."},
	{IRReaderWarning, []Severity{Note}, "what the reader tolerated", "",
		"An irregularity of the file that the reader tolerated, as OpenVINO's does."},
	{IRUnreadable, []Severity{Error}, "a model that cannot be read", "",
		"The model could not be read; the message says why."},
	{AnalysisSummarized, []Severity{Note}, "the model has more integer elements than irdiv follows one by one (2^17): from this layer on, a tensor's elements are one expression", "`tracked_elements`",
		"Past the budget of integer elements followed one by one, a tensor is followed as one expression over all its elements, which proves less and finds fewer counter-examples."},
	{AnalysisBudget, []Severity{Note}, "the counter-example searches spent their budget at this layer: the Divides after it were not searched", "`search_steps`, `search_layers`",
		"The searches of one model share a budget of work (steps of symbolic evaluation, layers evaluated concretely), so that validation of any model finishes in time linear in its size. Once it is spent, later Divides get no counter-example: what would have been an error stays a warning. Raise the budget with --search-steps and --search-layers."},
	{AnalysisInternalError, []Severity{Error}, "a proof that evaluating the model contradicts: an internal error of irdiv", "`proof`, `counter_example`, `inputs`",
		"Every proof of the outer graph is held against evaluations of the model at a few edge inputs; where one gives operands for which floor and truncation differ, the proof was wrong, and this error replaces it, with the inputs. Please report it with the model."},
}

// Targets are the OpenVINO devices a finding concerns: the reference
// implementation and constant folding, which honour m_pythondiv; the CPU
// plugin, which ignores it (truncates) and divides integers in float32;
// the GPU plugin, which ignores it too (#38248).
const (
	TargetReference = "reference"
	TargetCPU       = "cpu"
	TargetGPU       = "gpu"
)

// AllTargets are the targets --target takes.
var AllTargets = []string{TargetReference, TargetCPU, TargetGPU}

// Targets are the devices a finding of this code concerns; every device
// for the codes that are not about one (a zero divisor, the structure).
func (c Code) Targets() []string {
	switch c {
	case FloorTrunc, FloorTruncReshape, FloorTruncPossible, FloorTruncAgree:
		// A flooring Divide floors only where m_pythondiv is honoured.
		return []string{TargetReference}
	case CPUPythonDivIgnore:
		return []string{TargetCPU, TargetGPU}
	case CPUI32Float32, CPUI64Narrowed:
		return []string{TargetCPU}
	}
	return AllTargets
}

// Doc returns the documentation of a code, and whether it is one.
func (c Code) Doc() (CodeDoc, bool) {
	for _, d := range Codes {
		if d.Code == c {
			return d, true
		}
	}
	return CodeDoc{}, false
}
