package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/plugin"
	"github.com/irdiv/irdiv/shapeinfer"
)

// benchResult is the --json form of bench, documented in README.md.
type benchResult struct {
	Count      int     `json:"count"`
	DurationMS float64 `json:"duration_ms"`
	LatencyMS  struct {
		Median  float64 `json:"median"`
		Average float64 `json:"average"`
		Min     float64 `json:"min"`
		Max     float64 `json:"max"`
	} `json:"latency_ms"`
	Percentile float64 `json:"latency_percentile"`
	// LatencyExact tells whether the percentile is one of the measured
	// latencies (up to 65536 iterations) or read from the histogram
	// (within 0.1%).
	LatencyExact  bool    `json:"latency_exact"`
	ThroughputFPS float64 `json:"throughput_fps"`
	SIMD          string  `json:"simd"`
	Threads       int     `json:"threads"`
	FirstInferMS  float64 `json:"first_inference_ms"`
}

// benchOptions are bench's flags, checked.
type benchOptions struct {
	modelFlags
	model      string
	config     plugin.Config
	seconds    float64 // 0: no time limit
	niter      int64   // 0: no iteration limit
	given      map[string]string
	shapes     map[string][]int64
	percentile float64
	asJSON     bool
}

func benchCmd(args []string, stdout, stderr io.Writer) error {
	o, err := parseBench(args, stdout)
	if err != nil {
		return err
	}
	m, err := readModel(o.model, ir.ReadOptions{WeightsPath: o.weights}, int64(o.maxTensor))
	if err != nil {
		return err
	}
	cm, err := plugin.NewCore().CompileModel(m, o.config)
	if err != nil {
		return err
	}
	req := cm.NewInferRequest()
	log := stdout
	if o.asJSON {
		log = io.Discard
	}
	if err := bindInputs(cm, req, o.given, o.shapes, o.generator(), o.seed, int64(o.maxTensor), log); err != nil {
		return err
	}
	var progress io.Writer
	if isTerminal(stderr) && !o.asJSON {
		progress = stderr
	}
	res, err := measure(req, o, progress)
	if err != nil {
		return err
	}
	res.SIMD, res.Threads = cm.SIMD().String(), o.threads
	return reportBench(stdout, res, o.asJSON)
}

const benchHelp = `MODEL.xml [flags]

Measures inference like OpenVINO's benchmark_app: synchronous requests one
after another, the first inference excluded, latency percentiles by
benchmark_app's index rule. With both -t and -niter it runs until both are
reached, as benchmark_app does.`

func parseBench(args []string, stdout io.Writer) (benchOptions, error) {
	fs := newFlagSet("bench", benchHelp, stdout)
	var o benchOptions
	o.modelFlags.register(fs)
	fs.Float64Var(&o.seconds, "t", 0, "run for at least this many `SECONDS` (default 10 when -niter is not given)")
	fs.Int64Var(&o.niter, "niter", 0, "run at least this many iterations")
	var shapes multiFlag
	fs.Var(&shapes, "shape", "shape of a generated input as `NAME=[dims]`; repeatable")
	fs.BoolVar(&o.asJSON, "json", false, "print one JSON object (schema in README.md)")
	fs.Float64Var(&o.percentile, "latency-percentile", 50, "latency percentile to report as the median line, 1..100")
	pos, err := fs.parse(args)
	if err != nil {
		return o, err
	}
	if len(pos) != 1 {
		return o, usageErr("want one MODEL.xml, got %d arguments", len(pos))
	}
	o.model = pos[0]
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["t"] && !(o.seconds > 0 && o.seconds <= maxBenchSeconds):
		return o, usageErr("-t %v: want a number of seconds above 0, at most %d", o.seconds, maxBenchSeconds)
	case set["niter"] && !(o.niter >= 1 && o.niter <= maxBenchIterations):
		return o, usageErr("-niter %d: want from 1 to %d iterations", o.niter, int64(maxBenchIterations))
	case !(o.percentile >= 1 && o.percentile <= 100):
		return o, usageErr("--latency-percentile %v: want a number from 1 to 100", o.percentile)
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
	for _, s := range shapes {
		name, text, ok := strings.Cut(s, "=")
		shape, perr := shapeinfer.ParseShape(text)
		dims, static := shape.ToStatic()
		if !ok || perr != nil || !static {
			return o, usageErr("--shape %q: want NAME=[d0,d1,...] with static dims", s)
		}
		o.shapes[name] = dims
	}
	return o, nil
}

// maxBenchSeconds bounds -t (a year), so that the deadline cannot
// overflow; maxBenchIterations bounds -niter (a day and more of the
// fastest inference irdiv does), so that a typo is not a run without end.
const (
	maxBenchSeconds    = 365 * 24 * 3600
	maxBenchIterations = 1 << 40
)

// measure runs the first inference, then inferences one after another
// until both limits are reached, recording each latency.
func measure(req *plugin.InferRequest, o benchOptions, progress io.Writer) (benchResult, error) {
	res := benchResult{Percentile: o.percentile}
	start := time.Now()
	if err := req.Infer(); err != nil {
		return res, err
	}
	res.FirstInferMS = ms(time.Since(start))
	var lat latencies
	limit := time.Duration(o.seconds * float64(time.Second))
	begin := time.Now()
	lastReport := begin
	for i := int64(0); o.niter > 0 && i < o.niter || limit > 0 && time.Since(begin) < limit; i++ {
		t0 := time.Now()
		if err := req.Infer(); err != nil {
			return res, err
		}
		t1 := time.Now()
		lat.add(t1.Sub(t0))
		if progress != nil && t1.Sub(lastReport) > 250*time.Millisecond {
			lastReport = t1
			fmt.Fprintf(progress, "\r[ INFO ] %d iterations, %.1f s", lat.n, t1.Sub(begin).Seconds())
		}
	}
	total := time.Since(begin)
	if progress != nil {
		fmt.Fprint(progress, "\r\033[K")
	}
	summarize(&res, &lat, total)
	return res, nil
}

// summarize fills the statistics: the percentile is benchmark_app's
// (element floor(n/100*p) of the sorted latencies, clamped to n-1), the
// average the mean, the throughput 1000 * count / duration_ms.
func summarize(res *benchResult, lat *latencies, total time.Duration) {
	res.Count = lat.n
	res.DurationMS = ms(total)
	res.LatencyExact = lat.isExact()
	if lat.n == 0 {
		return
	}
	res.LatencyMS.Median = ms(lat.percentile(res.Percentile))
	res.LatencyMS.Average = ms(lat.sum) / float64(lat.n)
	res.LatencyMS.Min = ms(lat.min)
	res.LatencyMS.Max = ms(lat.max)
	res.ThroughputFPS = 1000 * float64(res.Count) / res.DurationMS
}

func reportBench(w io.Writer, res benchResult, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	fmt.Fprintf(w, "[ INFO ] Execution Devices: %s (simd %s, threads %s)\n", plugin.DeviceName, res.SIMD, threadsText(res.Threads))
	fmt.Fprintf(w, "[ INFO ] First inference took %.2f ms\n", res.FirstInferMS)
	fmt.Fprintf(w, "[ INFO ] Count:            %d iterations\n", res.Count)
	fmt.Fprintf(w, "[ INFO ] Duration:         %.2f ms\n", res.DurationMS)
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
	return nil
}

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
