#!/usr/bin/env bash
# Measures irdiv against its peers on this machine and prints the ratios
# the speed issues target. Peers: a plain Go loop (bench/baseline), C loops
# built with gcc -O3 -march=native at -mprefer-vector-width=256 and 512
# (bench/c, with an OpenMP f16 reference for the two-thread ratios), NumPy
# when python3 can import it, and ONNX Runtime when node and npm can install
# onnxruntime-node (bench/ort_bench.js; ORT=0 leaves it out). irdiv runs
# at its best level and, with GODEBUG=cpu.avx512f=off, at AVX2. Every side is timed the same way: the
# best of 7 windows of at least 20 ms (go test -benchtime 20ms -count 7,
# keeping the minimum; the C and Python peers loop the same way). Every
# peer runs once per round (ROUNDS, 5 by default), the two sides
# of a ratio run next to each other, each ratio is taken within a round,
# and the median over the rounds is compared with the target: the host's
# speed drifts over minutes, and a ratio of figures taken minutes apart
# measures the drift as much as the code. Single-thread runs are pinned to
# one core with taskset when it is available. Never compare absolute
# numbers across runs or machines; compare the ratios.
#
#   bash bench/run.sh              # the cases of the targets
#   SIZES='1Ki|64Ki|1Mi|16Mi' BENCHTIME=1s bash bench/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT_DIR:-bench/out}
sizes=${SIZES:-64Ki} # of the one-thread tables; f32 16Mi and the thread runs always run
benchtime=${BENCHTIME:-20ms} # one window; every Go benchmark runs 7 of them
rounds=${ROUNDS:-5}
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
	gcc -O3 -march=native -mprefer-vector-width=256 -DWIDTH=256 -o "$out/cdiv256" bench/c/div.c &&
		gcc -O3 -march=native -mprefer-vector-width=512 -DWIDTH=512 -o "$out/cdiv512" bench/c/div.c && cc="$out/cdiv256 $out/cdiv512"
	gcc -O3 -march=native -fopenmp -o "$out/cthreads" bench/c/threads.c && ccthreads="$out/cthreads"
fi
ort=""
ort_version=1.30.0
ortdir=$out/ort-$ort_version
if [ "${ORT:-1}" != 0 ] && command -v node >/dev/null; then
	if [ ! -d "$ortdir/node_modules/onnxruntime-node" ] && command -v npm >/dev/null; then
		# --ignore-scripts: the package bundles its CPU library; its install
		# script only downloads GPU providers, from hosts CI cannot reach.
		npm install --prefix "$ortdir" --ignore-scripts --no-audit --no-fund --loglevel=error "onnxruntime-node@$ort_version" >/dev/null 2>&1 || rm -rf "$ortdir"
	fi
	if NODE_PATH=$ortdir/node_modules node -e 'require("onnxruntime-node/dist/binding")' 2>/dev/null; then ort=$ortdir/node_modules; fi
fi
py=""
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null && "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done

# metric turns "go test -bench -count 7" lines into "prefix/name value"
# pairs, keeping each name's best (lowest) window.
metric() {
	awk -v prefix="$1" -v unit="$2" '
		$1 ~ /^Benchmark/ {
			name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark[A-Za-z]+\//, "", name)
			for (i = 2; i <= NF; i++) if ($i == unit && (!(name in best) || $(i-1) < best[name])) best[name] = $(i-1)
		}
		END { for (name in best) print prefix "/" name, best[name] }'
}
windows="-test.benchtime $benchtime -test.count 7"

[ -n "$cc" ] || echo "gcc not found: no C ceiling"
if [ -n "$py" ]; then
	echo "NumPy $($py -c 'import numpy; print(numpy.__version__)')"
else
	echo "NumPy not found (apt-get install python3-numpy): no NumPy ratios"
fi
if [ -n "$ort" ]; then
	echo "ONNX Runtime $ort_version (npm onnxruntime-node, CPU provider, one thread, driven from node $(node --version))"
else
	echo "ONNX Runtime not available (needs node and npm, and the npm registry once): no ORT ratios"
fi
for round in $(seq "$rounds"); do
	echo "round $round of $rounds..."
	{
		$pin "$out/ops.test" -test.run '^$' -test.bench "^BenchmarkDivide$/.*/.*/^($sizes)$" $windows | metric irdiv ns/elem
		GODEBUG=cpu.avx512f=off $pin "$out/ops.test" -test.run '^$' -test.bench "^BenchmarkDivide$/.*/.*/^($sizes)$" $windows | metric irdiv-avx2 ns/elem
		$pin "$out/baseline.test" -test.run '^$' -test.bench "^BenchmarkPlain$/.*/.*/^($sizes)$" $windows | metric go ns/elem
		if [ -n "$py" ]; then $pin "$py" bench/numpy_bench.py "$sizes"; fi
		# glibc serves the buffers ORT allocates per call (256 KiB at 64Ki
		# f32) with mmap and munmap, and each call then faults them in:
		# f32 64Ki calls took 26 or 700 us, by the allocator's mood. A
		# higher mmap threshold times ORT at its steady best.
		if [ -n "$ort" ]; then MALLOC_MMAP_THRESHOLD_=1073741824 NODE_PATH=$ort $pin node bench/ort_bench.js "$sizes"; fi
		$pin "$out/ops.test" -test.run '^$' -test.bench '^BenchmarkDivide$/.*/^same$/^16Mi$' $windows | metric irdiv ns/elem
		for c in $cc; do $pin "$c"; done
		"$out/ops.test" -test.run '^$' -test.bench '^BenchmarkDivideThreads$/^(f16|i32-floor|i64-floor)$/^(1Mi|16Mi)$/' $windows | metric threads ns/elem
		if [ -n "$ccthreads" ]; then "$ccthreads"; fi
		$pin "$out/plugin.test" -test.run '^$' -test.bench 'BenchmarkInfer$' $windows | awk '$1 ~ /^BenchmarkInfer/ { for (i = 2; i <= NF; i++) { if ($i == "ns/op") print "infer/ns", $(i-1); if ($i == "allocs/op") print "infer/allocs", $(i-1) } }'
	} | sed "s/^/$round /" >>"$results"
done

echo
awk '
	{ v[$1, $2] = $3; if ($1 > rounds) rounds = $1 }
	# ratio sets r[1..n] to num/den in every round that has both and
	# returns n, with r sorted.
	function ratio(num, den,    k, n) {
		n = 0
		for (k = 1; k <= rounds; k++)
			if (((k, num) in v) && ((k, den) in v) && v[k, den] != 0) r[++n] = v[k, num] / v[k, den]
		return sortr(n)
	}
	# values sets r[1..n] to key in every round, sorted, and returns n.
	function values(key,    k, n) {
		n = 0
		for (k = 1; k <= rounds; k++) if ((k, key) in v) r[++n] = v[k, key]
		return sortr(n)
	}
	function sortr(n,    i, j, x) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && r[j-1] > r[j]; j--) { x = r[j]; r[j] = r[j-1]; r[j-1] = x }
		return n
	}
	function median(n) { return n % 2 ? r[(n+1)/2] : (r[n/2] + r[n/2+1]) / 2 }
	function med(key,    n) { return (n = values(key)) > 0 ? sprintf("%.4f", median(n)) : "-" }
	function ref(label, num, den,    n) { # a reference figure, no target
		if ((n = ratio(num, den)) > 0) printf "%-52s %8.2fx  %5.2f-%-5.2f (reference)\n", label, median(n), r[1], r[n]
	}
	function row(label, num, den, target, higher,    n, m, verdict) {
		if ((n = ratio(num, den)) == 0) { printf "%-52s %9s  %11s %s %.2fx\n", label, "n/a", "", higher ? ">=" : "<=", target; return }
		m = median(n)
		verdict = (higher ? m >= target : m <= target) ? "met" : "MISSED"
		printf "%-52s %8.2fx  %5.2f-%-5.2f %s %.2fx  %s\n", label, m, r[1], r[n], higher ? ">=" : "<=", target, verdict
	}
	END {
		printf "ratios within each of %d rounds on one machine: their median, their range, the target\n", rounds
		row("f32 same 64Ki: NumPy / irdiv", "numpy/f32/same/64Ki", "irdiv/f32/same/64Ki", 1, 1)
		row("f32 same 64Ki: plain Go / irdiv", "go/f32/same/64Ki", "irdiv/f32/same/64Ki", 5, 1)
		row("f32 same 64Ki: irdiv / C 512-bit", "irdiv/f32/same/64Ki", "c512-div/f32/same/64Ki", 1.15, 0)
		row("f64 same 64Ki: irdiv / C 512-bit", "irdiv/f64/same/64Ki", "c512-div/f64/same/64Ki", 1.15, 0)
		row("f32 same 64Ki: irdiv AVX2 / C 256-bit", "irdiv-avx2/f32/same/64Ki", "c256-div/f32/same/64Ki", 1.15, 0)
		row("f64 same 64Ki: irdiv AVX2 / C 256-bit", "irdiv-avx2/f64/same/64Ki", "c256-div/f64/same/64Ki", 1.15, 0)
		n = split("f32 f64 f16 bf16 i8-floor i8-trunc u8 i16-floor i16-trunc u16 i32-floor i32-trunc u32 i64-floor i64-trunc u64", types, " ")
		for (i = 1; i <= n; i++) {
			stream = types[i] ~ /8/ ? "u8" : types[i] ~ /16/ ? "u16" : types[i] ~ /(32|f32)/ ? "f32" : "f64"
			row(types[i] " same 16Mi: irdiv / C add stream (" stream ")", "irdiv/" types[i] "/same/16Mi", "c512-add/" stream "/same/16Mi", 1.1, 0)
		}
		# irdiv writes 16Mi outputs with non-temporal stores (kernel.StreamMin);
		# the C loops do not, so the same stream written that way is shown too.
		for (i = 1; i <= n; i++) {
			stream = types[i] ~ /8/ ? "u8" : types[i] ~ /16/ ? "u16" : types[i] ~ /(32|f32)/ ? "f32" : "f64"
			ref(types[i] " same 16Mi: irdiv / C non-temporal add (" stream ")", "irdiv/" types[i] "/same/16Mi", "c512-addnt/" stream "/same/16Mi")
		}
		row("i32 floor same 64Ki: NumPy floor_divide / irdiv", "numpy/i32-floor/same/64Ki", "irdiv/i32-floor/same/64Ki", 10, 1)
		row("i32 trunc same 64Ki: plain Go / irdiv", "go/i32-trunc/same/64Ki", "irdiv/i32-trunc/same/64Ki", 4, 1)
		row("f16 same 64Ki: NumPy / irdiv", "numpy/f16/same/64Ki", "irdiv/f16/same/64Ki", 30, 1)
		row("f16 same 64Ki: plain Go (x448) / irdiv", "go/f16/same/64Ki", "irdiv/f16/same/64Ki", 1, 1)
		row("bf16 same 64Ki: irdiv bf16 / irdiv f16", "irdiv/bf16/same/64Ki", "irdiv/f16/same/64Ki", 1.5, 0)
		row("i64 trunc scalar 64Ki: plain Go / irdiv", "go/i64-trunc/scalar/64Ki", "irdiv/i64-trunc/scalar/64Ki", 3, 1)
		row("i64 floor same 64Ki: plain Go / irdiv", "go/i64-floor/same/64Ki", "irdiv/i64-floor/same/64Ki", 3, 1)
		row("i64 trunc same 64Ki: plain Go / irdiv", "go/i64-trunc/same/64Ki", "irdiv/i64-trunc/same/64Ki", 3, 1)
		n = split("f32 f64 f16 i8-floor u8 i16-floor u16 i32-floor u32 i64-floor u64", types, " ")
		split("same scalar row", layouts, " ")
		for (i = 1; i <= n; i++) for (l = 1; l <= 3; l++) {
			k = types[i] "/" layouts[l] "/64Ki"
			row(types[i] " " layouts[l] " 64Ki: NumPy / irdiv", "numpy/" k, "irdiv/" k, 1, 1)
		}
		n = split("f32 f64 f16 i8-trunc u8 i16-trunc u16 i32-trunc u32 i64-trunc u64", types, " ")
		for (i = 1; i <= n; i++) for (l = 1; l <= 3; l++) {
			k = types[i] "/" layouts[l] "/64Ki"
			row(types[i] " " layouts[l] " 64Ki: ONNX Runtime / irdiv", "ort/" k, "irdiv/" k, 1, 1)
		}
		n = split("f32 f64 f16 bf16 i8-floor i8-trunc u8 i16-floor i16-trunc u16 i32-floor i32-trunc u32 i64-floor i64-trunc u64", types, " ")
		for (i = 1; i <= n; i++) for (l = 1; l <= 3; l++) {
			k = types[i] "/" layouts[l] "/64Ki"
			row(types[i] " " layouts[l] " 64Ki: irdiv AVX2 / irdiv", "irdiv-avx2/" k, "irdiv/" k, 1, 1)
		}
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
		printf "\nns/elem at 64Ki, medians of the rounds (NumPy has no bf16 and no truncating integer division; ORT has no bf16 Div and its integer Div truncates; C is f32/f64 only)\n"
		printf "%-10s %-7s %9s %9s %9s %9s %9s %9s\n", "type", "layout", "irdiv", "irdivAVX2", "NumPy", "ORT", "C-256", "C-512"
		n = split("f32 f64 f16 bf16 i8-floor i8-trunc u8 i16-floor i16-trunc u16 i32-floor i32-trunc u32 i64-floor i64-trunc u64", types, " ")
		for (i = 1; i <= n; i++) for (l = 1; l <= 3; l++) {
			k = types[i] "/" layouts[l] "/64Ki"
			printf "%-10s %-7s %9s %9s %9s %9s %9s %9s\n", types[i], layouts[l], med("irdiv/" k), med("irdiv-avx2/" k), med("numpy/" k), med("ort/" k), med("c256-div/" k), med("c512-div/" k)
		}
		if ((n = values("ort/call/1")) > 0) printf "ONNX Runtime: one call on a one-element model from node, in every ORT figure: %.0f ns (%.4f ns/elem at 64Ki)\n", median(n), median(n) / 65536
		if ((n = values("infer/ns")) > 0) {
			m = median(n); lo = r[1]; hi = r[n]; n = values("infer/allocs")
			printf "%-52s %6.0f ns  %4.0f-%-4.0f ns < 1000 ns, max %s allocs/op (target 0)\n", "one-element model: Infer", m, lo, hi, r[n]
		}
	}' "$results"
echo
echo "raw figures (ns/elem): $results"
