package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/plugin"
)

// reportOptions are benchmark_app's report flags.
type reportOptions struct {
	kind   string // -report_type; "" writes no report
	folder string
	asJSON bool
}

var reportTypes = []string{"no_counters", "average_counters", "detailed_counters"}

// counters reports whether the report type needs the layers' counters.
func (r reportOptions) counters() bool {
	return r.kind == "average_counters" || r.kind == "detailed_counters"
}

// writeReports writes benchmark_app's files into the report folder:
// benchmark_report.csv (sections of name;value lines) or .json, and with
// counters benchmark_<type>_report.csv (layerName;execStatus;layerType;
// execType;realTime (ms);cpuTime (ms), then Total) or .json. average is
// the mean over the measured inferences; detailed is the last inference,
// which is what benchmark_app's one synchronous request reports.
func writeReports(log io.Writer, o benchOptions, res benchResult, average []perfCount, last []plugin.ProfilingInfo, inputs inputFiles) error {
	if err := os.MkdirAll(o.report.folder, 0o755); err != nil {
		return fmt.Errorf("bench: -report_folder: %w", err)
	}
	ext := ".csv"
	if o.report.asJSON {
		ext = ".json"
	}
	stats := filepath.Join(o.report.folder, "benchmark_report"+ext)
	data, err := statisticsReport(o, res)
	if err := writeFile(stats, data, err, inputs); err != nil {
		return err
	}
	fmt.Fprintf(log, "[ INFO ] Statistics report is stored to %s\n", stats)
	if !o.report.counters() {
		return nil
	}
	counts := average
	if o.report.kind == "detailed_counters" {
		counts = make([]perfCount, 0, len(last))
		for _, l := range last {
			counts = append(counts, perfCount{Name: l.NodeName, Status: l.Status.String(), NodeType: l.NodeType, ExecType: l.ExecType,
				RealTimeMS: ms(l.RealTime), CPUTimeMS: ms(l.CPUTime), Elements: l.Elements, Threads: l.Threads})
		}
	}
	path := filepath.Join(o.report.folder, "benchmark_"+o.report.kind+"_report"+ext)
	data, err = countersReport(o.report, counts)
	if err := writeFile(path, data, err, inputs); err != nil {
		return err
	}
	fmt.Fprintf(log, "[ INFO ] Performance counters report is stored to %s\n", path)
	return nil
}

// writeFile writes a report, unless it would replace one of the
// command's inputs.
func writeFile(path string, data []byte, err error, inputs inputFiles) error {
	if err == nil {
		if err := inputs.checkOutput("-report_folder "+filepath.Dir(path), path); err != nil {
			return err
		}
		err = os.WriteFile(path, data, 0o644)
	}
	if err != nil {
		return fmt.Errorf("bench: writing the report: %w", err)
	}
	return nil
}

// statisticsReport is benchmark_report.csv or .json: the command line,
// the configuration and the execution results.
func statisticsReport(o benchOptions, res benchResult) ([]byte, error) {
	config := [][2]string{
		{"model", o.model}, {"target device", plugin.DeviceName}, {"API", "sync"}, {"inference requests", "1"},
		{"simd", res.SIMD}, {"threads", threadsText(res.Threads)}, {"batch of a latency sample", strconv.FormatInt(res.Batch, 10)},
	}
	percentile := "latency (ms)"
	if res.Percentile != 50 {
		percentile = fmt.Sprintf("latency %g percentile (ms)", res.Percentile)
	}
	results := [][2]string{
		{"total execution time (ms)", msDigits(res.DurationMS)},
		{"wall time (ms)", msDigits(res.WallMS)},
		{"total number of iterations", strconv.FormatInt(res.Count, 10)},
		{percentile, msDigits(res.LatencyMS.Median)},
		{"avg latency", msDigits(res.LatencyMS.Average)},
		{"min latency", msDigits(res.LatencyMS.Min)},
		{"max latency", msDigits(res.LatencyMS.Max)},
		{"throughput", strconv.FormatFloat(res.ThroughputFPS, 'f', 2, 64)},
		{"first inference time (ms)", msDigits(res.FirstInferMS)},
	}
	if o.report.asJSON {
		object := func(pairs [][2]string) map[string]string {
			m := make(map[string]string, len(pairs))
			for _, p := range pairs {
				m[p[0]] = p[1]
			}
			return m
		}
		return jsonBytes(map[string]any{"cmd_options": object(o.flagsSet), "configuration_setup": object(config), "execution_results": object(results)})
	}
	var b strings.Builder
	for i, section := range []struct {
		title string
		pairs [][2]string
	}{{"Command line parameters", o.flagsSet}, {"Configuration setup", config}, {"Execution results", results}} {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(section.title + "\n")
		for _, p := range section.pairs {
			b.WriteString(p[0] + ";" + p[1] + "\n")
		}
	}
	return []byte(b.String()), nil
}

// countersReport is benchmark_<type>_report.csv or .json.
func countersReport(r reportOptions, counts []perfCount) ([]byte, error) {
	var total float64
	for _, c := range counts {
		total += c.RealTimeMS
	}
	if r.asJSON {
		key, kind := "avg_performance", "average"
		if r.kind == "detailed_counters" {
			key, kind = "detailed_performance", "detailed"
		}
		perf := map[string]any{"nodes": counts, "total_real_time": total, "total_cpu_time": total}
		if kind == "detailed" {
			return jsonBytes(map[string]any{"report_type": kind, key: []any{perf}})
		}
		return jsonBytes(map[string]any{"report_type": kind, key: perf})
	}
	var b strings.Builder
	b.WriteString("layerName;execStatus;layerType;execType;realTime (ms);cpuTime (ms);elements;threads\n")
	for _, c := range counts {
		fmt.Fprintf(&b, "%s;%s;%s;%s;%s;%s;%d;%d\n", c.Name, c.Status, c.NodeType, c.ExecType, msDigits(c.RealTimeMS), msDigits(c.CPUTimeMS), c.Elements, c.Threads)
	}
	fmt.Fprintf(&b, "Total;;;;%s;%s;;\n", msDigits(total), msDigits(total))
	return []byte(b.String()), nil
}

func jsonBytes(v any) ([]byte, error) {
	data, err := json.MarshalIndent(v, "", "    ")
	return append(data, '\n'), err
}
