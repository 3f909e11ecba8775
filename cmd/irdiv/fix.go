package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/internal/safefile"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/plugin"
	"github.com/irdiv/irdiv/validate"
)

const fixHelp = `MODEL.onnx -o FIXED.onnx | MODEL.xml -o FIXED.xml [--keep-proven=false]

Writes a model that gives ONNX's answer however its Divs are read: every
integer Div that validate does not prove safe becomes

    r = Mod(a, b, fmod=1)    the remainder of truncation
    z = Div(a - r, b)        an exact division

which ONNX's truncation and OpenVINO's floor (m_pythondiv) compute alike,
for every input (a - r never overflows), wherever the Div is: in the main
graph or inside an If, Loop or Scan body. A model of opset 9, which has
no Mod, gets the division of a and b made non-positive (a positive value
negated, MIN kept), whose quotient is never negative, with the sign put
back after it (Where, Neg). The Div keeps its name and
output; nothing else in the model changes. Before writing, fix checks that
validate proves every rewritten Div, and that the fixed and the original
model give identical outputs, in ONNX Runtime where it is installed
(IRDIV_ORT_DIR) and in irdiv's own evaluation otherwise, on the test data
sets beside the model and on every counter-example validate found; it
says which ran. --keep-proven=false rewrites every integer Div.

An IR is fixed by what its source meant (its rt_info framework): a
Divide from ONNX gets m_pythondiv="false"; a flooring Divide from
PyTorch truncates and a correction (Multiply, Subtract, comparisons) floors
it, so that OpenVINO's CPU plugin, which ignores m_pythondiv, floors too.
Where that plugin's float32 division can get an i32 Divide wrong
(operands beyond 2^24) and the divisor is at most 2^22 in magnitude, the
Divide gets instead an exact form, a Newton step of integer ops that the
plugin computes exactly, rounding as the source meant; where the divisor
may be larger, a note says why no form helps. An i32 FloorMod or Mod,
which the plugin computes in float32 too, becomes A - q*B with that
form's quotient (|B| <= 2^22), and a Select of i32 values beyond 2^24,
which the plugin passes through float32, y + Convert(c)*(x - y); an i32
comparison whose operands may pass 2^24 and be closer than their
float32 rounding, which the plugin compares in float32, compares
Subtract(A, B) with 0 where A - B is an i32. These ops are fixed
wherever they are: in the main graph or inside an If, Loop
or TensorIterator body, at any depth, whose new layers join that body
(its Parameters, Results and port maps unchanged); the summary names one
in a body by the main graph's layer and the path to it (layer "loop"
(id 5) body > layer "div" (id 2)). The fixed IR is validated before it is
written.`

func fixCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("fix", fixHelp, stdout)
	out := fs.String("o", "", "write the fixed model to `FIXED.onnx`")
	keepProven := fs.Bool("keep-proven", true, "leave the Divs validate proves safe as they are")
	maxTensor := byteSize(defaultMaxTensor)
	fs.Var(&maxTensor, "max-tensor", "largest `SIZE` of a tensor read from the model, its external data or its test data")
	var maxMemory memorySize
	maxMemory.register(fs, false, true)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErr("want one MODEL.onnx or MODEL.xml")
	}
	if *out == "" {
		return usageErr("-o FIXED: say where to write the fixed model")
	}
	path := pos[0]
	defer watchMemory("fix", maxMemory.whole(int64(maxTensor)))()
	defer processing(path)()
	if !isONNX(path) {
		return fixIR(path, *out, *keepProven, stdout)
	}
	if !isONNX(*out) {
		return usageErr("-o %s: want an .onnx file", *out)
	}
	if err := (inputFiles{path}).checkOutput("-o "+*out, *out); err != nil {
		return err
	}
	readOpts := onnx.ReadOptions{MaxTensorBytes: int64(maxTensor)}
	om, err := onnx.ReadFile(path, readOpts)
	if err != nil {
		return err
	}
	if len(om.DataFiles) > 0 && !sameDir(path, *out) {
		return fmt.Errorf("%s keeps tensors in external files (%s), which the fixed model names by the same relative paths: write it into the same folder", path, strings.Join(om.DataFiles, ", "))
	}
	data, err := safefile.ReadFile(path, 2<<30-1)
	if err != nil {
		return err
	}
	imported, err := onnx.Import(om, onnx.ImportOptions{})
	if err != nil {
		return err
	}
	report := validate.Model(imported, path, validate.Options{Imported: true})
	var rewrite []string
	types := make(map[string]ir.ElementType)
	kept := make(map[string]bool)
	for _, l := range imported.AllLayers() {
		if !strings.EqualFold(l.Type, "Divide") || len(l.Outputs) == 0 || !l.Outputs[0].Type.IsInteger() || len(l.Outputs[0].Names) == 0 {
			continue
		}
		name := l.Outputs[0].Names[0]
		types[name] = l.Outputs[0].Type
		if *keepProven && proven(report, l) {
			kept[name] = true
			continue
		}
		rewrite = append(rewrite, name)
	}
	if len(rewrite) == 0 {
		fmt.Fprintf(stdout, "%s: nothing to fix: validate proves all %s safe; no file written\n", path, plural(len(kept), "integer Div"))
		return nil
	}
	var (
		fixed       []byte
		done        []onnx.Rewrite
		fm          *onnx.Model
		fixedImport *ir.Model
		after       *validate.Report
	)
	for {
		if fixed, done, err = onnx.TruncatingDivs(data, rewrite, types); err != nil {
			return err
		}
		// The fixed model must be proven before anything is written.
		if fm, err = onnx.Read(fixed, readOpts); err != nil {
			return fmt.Errorf("the fixed model does not read back: %w", err)
		}
		if fixedImport, err = onnx.Import(fm, onnx.ImportOptions{}); err != nil {
			return fmt.Errorf("the fixed model does not import: %w", err)
		}
		after = validate.Model(fixedImport, *out, validate.Options{Imported: true})
		for _, d := range done {
			l := layerOfOutput(fixedImport, d.Divide)
			if l == nil || !proven(after, l) {
				return fmt.Errorf("the rewritten Div of %q is not proven safe in the fixed model: nothing written (please report this)", d.Output)
			}
		}
		// A Div kept may lose its proof once a Div it reads is rewritten:
		// PyTorch's opset-9 floor fix-up of a Div, which the analysis
		// knows by its pattern, reads the form that replaced the Div. It
		// is rewritten too, until every Div is proven.
		var lost []string
		for name := range kept {
			if l := layerOfOutput(fixedImport, name); l != nil && !proven(after, l) {
				lost = append(lost, name)
			}
		}
		if len(lost) == 0 {
			break
		}
		slices.Sort(lost)
		for _, name := range lost {
			delete(kept, name)
		}
		rewrite = append(rewrite, lost...)
	}
	tmp, err := os.CreateTemp(filepath.Dir(*out), ".irdiv-fix-*.onnx")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	defer atExit(func() { os.Remove(tmp.Name()) })()
	if _, err := tmp.Write(fixed); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	sets, err := replaySets(path, report, om, int64(maxTensor))
	if err != nil {
		return err
	}
	checked, how, err := compareFixed(path, tmp.Name(), om, fm, sets)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), *out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s -> %s: rewrote %s (kept %s that validate proves safe)\n", path, *out, plural(len(done), "integer Div"), plural(len(kept), "other"))
	for _, d := range done {
		fmt.Fprintf(stdout, "  Div of %s: %s: now proven: %s\n", quote(d.Output), d.Form, proofOf(after, layerOfOutput(fixedImport, d.Divide)))
	}
	fmt.Fprintf(stdout, "checked: validate proves every rewritten Div; %s\n", checkedText(checked, how))
	return nil
}

// proven reports whether validate proved that floor and truncation agree
// at the Divide for every input. A zero divisor or MIN / -1 fails under
// both readings alike: fix has nothing to say about those.
func proven(r *validate.Report, l *ir.Layer) bool {
	agree := false
	for _, f := range r.Findings {
		if about := cmp.Or(f.Inner, f.Layer); about != l {
			continue
		}
		switch f.Code {
		case validate.FloorTruncAgree:
			agree = true
		case validate.FloorTrunc, validate.FloorTruncReshape, validate.FloorTruncPossible, validate.NotAnalysed:
			return false
		}
	}
	return agree
}

// proofOf is why validate proves a Divide: the reason of its proof, its
// first clause.
func proofOf(r *validate.Report, l *ir.Layer) string {
	for _, f := range r.Findings {
		if cmp.Or(f.Inner, f.Layer) == l && f.Code == validate.FloorTruncAgree {
			if why, ok := f.Evidence.Get("reason").(string); ok {
				why, _, _ = strings.Cut(why, ":")
				why, _, _ = strings.Cut(why, " whatever")
				return why
			}
		}
	}
	return "floor and truncation agree"
}

// layerOfOutput finds the layer whose first output carries the ONNX
// tensor name.
func layerOfOutput(m *ir.Model, name string) *ir.Layer {
	for _, l := range m.AllLayers() {
		if len(l.Outputs) > 0 && slices.Contains(l.Outputs[0].Names, name) {
			return l
		}
	}
	return nil
}

func sameDir(a, b string) bool {
	da, err1 := filepath.Abs(filepath.Dir(a))
	db, err2 := filepath.Abs(filepath.Dir(b))
	return err1 == nil && err2 == nil && da == db
}

// replaySet is one set of model inputs the fix is checked on.
type replaySet struct {
	what   string
	inputs map[string]*ir.Tensor
}

// replaySets are the test data sets beside the model
// (test_data_set_N/input_M.pb) and every counter-example of the report.
func replaySets(path string, r *validate.Report, om *onnx.Model, maxTensor int64) ([]replaySet, error) {
	var sets []replaySet
	dirs, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "test_data_set_*"))
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "input_*.pb"))
		if len(files) == 0 {
			continue
		}
		set := replaySet{what: dir, inputs: map[string]*ir.Tensor{}}
		for _, f := range files {
			t, name, err := onnx.ReadTensorFile(f, pbOptions(maxTensor))
			if err != nil {
				return nil, err
			}
			if name == "" {
				var n int
				if _, err := fmt.Sscanf(filepath.Base(f), "input_%d.pb", &n); err == nil && n < len(om.Graph.Inputs) {
					name = om.Graph.Inputs[n].Name
				}
			}
			set.inputs[name] = t
		}
		sets = append(sets, set)
	}
	for _, f := range r.Findings {
		// Zero divisors and MIN / -1 fail under both readings alike:
		// their counter-examples are not what fix changes.
		if f.CounterExample != nil && (f.Code == validate.FloorTrunc || f.Code == validate.FloorTruncReshape) {
			sets = append(sets, replaySet{what: "the counter-example of " + f.Layer.String(), inputs: f.CounterExample.Inputs})
		}
	}
	return sets, nil
}

// compareFixed runs the original and the fixed model on every set and
// requires identical outputs: in ONNX Runtime where it is found, else in
// irdiv's evaluation of both, as ONNX computes them. It returns how many
// sets it compared and on what.
func compareFixed(orig, fixedPath string, om, fm *onnx.Model, sets []replaySet) (int, string, error) {
	if len(sets) == 0 {
		return 0, "", nil
	}
	if r, err := ortreplay.Find(); err == nil {
		for _, s := range sets {
			a, errA := r.Run(orig, s.inputs)
			b, errB := r.Run(fixedPath, s.inputs)
			if errA != nil {
				return 0, "", fmt.Errorf("ONNX Runtime cannot run %s on %s: %v", orig, s.what, errA)
			}
			if errB != nil {
				return 0, "", fmt.Errorf("ONNX Runtime cannot run the fixed model on %s, though it runs the original: %v; nothing written", s.what, errB)
			}
			if d := differentOutputs(a, b); d != "" {
				return 0, "", fmt.Errorf("on %s, the fixed model gives other outputs than the original in ONNX Runtime: %s; nothing written", s.what, d)
			}
		}
		return len(sets), r.String(), nil
	}
	before, err := onnx.Convert(om)
	if err != nil {
		return 0, "", err
	}
	after, err := onnx.Convert(fm)
	if err != nil {
		return 0, "", err
	}
	for _, s := range sets {
		a, err := evaluate(before, s.inputs)
		if errors.Is(err, errNotExecutable) {
			return 0, "irdiv's evaluation, which cannot execute the model: " + err.Error(), nil
		}
		if err != nil {
			return 0, "", fmt.Errorf("%s on %s: %w", orig, s.what, err)
		}
		b, err := evaluate(after, s.inputs)
		if err != nil {
			return 0, "", fmt.Errorf("the fixed model on %s: %w; nothing written", s.what, err)
		}
		if d := differentOutputs(a, b); d != "" {
			return 0, "", fmt.Errorf("on %s, the fixed model gives other outputs than the original: %s; nothing written", s.what, d)
		}
	}
	return len(sets), "irdiv's own evaluation (ONNX Runtime not found: set IRDIV_ORT_DIR to a folder where npm install onnxruntime-node ran)", nil
}

func checkedText(n int, how string) string {
	switch {
	case n == 0 && how == "":
		return "no test data set or counter-example to replay the outputs on"
	case n == 0:
		return "outputs not compared: " + how
	}
	return fmt.Sprintf("the fixed and the original model give identical outputs on %s (%s)", plural(n, "input set"), how)
}

var errNotExecutable = errors.New("not executable")

// evaluate runs a model on inputs by name with irdiv's plugin.
func evaluate(m *ir.Model, inputs map[string]*ir.Tensor) (map[string]*ir.Tensor, error) {
	cm, err := plugin.NewCore().CompileModel(m, plugin.Config{})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNotExecutable, err)
	}
	return cm.Run(inputs)
}

// differentOutputs names the first output that differs, or "".
func differentOutputs(a, b map[string]*ir.Tensor) string {
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range a {
			if !yield(k) {
				return
			}
		}
	}) {
		x, y := a[name], b[name]
		switch {
		case y == nil:
			return fmt.Sprintf("output %q is missing", name)
		case x.Type != y.Type || !slices.Equal(x.Shape, y.Shape):
			return fmt.Sprintf("output %q is %s%s, was %s%s", name, y.Type, shapeString(y.Shape), x.Type, shapeString(x.Shape))
		case !bytes.Equal(x.Data, y.Data):
			c := compare(y, x, tolerance{}, 1)
			if c.count > 0 {
				m := c.first[0]
				return fmt.Sprintf("output %q differs in %d values (first at flat index %d: %s, was %s)", name, c.count, m.index, m.got, m.want)
			}
		}
	}
	return ""
}
