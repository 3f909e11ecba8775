package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/validate"
)

const validateHelp = `MODEL.onnx|MODEL.xml|DIR... [--counter-examples DIR] [--onnx MODEL.onnx] [--format F] [--severity S] [--fail-on S] [--baseline FILE]

Reports what is wrong, or provably right, in models: for every integer
Divide the values that can reach it (expressions over the model's input
dims and values, through the shape and element-wise ops around it),
floor versus truncation in models from ONNX (with a counter-example at
the model's inputs, confirmed by evaluating the model, or a proof that
holds for every input shape), zero divisors and MIN / -1 (inside If,
Loop and TensorIterator bodies too), structure, what OpenVINO's CPU
plugin computes differently, and an ONNX Resize with antialias=1, which
OpenVINO's import computes without antialiasing, or by scales whose
output length OpenVINO computes otherwise than ONNX.

An ONNX model is imported as OpenVINO's ONNX frontend imports it (every
Div a flooring Divide), so the report says what OpenVINO does to it. An
IR from PyTorch floors on purpose; its Divides get a warning where
OpenVINO's CPU plugin, which truncates, differs. --onnx compares an IR
with the ONNX model it came from, Div by Div, on the values that reach
each Div in the ONNX model (its test_data_set_0, when it sits beside it,
then random inputs). --counter-examples writes each counter-example as a
folder of NAME.npy, one per model input, that any runtime can replay:
DIR/MODEL/N-LAYER, MODEL new or empty, names made safe as file names
(characters outside [A-Za-z0-9_.-] become "_", long names end in a hash,
names that then collide get "~2"...), one folder for the findings of one
model that share their inputs, at most --max-files files and folders.

A folder is searched for .onnx and .xml files; among several models, one
that cannot be read is reported as an ir/unreadable error and the others
are still checked.

For CI: --format sarif writes SARIF 2.1.0 (code scanning: one rule per
finding code, results located at the model file and the layer, the
counter-example's files as related locations), --format junit JUnit XML
(a suite per model, a test case per integer Divide). Exit status 1 when
some finding is at the --fail-on severity or worse (error by default;
never for none) and not accepted by the --baseline, a file that
--write-baseline writes from the findings of a run; baselined findings
are reported as such, and entries that no longer match are listed.`

// constLimit is the largest Const validate reads: shape sub-graphs use
// small constants, and the weights of a large model are not needed.
const constLimit = 1 << 20

func validateCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("validate", validateHelp, stdout)
	onnxPath := fs.String("onnx", "", "compare with `MODEL.onnx`, the ONNX model the IR was converted from")
	asJSON := fs.Bool("json", false, "as --format json")
	format := fs.String("format", "text", "print the reports as `F`: text, json (one object, schema in README.md), sarif (SARIF 2.1.0) or junit (JUnit XML)")
	failOnFlag := fs.String("fail-on", "error", "exit 1 when a finding not in the baseline is of `SEVERITY` or worse: error, warning, note, or never")
	baselinePath := fs.String("baseline", "", "accept the findings listed in `FILE` (written by --write-baseline): they are reported as baselined and do not fail the run")
	writeBaselinePath := fs.String("write-baseline", "", "write every finding of this run to `FILE`, as a baseline for --baseline")
	target := fs.String("target", "", "report only the findings that concern `DEVICE`: reference (OpenVINO's reference and constant folding, which honour m_pythondiv), cpu or gpu (whose plugins truncate whatever it says); default: every device, each finding naming those it concerns")
	var limits readLimits
	limits.register(fs)
	var maxMemory memorySize
	maxMemory.register(fs, false, false)
	quiet := fs.Bool("quiet", false, "show no progress on a terminal (progress is shown only on a terminal, for runs past a second)")
	severity := fs.String("severity", "note", "show findings of this `SEVERITY` and worse: note, warning or error")
	seed := fs.Uint64("seed", 1, "seed of the random operands of --onnx")
	cexDir := fs.String("counter-examples", "", "write each counter-example to a new folder under `DIR`: one NAME.npy per model input")
	searchSteps := fs.Int("search-steps", validate.DefaultSearchSteps, "bound the counter-example searches of each model to `N` steps of work (a note says where they ran out)")
	searchLayers := fs.Int("search-layers", validate.DefaultSearchLayers, "bound the layers each model's searches evaluate to confirm counter-examples to `N`")
	maxFiles := fs.Int("max-files", defaultMaxFiles, "write at most `N` files and folders under --counter-examples DIR; counter-examples past it are named in the report, not written")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageErr("want at least one MODEL.xml, MODEL.onnx or folder")
	}
	minimum, err := validate.ParseSeverity(*severity)
	if err != nil {
		return usageErr("--severity %s: must be one of note, warning, error", *severity)
	}
	if *maxFiles < 0 {
		return usageErr("--max-files %d: must be 0 or more", *maxFiles)
	}
	if *searchSteps < 1 || *searchLayers < 1 {
		return usageErr("--search-steps %d and --search-layers %d must be at least 1", *searchSteps, *searchLayers)
	}
	if *asJSON {
		if *format != "text" && *format != "json" {
			return usageErr("--json and --format %s say different things", *format)
		}
		*format = "json"
	}
	switch *format {
	case "text", "json", "sarif", "junit":
	default:
		return usageErr("--format %s: must be one of text, json, sarif, junit", *format)
	}
	if *target != "" && !slices.Contains(validate.AllTargets, *target) {
		return usageErr("--target %s: must be one of %s", *target, strings.Join(validate.AllTargets, ", "))
	}
	if err := limits.check(); err != nil {
		return err
	}
	failOn, err := parseFailOn(*failOnFlag)
	if err != nil {
		return err
	}
	var accepted map[baselineEntry]bool
	if *baselinePath != "" {
		if accepted, err = readBaseline(*baselinePath); err != nil {
			return err
		}
	}
	paths, err := modelPaths(pos)
	if err != nil {
		return err
	}
	defer watchMemory("validate", maxMemory.whole(defaultMaxTensor))()
	opts := validate.Options{Seed: *seed, SearchSteps: *searchSteps, SearchLayers: *searchLayers}
	if *onnxPath != "" {
		if len(paths) != 1 {
			return usageErr("--onnx compares one IR with its ONNX model; %d models given", len(paths))
		}
		done := processing(*onnxPath)
		opts.ONNX, err = onnx.ReadFile(*onnxPath, onnx.ReadOptions{})
		done()
		if err != nil {
			return err
		}
		if opts.ONNXTestData, err = onnxTestData(opts.ONNX, *onnxPath); err != nil {
			return err
		}
	}
	reports := make([]*validate.Report, len(paths))
	errs := make([]error, len(paths))
	var wg sync.WaitGroup
	work := make(chan int)
	bar := newProgress(stderr, len(paths), *quiet)
	for range min(runtime.GOMAXPROCS(0), len(paths)) {
		wg.Go(func() {
			for i := range work {
				bar.start(paths[i])
				done := processing(paths[i])
				reports[i], errs[i] = validateOne(paths[i], opts, limits)
				done()
				bar.finish()
			}
		})
	}
	for i := range paths {
		work <- i
	}
	close(work)
	wg.Wait()
	bar.end()
	// One unreadable model among several is an error finding about it, so
	// that the others are still reported.
	for i, err := range errs {
		if err != nil && len(paths) == 1 {
			return err
		}
		if err != nil {
			reports[i] = &validate.Report{Model: paths[i], Findings: []validate.Finding{{Severity: validate.Error, Code: validate.IRUnreadable, Message: err.Error()}}}
		}
	}
	// A finding about another device is not this run's concern.
	if *target != "" {
		for _, r := range reports {
			r.Findings = slices.DeleteFunc(r.Findings, func(f validate.Finding) bool { return !slices.Contains(f.Code.Targets(), *target) })
		}
	}
	var total validate.Summary
	for _, r := range reports {
		total.Add(r.Summary())
	}
	if *cexDir != "" {
		if err := writeCounterExamples(*cexDir, reports, paths, *maxFiles); err != nil {
			return err
		}
	}
	var baselined map[*validate.Finding]bool
	if accepted != nil {
		var stale []baselineEntry
		baselined, stale = matchBaseline(reports, accepted)
		for _, r := range reports {
			for j := range r.Findings {
				r.Findings[j].Baselined = baselined[&r.Findings[j]]
			}
		}
		if len(stale) > 0 {
			fmt.Fprintf(stderr, "baseline %s: %s no longer found:\n", *baselinePath, plural(len(stale), "entry"))
			for _, e := range stale {
				fmt.Fprintf(stderr, "  %q %s %q\n", e.Model, e.Code, e.Layer)
			}
		}
	}
	if *writeBaselinePath != "" {
		if err := writeBaseline(*writeBaselinePath, reports); err != nil {
			return err
		}
	}
	switch *format {
	case "json":
		err = printJSON(stdout, reports, minimum)
	case "sarif":
		err = writeSARIF(stdout, reports, baselined)
	case "junit":
		err = writeJUnit(stdout, reports, failOn, baselined)
	default:
		printReports(stdout, reports, total, minimum)
	}
	if err != nil {
		return err
	}
	failing := 0
	for _, r := range reports {
		for j := range r.Findings {
			if failOn.fails(&r.Findings[j], baselined) {
				failing++
			}
		}
	}
	switch {
	case failing == 0:
		return nil
	case failOn.minimum == validate.Error:
		return fmt.Errorf("%s in %s", plural(failing, "error"), plural(len(reports), "model"))
	}
	return fmt.Errorf("%s of %s or worse in %s (--fail-on %s)", plural(failing, "finding"), failOn.minimum, plural(len(reports), "model"), failOn.minimum)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// modelPaths expands folders into the models they hold.
func modelPaths(args []string) ([]string, error) {
	var paths []string
	for _, arg := range args {
		st, err := os.Stat(arg)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			paths = append(paths, arg)
			continue
		}
		before := len(paths)
		if paths, err = walkModels(arg, paths); err != nil {
			return nil, err
		}
		if len(paths) == before {
			return nil, fmt.Errorf("%s holds no .onnx or .xml model", arg)
		}
	}
	return paths, nil
}

func validateOne(path string, opts validate.Options, limits readLimits) (*validate.Report, error) {
	if isONNX(path) {
		om, err := onnx.ReadFile(path, onnx.ReadOptions{})
		if err != nil {
			return nil, err
		}
		m, err := onnx.Import(om, onnx.ImportOptions{})
		if err != nil {
			return nil, err
		}
		opts.Imported, opts.Producer = true, om.Producer
		return validate.Model(m, path, opts), nil
	}
	m, err := readModel(path, limits.apply(ir.ReadOptions{MaxConstBytes: constLimit}), 0)
	if err != nil {
		return nil, err
	}
	return validate.Model(m, path, opts), nil
}

// onnxTestData reads the inputs of the first test data set beside an ONNX
// model (test_data_set_0/input_N.pb, as ONNX's own tests and ONNX Runtime
// lay them out), by graph input name: the name a .pb holds, else its
// position. No folder is no test data; a folder that is there must be
// read whole.
func onnxTestData(m *onnx.Model, path string) (map[string]*ir.Tensor, error) {
	dir := filepath.Join(filepath.Dir(path), "test_data_set_0")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, nil
	}
	out := make(map[string]*ir.Tensor)
	for i, in := range m.Graph.Inputs {
		file := filepath.Join(dir, fmt.Sprintf("input_%d.pb", i))
		t, name, err := onnx.ReadTensorFile(file, onnx.ReadOptions{})
		if err != nil {
			return nil, fmt.Errorf("the test data of --onnx: %w", err)
		}
		if name == "" {
			name = in.Name
		}
		out[name] = t
	}
	return out, nil
}

// filtered returns the findings at the given severity or worse.
func filtered(r *validate.Report, minimum validate.Severity) *validate.Report {
	out := &validate.Report{Model: r.Model, Coverage: r.Coverage, Hidden: r.Hidden}
	for _, f := range r.Findings {
		switch {
		case f.Severity >= minimum:
			out.Findings = append(out.Findings, f)
		case f.Severity == validate.Warning:
			out.Hidden.Warnings++
		default:
			out.Hidden.Notes++
		}
	}
	return out
}

func printJSON(w io.Writer, reports []*validate.Report, minimum validate.Severity) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // "<data>" reads better than "\u003cdata\u003e"
	enc.SetIndent("", "  ")
	if len(reports) == 1 {
		return enc.Encode(filtered(reports[0], minimum))
	}
	// Every summary in the JSON counts the findings it lists.
	var shown []*validate.Report
	var total validate.Summary
	for _, r := range reports {
		shown = append(shown, filtered(r, minimum))
		total.Add(shown[len(shown)-1].Summary())
	}
	var coverage validate.Coverage
	for _, r := range reports {
		coverage.Add(r.Coverage)
	}
	return enc.Encode(struct {
		Models   []*validate.Report `json:"models"`
		Summary  validate.Summary   `json:"summary"`
		Coverage validate.Coverage  `json:"coverage"`
	}{shown, total, coverage})
}

func printReports(w io.Writer, reports []*validate.Report, total validate.Summary, minimum validate.Severity) {
	textln(w, "%s: %s, %s, %s", plural(len(reports), "model"), plural(total.Errors, "error"), plural(total.Warnings, "warning"), plural(total.Notes, "note"))
	if len(reports) > 1 {
		var coverage validate.Coverage
		for _, r := range reports {
			coverage.Add(r.Coverage)
		}
		textln(w, "%s", coverage)
	}
	for _, r := range reports {
		s := r.Summary()
		hidden := ""
		if h := filtered(r, minimum).Hidden; h != (validate.Summary{}) {
			var parts []string
			if h.Warnings > 0 {
				parts = append(parts, plural(h.Warnings, "warning"))
			}
			if h.Notes > 0 {
				parts = append(parts, plural(h.Notes, "note"))
			}
			hidden = fmt.Sprintf(" (%s not shown: --severity %s)", strings.Join(parts, " and "), minimum)
		}
		fmt.Fprintln(w)
		textln(w, "%s: %s, %s, %s%s", r.Model, plural(s.Errors, "error"), plural(s.Warnings, "warning"), plural(s.Notes, "note"), hidden)
		for _, f := range r.Findings {
			if f.Severity < minimum {
				continue
			}
			where := ""
			if f.Layer != nil {
				where = f.Layer.String() + ": "
			}
			targets := ""
			if t := f.Code.Targets(); len(t) < len(validate.AllTargets) {
				targets = " [" + strings.Join(t, ", ") + "]"
			}
			textln(w, "  %-7s %s%s: %s%s", f.Severity, f.Code, targets, where, f.Message)
			if e := f.Evidence.Get("expression"); e != nil {
				textln(w, "          %s", e)
			}
			if c := f.CounterExample; c != nil {
				written := ""
				if d := f.Evidence.Get("counter_example_dir"); d != nil {
					written = fmt.Sprintf(" (written to %s)", d)
				} else if d := f.Evidence.Get("counter_example_not_written"); d != nil {
					written = fmt.Sprintf(" (not written: %s)", d)
				}
				textln(w, "          counter-example inputs: %s%s", counterInputs(c), written)
				switch f.Evidence.Get("confirmed") {
				case "outputs":
					outputs, _ := f.Evidence.Get("outputs_differ").([]string)
					var names []string
					for _, o := range outputs {
						names = append(names, quote(o))
					}
					verb := "differ"
					if len(names) == 1 {
						verb = "differs"
					}
					textln(w, "          confirmed at the model's outputs: %s %s", strings.Join(names, ", "), verb)
				case "divide":
					textln(w, "          confirmed at this Divide only: the model's outputs do not show the difference")
				case "fails":
					textln(w, "          the model fails on these inputs: %v", f.Evidence.Get("fails"))
				}
			}
		}
		fmt.Fprintf(w, "  %s\n", r.Coverage)
	}
}

// maxShownInputs bounds the inputs a counter-example's line lists: a
// model may have thousands.
const maxShownInputs = 8

// counterInputs lists a counter-example's inputs: x=i32[4] [-3,1,1,1].
// The inputs that hold more than the default 1s come first, as they are
// what the counter-example chose; past maxShownInputs the rest are
// counted.
func counterInputs(c *validate.CounterExample) string {
	var chosen, rest []string
	for _, name := range slices.Sorted(maps.Keys(c.Inputs)) {
		t := c.Inputs[name]
		dims := make([]string, len(t.Shape))
		for i, d := range t.Shape {
			dims[i] = strconv.FormatInt(d, 10)
		}
		values := shortValues(t)
		part := fmt.Sprintf("%s=%s[%s] %s", name, t.Type, strings.Join(dims, ","), values)
		if values == "all 1" {
			rest = append(rest, part)
		} else {
			chosen = append(chosen, part)
		}
	}
	parts := append(chosen, rest...)
	if len(parts) > maxShownInputs {
		parts = append(parts[:maxShownInputs], fmt.Sprintf("and %d more", len(parts)-maxShownInputs))
	}
	return strings.Join(parts, ", ")
}

// shortValues shows a few elements of a tensor, or its one value.
func shortValues(t *ir.Tensor) string {
	n := t.Len()
	if n == 0 {
		return "(empty)"
	}
	same := true
	for i := 1; i < n && same; i++ {
		same = t.Format(i) == t.Format(0)
	}
	if same {
		return "all " + t.Format(0)
	}
	var parts []string
	for i := range min(n, 6) {
		parts = append(parts, t.Format(i))
	}
	if n > 6 {
		parts = append(parts, "...")
	}
	return "[" + strings.Join(parts, ",") + "]"
}
