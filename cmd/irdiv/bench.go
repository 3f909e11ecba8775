package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/plugin"
	"github.com/irdiv/irdiv/shapeinfer"
)

// benchResult is the --json form of bench, documented in README.md.
type benchResult struct {
	Count int64 `json:"count"`
	// DurationMS is the time the inferences took, the loop's own cost
	// left out: Average = DurationMS / Count and Throughput = 1000 *
	// Count / DurationMS exactly. WallMS is the whole measured loop.
	DurationMS float64 `json:"duration_ms"`
	WallMS     float64 `json:"wall_ms"`
	LatencyMS  struct {
		Median  float64 `json:"median"`
		Average float64 `json:"average"`
		Min     float64 `json:"min"`
		Max     float64 `json:"max"`
	} `json:"latency_ms"`
	Percentile float64 `json:"latency_percentile"`
	// LatencyExact tells whether the percentile is one of the measured
	// samples (up to 65536 of them) or read from the histogram (within
	// 0.1%).
	LatencyExact  bool    `json:"latency_exact"`
	ThroughputFPS float64 `json:"throughput_fps"`
	// Batch is how many inferences one latency sample times: 1 when an
	// inference is long enough for the clock, more when it is not, and
	// then the latencies are the samples' averages.
	Batch int64 `json:"batch"`
	// ClockNS is what one clock reading costs, ClockResolutionNS the
	// smallest step the clock showed.
	ClockNS           float64 `json:"clock_ns"`
	ClockResolutionNS float64 `json:"clock_resolution_ns"`
	SIMD              string  `json:"simd"`
	Threads           int     `json:"threads"`
	FirstInferMS      float64 `json:"first_inference_ms"`
	// PerfCounts are the layers' average counters over the measured
	// inferences, with -pc.
	PerfCounts []perfCount `json:"perf_counts,omitempty"`
}

// perfCount is one layer's line of -pc and of the counters report.
type perfCount struct {
	Name       string  `json:"name"`
	Status     string  `json:"status"`
	NodeType   string  `json:"node_type"`
	ExecType   string  `json:"exec_type"`
	RealTimeMS float64 `json:"real_time"`
	CPUTimeMS  float64 `json:"cpu_time"`
	Elements   int64   `json:"elements,omitempty"`
	Threads    int     `json:"threads,omitempty"`
}

// benchOptions are bench's flags, checked.
type benchOptions struct {
	modelFlags
	model      string
	config     plugin.Config
	seconds    float64 // 0: no time limit
	niter      int64   // 0: no iteration limit
	given      map[string]string
	shapes     map[string][]int64 // "" : every generated input
	percentile float64
	asJSON     bool
	perfCounts bool
	report     reportOptions
	flagsSet   [][2]string // "-name", value: the command line, for the statistics report
}

func benchCmd(args []string, stdout, stderr io.Writer) error {
	o, err := parseBench(args, stdout)
	if err != nil {
		return err
	}
	if err := o.readLimits.check(); err != nil {
		return err
	}
	defer watchMemory("bench", o.maxMemory.whole(int64(o.maxTensor)))()
	defer processing(o.model)()
	m, inputs, err := readModelFiles(o.model, o.readLimits.apply(ir.ReadOptions{WeightsPath: o.weights}), int64(o.maxTensor))
	if err != nil {
		return err
	}
	o.config.Profiling = o.perfCounts || o.report.counters()
	cm, err := plugin.NewCore().CompileModel(m, o.config)
	if err != nil {
		return err
	}
	req := cm.NewInferRequest()
	log := stdout
	if o.asJSON {
		log = io.Discard
	}
	if every, ok := o.shapes[""]; ok {
		delete(o.shapes, "")
		for _, p := range cm.Inputs() {
			if _, named := o.shapes[p.Name]; !named {
				o.shapes[p.Name] = every
			}
		}
	}
	for _, path := range o.given {
		inputs.add(path)
	}
	if err := bindInputs(cm, req, o.given, nil, o.shapes, o.generator(), o.seed, int64(o.maxTensor), log); err != nil {
		return err
	}
	var progress io.Writer
	if isTerminal(stderr) && !o.asJSON {
		progress = stderr
	}
	res, last, err := measure(req, o, progress)
	if err != nil {
		return err
	}
	res.SIMD, res.Threads = cm.SIMD().String(), o.threads
	average := res.PerfCounts
	if !o.perfCounts {
		res.PerfCounts = nil
	}
	if err := reportBench(stdout, res, o.asJSON); err != nil {
		return err
	}
	if o.report.kind != "" {
		return writeReports(log, o, res, average, last, inputs)
	}
	return nil
}

const benchHelp = `MODEL.xml [flags]

Measures inference like OpenVINO's benchmark_app: synchronous requests one
after another, the first inference excluded, latency percentiles by
benchmark_app's index rule. With both -t and -niter it runs until both are
reached, as benchmark_app does. An inference shorter than the clock can
time well is timed in batches; Duration is the inferences' own time, and
Average and Throughput follow from it and Count. benchmark_app's spellings
are accepted: -m, -shape "a[64,4]", -data_shape, -latency_percentile, -pc,
-report_type, -report_folder, -json_stats.`

func parseBench(args []string, stdout io.Writer) (benchOptions, error) {
	fs := newFlagSet("bench", benchHelp, stdout)
	var o benchOptions
	o.modelFlags.register(fs)
	var model string
	fs.StringVar(&model, "m", "", "the `MODEL` (.xml or .onnx), as benchmark_app takes it; or give it as the argument")
	fs.Float64Var(&o.seconds, "t", 0, "run for at least this many `SECONDS` (default 10 when -niter is not given)")
	fs.Int64Var(&o.niter, "niter", 0, "run at least this many iterations")
	var shapes, dataShapes multiFlag
	fs.Var(&shapes, "shape", "shape of generated inputs: `NAME=[dims]` (repeatable), or benchmark_app's \"a[64,4],b[4]\" or \"[64,4]\" for every input")
	fs.Var(&dataShapes, "data_shape", "`SHAPES` as --shape takes them; they win over --shape (benchmark_app's data shape of a dynamic input)")
	fs.BoolVar(&o.asJSON, "json", false, "print one JSON object (schema in README.md)")
	fs.Float64Var(&o.percentile, "latency-percentile", 50, "latency percentile to report as the median line, 1..100")
	fs.Float64Var(&o.percentile, "latency_percentile", 50, "as --latency-percentile (benchmark_app's spelling)")
	fs.BoolVar(&o.perfCounts, "pc", false, "print each layer's average counters: time, implementation, elements and threads")
	fs.StringVar(&o.report.kind, "report_type", "", "write benchmark_app's reports: `TYPE` no_counters, average_counters or detailed_counters")
	fs.StringVar(&o.report.folder, "report_folder", ".", "`DIR` for the reports of -report_type")
	fs.BoolVar(&o.report.asJSON, "json_stats", false, "write the reports of -report_type as JSON instead of CSV")
	pos, err := fs.parse(args)
	if err != nil {
		return o, err
	}
	switch {
	case model != "" && len(pos) == 0:
		o.model = model
	case model == "" && len(pos) == 1:
		o.model = pos[0]
	case model != "":
		return o, usageErr("-m %s: want the model once, as -m or as the argument, got %d arguments besides", model, len(pos))
	default:
		return o, usageErr("want one MODEL.xml, got %d arguments", len(pos))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		set[f.Name] = true
		o.flagsSet = append(o.flagsSet, [2]string{"-" + f.Name, f.Value.String()})
	})
	switch {
	case set["t"] && !(o.seconds > 0 && o.seconds <= maxBenchSeconds):
		return o, usageErr("-t %v: want a number of seconds above 0, at most %d", o.seconds, maxBenchSeconds)
	case set["niter"] && !(o.niter >= 1 && o.niter <= maxBenchIterations):
		return o, usageErr("-niter %d: want from 1 to %d iterations", o.niter, int64(maxBenchIterations))
	case !(o.percentile >= 1 && o.percentile <= 100):
		return o, usageErr("--latency-percentile %v: want a number from 1 to 100", o.percentile)
	case o.report.kind != "" && !slices.Contains(reportTypes, o.report.kind):
		return o, usageErr("-report_type %s: want one of %s", o.report.kind, strings.Join(reportTypes, ", "))
	case o.report.kind == "" && (set["report_folder"] || set["json_stats"]):
		return o, usageErr("-report_folder and -json_stats need -report_type")
	}
	if !set["t"] && !set["niter"] {
		o.seconds = 10
	}
	if o.config, err = o.modelFlags.config(); err != nil {
		return o, err
	}
	if o.given, err = parseInputFlags(o.inputs); err != nil {
		return o, err
	}
	o.shapes = make(map[string][]int64)
	for _, list := range []struct {
		flag   string
		values multiFlag
	}{{"--shape", shapes}, {"--data_shape", dataShapes}} {
		for _, s := range list.values {
			parsed, err := parseShapeFlag(s)
			if err != nil {
				return o, usageErr("%s %q: %v", list.flag, s, err)
			}
			maps.Copy(o.shapes, parsed)
		}
	}
	return o, nil
}

// parseShapeFlag reads a shape flag: ours, NAME=[dims], or
// benchmark_app's list NAME[dims],NAME[dims] where a bare [dims] is every
// input's (key "").
func parseShapeFlag(s string) (map[string][]int64, error) {
	static := func(text string) ([]int64, error) {
		shape, err := shapeinfer.ParseShape(text)
		dims, ok := shape.ToStatic()
		if err != nil || !ok {
			return nil, fmt.Errorf("%s is not a static shape", text)
		}
		return dims, nil
	}
	out := make(map[string][]int64)
	if name, text, ok := strings.Cut(s, "="); ok {
		dims, err := static(text)
		out[name] = dims
		return out, err
	}
	rest := strings.TrimSpace(s)
	for rest != "" {
		open, end := strings.IndexByte(rest, '['), strings.IndexByte(rest, ']')
		if open < 0 || end < open {
			return nil, fmt.Errorf("want NAME=[d0,d1,...] or benchmark_app's NAME[d0,d1,...], a list of them separated by commas, or [d0,d1,...] for every input")
		}
		item := rest[:end+1]
		dims, err := static(item[open:])
		if err != nil {
			return nil, err
		}
		out[strings.TrimSpace(item[:open])] = dims
		rest = strings.TrimSpace(rest[end+1:])
		if after, ok := strings.CutPrefix(rest, ","); ok {
			rest = strings.TrimSpace(after)
		} else if rest != "" {
			return nil, fmt.Errorf("want a comma after %s", item)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no shape given")
	}
	return out, nil
}

// maxBenchSeconds bounds -t (a year), so that the deadline cannot
// overflow; maxBenchIterations bounds -niter (a day and more of the
// fastest inference irdiv does), so that a typo is not a run without end.
const (
	maxBenchSeconds    = 365 * 24 * 3600
	maxBenchIterations = 1 << 40
)

// clockSamples is how many readings clockCost takes.
const clockSamples = 1000

// clockCost measures the clock: what one reading costs and the smallest
// step it shows.
func clockCost() (cost, resolution time.Duration) {
	resolution = time.Hour
	first := time.Now()
	prev := first
	for range clockSamples {
		t := time.Now()
		if d := t.Sub(prev); d > 0 {
			resolution = min(resolution, d)
		}
		prev = t
	}
	return prev.Sub(first) / clockSamples, resolution
}

// batchSpan is how long a timed sample must last for the clock: 100
// resolutions (1% quantisation) and 200 readings (the two readings of a
// sample then cost 1% of it), and at least a microsecond.
func batchSpan(cost, resolution time.Duration) time.Duration {
	return max(100*resolution, 200*cost, time.Microsecond)
}

// calibrate finds how many inferences a sample must hold to last span,
// doubling from one; these inferences are not counted.
func calibrate(req *plugin.InferRequest, span time.Duration) (int64, error) {
	for n := int64(1); ; n *= 2 {
		t0 := time.Now()
		for range n {
			if err := req.Infer(); err != nil {
				return 0, err
			}
		}
		if d := time.Since(t0); d >= span || n >= 1<<20 {
			// Scale to the span from the last measurement, rounding up.
			return max(1, min(n, int64(math.Ceil(float64(n)*float64(span)/float64(max(d, 1)))))), nil
		}
	}
}

// measure runs the first inference, sizes the batches, then runs samples
// of a batch of inferences each until both limits are reached. It returns
// the results and the layers' counters of the last inference (with
// profiling).
func measure(req *plugin.InferRequest, o benchOptions, progress io.Writer) (benchResult, []plugin.ProfilingInfo, error) {
	res := benchResult{Percentile: o.percentile}
	start := time.Now()
	if err := req.Infer(); err != nil {
		return res, nil, err
	}
	res.FirstInferMS = ms(time.Since(start))
	cost, resolution := clockCost()
	res.ClockNS, res.ClockResolutionNS = float64(cost.Nanoseconds()), float64(resolution.Nanoseconds())
	batch, err := calibrate(req, batchSpan(cost, resolution))
	if err != nil {
		return res, nil, err
	}
	res.Batch = batch
	var before []plugin.ProfilingInfo
	if o.config.Profiling {
		if before, err = req.ProfilingInfo(); err != nil {
			return res, nil, err
		}
	}
	var lat latencies
	var busy time.Duration
	var count int64
	limit := time.Duration(o.seconds * float64(time.Second))
	begin := time.Now()
	now, lastReport := begin, begin
	for o.niter > 0 && count < o.niter || limit > 0 && now.Sub(begin) < limit {
		n := batch
		if o.niter > 0 && count < o.niter {
			n = min(n, o.niter-count)
		}
		t0 := time.Now()
		for range n {
			if err := req.Infer(); err != nil {
				return res, nil, err
			}
		}
		now = time.Now()
		span := now.Sub(t0)
		busy += span
		count += n
		lat.add(float64(span.Nanoseconds()) / float64(n))
		if progress != nil && now.Sub(lastReport) > 250*time.Millisecond {
			lastReport = now
			fmt.Fprintf(progress, "\r[ INFO ] %d iterations, %.1f s", count, now.Sub(begin).Seconds())
		}
	}
	wall := now.Sub(begin)
	if progress != nil {
		fmt.Fprint(progress, "\r\033[K")
	}
	summarize(&res, &lat, count, busy, wall)
	var last []plugin.ProfilingInfo
	if o.config.Profiling {
		if last, err = req.ProfilingInfo(); err != nil {
			return res, nil, err
		}
		res.PerfCounts = averageCounters(before, last)
	}
	return res, last, nil
}

// averageCounters turns the counters before and after the measured
// inferences into each layer's average over them.
func averageCounters(before, after []plugin.ProfilingInfo) []perfCount {
	out := make([]perfCount, len(after))
	for i, a := range after {
		pc := perfCount{Name: a.NodeName, Status: a.Status.String(), NodeType: a.NodeType, ExecType: a.ExecType, Elements: a.Elements, Threads: a.Threads}
		if runs := a.Runs - before[i].Runs; runs > 0 {
			pc.RealTimeMS = ms(a.TotalTime-before[i].TotalTime) / float64(runs)
			pc.CPUTimeMS = pc.RealTimeMS
		}
		out[i] = pc
	}
	return out
}

// summarize fills the statistics. The percentile is benchmark_app's
// (element floor(n/100*p) of the sorted samples, clamped to n-1); the
// duration is the samples' sum, so that average = duration / count and
// throughput = 1000 * count / duration_ms.
func summarize(res *benchResult, lat *latencies, count int64, busy, wall time.Duration) {
	res.Count = count
	res.DurationMS = ms(busy)
	res.WallMS = ms(wall)
	res.LatencyExact = lat.isExact()
	if count == 0 {
		return
	}
	res.LatencyMS.Median = lat.percentile(res.Percentile) / 1e6
	res.LatencyMS.Average = res.DurationMS / float64(count)
	res.LatencyMS.Min = lat.min / 1e6
	res.LatencyMS.Max = lat.max / 1e6
	res.ThroughputFPS = 1000 * float64(count) / res.DurationMS
}

func reportBench(w io.Writer, res benchResult, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	fmt.Fprintf(w, "[ INFO ] Execution Devices: %s (simd %s, threads %s)\n", plugin.DeviceName, res.SIMD, threadsText(res.Threads))
	fmt.Fprintf(w, "[ INFO ] First inference took %.2f ms\n", res.FirstInferMS)
	if res.Batch > 1 {
		fmt.Fprintf(w, "[ INFO ] Timed in batches of %d inferences (a clock reading costs %.0f ns, its step is %.0f ns); latencies are the batches' averages\n",
			res.Batch, res.ClockNS, res.ClockResolutionNS)
	}
	fmt.Fprintf(w, "[ INFO ] Count:            %d iterations\n", res.Count)
	fmt.Fprintf(w, "[ INFO ] Duration:         %s (inference; %s wall)\n", msText(res.DurationMS), msText(res.WallMS))
	fmt.Fprintf(w, "[ INFO ] Latency:\n")
	label := "Median:"
	if res.Percentile != 50 {
		label = fmt.Sprintf("%g percentile:", res.Percentile)
	}
	fmt.Fprintf(w, "[ INFO ]    %-14s%s\n", label, msText(res.LatencyMS.Median))
	fmt.Fprintf(w, "[ INFO ]    %-14s%s\n", "Average:", msText(res.LatencyMS.Average))
	fmt.Fprintf(w, "[ INFO ]    %-14s%s\n", "Min:", msText(res.LatencyMS.Min))
	fmt.Fprintf(w, "[ INFO ]    %-14s%s\n", "Max:", msText(res.LatencyMS.Max))
	fmt.Fprintf(w, "[ INFO ] Throughput:       %.2f FPS\n", res.ThroughputFPS)
	if res.PerfCounts != nil {
		fmt.Fprintf(w, "[ INFO ] Performance counts, averages over the %d measured inferences:\n", res.Count)
		var total float64
		for _, pc := range res.PerfCounts {
			fmt.Fprintf(w, "%-24s %-14s layerType: %-10s execType: %-14s realTime (ms): %-12s cpuTime (ms): %s",
				pc.Name, pc.Status, pc.NodeType, pc.ExecType, msDigits(pc.RealTimeMS), msDigits(pc.CPUTimeMS))
			if pc.Elements > 0 {
				fmt.Fprintf(w, "  elements: %d  threads: %d", pc.Elements, pc.Threads)
			}
			fmt.Fprintln(w)
			total += pc.RealTimeMS
		}
		fmt.Fprintf(w, "Total time: %s milliseconds\n", msDigits(total))
	}
	return nil
}

// msDigits prints milliseconds to the nanosecond.
func msDigits(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// msText prints milliseconds with enough digits for sub-microsecond latencies.
func msText(v float64) string {
	if v < 0.01 {
		return fmt.Sprintf("%.6f ms", v)
	}
	return fmt.Sprintf("%.2f ms", v)
}

func threadsText(n int) string {
	if n == 0 {
		return "GOMAXPROCS"
	}
	return fmt.Sprint(n)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
