package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLatencyHistogram: percentiles are exact while the samples are kept,
// and within 0.1% of the exact value once the histogram takes over, with
// memory that no longer grows.
func TestLatencyHistogram(t *testing.T) {
	var lat latencies
	var all []time.Duration
	for i := range 300_000 {
		// A spread of 1 µs to about 1 s, in no order.
		d := time.Duration(1000 + (i*7919)%300_000*i%1_000_000_000)
		lat.add(float64(d))
		all = append(all, d)
		if i+1 == exactSamples && !lat.isExact() {
			t.Fatal("the histogram took over before exactSamples")
		}
	}
	if lat.isExact() || lat.exact != nil || len(lat.buckets) > 20_000 {
		t.Fatalf("after %d samples: exact=%v, %d kept, %d buckets", lat.n, lat.isExact(), len(lat.exact), len(lat.buckets))
	}
	slices.Sort(all)
	for _, p := range []float64{1, 10, 50, 90, 99, 99.9, 100} {
		want := float64(all[min(int(math.Floor(float64(len(all))/100*p)), len(all)-1)])
		got := lat.percentile(p)
		if rel := math.Abs(got-want) / want; rel > 0.001 {
			t.Errorf("p%g: %v, exact %v (relative error %.5f)", p, got, want, rel)
		}
	}
	if lat.min != float64(all[0]) || lat.max != float64(all[len(all)-1]) {
		t.Errorf("min %v max %v, want %v %v", lat.min, lat.max, all[0], all[len(all)-1])
	}
}

func TestBenchFlags(t *testing.T) {
	model := "../../examples/floordiv/model.xml"
	for _, args := range [][]string{
		{"-t", "NaN"}, {"-t", "Inf"}, {"-t", "-1"}, {"-t", "0"}, {"-t", "1e300"},
		{"-niter", "-1"}, {"-niter", "0"}, {"-niter", "x"},
		{"--latency-percentile", "NaN"}, {"--latency-percentile", "0"}, {"--latency-percentile", "101"},
		{"-nthreads", "-1"}, {"--max-tensor", "0"}, {"--max-tensor", "17GiB"}, {"--max-tensor", "lots"},
		{"-latency_percentile", "0"}, {"-report_type", "all"}, {"-report_folder", "x"}, {"-json_stats"},
		{"-shape", "a[1,4"}, {"-shape", "a[1..2,4]"}, {"-data_shape", "a[1,4]b[2]"}, {"-shape", ""},
		{"-m", model},
	} {
		_, stderr, code := irdiv(t, append([]string{"bench", model}, args...)...)
		if code != 2 || !strings.HasPrefix(stderr, "irdiv: bench: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("bench %q: exit %d, %q", args, code, stderr)
		}
	}
	// With both limits, bench runs until both are reached, as benchmark_app.
	for _, tc := range []struct {
		args               []string
		minCount           int64
		minDurationSeconds float64
	}{
		{[]string{"-niter", "3", "-t", "0.05"}, 3, 0.05},
		{[]string{"-niter", "20000", "-t", "0.001"}, 20000, 0.001},
	} {
		stdout, stderr, code := irdiv(t, append([]string{"bench", model, "--json"}, tc.args...)...)
		var res benchResult
		if code != 0 || json.Unmarshal([]byte(stdout), &res) != nil {
			t.Fatalf("bench %q: exit %d %s", tc.args, code, stderr)
		}
		if res.Count < tc.minCount || res.WallMS < 1000*tc.minDurationSeconds {
			t.Errorf("bench %q: %d iterations in %.3f ms wall", tc.args, res.Count, res.WallMS)
		}
	}
}

// TestBenchFigures: Count, Duration, Average and Throughput agree with
// each other whatever the batch, the loop's cost is outside Duration, and
// the latencies are ordered.
func TestBenchFigures(t *testing.T) {
	for _, args := range [][]string{{"-t", "0.2"}, {"-niter", "1000"}, {"-niter", "1"}} {
		stdout, stderr, code := irdiv(t, append([]string{"bench", "../../examples/floordiv/model.xml", "--json"}, args...)...)
		var res benchResult
		if code != 0 || json.Unmarshal([]byte(stdout), &res) != nil {
			t.Fatalf("bench %q: exit %d %s", args, code, stderr)
		}
		l := res.LatencyMS
		close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }
		switch {
		case res.Count < 1 || res.Batch < 1 || res.ClockNS <= 0:
			t.Errorf("bench %q: count %d, batch %d, clock %v ns", args, res.Count, res.Batch, res.ClockNS)
		case !close(l.Average*float64(res.Count), res.DurationMS) || !close(res.ThroughputFPS*res.DurationMS, 1000*float64(res.Count)):
			t.Errorf("bench %q: count %d, duration %v ms, average %v ms, throughput %v", args, res.Count, res.DurationMS, l.Average, res.ThroughputFPS)
		case res.DurationMS > res.WallMS:
			t.Errorf("bench %q: duration %v ms longer than the wall time %v ms", args, res.DurationMS, res.WallMS)
		// The average is a weighted mean of the samples, computed another
		// way: it may differ from them in the last bits.
		case !(l.Min <= l.Median && l.Median <= l.Max && l.Min <= l.Average*(1+1e-12) && l.Average <= l.Max*(1+1e-12)):
			t.Errorf("bench %q: latencies %+v out of order", args, l)
		}
		if want, _ := strconv.ParseInt(args[1], 10, 64); args[0] == "-niter" && res.Count != want {
			t.Errorf("bench %q: %d iterations", args, res.Count)
		}
	}
}

// TestBenchAppSpellings: benchmark_app's flags do what they do there.
func TestBenchAppSpellings(t *testing.T) {
	model := "../../examples/floordiv/model.xml"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-m", model, "-niter", "5"}, `input  "a"          i32 [1,4] generated`},
		{[]string{"-m", model, "-niter", "5", "-shape", "a[3,4]"}, `i32 [3,4] generated`},
		{[]string{model, "-niter", "5", "-shape", "[5,4]"}, `i32 [5,4] generated`},
		{[]string{model, "-niter", "5", "--shape", "a=[6,4]"}, `i32 [6,4] generated`},
		{[]string{model, "-niter", "5", "-shape", "a[3,4]", "-data_shape", "a[7,4]"}, `i32 [7,4] generated`},
		{[]string{model, "-niter", "5", "-data_shape", "a[7,4]", "-shape", "a[3,4]"}, `i32 [7,4] generated`},
		{[]string{model, "-niter", "5", "-latency_percentile", "90"}, "90 percentile:"},
		{[]string{model, "-niter", "5", "-shape", "a[2,4]", "-pc"}, "layerType: Divide     execType: "},
		{[]string{model, "-niter", "5", "-shape", "a[2,4]", "-pc"}, "elements: 8  threads: 1"},
	} {
		stdout, stderr, code := irdiv(t, append([]string{"bench"}, tc.args...)...)
		if code != 0 || !strings.Contains(stdout, tc.want) {
			t.Errorf("bench %q: exit %d, %s%s\nwant %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
	if _, stderr, code := irdiv(t, "bench", model, "-niter", "5", "-shape", "b[3,4]"); code == 0 || !strings.Contains(stderr, "no input") {
		t.Errorf("a shape for no input: exit %d, %s", code, stderr)
	}
}

// TestBenchReports: -report_type writes benchmark_app's files, CSV or JSON.
func TestBenchReports(t *testing.T) {
	model := "../../examples/floordiv/model.xml"
	dir := t.TempDir()
	csvDir, jsonDir := filepath.Join(dir, "csv"), filepath.Join(dir, "json", "nested")
	if _, stderr, code := irdiv(t, "bench", "-m", model, "-niter", "50", "-report_type", "average_counters", "-report_folder", csvDir); code != 0 {
		t.Fatal(stderr)
	}
	stats, _ := os.ReadFile(filepath.Join(csvDir, "benchmark_report.csv"))
	counters, _ := os.ReadFile(filepath.Join(csvDir, "benchmark_average_counters_report.csv"))
	for _, want := range []string{"Command line parameters\n-m;", "\nExecution results\n", "\ntotal number of iterations;50\n", "\nthroughput;"} {
		if !strings.Contains(string(stats), want) {
			t.Errorf("benchmark_report.csv lacks %q:\n%s", want, stats)
		}
	}
	lines := strings.Split(strings.TrimSpace(string(counters)), "\n")
	if len(lines) != 5 || lines[0] != "layerName;execStatus;layerType;execType;realTime (ms);cpuTime (ms);elements;threads" ||
		!strings.HasPrefix(lines[2], "div;EXECUTED;Divide;") || !strings.HasSuffix(lines[2], ";4;1") || !strings.HasPrefix(lines[4], "Total;;;;") {
		t.Errorf("benchmark_average_counters_report.csv:\n%s", counters)
	}

	if _, stderr, code := irdiv(t, "bench", model, "-niter", "50", "-report_type", "detailed_counters", "-report_folder", jsonDir, "-json_stats"); code != 0 {
		t.Fatal(stderr)
	}
	var report struct {
		Results map[string]string `json:"execution_results"`
	}
	var detailed struct {
		Type string `json:"report_type"`
		Perf []struct {
			Nodes []perfCount `json:"nodes"`
		} `json:"detailed_performance"`
	}
	data, _ := os.ReadFile(filepath.Join(jsonDir, "benchmark_report.json"))
	if err := json.Unmarshal(data, &report); err != nil || report.Results["total number of iterations"] != "50" {
		t.Errorf("benchmark_report.json (%v):\n%s", err, data)
	}
	data, _ = os.ReadFile(filepath.Join(jsonDir, "benchmark_detailed_counters_report.json"))
	if err := json.Unmarshal(data, &detailed); err != nil || detailed.Type != "detailed" || len(detailed.Perf) != 1 || len(detailed.Perf[0].Nodes) != 3 ||
		detailed.Perf[0].Nodes[1].Status != "EXECUTED" || detailed.Perf[0].Nodes[1].RealTimeMS <= 0 {
		t.Errorf("benchmark_detailed_counters_report.json (%v):\n%s", err, data)
	}
}
