package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/internal/safename"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ir/npy"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/plugin"
	"github.com/irdiv/irdiv/shapeinfer"
)

// runOptions are run's flags.
type runOptions struct {
	modelFlags
	outDir, layer, inputsDir string
	expected                 multiFlag
	tol                      tolerance
}

const runHelp = `MODEL.xml|MODEL.onnx [flags]

Runs a model whose ops irdiv all evaluates (docs/ops.md lists them, with
their versions and ONNX's node tests of each): an IR as OpenVINO computes
it, or an .onnx with ONNX's semantics (its Divs truncate, as convert writes
them); or with --layer one Divide of any model. Of a model holding ops it
cannot execute, run names them all, computes the outputs that need none
of them, says which it could not, and exits 1. Inputs are
.npy or ONNX .pb files; inputs not given are generated from a fixed seed,
and generated integers are never zero. --expected compares the outputs as
ONNX's backend test runner does: integers and bools exactly, floats within
|got - expected| <= atol + rtol*|expected| (numpy's assert_allclose, NaN
equal to NaN; --rtol 0 --atol 0 for exact floats), and exits 1 on a
difference, printing the first elements that differ and the worst.`

func runCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run", runHelp, stdout)
	var o runOptions
	o.modelFlags.register(fs)
	fs.StringVar(&o.outDir, "o", "", "write one .npy per output into `DIR`")
	fs.StringVar(&o.layer, "layer", "", "evaluate only the Divide layer with this `NAME` (or id:N)")
	fs.StringVar(&o.inputsDir, "inputs", "", "read the inputs from an ONNX test data set, `DIR`/input_N.pb, matched to the inputs by tensor name (by N when a file has none)")
	fs.Var(&o.expected, "expected", "compare the outputs with an ONNX test data set `DIR` (output_N.pb, matched by tensor name) or with files (.npy, .pb), one per output in output order")
	fs.Float64Var(&o.tol.rtol, "rtol", onnxTolerance.rtol, "relative tolerance of --expected for floats (ONNX's backend runner's default)")
	fs.Float64Var(&o.tol.atol, "atol", onnxTolerance.atol, "absolute tolerance of --expected for floats (ONNX's backend runner's default)")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErr("want one MODEL.xml, got %d arguments", len(pos))
	}
	if !(o.tol.rtol >= 0) || !(o.tol.atol >= 0) || math.IsInf(o.tol.rtol, 0) || math.IsInf(o.tol.atol, 0) {
		return usageErr("--rtol and --atol must be finite and not negative, got %g and %g", o.tol.rtol, o.tol.atol)
	}
	given, err := parseInputFlags(o.inputs)
	if err != nil {
		return err
	}
	if o.layer != "" && len(o.expected) > 0 {
		return usageErr("--expected compares a model's outputs; it does not go with --layer")
	}
	if o.layer != "" && o.inputsDir != "" {
		return usageErr("--inputs gives a model's inputs; with --layer, give the layer's inputs as -i PORT=FILE")
	}
	cfg, err := o.config()
	if err != nil {
		return err
	}
	if err := o.readLimits.check(); err != nil {
		return err
	}
	defer watchMemory("run", o.maxMemory.whole(int64(o.maxTensor)))()
	defer processing(pos[0])()
	m, inputs, err := readModelFiles(pos[0], o.readLimits.apply(ir.ReadOptions{WeightsPath: o.weights}), int64(o.maxTensor))
	if err != nil {
		return err
	}
	for _, path := range given {
		inputs.add(path)
	}
	gen := o.generator()
	if o.layer != "" {
		return runLayer(m, o, given, inputs, gen, stdout)
	}
	return runModel(m, o, cfg, given, inputs, gen, stdout)
}

// parseInputFlags splits -i NAME=FILE values.
func parseInputFlags(flags []string) (map[string]string, error) {
	given := make(map[string]string)
	for _, f := range flags {
		name, path, ok := strings.Cut(f, "=")
		if !ok || name == "" || path == "" {
			return nil, usageErr("-i %q: want NAME=FILE.npy", f)
		}
		if _, dup := given[name]; dup {
			return nil, usageErr("-i %s given twice", name)
		}
		given[name] = path
	}
	return given, nil
}

func runModel(m *ir.Model, o runOptions, cfg plugin.Config, given map[string]string, inputs inputFiles, gen *rand.Rand, stdout io.Writer) (runErr error) {
	cm, err := plugin.NewCore().CompileModel(m, cfg)
	var notComputed map[*ir.Layer]*ir.Layer
	if errors.Is(err, ops.ErrUnsupportedOp) {
		// Compute the outputs that need none of the ops irdiv cannot
		// execute, and say which need which.
		part, dropped := withoutUnexecutable(m)
		if len(dropped) == len(m.Results()) {
			return err
		}
		unsupported := err
		if cm, err = plugin.NewCore().CompileModel(part, cfg); err != nil {
			return unsupported
		}
		notComputed = dropped
		defer func() {
			if runErr == nil {
				runErr = fmt.Errorf("%w; computed the %s without them", unsupported, plural(len(cm.Outputs()), "other output"))
			}
		}()
	}
	if err != nil {
		return err
	}
	maxTensor := int64(o.maxTensor)
	var set map[int]dataFile
	if o.inputsDir != "" {
		byFlag, err := portKeys(cm.Inputs(), given, "-i")
		if err != nil {
			return err
		}
		skip := make(map[int]string)
		for i, key := range byFlag {
			skip[i] = "-i " + key
		}
		if set, err = matchDataSet("--inputs", o.inputsDir, "input", portTargets(cm.Inputs(), "input"), skip, maxTensor); err != nil {
			return err
		}
		for _, f := range set {
			inputs.add(f.path)
		}
	}
	expected, err := readExpected(o.expected, cm.Outputs(), maxTensor)
	if err != nil {
		return err
	}
	for _, f := range expected {
		inputs.add(f.path)
	}
	req := cm.NewInferRequest()
	if err := bindInputs(cm, req, given, set, nil, gen, o.seed, maxTensor, stdout); err != nil {
		return err
	}
	if err := req.Infer(); err != nil {
		return err
	}
	var mismatches []error
	for _, res := range m.Results() {
		if l, ok := notComputed[res]; ok {
			textln(stdout, "output %-12s not computed: it needs %s (%s %s), which irdiv cannot execute", quote(res.Name), l, l.Type, l.Version)
		}
	}
	var names []string
	for _, p := range cm.Outputs() {
		names = append(names, p.Name)
	}
	out := newOutFiles(o.outDir, inputs, names...)
	for i, p := range cm.Outputs() {
		t, err := req.OutputTensor(p.Index)
		if err != nil {
			return err
		}
		if err := out.report(stdout, "output", i, t); err != nil {
			return err
		}
		want, ok := expected[p.Index]
		if !ok {
			continue
		}
		if err := checkExpected(stdout, p.Name, t, want.tensor, want.path, o.tol, operandsOf(m, req, p.Name, t.Shape)); err != nil {
			mismatches = append(mismatches, err)
		}
	}
	if len(mismatches) > 0 {
		return mismatches[0]
	}
	return nil
}

// portTargets are the ports of a compiled model as a data set matches
// them: by the Parameter's or Result's name or a tensor name.
func portTargets(ports []plugin.Port, kind string) []target {
	out := make([]target, len(ports))
	for i, p := range ports {
		out[i] = target{what: fmt.Sprintf("%s %q", kind, p.Name), names: append([]string{p.Name}, p.Names...), typ: p.Type}
	}
	return out
}

// portKeys finds the port each key of a flag names (a Parameter name, a
// tensor name or an index); it returns the key of each port given.
func portKeys[V any](ports []plugin.Port, keys map[string]V, flag string) (map[int]string, error) {
	var names []string
	for _, p := range ports {
		names = append(names, quote(p.Name))
	}
	out := make(map[int]string)
	for _, key := range slices.Sorted(maps.Keys(keys)) {
		i := slices.IndexFunc(ports, func(p plugin.Port) bool { return p.Name == key || slices.Contains(p.Names, key) })
		if i < 0 {
			i = slices.IndexFunc(ports, func(p plugin.Port) bool { return strconv.Itoa(p.Index) == key })
		}
		if i < 0 {
			return nil, fmt.Errorf("%s %s: the model has no input of that name or index (inputs: %s)", flag, key, strings.Join(names, ", "))
		}
		if prev, dup := out[ports[i].Index]; dup {
			return nil, usageErr("%s %s and %s %s both give input %q", flag, prev, flag, key, ports[i].Name)
		}
		out[ports[i].Index] = key
	}
	return out, nil
}

// bindInputs binds every model input: from an -i file (by Parameter
// name, tensor name or index), from a test data set, or generated, with
// the shape from shapes (by the same keys) or the Parameter's lower
// bounds.
func bindInputs(cm *plugin.CompiledModel, req *plugin.InferRequest, given map[string]string, set map[int]dataFile, shapes map[string][]int64, gen *rand.Rand, seed uint64, maxBytes int64, stdout io.Writer) error {
	byFlag, err := portKeys(cm.Inputs(), given, "-i")
	if err != nil {
		return err
	}
	shapeKeys, err := portKeys(cm.Inputs(), shapes, "--shape")
	if err != nil {
		return err
	}
	for _, p := range cm.Inputs() {
		var t *ir.Tensor
		if key, ok := byFlag[p.Index]; ok {
			if t, err = readTensor(given[key], p.Type, true, maxBytes); err != nil {
				return fmt.Errorf("input %q: %w", p.Name, err)
			}
			fmt.Fprintf(stdout, "input  %-12s %s %s from %s\n", quote(p.Name), p.Type, shapeString(t.Shape), given[key])
		} else if f, ok := set[p.Index]; ok {
			t = f.tensor
			fmt.Fprintf(stdout, "input  %-12s %s %s from %s\n", quote(p.Name), p.Type, shapeString(t.Shape), f.path)
		} else {
			dims := concreteDims(p.Shape)
			if key, ok := shapeKeys[p.Index]; ok {
				dims = shapes[key]
			}
			if t, err = generate(gen, p.Type, dims, maxBytes); err != nil {
				return fmt.Errorf("input %q: %w", p.Name, err)
			}
			fmt.Fprintf(stdout, "input  %-12s %s %s generated (seed %d)\n", quote(p.Name), p.Type, shapeString(t.Shape), seed)
		}
		if err := req.SetInputTensor(p.Index, t); err != nil {
			return err
		}
	}
	return nil
}

func quote(s string) string { return strconv.Quote(s) }

// outFiles are the .npy files run -o writes into dir (none when dir is
// ""): one per name, made safe and unique by internal/safename, so that
// outputs "p/q" and "p_q" get files of their own (p_q~2.npy and p_q.npy)
// instead of one written over the other.
type outFiles struct {
	dir    string
	names  []string
	stems  []string
	inputs inputFiles
}

// newOutFiles names the files of the tensors run may write, all named up
// front: a name that needs no change keeps its file whatever comes
// before it, and two tensors of one name (two Results called "q") get
// two files.
func newOutFiles(dir string, inputs inputFiles, names ...string) *outFiles {
	return &outFiles{dir: dir, names: names, stems: safename.Unique(names), inputs: inputs}
}

// report prints tensor i's summary and, with a folder set, writes it to
// its file there, unless that file is one of the command's inputs.
func (o *outFiles) report(w io.Writer, kind string, i int, t *ir.Tensor) error {
	name := o.names[i]
	textln(w, "%s %-12s %s %s %s", kind, quote(name), t.Type, shapeString(t.Shape), summary(t, 16))
	if o.dir == "" {
		return nil
	}
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(o.dir, o.stems[i]+".npy")
	if err := o.inputs.checkOutput("-o "+o.dir, path); err != nil {
		return err
	}
	if err := npy.WriteFile(path, t); err != nil {
		return err
	}
	textln(w, "       wrote %s", path)
	return nil
}

// concreteDims picks a static shape inside a partial one: each dimension's
// lower bound, or 1 when that is 0 and the interval allows it; a dynamic
// rank becomes a scalar.
func concreteDims(s shapeinfer.Shape) []int64 {
	dims := make([]int64, len(s.Dims))
	for i, d := range s.Dims {
		dims[i] = d.Min
		if d.Min == 0 && d.Max >= 1 {
			dims[i] = 1
		}
	}
	return dims
}

// generate makes deterministic data: floats in [-100, 100), signed
// integers in ±[1, 100], unsigned in [1, 200]; never zero, so that any
// generated tensor is a valid divisor. It refuses tensors above maxBytes.
func generate(r *rand.Rand, t ir.ElementType, shape []int64, maxBytes int64) (*ir.Tensor, error) {
	if !t.IsNumeric() {
		return nil, fmt.Errorf("cannot generate %s data; give the input with -i", t)
	}
	if err := checkSize("a generated input", t, shape, maxBytes); err != nil {
		return nil, err
	}
	out, err := ir.NewTensor(t, shape)
	if err != nil {
		return nil, err
	}
	for i := range out.Len() {
		f := r.Float64()*200 - 100
		n := int64(1 + r.IntN(200)) // unsigned: [1, 200]
		if t.IsSigned() {
			n = int64(1 + r.IntN(100))
			if r.IntN(2) == 0 {
				n = -n
			}
		}
		if t.IsFloat() {
			out.SetFloat64(i, f)
		} else {
			out.SetInt64(i, n)
		}
	}
	return out, nil
}

// findLayer finds a layer by name, by "id:N", or by a bare id when no
// name matches (real models often have numeric names).
func findLayer(m *ir.Model, name string) (*ir.Layer, error) {
	if s, ok := strings.CutPrefix(name, "id:"); ok {
		id, err := strconv.ParseUint(s, 10, 64)
		if l := m.LayerByID(id); err == nil && l != nil {
			return l, nil
		}
		return nil, fmt.Errorf("the model has no layer with id %s (%s)", s, divideLayers(m))
	}
	var found []*ir.Layer
	for _, l := range m.Layers {
		if l.Name == name {
			found = append(found, l)
		}
	}
	if len(found) == 0 {
		if id, err := strconv.ParseUint(name, 10, 64); err == nil && m.LayerByID(id) != nil {
			return m.LayerByID(id), nil
		}
		return nil, fmt.Errorf("the model has no layer named %q (%s)", name, divideLayers(m))
	}
	if len(found) > 1 {
		return nil, fmt.Errorf("%d layers are named %q; give one as id:N (%s, %s...)", len(found), name, found[0], found[1])
	}
	return found[0], nil
}

// divideLayers names the Divide layers of m for messages: a few, then a
// count.
func divideLayers(m *ir.Model) string {
	var names []string
	n := 0
	for _, l := range m.Layers {
		if strings.EqualFold(l.Type, "Divide") {
			if n++; n <= 5 {
				names = append(names, fmt.Sprintf("%q (id:%d)", l.Name, l.ID))
			}
		}
	}
	switch {
	case n == 0:
		return "it has no Divide layer"
	case n > 5:
		names = append(names, fmt.Sprintf("and %d more", n-5))
	}
	return "its Divide layers: " + strings.Join(names, ", ")
}

// runLayer evaluates one Divide of any model: Const inputs come from the
// weights, other inputs from -i PORT=FILE.npy or are generated from the
// declared port shape (a dynamic dimension becomes 1).
func runLayer(m *ir.Model, o runOptions, given map[string]string, inputs inputFiles, gen *rand.Rand, stdout io.Writer) error {
	l, err := findLayer(m, o.layer)
	if err != nil {
		return err
	}
	op, err := ops.New(l)
	if err != nil {
		return err
	}
	d, ok := op.(*ops.Divide)
	if !ok {
		return fmt.Errorf("%s is a %s; run --layer evaluates Divide layers (%s)", l, l.Type, divideLayers(m))
	}
	opts, err := o.options()
	if err != nil {
		return err
	}
	for k := range given {
		if i, err := strconv.Atoi(k); err != nil || i < 0 || i >= len(l.Inputs) {
			return usageErr("-i %s: with --layer, inputs are given by port index 0..%d", k, len(l.Inputs)-1)
		}
	}
	if err := ops.CheckInputs(l, d); err != nil {
		return err
	}
	in := make([]*ir.Tensor, len(l.Inputs))
	names := []string{l.Name}
	for i := range l.Inputs {
		names = append(names, fmt.Sprintf("%s.input%d", l.Name, i))
	}
	out := newOutFiles(o.outDir, inputs, names...)
	for i, port := range l.Inputs {
		src, connected := m.Input(l, i)
		var origin string
		switch path, ok := given[strconv.Itoa(i)]; {
		case ok:
			if in[i], err = readTensor(path, port.Type, port.Type != ir.Dynamic, opts.MaxTensorBytes); err != nil {
				return fmt.Errorf("input %d: %w", i, err)
			}
			origin = "from " + path
		case connected && src.Layer.Constant != nil:
			in[i] = src.Layer.Constant
			origin = "Const " + quote(src.Layer.Name)
		case connected && strings.EqualFold(src.Layer.Type, "Const"):
			return fmt.Errorf("input %d: Const %s: %w", i, quote(src.Layer.Name), ops.ErrNoWeights)
		default:
			dims := make([]int64, len(port.Dims))
			for j, d := range port.Dims {
				dims[j] = max(d, 1)
			}
			if in[i], err = generate(gen, port.Type, dims, opts.MaxTensorBytes); err != nil {
				return fmt.Errorf("input %d: %w", i, err)
			}
			origin = fmt.Sprintf("generated (seed %d)", o.seed)
		}
		if err := out.report(stdout, "input ", i+1, in[i]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "       %s\n", origin)
	}
	q, err := ops.EvaluateLayer(l, d, in, opts)
	if err != nil {
		return err
	}
	return out.report(stdout, "output", 0, q[0])
}

// withoutUnexecutable returns m without the Results that depend on a
// layer the plugin cannot execute, and for each of those Results the first
// such layer (in a walk from the Result). Layers that then reach no
// Result are left for CompileModel to drop.
func withoutUnexecutable(m *ir.Model) (*ir.Model, map[*ir.Layer]*ir.Layer) {
	sources := m.Sources()
	blocker := make(map[*ir.Layer]*ir.Layer) // the first unexecutable layer upstream, or nil
	visited := make(map[*ir.Layer]bool)
	walk := func(root *ir.Layer) *ir.Layer {
		// Iterative, so that a deep model cannot exhaust the stack.
		type frame struct {
			l    *ir.Layer
			next int
		}
		stack := []frame{{root, 0}}
		visited[root] = true
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next == 0 && !plugin.Executes(f.l) {
				blocker[f.l] = f.l
			}
			if f.next < len(sources[f.l]) {
				src := sources[f.l][f.next].Layer
				f.next++
				if !visited[src] {
					visited[src] = true
					stack = append(stack, frame{src, 0})
				}
				continue
			}
			l := f.l
			stack = stack[:len(stack)-1]
			if blocker[l] == nil {
				for _, src := range sources[l] {
					if b := blocker[src.Layer]; b != nil {
						blocker[l] = b
						break
					}
				}
			}
		}
		return blocker[root]
	}
	dropped := make(map[*ir.Layer]*ir.Layer)
	part := *m
	part.Layers = nil
	for _, l := range m.Layers {
		if strings.EqualFold(l.Type, "Result") {
			if b := walk(l); b != nil {
				dropped[l] = b
				continue
			}
		}
		part.Layers = append(part.Layers, l)
	}
	droppedIDs := make(map[uint64]bool, len(dropped))
	for l := range dropped {
		droppedIDs[l.ID] = true
	}
	part.Edges = slices.DeleteFunc(slices.Clone(m.Edges), func(e ir.Edge) bool { return droppedIDs[e.ToLayer] })
	return &part, dropped
}
