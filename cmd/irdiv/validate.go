package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/validate"
)

const validateHelp = `MODEL.xml|MODEL.onnx|DIR... [--onnx MODEL.onnx] [--json] [--severity S]

Reports what is wrong, or provably right, in IR models: structure, the
values that reach every integer Divide (folded through shape sub-graphs),
floor versus truncation in models converted from ONNX (with a concrete
counter-example or a proof), zero divisors, MIN / -1, and what OpenVINO's
CPU plugin computes differently. --onnx compares the IR with the ONNX
model it came from, Div by Div, on the same operands. A folder is searched
for .xml files; among several models, one that cannot be read is reported
as an ir/unreadable error and the others are still checked. Exit status 1
when some finding is an error.`

// constLimit is the largest Const validate reads: shape sub-graphs use
// small constants, and the weights of a large model are not needed.
const constLimit = 1 << 20

func validateCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("validate", validateHelp, stdout)
	onnxPath := fs.String("onnx", "", "compare with `MODEL.onnx`, the ONNX model the IR was converted from")
	asJSON := fs.Bool("json", false, "print one JSON object (schema in README.md)")
	severity := fs.String("severity", "note", "show findings of this `SEVERITY` and worse: note, warning or error")
	seed := fs.Uint64("seed", 1, "seed of the random operands of --onnx")
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
	paths, err := modelPaths(pos)
	if err != nil {
		return err
	}
	opts := validate.Options{Seed: *seed}
	if *onnxPath != "" {
		if len(paths) != 1 {
			return usageErr("--onnx compares one IR with its ONNX model; %d models given", len(paths))
		}
		if opts.ONNX, err = onnx.ReadFile(*onnxPath, onnx.ReadOptions{}); err != nil {
			return err
		}
	}
	reports := make([]*validate.Report, len(paths))
	errs := make([]error, len(paths))
	var wg sync.WaitGroup
	work := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(paths)) {
		wg.Go(func() {
			for i := range work {
				reports[i], errs[i] = validateOne(paths[i], opts)
			}
		})
	}
	for i := range paths {
		work <- i
	}
	close(work)
	wg.Wait()
	// One unreadable model among several is an error finding about it, so
	// that the others are still reported.
	for i, err := range errs {
		if err != nil && len(paths) == 1 {
			return err
		}
		if err != nil {
			reports[i] = &validate.Report{Model: paths[i], Findings: []validate.Finding{{Severity: validate.Error, Code: "ir/unreadable", Message: err.Error()}}}
		}
	}
	var total validate.Summary
	for _, r := range reports {
		total.Add(r.Summary())
	}
	if *asJSON {
		if err := printJSON(stdout, reports, minimum); err != nil {
			return err
		}
	} else {
		printReports(stdout, reports, total, minimum)
	}
	if total.Errors > 0 {
		return fmt.Errorf("%s in %s", plural(total.Errors, "error"), plural(len(reports), "model"))
	}
	return nil
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
			return nil, fmt.Errorf("%s holds no .xml model", arg)
		}
	}
	return paths, nil
}

func validateOne(path string, opts validate.Options) (*validate.Report, error) {
	m, err := readModel(path, ir.ReadOptions{MaxConstBytes: constLimit}, 0)
	if err != nil {
		return nil, err
	}
	return validate.Model(m, path, opts), nil
}

// filtered returns the findings at the given severity or worse.
func filtered(r *validate.Report, minimum validate.Severity) *validate.Report {
	out := &validate.Report{Model: r.Model}
	for _, f := range r.Findings {
		if f.Severity >= minimum {
			out.Findings = append(out.Findings, f)
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
	return enc.Encode(struct {
		Models  []*validate.Report `json:"models"`
		Summary validate.Summary   `json:"summary"`
	}{shown, total})
}

func printReports(w io.Writer, reports []*validate.Report, total validate.Summary, minimum validate.Severity) {
	fmt.Fprintf(w, "%s: %s, %s, %s\n", plural(len(reports), "model"), plural(total.Errors, "error"), plural(total.Warnings, "warning"), plural(total.Notes, "note"))
	for _, r := range reports {
		s := r.Summary()
		fmt.Fprintf(w, "\n%s: %s, %s, %s\n", r.Model, plural(s.Errors, "error"), plural(s.Warnings, "warning"), plural(s.Notes, "note"))
		for _, f := range r.Findings {
			if f.Severity < minimum {
				continue
			}
			where := ""
			if f.Layer != nil {
				where = f.Layer.String() + ": "
			}
			fmt.Fprintf(w, "  %-7s %s: %s%s\n", f.Severity, f.Code, where, f.Message)
			if e, ok := f.Evidence["expression"]; ok {
				fmt.Fprintf(w, "          %s\n", e)
			}
		}
	}
}
