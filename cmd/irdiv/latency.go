package main

import (
	"math"
	"slices"
)

// exactSamples is how many latencies bench keeps one by one; beyond it
// they go into a histogram, so memory does not grow with the run's length.
const exactSamples = 1 << 16

// bucketGrowth is the ratio between neighbouring histogram buckets. A
// percentile read from the histogram is the geometric middle of its
// bucket, within sqrt(1.002)-1 < 0.1% of the true value.
const bucketGrowth = 1.002

var logGrowth = math.Log(bucketGrowth)

// latencies records durations in nanoseconds, fractions kept (a sample
// is a batch's average): count, min and max exactly; the samples
// themselves while there are at most exactSamples, then a log-bucketed
// histogram of all of them.
type latencies struct {
	n        int
	min, max float64
	exact    []float64
	buckets  map[int]int
}

func (l *latencies) add(d float64) {
	d = max(d, 1e-3) // a positive floor keeps the logarithm finite
	if l.n == 0 || d < l.min {
		l.min = d
	}
	l.max = max(l.max, d)
	l.n++
	if l.buckets == nil {
		if len(l.exact) < exactSamples {
			l.exact = append(l.exact, d)
			return
		}
		l.buckets = make(map[int]int)
		for _, e := range l.exact {
			l.buckets[bucket(e)]++
		}
		l.exact = nil
	}
	l.buckets[bucket(d)]++
}

func bucket(d float64) int { return int(math.Log(d) / logGrowth) }

// isExact reports whether percentiles are exact samples.
func (l *latencies) isExact() bool { return l.buckets == nil }

// percentile is benchmark_app's: the sorted latencies' element
// floor(n/100*p), clamped to the last one (p = 100).
func (l *latencies) percentile(p float64) float64 {
	if l.n == 0 {
		return 0
	}
	k := min(int(math.Floor(float64(l.n)/100*p)), l.n-1)
	if l.isExact() {
		sorted := slices.Clone(l.exact)
		slices.Sort(sorted)
		return sorted[k]
	}
	keys := make([]int, 0, len(l.buckets))
	for b := range l.buckets {
		keys = append(keys, b)
	}
	slices.Sort(keys)
	seen := 0
	for _, b := range keys {
		if seen += l.buckets[b]; seen > k {
			mid := math.Exp((float64(b) + 0.5) * logGrowth)
			return min(max(mid, l.min), l.max)
		}
	}
	return l.max
}
