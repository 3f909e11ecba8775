package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
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
	Percentile    float64 `json:"latency_percentile"`
	ThroughputFPS float64 `json:"throughput_fps"`
	SIMD          string  `json:"simd"`
	Threads       int     `json:"threads"`
	FirstInferMS  float64 `json:"first_inference_ms"`
}

func benchCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", "MODEL.xml [flags]\n\nMeasures inference like OpenVINO's benchmark_app: synchronous requests one after another,\nthe first inference excluded, latency percentiles by benchmark_app's index rule.", stdout)
	seconds := fs.Float64("t", 0, "run for this many `SECONDS` (default 10 when -niter is not given)")
	niter := fs.Int("niter", 0, "run this many iterations")
	threads := fs.Int("nthreads", 0, "goroutines a large Divide may use (default GOMAXPROCS)")
	var inputs, shapes multiFlag
	fs.Var(&inputs, "i", "input as `NAME=FILE.npy`; repeatable")
	fs.Var(&shapes, "shape", "shape of a generated input as `NAME=[dims]`; repeatable")
	simd := fs.String("simd", "auto", "kernel level: auto, avx2 or generic")
	asJSON := fs.Bool("json", false, "print one JSON object (schema in README.md)")
	percentile := fs.Float64("latency-percentile", 50, "latency percentile to report as the median line, 1..100")
	weights := fs.String("weights", "", "weights file (default: MODEL.bin)")
	seed := fs.Uint64("seed", 1, "seed of generated inputs")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErr("want one MODEL.xml, got %d arguments", len(pos))
	}
	if *niter < 0 || *seconds < 0 || *threads < 0 || *percentile < 1 || *percentile > 100 {
		return usageErr("-niter, -t and -nthreads must not be negative; --latency-percentile is 1..100")
	}
	if *niter == 0 && *seconds == 0 {
		*seconds = 10
	}
	given, err := parseInputFlags(inputs)
	if err != nil {
		return err
	}
	shapeOf := make(map[string][]int64)
	for _, s := range shapes {
		name, text, ok := strings.Cut(s, "=")
		shape, perr := shapeinfer.ParseShape(text)
		dims, static := shape.ToStatic()
		if !ok || perr != nil || !static {
			return usageErr("--shape %q: want NAME=[d0,d1,...] with static dims", s)
		}
		shapeOf[name] = dims
	}
	m, err := ir.Read(pos[0], ir.ReadOptions{WeightsPath: *weights})
	if err != nil {
		return err
	}
	cm, err := plugin.NewCore().CompileModel(m, plugin.Config{Threads: *threads, SIMD: *simd})
	if err != nil {
		return err
	}
	req := cm.NewInferRequest()
	log := stdout
	if *asJSON {
		log = io.Discard
	}
	if err := bindInputs(cm, req, given, shapeOf, rand.New(rand.NewPCG(*seed, 0x1d1f)), *seed, log); err != nil {
		return err
	}
	var res benchResult
	res.SIMD, res.Threads, res.Percentile = cm.SIMD(), *threads, *percentile
	start := time.Now()
	if err := req.Infer(); err != nil {
		return err
	}
	res.FirstInferMS = ms(time.Since(start))
	progress := isTerminal(stderr) && !*asJSON
	latencies := make([]time.Duration, 0, max(*niter, 1024))
	limit := time.Duration(*seconds * float64(time.Second))
	begin := time.Now()
	lastReport := begin
	for i := 0; *niter > 0 && i < *niter || *niter == 0 && time.Since(begin) < limit; i++ {
		t0 := time.Now()
		if err := req.Infer(); err != nil {
			return err
		}
		t1 := time.Now()
		latencies = append(latencies, t1.Sub(t0))
		if progress && t1.Sub(lastReport) > 250*time.Millisecond {
			lastReport = t1
			fmt.Fprintf(stderr, "\r[ INFO ] %d iterations, %.1f s", len(latencies), t1.Sub(begin).Seconds())
		}
	}
	total := time.Since(begin)
	if progress {
		fmt.Fprint(stderr, "\r\033[K")
	}
	summarize(&res, latencies, total)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	fmt.Fprintf(stdout, "[ INFO ] Execution Devices: %s (simd %s, threads %s)\n", plugin.DeviceName, res.SIMD, threadsText(res.Threads))
	fmt.Fprintf(stdout, "[ INFO ] First inference took %.2f ms\n", res.FirstInferMS)
	fmt.Fprintf(stdout, "[ INFO ] Count:            %d iterations\n", res.Count)
	fmt.Fprintf(stdout, "[ INFO ] Duration:         %.2f ms\n", res.DurationMS)
	fmt.Fprintf(stdout, "[ INFO ] Latency:\n")
	label := "Median:"
	if res.Percentile != 50 {
		label = fmt.Sprintf("%g percentile:", res.Percentile)
	}
	fmt.Fprintf(stdout, "[ INFO ]    %-14s%s\n", label, msText(res.LatencyMS.Median))
	fmt.Fprintf(stdout, "[ INFO ]    %-14s%s\n", "Average:", msText(res.LatencyMS.Average))
	fmt.Fprintf(stdout, "[ INFO ]    %-14s%s\n", "Min:", msText(res.LatencyMS.Min))
	fmt.Fprintf(stdout, "[ INFO ]    %-14s%s\n", "Max:", msText(res.LatencyMS.Max))
	fmt.Fprintf(stdout, "[ INFO ] Throughput:       %.2f FPS\n", res.ThroughputFPS)
	return nil
}

// summarize fills the statistics. The percentile is benchmark_app's:
// sorted ascending, element floor(n/100*p), clamped to n-1 (for p = 100).
func summarize(res *benchResult, latencies []time.Duration, total time.Duration) {
	res.Count = len(latencies)
	res.DurationMS = ms(total)
	if len(latencies) == 0 {
		return
	}
	sorted := slices.Clone(latencies)
	slices.Sort(sorted)
	idx := min(int(math.Floor(float64(len(sorted))/100*res.Percentile)), len(sorted)-1)
	var sum time.Duration
	for _, l := range sorted {
		sum += l
	}
	res.LatencyMS.Median = ms(sorted[idx])
	res.LatencyMS.Average = ms(sum) / float64(len(sorted))
	res.LatencyMS.Min = ms(sorted[0])
	res.LatencyMS.Max = ms(sorted[len(sorted)-1])
	res.ThroughputFPS = 1000 * float64(res.Count) / res.DurationMS
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
