// Package ortreplay runs ONNX models on ONNX Runtime, for tests: an
// oracle nobody on the team wrote. It drives npm onnxruntime-node (CPU
// provider, one thread, graph optimisations off) from node with
// ortrun.js, so it needs node and an installed onnxruntime-node; Find
// says where it found them or why it did not, and tests skip with that.
//
// ReplayDir replays a counter-example folder as `irdiv validate
// --counter-examples DIR` writes them and testdata/pytorch/gen.py does:
// one NAME.npy per model input, NAME being the input's name with every
// character outside [A-Za-z0-9_.-] replaced by "_" (internal/safename
// says how long and colliding names are told apart). It runs an ONNX model
// and its flooring twin (the model as OpenVINO's import computes it) on
// the same inputs and says whether any output differs.
package ortreplay

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/x448/float16"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/irdiv/irdiv/internal/safename"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ir/npy"
)

//go:embed ortrun.js
var script string

// Version is the onnxruntime-node release bench/run.sh installs and
// .ci/run is asked to install.
const Version = "1.30.0"

// Runner runs models with node and an installed onnxruntime-node.
type Runner struct {
	Node    string // the node executable
	Modules string // the node_modules folder holding onnxruntime-node
	Version string // onnxruntime-node's version, from its package.json
	Source  string // how Modules was found: "IRDIV_ORT_DIR" or "bench/out"
	// MaxMemory bounds the address space of each node process, in bytes
	// (0: no bound), where the system lets a shell set it (ulimit -v):
	// a model may allocate without end at some input (a Loop whose
	// scan outputs grow with a trip count of 2^62), and ONNX Runtime
	// then fails that run with an allocation error instead of taking
	// the machine's memory (node reached 22 GB in the random models'
	// differential before the kernel killed it).
	MaxMemory int64
}

func (r Runner) String() string {
	return fmt.Sprintf("ONNX Runtime (npm onnxruntime-node %s in %s, from %s)", r.Version, r.Modules, r.Source)
}

// Find locates node on PATH and onnxruntime-node: in the folder named by
// the environment variable IRDIV_ORT_DIR (its node_modules), else in
// bench/out/ort-<Version> of this repository, where bench/run.sh installs
// it. The error says what is missing; a set IRDIV_ORT_DIR that holds no
// usable package is an error, not a reason to look elsewhere.
func Find() (Runner, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return Runner{}, errors.New("ortreplay: node is not on PATH (ONNX Runtime runs through npm onnxruntime-node)")
	}
	var dir, source string
	if d := os.Getenv("IRDIV_ORT_DIR"); d != "" {
		dir, source = d, "IRDIV_ORT_DIR"
	} else {
		_, file, _, ok := runtime.Caller(0)
		if !ok {
			return Runner{}, errors.New("ortreplay: IRDIV_ORT_DIR is not set and the repository cannot be located")
		}
		dir, source = filepath.Join(filepath.Dir(file), "..", "..", "bench", "out", "ort-"+Version), "bench/out"
	}
	r := Runner{Node: node, Modules: filepath.Clean(filepath.Join(dir, "node_modules")), Source: source}
	pkg, err := os.ReadFile(filepath.Join(r.Modules, "onnxruntime-node", "package.json"))
	if err != nil {
		hint := "set IRDIV_ORT_DIR to a folder where npm install --ignore-scripts onnxruntime-node@" + Version + " ran"
		if source == "IRDIV_ORT_DIR" {
			return Runner{}, fmt.Errorf("ortreplay: IRDIV_ORT_DIR=%s: no node_modules/onnxruntime-node there", dir)
		}
		return Runner{}, fmt.Errorf("ortreplay: IRDIV_ORT_DIR is not set and %s holds no onnxruntime-node (%s)", r.Modules, hint)
	}
	var meta struct{ Version string }
	if err := json.Unmarshal(pkg, &meta); err != nil {
		return Runner{}, fmt.Errorf("ortreplay: %s: %v", filepath.Join(r.Modules, "onnxruntime-node", "package.json"), err)
	}
	r.Version = meta.Version
	cmd := exec.Command(node, "-e", `require("onnxruntime-node/dist/binding").initOrt()`)
	cmd.Env = r.env()
	if out, err := cmd.CombinedOutput(); err != nil {
		return Runner{}, fmt.Errorf("ortreplay: onnxruntime-node in %s (from %s) does not load: %v: %s", r.Modules, source, err, firstLine(out))
	}
	return r, nil
}

// env is the environment node runs in: NODE_PATH to find the package,
// and ORT_DISABLE_TELEMETRY, as onnxruntime-node 1.29 and later otherwise
// keep a device id and a database of events (every failed run, with its
// message and model path) under ~/.cache/Microsoft/DeveloperTools, leave
// an empty /tmp/mat-debug-PID.log per process, and upload the events; the
// database's fsync per failed run also makes runs that fail slow.
func (r Runner) env() []string {
	return append(os.Environ(), "NODE_PATH="+r.Modules, "ORT_DISABLE_TELEMETRY=1")
}

// typeNames maps element types to onnxruntime-common's names. bf16 has
// none in its JavaScript API.
var typeNames = map[ir.ElementType]string{
	ir.F32: "float32", ir.F64: "float64", ir.F16: "float16", ir.Boolean: "bool",
	ir.I8: "int8", ir.U8: "uint8", ir.I16: "int16", ir.U16: "uint16",
	ir.I32: "int32", ir.U32: "uint32", ir.I64: "int64", ir.U64: "uint64",
}

type wireTensor struct {
	Type string  `json:"type"`
	Dims []int64 `json:"dims"`
	Data string  `json:"data"`
	// File holds the data instead, raw, for a large input (fileFeeds).
	File string `json:"file,omitempty"`
}

type valueInfo struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Shape []any  `json:"shape"`
}

type response struct {
	Models []struct {
		Error   string      `json:"error"`
		Inputs  []valueInfo `json:"inputs"`
		Outputs []valueInfo `json:"outputs"`
	} `json:"models"`
	Results [][]struct {
		Error   string                `json:"error"`
		Outputs map[string]wireTensor `json:"outputs"`
	} `json:"results"`
}

// result is one model's answer to one run: its outputs, or why it failed.
type result struct {
	inputs  []string // the model's inputs, as ONNX Runtime lists them
	outputs map[string]*ir.Tensor
	err     error
}

// run evaluates every model on the same inputs in one node process.
func (r Runner) run(models []string, inputs map[string]*ir.Tensor) ([]result, error) {
	var files fileFeeds
	defer files.remove()
	feeds, err := encodeFeeds(inputs, &files)
	if err != nil {
		return nil, err
	}
	if r.Node == "" {
		return nil, errors.New("ortreplay: Runner has no node; use Find")
	}
	req, err := json.Marshal(map[string]any{"models": models, "runs": []any{feeds}})
	if err != nil {
		return nil, err
	}
	stdout, err := r.node(req)
	if err != nil {
		// SIGFPE here is ORT's integer Div or Mod dividing MIN by -1
		// (a division by zero is a run's error in 1.30).
		return nil, fmt.Errorf("ortreplay: node running %s: %v", strings.Join(models, ", "), err)
	}
	var resp response
	if err := json.Unmarshal(stdout, &resp); err != nil {
		return nil, fmt.Errorf("ortreplay: unreadable answer from ortrun.js: %v", err)
	}
	if len(resp.Models) != len(models) || len(resp.Results) != 1 || len(resp.Results[0]) != len(models) {
		return nil, errors.New("ortreplay: ortrun.js answered for the wrong number of models or runs")
	}
	out := make([]result, len(models))
	for i, m := range resp.Models {
		if m.Error != "" {
			return nil, fmt.Errorf("ortreplay: ONNX Runtime cannot load %s", m.Error)
		}
		for _, in := range m.Inputs {
			out[i].inputs = append(out[i].inputs, in.Name)
		}
		res := resp.Results[0][i]
		if res.Error != "" {
			out[i].err = fmt.Errorf("ortreplay: %s: %s", models[i], res.Error)
			continue
		}
		out[i].outputs = map[string]*ir.Tensor{}
		for _, o := range m.Outputs {
			w, ok := res.Outputs[o.Name]
			if !ok {
				return nil, fmt.Errorf("ortreplay: %s: no value for output %q", models[i], o.Name)
			}
			t, err := decode(w)
			if err != nil {
				return nil, fmt.Errorf("ortreplay: %s: output %q: %v", models[i], o.Name, err)
			}
			out[i].outputs[o.Name] = t
		}
	}
	return out, nil
}

func decode(w wireTensor) (*ir.Tensor, error) {
	var et ir.ElementType
	for t, name := range typeNames {
		if name == w.Type {
			et = t
		}
	}
	if et == ir.Dynamic {
		return nil, fmt.Errorf("element type %q is not supported", w.Type)
	}
	data, err := base64.StdEncoding.DecodeString(w.Data)
	if err != nil {
		return nil, err
	}
	t, err := ir.NewTensor(et, w.Dims)
	if err != nil {
		return nil, err
	}
	if len(data) != len(t.Data) {
		return nil, fmt.Errorf("%d bytes for %s%v", len(data), et, w.Dims)
	}
	copy(t.Data, data)
	return t, nil
}

// Run evaluates model on ONNX Runtime with inputs (by input name) and
// returns its outputs by name. A model that fails on these inputs is an
// error with ONNX Runtime's message.
func (r Runner) Run(model string, inputs map[string]*ir.Tensor) (map[string]*ir.Tensor, error) {
	res, err := r.run([]string{model}, inputs)
	if err != nil {
		return nil, err
	}
	return res[0].outputs, res[0].err
}

// A Job is a model and the inputs of each run to give it.
type Job struct {
	Model string
	Runs  []map[string]*ir.Tensor
}

// Outcome is what one run of a Job gave: the model's outputs by name, or
// why it failed (Err, with ONNX Runtime's message).
type Outcome struct {
	Outputs map[string]*ir.Tensor
	Err     error
}

// RunJobs runs each job's model on each of its runs, in one node process,
// and returns the outcomes by job and run: a batch of many small models
// costs one start of node and ONNX Runtime instead of one per model. A
// model that ONNX Runtime cannot load fails each of its runs with that
// message. The error is for the batch as a whole: an input ONNX
// Runtime's JavaScript API cannot hold, or node dying (MIN / -1 in an
// integer Div or Mod kills it with SIGFPE inside ORT's kernel: guard the
// divisors of models that may meet it). An integer division by zero is
// not such a death: ONNX Runtime 1.30 checks the divisor first and fails
// the run ("Integer division by zero", "Integer modulo by zero"; even
// where the output is empty), so a zero-divisor counter-example replays
// as that run's Err.
func (r Runner) RunJobs(jobs []Job) ([][]Outcome, error) {
	if r.Node == "" {
		return nil, errors.New("ortreplay: Runner has no node; use Find")
	}
	type wireJob struct {
		Model string                  `json:"model"`
		Runs  []map[string]wireTensor `json:"runs"`
	}
	wire := make([]wireJob, len(jobs))
	var files fileFeeds
	defer files.remove()
	for i, j := range jobs {
		wire[i].Model = j.Model
		wire[i].Runs = make([]map[string]wireTensor, len(j.Runs))
		for k, run := range j.Runs {
			feeds, err := encodeFeeds(run, &files)
			if err != nil {
				return nil, fmt.Errorf("%w (%s)", err, j.Model)
			}
			wire[i].Runs[k] = feeds
		}
	}
	req, err := json.Marshal(map[string]any{"jobs": wire})
	if err != nil {
		return nil, err
	}
	out, err := r.node(req)
	if err != nil {
		return nil, fmt.Errorf("ortreplay: node running a batch of %d models: %v", len(jobs), err)
	}
	var resp struct {
		Jobs []struct {
			Error   string `json:"error"`
			Results []struct {
				Error   string                `json:"error"`
				Outputs map[string]wireTensor `json:"outputs"`
			} `json:"results"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal(out, &resp); err != nil {
		return nil, fmt.Errorf("ortreplay: unreadable answer from ortrun.js: %v", err)
	}
	if len(resp.Jobs) != len(jobs) {
		return nil, errors.New("ortreplay: ortrun.js answered for the wrong number of jobs")
	}
	res := make([][]Outcome, len(jobs))
	for i, j := range resp.Jobs {
		res[i] = make([]Outcome, len(jobs[i].Runs))
		if j.Error != "" {
			for k := range res[i] {
				res[i][k].Err = fmt.Errorf("ortreplay: ONNX Runtime cannot load %s", j.Error)
			}
			continue
		}
		if len(j.Results) != len(jobs[i].Runs) {
			return nil, fmt.Errorf("ortreplay: ortrun.js answered %d runs of %s for %d", len(j.Results), jobs[i].Model, len(jobs[i].Runs))
		}
		for k, run := range j.Results {
			if run.Error != "" {
				res[i][k].Err = fmt.Errorf("ortreplay: %s: %s", jobs[i].Model, run.Error)
				continue
			}
			res[i][k].Outputs = make(map[string]*ir.Tensor, len(run.Outputs))
			for name, w := range run.Outputs {
				t, err := decode(w)
				if err != nil {
					return nil, fmt.Errorf("ortreplay: %s: output %q: %v", jobs[i].Model, name, err)
				}
				res[i][k].Outputs[name] = t
			}
		}
	}
	return res, nil
}

// fileFeedBytes is the size from which an input goes to ortrun.js as a
// file of its data, not base64 in the JSON request: a counter-example at
// a dim of 2^23 has inputs of 64 to 256 MiB, whose base64 took node and
// Go seconds and copies of it (and 200 MiB of it passes V8's longest
// string, 2^29 characters).
const fileFeedBytes = 1 << 20

// fileFeeds is the temporary folder of the files of a request's large
// inputs, made at the first.
type fileFeeds struct {
	dir string
	n   int
}

// write writes data to a new file of the folder and returns its path.
func (f *fileFeeds) write(data []byte) (string, error) {
	if f.dir == "" {
		dir, err := os.MkdirTemp("", "ortreplay-")
		if err != nil {
			return "", err
		}
		f.dir = dir
	}
	f.n++
	path := filepath.Join(f.dir, strconv.Itoa(f.n)+".bin")
	return path, os.WriteFile(path, data, 0o600)
}

// remove removes the folder, once node has read it.
func (f *fileFeeds) remove() {
	if f.dir != "" {
		os.RemoveAll(f.dir)
	}
}

// encodeFeeds encodes a run's inputs for ortrun.js, the large ones
// written to files.
func encodeFeeds(inputs map[string]*ir.Tensor, files *fileFeeds) (map[string]wireTensor, error) {
	feeds := make(map[string]wireTensor, len(inputs))
	for name, t := range inputs {
		typ, ok := typeNames[t.Type]
		if !ok {
			return nil, fmt.Errorf("ortreplay: input %q: ONNX Runtime's JavaScript API has no %s tensors", name, t.Type)
		}
		if len(t.Data) >= fileFeedBytes {
			path, err := files.write(t.Data)
			if err != nil {
				return nil, fmt.Errorf("ortreplay: input %q: %v", name, err)
			}
			feeds[name] = wireTensor{Type: typ, Dims: t.Shape, File: path}
			continue
		}
		feeds[name] = wireTensor{Type: typ, Dims: t.Shape, Data: base64.StdEncoding.EncodeToString(t.Data)}
	}
	return feeds, nil
}

// node runs ortrun.js on one request and returns its answer.
func (r Runner) node(req []byte) ([]byte, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(r.Node, "-e", script)
	if r.MaxMemory > 0 {
		// A shell sets the limit and becomes node; where ulimit -v is not
		// supported, node runs without it.
		cmd = exec.Command("/bin/sh", "-c", `ulimit -v "$1" 2>/dev/null; exec "$2" -e "$3"`, "sh", strconv.FormatInt(r.MaxMemory>>10, 10), r.Node, script)
	}
	cmd.Env = r.env()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(req), &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%v: %s", err, firstLine(stderr.Bytes()))
	}
	return stdout.Bytes(), nil
}

// Sanitize is the file name stem of an input's .npy in a counter-example
// folder: name with every character outside [A-Za-z0-9_.-] replaced by "_".
func Sanitize(name string) string {
	return strings.Map(func(c rune) rune {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-' {
			return c
		}
		return '_'
	}, name)
}

// ReplayDir reads the counter-example folder dir (one NAME.npy per input
// of model, named by safename.Files; a missing or extra file is an error
// naming it), runs model and floorModel on those inputs and reports
// whether any output differs: in shape, in an element (floats by value,
// NaN equal to NaN), or because one model fails where the other runs.
// detail says where, or what was compared when nothing differs.
func ReplayDir(r Runner, model, floorModel, dir string) (differ bool, detail string, err error) {
	names, err := InputNames(model)
	if err != nil {
		return false, "", err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, "", fmt.Errorf("ortreplay: %v", err)
	}
	files := safename.Files(names)
	want := map[string]string{} // file name -> input name
	for n, file := range files {
		want[file] = n
	}
	inputs := map[string]*ir.Tensor{}
	for _, e := range entries {
		name, ok := want[e.Name()]
		if !ok {
			return false, "", fmt.Errorf("ortreplay: %s: extra file %s: %s has no input of that name (inputs: %s)",
				dir, e.Name(), filepath.Base(model), strings.Join(names, ", "))
		}
		t, err := npy.ReadFile(filepath.Join(dir, e.Name()), 0)
		if err != nil {
			return false, "", err
		}
		inputs[name] = t
	}
	for _, n := range names {
		if inputs[n] == nil {
			return false, "", fmt.Errorf("ortreplay: %s: missing file %s for input %q of %s", dir, files[n], n, filepath.Base(model))
		}
	}
	res, err := r.run([]string{model, floorModel}, inputs)
	if err != nil {
		return false, "", err
	}
	for i, m := range []string{model, floorModel} {
		if !slices.Equal(res[i].inputs, names) {
			return false, "", fmt.Errorf("ortreplay: %s: ONNX Runtime lists the inputs %q, %s holds %q", m, res[i].inputs, filepath.Base(model), names)
		}
	}
	differ, detail = compare(res[0], res[1])
	return differ, detail, nil
}

// compare says whether two models' results differ, and where.
func compare(a, b result) (bool, string) {
	switch {
	case a.err != nil && b.err != nil:
		return false, fmt.Sprintf("both fail: %v; %v", a.err, b.err)
	case a.err != nil:
		return true, fmt.Sprintf("the model fails, its flooring twin runs: %v", a.err)
	case b.err != nil:
		return true, fmt.Sprintf("the model runs, its flooring twin fails: %v", b.err)
	}
	names := make([]string, 0, len(a.outputs))
	for n := range a.outputs {
		names = append(names, n)
	}
	slices.Sort(names)
	var diffs []string
	for _, n := range names {
		x, y := a.outputs[n], b.outputs[n]
		if y == nil {
			diffs = append(diffs, fmt.Sprintf("output %q: missing from the flooring twin", n))
			continue
		}
		if d := differ(x, y); d != "" {
			diffs = append(diffs, fmt.Sprintf("output %q: %s", n, d))
		}
	}
	if len(diffs) > 0 {
		return true, strings.Join(diffs, "; ")
	}
	return false, fmt.Sprintf("all %d outputs equal", len(names))
}

// differ describes how x and y differ, or returns "".
func differ(x, y *ir.Tensor) string {
	if x.Type != y.Type || !slices.Equal(x.Shape, y.Shape) {
		return fmt.Sprintf("%s%v, flooring %s%v", x.Type, x.Shape, y.Type, y.Shape)
	}
	n, first := 0, -1
	for i := range x.Len() {
		if !equalAt(x, y, i) {
			if first < 0 {
				first = i
			}
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d elements differ, first at %v: %s, flooring %s", n, x.Len(), index(x.Shape, first), elem(x, first), elem(y, first))
}

func equalAt(x, y *ir.Tensor, i int) bool {
	if x.Type.IsFloat() {
		a, b := float(x, i), float(y, i)
		return a == b || math.IsNaN(a) && math.IsNaN(b)
	}
	s := x.Type.Size()
	return bytes.Equal(x.Data[i*s:(i+1)*s], y.Data[i*s:(i+1)*s])
}

func float(t *ir.Tensor, i int) float64 {
	switch t.Type {
	case ir.F32:
		return float64(ir.View[float32](t)[i])
	case ir.F64:
		return ir.View[float64](t)[i]
	case ir.F16:
		return float64(float16.Frombits(ir.View[uint16](t)[i]).Float32())
	}
	panic("ortreplay: float of " + t.Type.String())
}

func elem(t *ir.Tensor, i int) string {
	switch t.Type {
	case ir.F32, ir.F64, ir.F16:
		return fmt.Sprint(float(t, i))
	case ir.I8:
		return fmt.Sprint(ir.View[int8](t)[i])
	case ir.I16:
		return fmt.Sprint(ir.View[int16](t)[i])
	case ir.I32:
		return fmt.Sprint(ir.View[int32](t)[i])
	case ir.I64:
		return fmt.Sprint(ir.View[int64](t)[i])
	case ir.U8, ir.Boolean:
		return fmt.Sprint(ir.View[uint8](t)[i])
	case ir.U16:
		return fmt.Sprint(ir.View[uint16](t)[i])
	case ir.U32:
		return fmt.Sprint(ir.View[uint32](t)[i])
	case ir.U64:
		return fmt.Sprint(ir.View[uint64](t)[i])
	}
	return "?"
}

func index(shape []int64, flat int) []int64 {
	idx := make([]int64, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] > 0 {
			idx[d] = int64(flat) % shape[d]
			flat /= int(shape[d])
		}
	}
	return idx
}

// InputNames returns the names of model's graph inputs that are not
// initializers, in graph order: the inputs a user feeds. It reads only
// those fields of the ModelProto.
func InputNames(model string) ([]string, error) {
	data, err := os.ReadFile(model)
	if err != nil {
		return nil, fmt.Errorf("ortreplay: %v", err)
	}
	bad := func(what string) error { return fmt.Errorf("ortreplay: %s: malformed ONNX model (%s)", model, what) }
	graph, ok := field(data, 7) // ModelProto.graph
	if !ok {
		return nil, bad("no graph")
	}
	var inputs []string
	inits := map[string]bool{}
	err = fields(graph, func(num protowire.Number, v []byte) error {
		switch num {
		case 11: // GraphProto.input: ValueInfoProto, name = 1
			name, _ := field(v, 1)
			inputs = append(inputs, string(name))
		case 5: // GraphProto.initializer: TensorProto, name = 8
			name, _ := field(v, 8)
			inits[string(name)] = true
		case 15: // GraphProto.sparse_initializer: SparseTensorProto, values = 1
			values, _ := field(v, 1)
			name, _ := field(values, 8)
			inits[string(name)] = true
		}
		return nil
	})
	if err != nil {
		return nil, bad(err.Error())
	}
	var names []string
	for _, n := range inputs {
		if !inits[n] {
			names = append(names, n)
		}
	}
	return names, nil
}

// fields calls f for every length-delimited field of message m.
func fields(m []byte, f func(protowire.Number, []byte) error) error {
	for len(m) > 0 {
		num, typ, n := protowire.ConsumeTag(m)
		if n < 0 {
			return protowire.ParseError(n)
		}
		m = m[n:]
		if typ == protowire.BytesType {
			v, n := protowire.ConsumeBytes(m)
			if n < 0 {
				return protowire.ParseError(n)
			}
			if err := f(num, v); err != nil {
				return err
			}
			m = m[n:]
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, m)
		if n < 0 {
			return protowire.ParseError(n)
		}
		m = m[n:]
	}
	return nil
}

// field returns the last length-delimited field num of m, as protobuf
// merges a repeated singular field.
func field(m []byte, num protowire.Number) ([]byte, bool) {
	var out []byte
	found := false
	_ = fields(m, func(n protowire.Number, v []byte) error {
		if n == num {
			out, found = v, true
		}
		return nil
	})
	return out, found
}

func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
