#!/usr/bin/env bash
# Measures irdiv against its peers in one run on this machine and prints
# the ratios the speed issue targets. Peers: a plain Go loop
# (bench/baseline), a C loop built with gcc -O3 -march=native (bench/c,
# with an OpenMP f16 reference for the two-thread ratios), and NumPy when
# python3 can import it. Single-thread runs are pinned to
# one core with taskset when it is available. Never compare absolute
# numbers across runs or machines; compare the ratios.
#
#   bash bench/run.sh              # the sizes of the targets: 64Ki, 1Mi, 16Mi
#   SIZES='1Ki|64Ki|1Mi|16Mi' BENCHTIME=1s bash bench/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT_DIR:-bench/out}
sizes=${SIZES:-64Ki|1Mi|16Mi}
benchtime=${BENCHTIME:-0.2s}
count=${COUNT:-3} # Go benchmarks run count times and keep the minimum, as C and NumPy do
mkdir -p "$out"
results=$out/results.txt
: >"$results"

pin=""
if command -v taskset >/dev/null && [ "$(nproc)" -gt 1 ]; then pin="taskset -c 1"; fi

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; $(go version | cut -d' ' -f3-4)"
echo "building..."
go test -c -o "$out/ops.test" ./ops
go test -c -o "$out/baseline.test" ./bench/baseline
go test -c -o "$out/plugin.test" ./plugin
cc="" ccthreads=""
if command -v gcc >/dev/null; then
	gcc -O3 -march=native -o "$out/cdiv" bench/c/div.c && cc="$out/cdiv"
	gcc -O3 -march=native -fopenmp -o "$out/cthreads" bench/c/threads.c && ccthreads="$out/cthreads"
fi
py=""
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null && "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done

# metric turns "go test -bench" lines into "prefix/name value" pairs.
metric() {
	awk -v prefix="$1" -v unit="$2" '
		$1 ~ /^Benchmark/ {
			name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark[A-Za-z]+\//, "", name)
			for (i = 2; i <= NF; i++) if ($i == unit) print prefix "/" name, $(i-1)
		}'
}

echo "running irdiv kernels (one thread)..."
$pin "$out/ops.test" -test.run '^$' -test.bench "^BenchmarkDivide$/.*/.*/^($sizes)$" -test.benchtime "$benchtime" -test.count "$count" | metric irdiv ns/elem >>"$results"
echo "running irdiv with 1 and 2 threads..."
"$out/ops.test" -test.run '^$' -test.bench "^BenchmarkDivideThreads$/.*/^(1Mi|16Mi)$/" -test.benchtime "$benchtime" -test.count "$count" | metric threads ns/elem >>"$results"
echo "running plain Go loops..."
$pin "$out/baseline.test" -test.run '^$' -test.bench "^BenchmarkPlain$/.*/.*/^($sizes)$" -test.benchtime "$benchtime" -test.count "$count" | metric go ns/elem >>"$results"
echo "running the one-element model..."
$pin "$out/plugin.test" -test.run '^$' -test.bench 'BenchmarkInfer$' -test.benchtime "$benchtime" | awk '$1 ~ /^BenchmarkInfer/ { for (i = 2; i <= NF; i++) { if ($i == "ns/op") print "infer/ns", $(i-1); if ($i == "allocs/op") print "infer/allocs", $(i-1) } }' >>"$results"
if [ -n "$cc" ]; then
	echo "running C..."
	$pin "$cc" >>"$results"
	if [ -n "$ccthreads" ]; then "$ccthreads" >>"$results"; fi
else
	echo "gcc not found: no C ceiling"
fi
if [ -n "$py" ]; then
	echo "running NumPy ($($py -c 'import numpy; print(numpy.__version__)'))..."
	$pin "$py" bench/numpy_bench.py >>"$results"
else
	echo "NumPy not found (apt-get install python3-numpy): no NumPy ratios"
fi

echo
awk '
	!($1 in v) || $2 + 0 < v[$1] + 0 { v[$1] = $2 } # the minimum of repeated runs
	function ref(label, num, den) { # a reference figure, no target
		if ((num in v) && (den in v) && v[den] != 0) printf "%-52s %9.2fx   (reference)\n", label, v[num] / v[den]
	}
	function row(label, num, den, target, higher,    r, verdict) {
		if (!(num in v) || !(den in v) || v[den] == 0) { printf "%-52s %10s   %s\n", label, "n/a", target; return }
		r = v[num] / v[den]
		verdict = (higher ? r >= target : r <= target) ? "met" : "MISSED"
		printf "%-52s %9.2fx   %s %.2fx  %s\n", label, r, higher ? ">=" : "<=", target, verdict
	}
	END {
		printf "%-52s %10s   %s\n", "ratio (one run, same machine)", "measured", "target"
		row("f32 same 64Ki: NumPy / irdiv", "numpy/f32/same/64Ki", "irdiv/f32/same/64Ki", 1, 1)
		row("f32 same 64Ki: plain Go / irdiv", "go/f32/same/64Ki", "irdiv/f32/same/64Ki", 5, 1)
		row("f32 same 64Ki: irdiv / C (gcc -O3 -march=native)", "irdiv/f32/same/64Ki", "c-div/f32/same/64Ki", 1.1, 0)
		row("f32 same 16Mi: irdiv / C add stream", "irdiv/f32/same/16Mi", "c-add/f32/same/16Mi", 1.15, 0)
		row("i32 floor same 64Ki: NumPy floor_divide / irdiv", "numpy/i32-floor/same/64Ki", "irdiv/i32-floor/same/64Ki", 10, 1)
		row("i32 trunc same 64Ki: plain Go / irdiv", "go/i32-trunc/same/64Ki", "irdiv/i32-trunc/same/64Ki", 4, 1)
		row("f16 same 64Ki: NumPy / irdiv", "numpy/f16/same/64Ki", "irdiv/f16/same/64Ki", 30, 1)
		row("f16 same 64Ki: plain Go (x448) / irdiv", "go/f16/same/64Ki", "irdiv/f16/same/64Ki", 1, 1)
		row("bf16 same 64Ki: irdiv bf16 / irdiv f16", "irdiv/bf16/same/64Ki", "irdiv/f16/same/64Ki", 1.5, 0)
		row("i64 trunc scalar 64Ki: plain Go / irdiv", "go/i64-trunc/scalar/64Ki", "irdiv/i64-trunc/scalar/64Ki", 3, 1)
		row("i64 floor same 64Ki: plain Go / irdiv", "go/i64-floor/same/64Ki", "irdiv/i64-floor/same/64Ki", 1, 1)
		n = split("f32 f64 f16 bf16 i8-floor i8-trunc u8 i16-floor i16-trunc u16 i32-floor i32-trunc u32 i64-floor i64-trunc u64", types, " ")
		for (i = 1; i <= n; i++) {
			row(types[i] " scalar 64Ki: irdiv scalar / same", "irdiv/" types[i] "/scalar/64Ki", "irdiv/" types[i] "/same/64Ki", 1.25, 0)
			row(types[i] " row 64Ki: irdiv row / same", "irdiv/" types[i] "/row/64Ki", "irdiv/" types[i] "/same/64Ki", 1.25, 0)
		}
		split("f16 i32-floor i64-floor", par, " ")
		for (i = 1; i <= 3; i++) for (s = 1; s <= 2; s++) {
			size = s == 1 ? "1Mi" : "16Mi"
			row(par[i] " same " size ": 1 thread / 2 threads", "threads/" par[i] "/" size "/threads=1", "threads/" par[i] "/" size "/threads=2", 1.7, 1)
		}
		for (s = 1; s <= 2; s++) {
			size = s == 1 ? "1Mi" : "16Mi"
			ref("f16 same " size ": C OpenMP 1 thread / 2 threads", "c-threads/f16/" size "/threads=1", "c-threads/f16/" size "/threads=2")
			ref("f16 same " size ": irdiv 2 threads / C OpenMP 2 threads", "threads/f16/" size "/threads=2", "c-threads/f16/" size "/threads=2")
		}
		if ("infer/ns" in v) printf "%-52s %8.0f ns   median < 1000 ns, %s allocs/op (target 0)\n", "one-element model: Infer", v["infer/ns"], v["infer/allocs"]
	}' "$results"
echo
echo "raw figures (ns/elem): $results"
