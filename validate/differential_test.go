package validate

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ir/npy"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/plugin"
	"github.com/irdiv/irdiv/validate/internal/randmodel"
	"github.com/irdiv/irdiv/validate/internal/search"
)

// The differential test's size: models per round, runs per model. A
// round takes about a minute on two cores with ONNX Runtime.
const (
	diffModels  = 300
	diffSamples = 128
)

// diffConfig is what the environment asks of TestDifferential:
// IRDIV_DIFF_SEEDS=k runs k rounds of diffModels models (the long
// exploring mode), IRDIV_DIFF_START the first model's seed (0), and
// IRDIV_DIFF_OUT where offending models are written (a new temporary
// folder otherwise), IRDIV_DIFF_WARNINGS=1 lists the real hazards left
// as warnings. -short runs a fifth of a round.
type diffConfig struct {
	start, models uint64
	out           string
	// showWarnings (IRDIV_DIFF_WARNINGS=1) lists every real hazard left
	// as a warning, with its model: what to work on to decide more; those
	// that change the model's outputs first, then those seen only at the
	// Div.
	showWarnings bool
	// dump (IRDIV_DIFF_DUMP=FILE) writes every Div's verdict and ground
	// truth as a JSON line to FILE, to count and sort what is undecided.
	dump string
	// errorSamples bounds the samples on which an error's Div is
	// replayed to the outputs (outputHazards): maxOutputSamples in the
	// long mode, 1 (its first hazardous sample) in a default or -short
	// run, where the errors' replays would otherwise cost CI a sixth
	// more CPU (seeds 0-299: 154 errors' Divs, 20 warnings'). An error
	// missed so only shrinks the denominator of the warnings' share,
	// which can only make that share look worse, never better: 146 of
	// the 151 Divs of seeds 300-599 that changed the outputs did so at
	// their first hazardous sample.
	errorSamples int
	// largeReplays replays the counter-examples over maxReplayBytes
	// (replayErrors): in the long mode only, where a default run's one
	// (seed 176: 192 MiB at a dim where shape arithmetic wraps) cost it
	// a fifth more time; such a counter-example is counted not replayed
	// there.
	largeReplays bool
}

func readDiffConfig(t *testing.T) diffConfig {
	c := diffConfig{models: diffModels, out: os.Getenv("IRDIV_DIFF_OUT"), showWarnings: os.Getenv("IRDIV_DIFF_WARNINGS") == "1", dump: os.Getenv("IRDIV_DIFF_DUMP")}
	number := func(name string, def uint64) uint64 {
		s := os.Getenv(name)
		if s == "" {
			return def
		}
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: %v", name, s, err)
		}
		return n
	}
	c.models *= number("IRDIV_DIFF_SEEDS", 1)
	c.start = number("IRDIV_DIFF_START", 0)
	if testing.Short() {
		c.models = diffModels / 5
	}
	c.errorSamples = 1
	if c.models > diffModels {
		c.errorSamples = maxOutputSamples
		c.largeReplays = true
	}
	return c
}

// Verdicts of the floor/truncation check, in the order the summary shows
// them.
const (
	vAgree    = string(FloorTruncAgree)
	vError    = string(FloorTrunc)
	vReshape  = string(FloorTruncReshape)
	vPossible = string(FloorTruncPossible)
	// vUnanalysed is a Divide irdiv says it did not follow: a warning,
	// as a real hazard may be there.
	vUnanalysed = string(NotAnalysed)
	vNone       = "none"
)

// verdictOrder is the order of the summary.
var verdictOrder = []string{vAgree, vError, vReshape, vPossible, vUnanalysed, vNone}

// diffCase is one generated model and what was learnt of it.
type diffCase struct {
	m       *randmodel.Model
	dir     string // the variants' files
	samples []randmodel.Sample
	// refused is why irdiv could not read or import the model; panicked
	// says validate panicked on it; unloadable why ONNX Runtime refuses
	// it at its declared shapes (found only when replaying).
	refused, panicked, unloadable string
	findings                      []Finding
	elapsed                       time.Duration
	// truth is per sample what the truncating model gave: nil where no
	// ground truth ran for this model (truthErr says why).
	truth    []sampleTruth
	truthErr string
	divs     []divCase
	// neverRunsFinding is irdiv's structure/never-runs finding on the
	// model (the first), if any: the model runs on no input.
	neverRunsFinding *Finding
}

// sampleTruth is one run of the probing variant.
type sampleTruth struct {
	ran     bool   // the model ran, with no division fault
	why     string // why not
	failed  bool   // the runtime failed on it (not a division fault)
	hazards map[string]int64
}

// neverRuns reports whether the runtime failed on every sample of the
// model: ONNX Runtime 1.30 fails some valid models at every input (its
// memory planner gives a ceil_mode pooling's output, whose last window
// its kernel drops but its shape inference keeps, the buffer of another
// tensor of the inferred size: "Shape mismatch attempting to re-use
// buffer", seed 1851), where a counter-example's failure is the runtime's
// bug, not a false verdict.
func (c *diffCase) neverRuns() bool {
	if len(c.truth) == 0 {
		return false
	}
	for _, s := range c.truth {
		if !s.failed {
			return false
		}
	}
	return true
}

// ranAt is the first sample the model ran on (no runtime failure, no
// division or window fault), among those at the declared shapes where
// declaredOnly; -1 for none, or where no ground truth ran.
func (c *diffCase) ranAt(declaredOnly bool) int {
	for i, s := range c.truth {
		if s.ran && (!declaredOnly || c.samples[i].Declared) {
			return i
		}
	}
	return -1
}

// ranSamples counts the samples the model ran on; -1 where no ground
// truth ran.
func (c *diffCase) ranSamples() int {
	if len(c.truth) == 0 {
		return -1
	}
	n := 0
	for _, s := range c.truth {
		if s.ran {
			n++
		}
	}
	return n
}

// divCase is one integer Div: its verdict and the ground truth.
type divCase struct {
	div     randmodel.Div
	verdict string
	finding *Finding
	// The first valid sample where floor and truncation differ: at the
	// declared shapes (declared), at any (anyShape); -1 for none.
	declared, anyShape int
	// replay of an error's counter-example: whether the outputs differ,
	// and how; replayErr where it could not run.
	replayed            bool
	differ              bool
	replayDetail        string
	replayErr           string
	counterExampleInput map[string]*ir.Tensor
	// out is the output-level ground truth of a Div with a Div-level
	// hazard at the declared shapes (outputHazards): whether flooring
	// this Div changes the model's outputs at some sample.
	out outputLevel
}

// outputLevel is a Div's output-level ground truth in both contexts:
// the other Divs truncating (alone), and, where that changed nothing,
// the others flooring (others).
type outputLevel struct{ alone, others outputTruth }

// differs reports whether flooring the Div changed the outputs in
// either context.
func (o outputLevel) differs() bool { return o.alone.differs() || o.others.differs() }

// witness is the context that changed the outputs, and its name.
func (o outputLevel) witness() (string, outputTruth) {
	if o.alone.differs() {
		return "flooring it alone", o.alone
	}
	return "flooring it among the other Divs flooring", o.others
}

// floorFaults counts the samples where only the model where the Div
// floors faulted, in both contexts.
func (o outputLevel) floorFaults() int { return o.alone.floorFaults + o.others.floorFaults }

// err is why the Div's replays did not run, if they did not.
func (o outputLevel) err() string { return cmp.Or(o.alone.err, o.others.err) }

// outputTruth is what replaying a Div's hazards to the outputs found in
// one context (outputContext): the model where this Div truncates
// against the one where it floors, both guarded, on the samples at the
// declared shapes where the probe counted hazards at this Div.
type outputTruth struct {
	// tried is the samples replayed where the model truncating the Div
	// ran (0: not replayed, err says why if it was due).
	tried int
	// sample is the first of them where some output differs and
	// neither run faulted (an index of diffCase.samples), -1 for none;
	// detail says how the outputs differ there.
	sample int
	detail string
	// rank is the sample's place among those replayed (0 the first):
	// how many a Div needs, to choose maxOutputSamples.
	rank int
	// floorFaults counts the samples where the truncating model ran and
	// the flooring one faulted (a Div or Mod by 0, a window larger than
	// its input, a negative size) or failed: a change of behaviour, but
	// not of the outputs, which the measure counts.
	floorFaults int
	err         string
}

// differs reports whether flooring the Div changed the outputs.
func (o outputTruth) differs() bool { return o.tried > 0 && o.sample >= 0 }

// TestDifferential generates random models of shape arithmetic and
// integer value paths (validate/internal/randmodel), validates each, and
// checks every floor/truncation verdict on an integer Div against what
// the model computes: on ONNX Runtime where it is installed, else by
// irdiv's own evaluation. A proof (divide/floor-trunc-agree) is false if
// some input the model runs on gives that Div operands of opposite signs
// and a nonzero remainder; an error (divide/floor-trunc) is false if its
// counter-example does not change the model's outputs when every Div
// floors, or if the model cannot run on it. Both must never happen; the
// other verdicts are counted. Divs inside If, Loop and Scan bodies are checked
// alike (the variants floor, guard and probe them too), and counted
// apart as well.
//
// A warning on a Div whose floor and truncation differ at some sample of
// the declared shapes is a real hazard left as a warning at the Div; the
// issue's measure (27, item 7) is at the outputs, so each such Div, and
// each error's, is replayed flooring it, the others truncating or, where
// that changes nothing, flooring (outputHazards), and the summary gives
// both shares.
//
// A model irdiv refuses, or finds to run on no input (structure/never-runs),
// is checked too: a refusal is false where ONNX Runtime runs the model at
// a sample of its declared shapes, a never-runs finding where it runs it
// at any sample, and either fails the test; where ONNX Runtime runs it on
// no sample, its Divs count as decided, and the summary gives the share of
// undecided Divs with and without them.
func TestDifferential(t *testing.T) {
	cfg := readDiffConfig(t)
	began := time.Now()
	runner, ortErr := ortreplay.Find()
	// A random model may allocate without end at some sample (node took
	// 22 GB of a 24 GB host on seeds 39000-41999): such a run fails
	// instead, as a run the model does not survive.
	runner.MaxMemory = 4 << 30
	truthName := "irdiv's own evaluation (plugin on onnx.Convert against onnx.Import; windows do not run, Resize only in modes nearest and linear)"
	if ortErr == nil {
		truthName = runner.String()
	} else {
		t.Logf("ONNX Runtime is not available (%v): the ground truth is irdiv's own evaluation", ortErr)
	}
	t.Logf("ground truth: %s", truthName)
	work := t.TempDir()
	cases := make([]*diffCase, cfg.models)
	for i := range cases {
		m := randmodel.Generate(cfg.start + uint64(i))
		c := &diffCase{m: m, dir: filepath.Join(work, fmt.Sprint(m.Seed)), samples: m.Samples(1, diffSamples, true)}
		if err := os.Mkdir(c.dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, v := range diffVariants {
			if err := os.WriteFile(filepath.Join(c.dir, name), m.Variant(v), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cases[i] = c
	}
	generated := time.Now()
	// Ground truth on ONNX Runtime runs in node processes beside the
	// validation.
	var truthDone sync.WaitGroup
	var truthTook time.Duration
	if ortErr == nil {
		truthDone.Go(func() { ortTruth(t, runner, cases); truthTook = time.Since(generated) })
	}
	validateAll(cases)
	validateTook := time.Since(generated)
	if ortErr != nil {
		for _, c := range cases {
			irdivTruth(c)
		}
		truthTook = time.Since(generated) - validateTook
	}
	truthDone.Wait()
	for _, c := range cases {
		c.classify()
	}
	replayed := time.Now()
	// The output-level replays run beside the errors' (another node
	// process, the second core), so that they cost CI little.
	var outputsDone sync.WaitGroup
	var outputsTook time.Duration
	outputsDone.Go(func() {
		outputHazards(t, runner, ortErr == nil, cfg.errorSamples, cases)
		outputsTook = time.Since(replayed)
	})
	replayErrors(t, runner, ortErr == nil, cfg.largeReplays, cases)
	errorsTook := time.Since(replayed)
	outputsDone.Wait()
	phases := fmt.Sprintf("generating %v, validating %v, ground truth %v (beside it), replaying %v (errors' counter-examples %v, hazards to the outputs %v, beside it)",
		generated.Sub(began).Round(time.Millisecond), validateTook.Round(time.Millisecond), truthTook.Round(time.Millisecond), time.Since(replayed).Round(time.Millisecond),
		errorsTook.Round(time.Millisecond), outputsTook.Round(time.Millisecond))
	report(t, cfg, cases, truthName, phases, time.Since(began))
}

// The variants of each model the test writes.
var diffVariants = map[string]randmodel.Variant{
	"model.onnx":        {},
	"model.floor.onnx":  {Floor: true},
	"probe.onnx":        {Guard: true, Hazards: true, SizesOnly: true, Relaxed: true},
	"replay.onnx":       {Guard: true},
	"replay.floor.onnx": {Guard: true, Floor: true},
}

// validateAll validates every model, on every core.
func validateAll(cases []*diffCase) {
	var wg sync.WaitGroup
	next := make(chan *diffCase)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for c := range next {
				c.validate()
			}
		})
	}
	for _, c := range cases {
		next <- c
	}
	close(next)
	wg.Wait()
}

func (c *diffCase) validate() {
	defer func() {
		if r := recover(); r != nil {
			buf := make([]byte, 8<<10)
			c.panicked = fmt.Sprintf("%v\n%s", r, buf[:runtime.Stack(buf, false)])
		}
	}()
	om, err := onnx.Read(c.m.Bytes(), onnx.ReadOptions{})
	if err != nil {
		c.refused = err.Error()
		return
	}
	m, err := onnx.Import(om, onnx.ImportOptions{})
	if err != nil {
		c.refused = err.Error()
		return
	}
	t0 := time.Now()
	c.findings = Model(m, "model.onnx", Options{}).Findings
	c.elapsed = time.Since(t0)
}

// ortTruth runs every model's probing variant on its samples, a batch
// of models per node process, two processes at a time.
func ortTruth(t *testing.T, r ortreplay.Runner, cases []*diffCase) {
	const batch = 20
	var wg sync.WaitGroup
	slots := make(chan struct{}, 2)
	for lo := 0; lo < len(cases); lo += batch {
		group := cases[lo:min(lo+batch, len(cases))]
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			runTruth(r, group)
		})
	}
	wg.Wait()
}

// runTruth runs a batch; if node dies, each model alone, so that one
// model's crash costs only its own ground truth.
func runTruth(r ortreplay.Runner, group []*diffCase) {
	jobs := make([]ortreplay.Job, len(group))
	for i, c := range group {
		jobs[i] = ortreplay.Job{Model: filepath.Join(c.dir, "probe.onnx"), Runs: inputsOf(c.samples)}
	}
	res, err := r.RunJobs(jobs)
	if err != nil && len(group) > 1 {
		for _, c := range group {
			runTruth(r, []*diffCase{c})
		}
		return
	}
	if err != nil {
		group[0].truthErr = err.Error()
		return
	}
	for i, c := range group {
		c.truth = make([]sampleTruth, len(res[i]))
		for k, o := range res[i] {
			c.truth[k] = c.probed(o.Outputs, o.Err)
		}
	}
}

func inputsOf(samples []randmodel.Sample) []map[string]*ir.Tensor {
	runs := make([]map[string]*ir.Tensor, len(samples))
	for i, s := range samples {
		runs[i] = s.Inputs
	}
	return runs
}

// probed reads one run of the probing variant.
func (c *diffCase) probed(outputs map[string]*ir.Tensor, err error) sampleTruth {
	if err != nil {
		return sampleTruth{why: err.Error(), failed: true}
	}
	s := sampleTruth{ran: true, hazards: map[string]int64{}}
	for _, d := range c.m.Divs {
		faults, hazards := outputs[randmodel.FaultsOutput(d.Node)], outputs[randmodel.HazardsOutput(d.Node)]
		if faults == nil || hazards == nil {
			return sampleTruth{why: "no probe outputs for " + d.Node}
		}
		if count(faults) != 0 {
			return sampleTruth{why: d.Node + " divides by 0 or MIN by -1"}
		}
		s.hazards[d.Output] = count(hazards)
	}
	for name, t := range outputs {
		if strings.HasSuffix(name, "/faults") && count(t) != 0 {
			return sampleTruth{why: name + ": a Mod by 0 or of MIN by -1, or a window larger than its input"}
		}
	}
	return s
}

// count reads a probe: an int64 scalar, the sum of a mask. It sums
// every element, as irdiv's import of ReduceSum without axes (issue 26)
// may leave the mask unreduced.
func count(t *ir.Tensor) int64 {
	n := int64(0)
	if t.Type == ir.I64 {
		for _, v := range ir.View[int64](t) {
			n += v
		}
	}
	return n
}

// irdivTruth runs the probing variant with irdiv's plugin, faithfully
// imported (Div truncating).
func irdivTruth(c *diffCase) {
	data, err := os.ReadFile(filepath.Join(c.dir, "probe.onnx"))
	if err != nil {
		c.truthErr = err.Error()
		return
	}
	run, err := compiled(data, true)
	if err != nil {
		c.truthErr = err.Error()
		return
	}
	c.truth = make([]sampleTruth, len(c.samples))
	for i, s := range c.samples {
		out, err := run(s.Inputs)
		c.truth[i] = c.probed(out, err)
	}
}

// compiled compiles an ONNX model with irdiv's plugin: faithful (Div
// truncates) or as OpenVINO imports it (Div floors).
func compiled(data []byte, faithful bool) (func(map[string]*ir.Tensor) (map[string]*ir.Tensor, error), error) {
	om, err := onnx.Read(data, onnx.ReadOptions{})
	if err != nil {
		return nil, err
	}
	m, err := onnx.Import(om, onnx.ImportOptions{Faithful: faithful})
	if err != nil {
		return nil, err
	}
	cm, err := plugin.NewCore().CompileModel(m, plugin.Config{})
	if err != nil {
		return nil, err
	}
	return cm.Run, nil
}

// classify matches each Div with its verdict and its ground truth: a
// finding names the Divide by its output, the Divide's own layer or, for
// one inside a body, Finding.Inner (Finding.Layer is then the If or Loop
// of the outer graph). A floor/truncation verdict outranks a
// not-analysed warning.
func (c *diffCase) classify() {
	byOutput := map[string]*Finding{}
	for i := range c.findings {
		f := &c.findings[i]
		if f.Code == StructureNeverRuns && c.neverRunsFinding == nil {
			c.neverRunsFinding = f
		}
		if f.Layer == nil || !strings.HasPrefix(string(f.Code), string(FloorTrunc)) && f.Code != NotAnalysed {
			continue
		}
		div := f.Layer
		if f.Inner != nil {
			div = f.Inner
		}
		if len(div.Outputs) == 0 {
			continue
		}
		for _, name := range div.Outputs[0].Names {
			if prev := byOutput[name]; prev == nil || prev.Code == NotAnalysed {
				byOutput[name] = f
			}
		}
	}
	for _, d := range c.m.Divs {
		dc := divCase{div: d, verdict: vNone, declared: -1, anyShape: -1, out: outputLevel{outputTruth{sample: -1}, outputTruth{sample: -1}}}
		if f := byOutput[d.Output]; f != nil {
			dc.verdict, dc.finding = string(f.Code), f
		}
		for i, s := range c.truth {
			if !s.ran || s.hazards[d.Output] == 0 {
				continue
			}
			if dc.anyShape < 0 {
				dc.anyShape = i
			}
			if dc.declared < 0 && c.samples[i].Declared {
				dc.declared = i
			}
		}
		c.divs = append(c.divs, dc)
	}
}

// maxReplayBytes bounds the inputs of a counter-example replayed with
// the others, in one node process: a counter-example is a few small
// tensors. One at a dim where shape arithmetic wraps (2^23 and more,
// search.maxWrapInputBytes: 256 MiB in all) is replayed up to
// maxLargeReplayBytes in the long mode (diffConfig.largeReplays), one
// model per node process: a process holds a few copies of its inputs
// within Runner.MaxMemory, and one that fails so costs that replay
// alone.
const (
	maxReplayBytes      = 4 << 20
	maxLargeReplayBytes = 256 << 20
	// maxBatchedDim bounds the dims of a counter-example replayed with
	// the others.
	maxBatchedDim = 1 << 20
	// replayChunk is how many replays one node process runs.
	replayChunk = 600
)

// replayErrors replays every error's counter-example on the model that
// truncates and the one that floors (their divisors guarded, so that a
// fault is counted rather than fatal).
func replayErrors(t *testing.T, r ortreplay.Runner, ort, largeReplays bool, cases []*diffCase) {
	type pending struct {
		c *diffCase
		d *divCase
	}
	var todo []pending
	var jobs []ortreplay.Job
	var large []bool // per job: replayed alone
	for _, c := range cases {
		for i := range c.divs {
			d := &c.divs[i]
			if d.verdict != vError || d.finding.CounterExample == nil {
				continue
			}
			d.counterExampleInput = d.finding.CounterExample.Inputs
			size, widest := 0, int64(0)
			for _, x := range d.counterExampleInput {
				size += len(x.Data)
				for _, n := range x.Shape {
					widest = max(widest, n)
				}
			}
			// A dim where shape arithmetic wraps (2^23) holds few bytes
			// where another dim is 0: such a counter-example is
			// replayed alone too (its tensors and ONNX Runtime's own
			// shape arithmetic may be large).
			alone := size > maxReplayBytes || widest >= maxBatchedDim
			if size > maxLargeReplayBytes || alone && !largeReplays {
				d.replayErr = fmt.Sprintf("not replayed: %d bytes of inputs, a dim of %d", size, widest)
				continue
			}
			todo = append(todo, pending{c, d})
			for _, name := range []string{"replay.onnx", "replay.floor.onnx"} {
				jobs = append(jobs, ortreplay.Job{Model: filepath.Join(c.dir, name), Runs: []map[string]*ir.Tensor{d.counterExampleInput}})
				large = append(large, alone)
			}
		}
	}
	outcomes := make([]ortreplay.Outcome, len(jobs))
	cannot := make([]error, len(jobs)) // irdiv's plugin cannot execute the model, or node a large one
	switch {
	case ort && len(jobs) > 0:
		var batch []ortreplay.Job
		var at []int // of each job of batch in jobs
		for i, j := range jobs {
			if !large[i] {
				batch, at = append(batch, j), append(at, i)
			}
		}
		// In chunks, one node process each, so that one process holds
		// a few hundred models, not thousands.
		// A chunk whose process dies is halved until the replay that
		// kills it stands alone, not replayed (ONNX Runtime dies of
		// SIGFPE on seed 45674's div5 counter-example, y: i64[0, 3],
		// through a Scan of empty elements with scan_output_axes -1:
		// every replay of the batch was lost with it).
		var replay func(batch []ortreplay.Job, at []int)
		replay = func(batch []ortreplay.Job, at []int) {
			res, err := r.RunJobs(batch)
			switch {
			case err == nil:
				for k, i := range at {
					outcomes[i] = res[k][0]
				}
			case len(batch) == 1:
				cannot[at[0]] = fmt.Errorf("ONNX Runtime cannot replay it: %v", err)
			default:
				half := len(batch) / 2
				replay(batch[:half], at[:half])
				replay(batch[half:], at[half:])
			}
		}
		for len(batch) > 0 {
			n := min(len(batch), replayChunk)
			replay(batch[:n], at[:n])
			batch, at = batch[n:], at[n:]
		}
		for i, j := range jobs {
			if large[i] {
				res, err := r.RunJobs([]ortreplay.Job{j})
				if err != nil {
					cannot[i] = fmt.Errorf("ONNX Runtime cannot replay it: %v", err)
					continue
				}
				outcomes[i] = res[0][0]
			}
		}
	case !ort:
		for i, j := range jobs {
			data, err := os.ReadFile(strings.Replace(j.Model, "replay.floor.onnx", "replay.onnx", 1))
			if err != nil {
				t.Fatal(err)
			}
			run, err := compiled(data, i%2 == 0)
			if err != nil {
				cannot[i] = fmt.Errorf("irdiv's plugin cannot run the model: %w", err)
				continue
			}
			outcomes[i].Outputs, outcomes[i].Err = run(j.Runs[0])
		}
	}
	for i, p := range todo {
		if err := cmp.Or(cannot[2*i], cannot[2*i+1]); err != nil {
			p.d.replayErr = err.Error()
			continue
		}
		if err := outcomes[2*i].Err; err != nil && strings.Contains(err.Error(), "cannot load") {
			// The model is wrong for every input at its declared shapes:
			// the generator's fault, not a verdict's.
			p.c.unloadable = err.Error()
			p.d.replayErr = "ONNX Runtime refuses the model at its declared shapes"
			continue
		}
		p.d.replayed = true
		p.d.differ, p.d.replayDetail = compareRuns(p.c.m, outcomes[2*i], outcomes[2*i+1])
	}
}

// maxOutputSamples bounds the samples on which a Div's hazards are
// replayed to the outputs: enough to meet the inputs that carry a
// difference through (149 of the 156 Divs of seeds 0-299 that change
// the outputs do so at their first hazardous sample), few enough that the replays cost a default
// run a fraction of its ground truth's time (a session's load costs
// more than a run).
const maxOutputSamples = 16

// outputHazards measures the "real hazard" of every Div with a
// Div-level hazard at the declared shapes (verdict other than none):
// whether the model's outputs change when that Div floors instead of
// truncating. First with the others truncating, as ONNX computes them:
// the truncating model (replay.onnx) against the variant flooring that
// Div alone (Variant.FloorOnly). Then, for the Divs where that changed
// nothing, with the others flooring, as OpenVINO's import computes them:
// the variant keeping that Div alone truncating (Variant.FloorExcept)
// against the flooring model (replay.floor.onnx); a Div's difference
// may reach the outputs only through another Div's flooring (seed 50:
// x / 3 / 4 at x = -2 gives 0 / 4 and -1 / 4, 0 both truncating). All
// are guarded alike, and run on the samples at the declared shapes
// where the probe counted hazards at that Div, at most maxOutputSamples
// (errorSamples for an error's Div) of them spread over the sample order (the grid of small shapes first,
// random ones after). The other samples need no run: there this Div's
// floor and truncation agree at every element, in every iteration of a
// body, so both models compute alike (in the second context only as
// far as the probe, run with every Div truncating, tells: a sample where
// the flooring Divs upstream make this one inexact is not tried). On
// ONNX Runtime as the ground truth does (batched jobs, one node process
// per context), else on irdiv's own evaluation of both files (faithful
// import, Div truncating: only the variants' own ops floor).
func outputHazards(t *testing.T, r ortreplay.Runner, ort bool, errorSamples int, cases []*diffCase) {
	if !ort {
		t.Logf("hazards replayed to the outputs on irdiv's own evaluation (faithful import of the variants), as ONNX Runtime is not available")
	}
	alone := outputContext{shared: "replay.onnx", sharedFloors: false, suffix: "floor-only",
		variant: func(d randmodel.Div) randmodel.Variant { return randmodel.Variant{Guard: true, FloorOnly: d.Node} },
		truth:   func(d *divCase) *outputTruth { return &d.out.alone }}
	others := outputContext{shared: "replay.floor.onnx", sharedFloors: true, suffix: "floor-except",
		variant: func(d randmodel.Div) randmodel.Variant {
			return randmodel.Variant{Guard: true, Floor: true, FloorExcept: d.Node}
		},
		truth: func(d *divCase) *outputTruth { return &d.out.others }}
	due := func(d *divCase) bool { return d.declared >= 0 && d.verdict != vNone }
	alone.replay(t, r, ort, errorSamples, cases, due)
	others.replay(t, r, ort, errorSamples, cases, func(d *divCase) bool {
		return due(d) && d.out.alone.tried > 0 && !d.out.alone.differs()
	})
}

// outputContext is one way of replaying a Div's hazards to the outputs:
// a model file shared by the Divs of a model, run once on the union of
// their samples, against each Div's own variant.
type outputContext struct {
	shared string
	// sharedFloors: the shared model is the one where the Div floors
	// (the Div's own variant keeps it truncating).
	sharedFloors bool
	suffix       string // of the Div's variant's file name
	variant      func(randmodel.Div) randmodel.Variant
	truth        func(*divCase) *outputTruth
}

// replay runs the context for the Divs that want it.
func (x outputContext) replay(t *testing.T, r ortreplay.Runner, ort bool, errorSamples int, cases []*diffCase, want func(*divCase) bool) {
	type pending struct {
		c     *diffCase
		divs  []*divCase
		picks [][]int // per Div, indices of c.samples
		union []int   // the samples the shared model runs, ascending
		err   string  // why none of the model's replays ran
	}
	var todo []*pending
	for _, c := range cases {
		p := &pending{c: c}
		inUnion := map[int]bool{}
		for i := range c.divs {
			d := &c.divs[i]
			if !want(d) {
				continue
			}
			var hazardous []int
			for k, s := range c.truth {
				if s.ran && c.samples[k].Declared && s.hazards[d.div.Output] > 0 {
					hazardous = append(hazardous, k)
				}
			}
			most := maxOutputSamples
			if d.verdict == vError {
				most = errorSamples
			}
			picks := hazardous
			if len(hazardous) > most {
				picks = make([]int, most)
				for j := range picks {
					picks[j] = hazardous[j*len(hazardous)/most]
				}
			}
			if err := os.WriteFile(x.file(c, d), c.m.Variant(x.variant(d.div)), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, k := range picks {
				inUnion[k] = true
			}
			p.divs, p.picks = append(p.divs, d), append(p.picks, picks)
		}
		if len(p.divs) == 0 {
			continue
		}
		p.union = slices.Sorted(maps.Keys(inUnion))
		todo = append(todo, p)
	}
	if len(todo) == 0 {
		return // not even a node process to start
	}
	// jobsOf is a model's jobs: the shared model on the union of
	// samples, then each Div's variant on its own.
	jobsOf := func(p *pending) []ortreplay.Job {
		runs := func(ks []int) []map[string]*ir.Tensor {
			var rs []map[string]*ir.Tensor
			for _, k := range ks {
				rs = append(rs, p.c.samples[k].Inputs)
			}
			return rs
		}
		jobs := []ortreplay.Job{{Model: filepath.Join(p.c.dir, x.shared), Runs: runs(p.union)}}
		for i, d := range p.divs {
			jobs = append(jobs, ortreplay.Job{Model: x.file(p.c, d), Runs: runs(p.picks[i])})
		}
		return jobs
	}
	// results are per model its jobs' outcomes, as jobsOf orders them.
	results := make([][][]ortreplay.Outcome, len(todo))
	if ort {
		var all []ortreplay.Job
		for _, p := range todo {
			all = append(all, jobsOf(p)...)
		}
		res, err := r.RunJobs(all)
		if err == nil {
			for i, p := range todo {
				results[i], res = res[:1+len(p.divs)], res[1+len(p.divs):]
			}
		} else {
			// A node that died (a fault the guards missed) costs each
			// model alone only its own replays.
			for i, p := range todo {
				if results[i], err = r.RunJobs(jobsOf(p)); err != nil {
					p.err = err.Error()
				}
			}
		}
	} else {
		for i, p := range todo {
			for _, j := range jobsOf(p) {
				data, err := os.ReadFile(j.Model)
				if err != nil {
					t.Fatal(err)
				}
				run, err := compiled(data, true)
				if err != nil {
					p.err = "irdiv's plugin cannot run " + filepath.Base(j.Model) + ": " + err.Error()
					break
				}
				outcomes := make([]ortreplay.Outcome, len(j.Runs))
				for k, in := range j.Runs {
					outcomes[k].Outputs, outcomes[k].Err = run(in)
				}
				results[i] = append(results[i], outcomes)
			}
		}
	}
	for i, p := range todo {
		for j, d := range p.divs {
			o := x.truth(d)
			*o = outputTruth{sample: -1, err: p.err}
			if p.err != "" {
				continue
			}
			shared := map[int]ortreplay.Outcome{}
			for n, k := range p.union {
				shared[k] = results[i][0][n]
			}
			for n, k := range p.picks[j] {
				trunc, floor := results[i][1+j][n], shared[k]
				if !x.sharedFloors {
					trunc, floor = floor, trunc
				}
				if !o.measure(p.c.m, k, n, trunc, floor) {
					break
				}
			}
		}
	}
}

// file is where a context writes a Div's variant.
func (x outputContext) file(c *diffCase, d *divCase) string {
	return filepath.Join(c.dir, "replay."+x.suffix+"."+d.div.Node+".onnx")
}

// measure reads one sample's runs of a Div's output-level replay: the
// model where the Div truncates and the one where it floors. It reports
// false where neither runs at any input (a model ONNX Runtime cannot
// load), and the Div's replay ends.
func (o *outputTruth) measure(m *randmodel.Model, sample, rank int, trunc, floor ortreplay.Outcome) bool {
	for _, err := range []error{trunc.Err, floor.Err} {
		if err != nil && strings.Contains(err.Error(), "cannot load") {
			// Wrong at every input of the declared shapes: the
			// generator's fault (or the variant's), no measure.
			*o = outputTruth{sample: -1, err: err.Error()}
			return false
		}
	}
	if trunc.Err != nil || faulted(trunc) != "" {
		// The probe ran this sample with every Div truncating: the
		// first context's truncating model runs it too but for a
		// runtime's failure (seed 1851's); the second's floors the
		// other Divs, which may fault. No measure here.
		return true
	}
	o.tried++
	if floor.Err != nil || faulted(floor) != "" {
		o.floorFaults++
		return true
	}
	if differ, detail := compareRuns(m, trunc, floor); differ && o.sample < 0 {
		o.sample, o.detail, o.rank = sample, detail, rank
	}
	return true
}

// faulted names a guarded model's probe that counted a fault in a run
// ("" for none).
func faulted(o ortreplay.Outcome) string {
	for name, t := range o.Outputs {
		if strings.HasSuffix(name, "/faults") && count(t) != 0 {
			return name
		}
	}
	return ""
}

// compareRuns says whether the flooring model's outputs differ from the
// truncating model's, which must run.
func compareRuns(m *randmodel.Model, trunc, floor ortreplay.Outcome) (bool, string) {
	switch {
	case trunc.Err != nil:
		return false, "the ONNX model does not run: " + trunc.Err.Error()
	case faulted(trunc) != "":
		return false, "the ONNX model does not run: " + faulted(trunc) + " (a division by 0 or of MIN by -1, or a window larger than its input)"
	case floor.Err != nil:
		return true, "the flooring model fails: " + floor.Err.Error()
	case faulted(floor) != "":
		return true, "the flooring model faults: " + faulted(floor)
	}
	var diffs []string
	for _, o := range m.Outputs {
		x, y := trunc.Outputs[o], floor.Outputs[o]
		if x == nil || y == nil {
			return false, "output " + o + " missing"
		}
		if x.Type != y.Type || !slices.Equal(x.Shape, y.Shape) || !slices.Equal(x.Data, y.Data) {
			diffs = append(diffs, fmt.Sprintf("%s: %s%s %s, flooring %s%s %s", o, x.Type, shapeText(x.Shape), preview(x), y.Type, shapeText(y.Shape), preview(y)))
		}
	}
	if len(diffs) == 0 {
		return false, fmt.Sprintf("all %d outputs equal", len(m.Outputs))
	}
	return true, strings.Join(diffs, "; ")
}

// report tallies the verdicts, fails the test on a false proof or a false
// error (writing each offending model where it can be replayed), and
// prints the summary.
func report(t *testing.T, cfg diffConfig, cases []*diffCase, truthName, phases string, took time.Duration) {
	type tally struct{ all, hazardous int }
	counts, inBodies, inScans := map[string]*tally{}, map[string]*tally{}, map[string]*tally{}
	for _, v := range verdictOrder {
		counts[v], inBodies[v], inScans[v] = &tally{}, &tally{}, &tally{}
	}
	var falseProofs, falseErrors, refused, unloadable, panicked, noTruth, divs, bodyDivs, bodyModels, bodyRuns, bodyRan, confirmed, unreplayed, leftAsWarnings, runtimeFails int
	// masked: hazards left as warnings where irdiv found inputs under
	// which the quotients differ and every output is the same.
	masked := 0
	// The measure of a real hazard is at the outputs: an input
	// where they change when the Div floors instead of truncating
	// (outputHazards: the others truncating, or failing that flooring).
	// Its denominator counts every Div found to be such a hazard by that
	// same measure, whatever its verdict: errors, warnings, and proofs
	// (false proofs, which fail the test anyway). It does not count an
	// error merely for its Div-level hazard, nor for a counter-example
	// replay that changed the outputs with every Div flooring (d.differ:
	// another Div may have made the change, and irdiv's search aims
	// where the samples do not), which would inflate it with Divs the
	// warnings' own measure could not count; those are shown apart
	// (confirmedUnseen). Divs the replays could not measure (unmeasured)
	// count in neither place.
	var outWarnings, outErrors, outProofs, floorFaultsOnly, confirmedUnseen, unmeasured, divHazards int
	// The same with the other Divs truncating only (Variant.FloorOnly):
	// the measure that misses a Div whose difference shows only through
	// another's flooring.
	var aloneWarnings, aloneErrors, aloneProofs int
	// A model irdiv refuses, or finds to run on no input
	// (structure/never-runs), is right where ONNX Runtime runs it on no
	// sample (of its declared shapes, for a refusal, which is about
	// them): its Divs, otherwise undecided, count as decided then
	// (nowDecided); a false refusal or finding where it runs one fails
	// the test. undecided counts the Divs of every model that are
	// floor-trunc-possible, not-analysed or none, the measure.
	var refusedNoRun, refusedNoRunDivs, falseRefusals, refusedRunsElsewhere, neverRunsModels, neverRunsDivs, falseNeverRuns, undecided, nowDecided, neverRunsDeclaredModels int
	var outputLevel, divLevelOnly []string
	var validating time.Duration
	var slowest *diffCase
	out := cfg.out
	offend := func(c *diffCase, d *divCase, what string, witness map[string]*ir.Tensor) {
		if out == "" {
			var err error
			if out, err = os.MkdirTemp("", "irdiv-differential-"); err != nil {
				t.Fatal(err)
			}
		}
		dir := filepath.Join(out, fmt.Sprintf("seed%d-%s", c.m.Seed, d.div.Node))
		if err := saveOffender(c, dir, witness); err != nil {
			t.Fatal(err)
		}
		// Only ONNX Runtime is a ground truth to fail on: irdiv's own
		// evaluation runs OpenVINO's ops, which answer some inputs ONNX
		// refuses (a Gather out of range gives zeros), so what it finds
		// is a lead, reported, not a verdict.
		flag := t.Errorf
		if !strings.HasPrefix(truthName, "ONNX Runtime") {
			flag = t.Logf
			what = "suspected, on irdiv's own evaluation (install ONNX Runtime to decide): " + what
		}
		flag("%s: model %v\n  Div %s (%s)%s: %s: %s\n  witness: %s\n  replay: %s\n%s", what, c.m, d.div.Node, d.div.Output, inBody(d.div), d.verdict, d.finding.Message, inputsLine(witness), dir, indent(c.m.Listing()))
	}
	// offendModel reports a model whose refusal or never-runs finding
	// ONNX Runtime contradicts at the sample witness.
	offendModel := func(c *diffCase, what string, witness int) {
		if out == "" {
			var err error
			if out, err = os.MkdirTemp("", "irdiv-differential-"); err != nil {
				t.Fatal(err)
			}
		}
		dir := filepath.Join(out, fmt.Sprintf("seed%d", c.m.Seed))
		if err := saveOffender(c, dir, c.samples[witness].Inputs); err != nil {
			t.Fatal(err)
		}
		flag := t.Errorf
		if !strings.HasPrefix(truthName, "ONNX Runtime") {
			flag = t.Logf
			what = "suspected, on irdiv's own evaluation (install ONNX Runtime to decide): " + what
		}
		flag("%s: model %v\n  witness: %s\n  replay: %s\n%s", what, c.m, inputsLine(c.samples[witness].Inputs), dir, indent(c.m.Listing()))
	}
	for _, c := range cases {
		if c.refused != "" {
			refused++
			t.Logf("irdiv refuses %v: %s", c.m, c.refused)
		}
		undecidedHere := 0
		for _, d := range c.divs {
			if d.verdict == vPossible || d.verdict == vUnanalysed || d.verdict == vNone {
				undecidedHere++
			}
		}
		undecided += undecidedHere
		switch {
		case len(c.truth) == 0:
		case c.refused != "":
			if at := c.ranAt(true); at >= 0 {
				falseRefusals++
				offendModel(c, "false refusal (irdiv refuses the model: "+c.refused+"; ONNX Runtime runs it at a sample of its declared shapes)", at)
			} else if c.ranAt(false) >= 0 {
				refusedRunsElsewhere++
			} else {
				refusedNoRun++
				refusedNoRunDivs += len(c.divs)
				nowDecided += undecidedHere
			}
		case c.neverRunsFinding != nil && c.neverRunsFinding.Evidence.Get("declared_shapes_only") == true:
			// Its Divides agree at the declared shapes (nothing is
			// divided there): their verdicts say so, checked as others.
			if at := c.ranAt(true); at >= 0 {
				falseNeverRuns++
				offendModel(c, fmt.Sprintf("false never-runs finding at the declared shapes (%s %s: %s; ONNX Runtime runs the model at a sample of its declared shapes)", c.neverRunsFinding.Code, c.neverRunsFinding.Layer, c.neverRunsFinding.Message), at)
			} else {
				neverRunsDeclaredModels++
			}
		case c.neverRunsFinding != nil:
			if at := c.ranAt(false); at >= 0 {
				falseNeverRuns++
				offendModel(c, fmt.Sprintf("false never-runs finding (%s %s: %s; ONNX Runtime runs the model)", c.neverRunsFinding.Code, c.neverRunsFinding.Layer, c.neverRunsFinding.Message), at)
			} else {
				neverRunsModels++
				neverRunsDivs += len(c.divs)
				nowDecided += undecidedHere
			}
		}
		if c.panicked != "" {
			panicked++
			t.Errorf("validate panics on %v: %s\n%s", c.m, c.panicked, indent(c.m.Listing()))
		}
		if c.truth == nil {
			noTruth++
		}
		if c.unloadable != "" {
			unloadable++
			t.Logf("ONNX Runtime refuses %v: %s", c.m, c.unloadable)
		}
		validating += c.elapsed
		if slowest == nil || c.elapsed > slowest.elapsed {
			slowest = c
		}
		if slices.ContainsFunc(c.divs, func(d divCase) bool { return d.div.Body != "" }) {
			bodyModels++
			for _, s := range c.truth {
				bodyRuns++
				if s.ran {
					bodyRan++
				}
			}
		}
		for i := range c.divs {
			d := &c.divs[i]
			divs++
			hazard := d.declared >= 0
			if d.verdict == vAgree {
				hazard = d.anyShape >= 0
			}
			counts[d.verdict].all++
			if hazard {
				counts[d.verdict].hazardous++
				if d.verdict != vNone {
					divHazards++
				}
			}
			due := d.declared >= 0 && d.verdict != vNone // outputHazards replays it
			if due && d.out.alone.tried == 0 {
				unmeasured++
				t.Logf("seed %d %s: hazards not replayed to the outputs: %s", c.m.Seed, d.div.Node, cmp.Or(d.out.err(), "no sample ran"))
			}
			if d.div.Body != "" {
				bodyDivs++
				inBodies[d.verdict].all++
				if hazard {
					inBodies[d.verdict].hazardous++
				}
			}
			if strings.Contains(d.div.Body, "_Scan body") {
				inScans[d.verdict].all++
				if hazard {
					inScans[d.verdict].hazardous++
				}
			}
			switch d.verdict {
			case vAgree:
				if d.out.differs() {
					outProofs++
					if d.out.alone.differs() {
						aloneProofs++
					}
				}
				if hazard {
					falseProofs++
					where := "at the declared input shapes"
					if d.declared < 0 {
						where = "at other input shapes only"
					}
					offend(c, d, "false proof (floor and truncation differ "+where+")", c.samples[d.anyShape].Inputs)
				}
			case vError:
				switch {
				case !d.replayed:
					unreplayed++
					t.Logf("seed %d %s: counter-example not replayed: %s", c.m.Seed, d.div.Node, cmp.Or(d.replayErr, "no counter-example"))
				case d.differ:
					confirmed++
					if due && !d.out.differs() {
						confirmedUnseen++
					}
				case c.neverRuns() && strings.HasPrefix(d.replayDetail, "the ONNX model does not run"):
					runtimeFails++
					t.Logf("seed %d %s: ONNX Runtime fails the model at every sample and at the counter-example (a runtime bug, not a verdict): %s", c.m.Seed, d.div.Node, d.replayDetail)
				default:
					falseErrors++
					what := "false error (the counter-example " + d.replayDetail + ")"
					if strings.HasPrefix(d.replayDetail, "the ONNX model does not run") {
						what += "; irdiv's own evaluation of the whole model (ONNX's rounding) " + c.irdivRuns(d.counterExampleInput)
					}
					offend(c, d, what, d.counterExampleInput)
				}
			case vReshape, vPossible, vUnanalysed:
				if hazard {
					leftAsWarnings++
					if d.finding.Evidence.Get("masked_at") != nil {
						masked++
					}
					switch {
					case d.out.differs():
						outWarnings++
						if d.out.alone.differs() {
							aloneWarnings++
						}
						if cfg.showWarnings {
							how, w := d.out.witness()
							outputLevel = append(outputLevel, fmt.Sprintf("seed %d %s (%s)%s: %s\n  %s changes the outputs at %s: %s\n%s",
								c.m.Seed, d.div.Node, d.div.Output, inBody(d.div), d.finding.Message, how, inputsLine(c.samples[w.sample].Inputs), w.detail, indent(c.m.Listing())))
						}
					default:
						if d.out.floorFaults() > 0 {
							floorFaultsOnly++
						}
						if cfg.showWarnings {
							divLevelOnly = append(divLevelOnly, fmt.Sprintf("seed %d %s (%s)%s: %s\n  the quotients differ (first at %s), the outputs do not at %d samples flooring it alone, %d flooring it among the others (%d where only the model flooring it faults)%s\n%s",
								c.m.Seed, d.div.Node, d.div.Output, inBody(d.div), d.finding.Message, inputsLine(c.samples[d.declared].Inputs), d.out.alone.tried, d.out.others.tried, d.out.floorFaults(), notReplayed(d.out.err()), indent(c.m.Listing())))
						}
					}
				}
			}
			if d.verdict == vError && d.out.differs() {
				outErrors++
				if d.out.alone.differs() {
					aloneErrors++
				}
			}
		}
	}
	for _, w := range outputLevel {
		t.Logf("an output-level hazard left as a warning: %s", w)
	}
	for _, w := range divLevelOnly {
		t.Logf("a Div-level hazard left as a warning, the outputs unchanged at the samples replayed: %s", w)
	}
	if cfg.dump != "" {
		if err := dumpDivs(cfg.dump, cases); err != nil {
			t.Error(err)
		}
	}
	var lines, bodyLines, scanLines []string
	scanDivs := 0
	for _, v := range verdictOrder {
		lines = append(lines, fmt.Sprintf("%s %d (%d hazardous)", strings.TrimPrefix(v, "divide/"), counts[v].all, counts[v].hazardous))
		if inBodies[v].all > 0 {
			bodyLines = append(bodyLines, fmt.Sprintf("%s %d (%d hazardous)", strings.TrimPrefix(v, "divide/"), inBodies[v].all, inBodies[v].hazardous))
		}
		if inScans[v].all > 0 {
			scanLines = append(scanLines, fmt.Sprintf("%s %d (%d hazardous)", strings.TrimPrefix(v, "divide/"), inScans[v].all, inScans[v].hazardous))
			scanDivs += inScans[v].all
		}
	}
	bodyLines = append(bodyLines, fmt.Sprintf("of which %d in Scan bodies: %s", scanDivs, strings.Join(scanLines, ", ")))
	t.Logf("differential: %d models (seeds %d..%d, %d runs each), ground truth %s: %d integer Divs: %s; %d in If, Loop and Scan bodies (of %d models, whose runs ran %d times in %d): %s; %d false proofs, %d false errors, %d errors confirmed, %d not replayed, %d where ONNX Runtime fails the model at every input, %d real hazards left as warnings at the Div (%d masked: irdiv found inputs where the quotients differ and no output does), of %d Div-level hazards = %s, %d of them change the model's outputs (the issue's measure): %d of %d output-level hazards = %s (a Div whose flooring changes an output at one of at most %d samples (%d for an error's) of the declared shapes where its quotients differ, the other Divs truncating or, failing that, flooring: %d errors, %d warnings, %d proofs; with the others truncating only, %d errors, %d warnings, %d proofs: %d of %d = %s; not counted: %d more warnings where only the model flooring the Div faults, %d errors whose counter-example changes the outputs with every Div flooring but no such sample was found, %d Divs not measured); %d models irdiv refuses (%d where ONNX Runtime runs the model on no sample of its declared shapes, whose %d Divs count as decided; %d false refusals, where it runs one; %d where it runs only at other shapes), %d ONNX Runtime refuses, %d without ground truth, %d panics; %d models irdiv finds to run on no input (structure/never-runs) where ONNX Runtime runs them on no sample, whose %d Divs count as decided, %d at the declared shapes only (whose Divides agree there), %d false never-runs findings; undecided (floor-trunc-possible, not-analysed, none) %d of %d = %s, %d = %s counting as decided the %d of them in models refused or found to run on no input that ONNX Runtime runs on no sample; validation %v in all, slowest %v (seed %d); %s; %v in all",
		len(cases), cfg.start, cfg.start+cfg.models-1, diffSamples, truthName, divs, strings.Join(lines, ", "), bodyDivs, bodyModels, bodyRan, bodyRuns, strings.Join(bodyLines, ", "),
		falseProofs, falseErrors, confirmed, unreplayed, runtimeFails, leftAsWarnings, masked, divHazards, percent(leftAsWarnings, divHazards),
		outWarnings, outWarnings, outErrors+outWarnings+outProofs, percent(outWarnings, outErrors+outWarnings+outProofs), maxOutputSamples, cfg.errorSamples, outErrors, outWarnings, outProofs,
		aloneErrors, aloneWarnings, aloneProofs, aloneWarnings, aloneErrors+aloneWarnings+aloneProofs, percent(aloneWarnings, aloneErrors+aloneWarnings+aloneProofs),
		floorFaultsOnly, confirmedUnseen, unmeasured, refused, refusedNoRun, refusedNoRunDivs, falseRefusals, refusedRunsElsewhere, unloadable, noTruth, panicked,
		neverRunsModels, neverRunsDivs, neverRunsDeclaredModels, falseNeverRuns, undecided, divs, percent(undecided, divs), undecided-nowDecided, percent(undecided-nowDecided, divs), nowDecided,
		validating.Round(time.Millisecond), slowest.elapsed.Round(time.Millisecond), slowest.m.Seed, phases, took.Round(time.Second))
	if out != "" {
		t.Logf("offending models are in %s (each folder: model.onnx, model.floor.onnx, listing.txt, and the witness inputs as .npy for ortreplay.ReplayDir)", out)
	}
}

// dumpDivs writes a JSON line per Div: its model's seed, node, verdict
// and message, and the first samples where floor and truncation differ.
func dumpDivs(path string, cases []*diffCase) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, c := range cases {
		for _, d := range c.divs {
			line := map[string]any{"seed": c.m.Seed, "node": d.div.Node, "body": d.div.Body, "verdict": d.verdict, "declared": d.declared, "any_shape": d.anyShape,
				"replayed": d.replayed, "differ": d.differ, "ops": strings.Join(c.m.Ops, " "),
				// The output-level result (outputHazards): samples
				// replayed with this Div flooring alone, the first where
				// an output changes (-1 none), how, and those where only
				// the flooring model faults.
				"out_differ": d.out.differs(), "out_alone": d.out.alone.differs(), "out_others": d.out.others.differs(),
				"out_tried": d.out.alone.tried, "out_others_tried": d.out.others.tried, "out_floor_faults": d.out.floorFaults(),
				// The model's own fate: ONNX Runtime fails it at every
				// sample; irdiv refuses it.
				"never_runs": c.neverRuns(), "refused": c.refused != "",
				// irdiv's structure/never-runs finding on the model, and
				// the samples ONNX Runtime ran it on (-1: no ground truth).
				"never_runs_finding": c.neverRunsFinding != nil, "ran_samples": c.ranSamples()}
			if c.ranSamples() == 0 {
				// Why ONNX Runtime ran not even the first sample.
				line["never_ran_why"] = c.truth[0].why
			}
			if d.out.differs() {
				how, w := d.out.witness()
				line["out_sample"], line["out_rank"], line["out_detail"] = w.sample, w.rank, how+": "+w.detail
			}
			if err := d.out.err(); err != "" {
				line["out_err"] = err
			}
			if d.finding != nil {
				line["message"] = d.finding.Message
			}
			if err := enc.Encode(line); err != nil {
				f.Close()
				return err
			}
		}
	}
	return f.Close()
}

// notReplayed says why a Div's hazards were not replayed to the outputs
// ("" if they were).
func notReplayed(err string) string {
	if err == "" {
		return ""
	}
	return "; not replayed: " + err
}

// percent is part of whole as "12.8%" ("-" of nothing).
func percent(part, whole int) string {
	if whole == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(part)/float64(whole))
}

// irdivRuns says whether irdiv's own concrete evaluation of the whole
// model (Divides truncating, as the search's reference evaluation does)
// runs on inputs: where it does and ONNX Runtime does not, irdiv's ops
// accept what ONNX refuses; where it fails too, the search evaluated
// only the part of the model around the Divide.
func (c *diffCase) irdivRuns(inputs map[string]*ir.Tensor) string {
	om, err := onnx.Read(c.m.Bytes(), onnx.ReadOptions{})
	if err != nil {
		return err.Error()
	}
	m, err := onnx.Import(om, onnx.ImportOptions{})
	if err != nil {
		return err.Error()
	}
	v := analyze(m, "model.onnx", Options{})
	byLayer := map[*ir.Layer]*ir.Tensor{}
	for _, l := range m.Parameters() {
		byLayer[l] = inputs[l.Name]
	}
	if run := v.search.Evaluate(byLayer, search.RunOptions{Floor: truncating, ONNX: true}); run.Err != nil {
		return "fails too: " + run.Err.Error()
	}
	return "runs"
}

// saveOffender writes a model, its flooring twin, its listing and the
// witness inputs (as a counter-example folder) into dir.
func saveOffender(c *diffCase, dir string, witness map[string]*ir.Tensor) error {
	if err := os.MkdirAll(filepath.Join(dir, "witness"), 0o755); err != nil {
		return err
	}
	for name, data := range map[string][]byte{
		"model.onnx":       c.m.Bytes(),
		"model.floor.onnx": c.m.Variant(randmodel.Variant{Floor: true}),
		"listing.txt":      []byte(c.m.Listing()),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	files := (&CounterExample{Inputs: witness}).Files()
	for name, t := range witness {
		if err := npy.WriteFile(filepath.Join(dir, "witness", files[name]), t); err != nil {
			return err
		}
	}
	return nil
}

// inBody says where a Div inside a body is (" in n3_If then_branch"), and
// nothing for one of the model's graph.
func inBody(d randmodel.Div) string {
	if d.Body == "" {
		return ""
	}
	return " in " + d.Body
}

func inputsLine(inputs map[string]*ir.Tensor) string {
	var parts []string
	for name, t := range inputs {
		parts = append(parts, fmt.Sprintf("%s=%s%s %s", name, t.Type, shapeText(t.Shape), preview(t)))
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
