package main

import (
	"encoding/json"
	"math"
	"slices"
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
		lat.add(d)
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
		want := all[min(int(math.Floor(float64(len(all))/100*p)), len(all)-1)]
		got := lat.percentile(p)
		if rel := math.Abs(float64(got-want)) / float64(want); rel > 0.001 {
			t.Errorf("p%g: %v, exact %v (relative error %.5f)", p, got, want, rel)
		}
	}
	if lat.min != all[0] || lat.max != all[len(all)-1] {
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
	} {
		_, stderr, code := irdiv(t, append([]string{"bench", model}, args...)...)
		if code != 2 || !strings.HasPrefix(stderr, "irdiv: bench: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("bench %q: exit %d, %q", args, code, stderr)
		}
	}
	// With both limits, bench runs until both are reached, as benchmark_app.
	for _, tc := range []struct {
		args               []string
		minCount           int
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
		if res.Count < tc.minCount || res.DurationMS < 1000*tc.minDurationSeconds {
			t.Errorf("bench %q: %d iterations in %.3f ms", tc.args, res.Count, res.DurationMS)
		}
	}
}
