#!/usr/bin/env bash
# Measures irdiv against its peers on this machine and prints the ratios
# the speed issues target, for one machine kind: "avx512" (irdiv's AVX-512
# level, C loops of 512-bit vectors, NumPy with its AVX-512 dispatch) or
# "avx2" (irdiv's AVX2 level, C loops of 256-bit vectors, NumPy at AVX2).
# KIND=native (the default) measures the kind the host is; KIND=avx2 on an
# AVX-512 host emulates an AVX2-only machine: irdiv runs with
# GODEBUG=cpu.avx512f=off, NumPy with NPY_DISABLE_CPU_FEATURES naming its
# AVX-512 dispatch targets, and the C references are built with
# -mno-avx512f. The cores stay those of the host (their dividers, caches
# and memory), so that table is an emulation, and says so.
#
# Peers: a plain Go loop (bench/baseline), C loops built with gcc -O3
# -march=native (bench/c: division of f32 and f64, the i64 and u64 IDIV/DIV
# loops, c = a + b streams of every width, and an OpenMP f16 reference for
# the two-thread ratios), NumPy when python3 can import it, and ONNX Runtime
# when node and npm can install onnxruntime-node (bench/ort_bench.js;
# ORT=0 leaves it out; its Div kernels are the same code on either kind).
# Every side is timed the same way: the best of WINDOWS (7) windows of at
# least WINDOW_MS (20) ms (go test -benchtime 20ms -count 7, keeping the
# minimum; the C, Python and node peers loop the same way, told through
# BENCH_WINDOWS and BENCH_WINDOW_MS). On a host shared with other work,
# more and shorter windows (WINDOWS=30 WINDOW_MS=3) find its quiet moments. Every peer runs once per round (ROUNDS,
# 5 by default), the two sides of a ratio run next to each other, each
# ratio is taken within a round, and the median over the rounds is
# compared with the target: the host's speed drifts over minutes, and a
# ratio of figures taken minutes apart measures the drift as much as the
# code. Single-thread runs are pinned to one core with taskset when it is
# available. Never compare absolute numbers across runs or machines;
# compare the ratios.
#
#   bash bench/run.sh              # the cases of the targets, this host's kind
#   KIND=avx2 bash bench/run.sh    # the AVX2 kind (emulated on an AVX-512 host)
#   SIZES='1Ki|64Ki|1Mi|16Mi' WINDOW_MS=1000 bash bench/run.sh
set -euo pipefail
# onnxruntime-node 1.29 and later keep and upload telemetry unless told not to.
export ORT_DISABLE_TELEMETRY=1
cd "$(dirname "$0")/.."
out=${OUT_DIR:-bench/out}
sizes=${SIZES:-64Ki} # of the one-thread tables; 16Mi and the thread runs always run
export BENCH_WINDOWS=${WINDOWS:-7} BENCH_WINDOW_MS=${WINDOW_MS:-20}
rounds=${ROUNDS:-5}
mkdir -p "$out"

pin=""
if command -v taskset >/dev/null && [ "$(nproc)" -gt 1 ]; then pin="taskset -c 1"; fi

flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2 || true)
has() { [[ " $flags " == *" $1 "* ]]; }
host=none
if has avx2 && has fma && has f16c; then host=avx2; fi
if [ $host = avx2 ] && has avx512f && has avx512dq && has avx512bw && has avx512vl; then host=avx512; fi
kind=${KIND:-native}
[ "$kind" = native ] && kind=$host
case "$kind/$host" in
avx512/avx512 | avx2/avx2 | avx2/avx512) ;;
*)
	echo "KIND=$kind on a host of kind $host: the kinds are avx512 and avx2, and the host must have the kind's instructions" >&2
	exit 2
	;;
esac
emulated=""
[ "$kind/$host" = avx2/avx512 ] && emulated=1
results=$out/results-$kind.txt
: >"$results"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; $(go version | cut -d' ' -f3-4)"
echo "flags:$flags"
if [ -n "$emulated" ]; then
	echo "machine kind: avx2, EMULATED on an AVX-512 host: irdiv with GODEBUG=cpu.avx512f=off, NumPy without its AVX-512 dispatch, C built with -mno-avx512f; the cores (dividers, caches, memory) are this host's"
else
	echo "machine kind: $kind"
fi

irdiv_env=() numpy_env=() cflags=(-O3 -march=native)
width=512
if [ "$kind" = avx2 ]; then
	width=256
	if [ -n "$emulated" ]; then
		irdiv_env=(GODEBUG=cpu.avx512f=off)
		cflags+=(-mno-avx512f)
	fi
fi

echo "building..."
go test -c -o "$out/ops.test" ./ops
go test -c -o "$out/baseline.test" ./bench/baseline
go test -c -o "$out/plugin.test" ./plugin
# The C references this kind can run: 256-bit loops always, 512-bit ones
# on the avx512 kind only.
cc="" ccthreads=""
if command -v gcc >/dev/null; then
	widths=256
	if [ "$kind" = avx512 ]; then widths="256 512"; else echo "C: no 512-bit loops (the avx2 kind has no 512-bit vectors)"; fi
	for w in $widths; do
		if gcc "${cflags[@]}" -mprefer-vector-width=$w -DWIDTH=$w -o "$out/cdiv$w" bench/c/div.c 2>"$out/cdiv$w.log"; then
			cc="$cc $out/cdiv$w"
		else
			echo "C: bench/c/div.c did not build for $w-bit vectors (see $out/cdiv$w.log): no c$w ratios"
		fi
	done
	if gcc "${cflags[@]}" -fopenmp -o "$out/cthreads" bench/c/threads.c 2>"$out/cthreads.log"; then
		ccthreads="$out/cthreads"
	else
		echo "C: bench/c/threads.c did not build with OpenMP (see $out/cthreads.log): no OpenMP reference"
	fi
else
	echo "gcc not found: no C references"
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
if [ -n "$py" ] && [ -n "$emulated" ]; then
	# NumPy refuses to disable a feature it does not dispatch on, so ask it
	# which of its targets are AVX-512 ones, and check that it listened.
	off=$("$py" -c 'from numpy.core._multiarray_umath import __cpu_dispatch__ as d; print(" ".join(f for f in d if f.startswith("AVX512")))')
	numpy_env=(NPY_DISABLE_CPU_FEATURES="$off")
	if [ -n "$off" ] && env "${numpy_env[@]}" "$py" -c 'import sys; from numpy.core._multiarray_umath import __cpu_features__ as f, __cpu_dispatch__ as d; sys.exit(any(f[x] for x in d if x.startswith("AVX512")))' 2>/dev/null; then
		echo "NumPy: AVX-512 dispatch off ($off)"
	elif [ -n "$off" ]; then
		echo "NumPy ignored NPY_DISABLE_CPU_FEATURES=$off: no NumPy ratios for the emulated kind"
		py=""
	fi
fi

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
windows="-test.benchtime ${BENCH_WINDOW_MS}ms -test.count $BENCH_WINDOWS"

if [ -n "$py" ]; then
	echo "NumPy $($py -c 'import numpy; print(numpy.__version__)')"
else
	echo "NumPy not found (apt-get install python3-numpy) or not usable here: no NumPy ratios"
fi
if [ -n "$ort" ]; then
	echo "ONNX Runtime $ort_version (npm onnxruntime-node, CPU provider, one thread, driven from node $(node --version))"
else
	echo "ONNX Runtime not available (needs node and npm, and the npm registry once): no ORT ratios"
fi
irdiv() { env "${irdiv_env[@]}" $pin "$out/ops.test" -test.run '^$' "$@"; }
for round in $(seq "$rounds"); do
	echo "round $round of $rounds..."
	{
		irdiv -test.bench "^BenchmarkDivide$/.*/.*/^($sizes)$" $windows | metric irdiv ns/elem
		irdiv -test.bench "^BenchmarkShortRows$/.*/.*/^($sizes)$" $windows | metric irdiv ns/elem
		$pin "$out/baseline.test" -test.run '^$' -test.bench "^BenchmarkPlain$/.*/.*/^($sizes)$" $windows | metric go ns/elem
		if [ -n "$py" ]; then env "${numpy_env[@]}" $pin "$py" bench/numpy_bench.py "$sizes"; fi
		# glibc serves the buffers ORT allocates per call (256 KiB at 64Ki
		# f32) with mmap and munmap, and each call then faults them in:
		# f32 64Ki calls took 26 or 700 us, by the allocator's mood. A
		# higher mmap threshold times ORT at its steady best.
		if [ -n "$ort" ]; then MALLOC_MMAP_THRESHOLD_=1073741824 NODE_PATH=$ort $pin node bench/ort_bench.js "$sizes"; fi
		irdiv -test.bench '^BenchmarkDivide$/.*/^same$/^16Mi$' $windows | metric irdiv ns/elem
		for c in $cc; do $pin "$c"; done
		env "${irdiv_env[@]}" "$out/ops.test" -test.run '^$' -test.bench '^BenchmarkDivideThreads$/^(f16|i32-floor|i64-floor)$/^(1Mi|16Mi)$/' $windows | metric threads ns/elem
		if [ -n "$ccthreads" ]; then "$ccthreads"; fi
		env "${irdiv_env[@]}" $pin "$out/plugin.test" -test.run '^$' -test.bench 'BenchmarkInfer$' $windows | awk '$1 ~ /^BenchmarkInfer/ { for (i = 2; i <= NF; i++) { if ($i == "ns/op") print "infer/ns", $(i-1); if ($i == "allocs/op") print "infer/allocs", $(i-1) } }'
	} | sed "s/^/$round /" >>"$results"
done

echo
awk -v w="$width" -v kind="$kind" -v emulated="$emulated" '
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
		if ((n = ratio(num, den)) > 0) printf "%-56s %8.2fx  %5.2f-%-5.2f (reference)\n", label, median(n), r[1], r[n]
	}
	function row(label, num, den, target, higher,    n, m, verdict) {
		if ((n = ratio(num, den)) == 0) { printf "%-56s %9s  %11s %s %.2fx\n", label, "n/a", "", higher ? ">=" : "<=", target; return }
		m = median(n)
		verdict = (higher ? m >= target : m <= target) ? "met" : "MISSED"
		if (verdict == "met") met++; else missed++
		printf "%-56s %8.2fx  %5.2f-%-5.2f %s %.2fx  %s\n", label, m, r[1], r[n], higher ? ">=" : "<=", target, verdict
	}
	function stream(t) { return t ~ /8/ ? "u8" : t ~ /16/ ? "u16" : t ~ /(32|f32)/ ? "f32" : "f64" }
	END {
		c = "c" w
		printf "machine kind %s%s: ratios within each of %d rounds, their median, their range, the target\n", kind, emulated ? " (emulated)" : "", rounds
		all = "f32 f64 f16 bf16 i8-floor i8-trunc u8 i16-floor i16-trunc u16 i32-floor i32-trunc u32 i64-floor i64-trunc u64"
		split("same scalar row", layouts, " ")
		print "-- 64Ki against NumPy (>= 1.15x; f32, f64: >= 1x, where NumPy runs at the divider'"'"'s rate)"
		n = split("f32 f64 f16 i8-floor u8 i16-floor u16 i32-floor u32 i64-floor u64", types, " ")
		for (i = 1; i <= n; i++) for (l = 1; l <= 3; l++) {
			k = types[i] "/" layouts[l] "/64Ki"
			row(types[i] " " layouts[l] " 64Ki: NumPy / irdiv", "numpy/" k, "irdiv/" k, types[i] ~ /^f(32|64)$/ ? 1 : 1.15, 1)
		}
		print "-- 64Ki against the C loop of the same width (<= 1.05x)"
		row("f32 same 64Ki: irdiv / C " w "-bit", "irdiv/f32/same/64Ki", c "-div/f32/same/64Ki", 1.05, 0)
		row("f64 same 64Ki: irdiv / C " w "-bit", "irdiv/f64/same/64Ki", c "-div/f64/same/64Ki", 1.05, 0)
		print "-- 64Ki against ONNX Runtime (>= 1x)"
		n = split("f32 f64 f16 i8-trunc u8 i16-trunc u16 i32-trunc u32 i64-trunc u64", types, " ")
		for (i = 1; i <= n; i++) for (l = 1; l <= 3; l++) {
			k = types[i] "/" layouts[l] "/64Ki"
			row(types[i] " " layouts[l] " 64Ki: ONNX Runtime / irdiv", "ort/" k, "irdiv/" k, 1, 1)
		}
		print "-- 64-bit same shape 64Ki against the IDIV loop (>= 3x)"
		row("i64 trunc same 64Ki: C IDIV loop / irdiv", c "-div/i64-trunc/same/64Ki", "irdiv/i64-trunc/same/64Ki", 3, 1)
		row("u64 same 64Ki: C DIV loop / irdiv", c "-div/u64/same/64Ki", "irdiv/u64/same/64Ki", 3, 1)
		row("i64 trunc same 64Ki: plain Go / irdiv", "go/i64-trunc/same/64Ki", "irdiv/i64-trunc/same/64Ki", 3, 1)
		row("i64 floor same 64Ki: plain Go / irdiv", "go/i64-floor/same/64Ki", "irdiv/i64-floor/same/64Ki", 3, 1)
		row("u64 same 64Ki: plain Go / irdiv", "go/u64/same/64Ki", "irdiv/u64/same/64Ki", 3, 1)
		print "-- 16Mi against the C add stream of the same width (<= 1.1x)"
		n = split(all, types, " ")
		for (i = 1; i <= n; i++)
			row(types[i] " same 16Mi: irdiv / C add stream (" stream(types[i]) ")", "irdiv/" types[i] "/same/16Mi", c "-add/" stream(types[i]) "/same/16Mi", 1.1, 0)
		# irdiv writes 16Mi outputs with non-temporal stores (kernel.StreamMin);
		# the C loops do not, so the same stream written that way is shown too.
		for (i = 1; i <= n; i++)
			ref(types[i] " same 16Mi: irdiv / C non-temporal add (" stream(types[i]) ")", "irdiv/" types[i] "/same/16Mi", c "-addnt/" stream(types[i]) "/same/16Mi")
		print "-- short broadcast rows 64Ki against same shape (<= 1.5x)"
		split("rows4 rows12 chan", short, " ")
		for (i = 1; i <= n; i++) for (l = 1; l <= 3; l++)
			row(types[i] " " short[l] " 64Ki: irdiv " short[l] " / same", "irdiv/" types[i] "/" short[l] "/64Ki", "irdiv/" types[i] "/same/64Ki", 1.5, 0)
		print "-- earlier targets"
		row("f32 same 64Ki: plain Go / irdiv", "go/f32/same/64Ki", "irdiv/f32/same/64Ki", 5, 1)
		row("i32 floor same 64Ki: NumPy floor_divide / irdiv", "numpy/i32-floor/same/64Ki", "irdiv/i32-floor/same/64Ki", 10, 1)
		row("i32 trunc same 64Ki: plain Go / irdiv", "go/i32-trunc/same/64Ki", "irdiv/i32-trunc/same/64Ki", 4, 1)
		row("f16 same 64Ki: NumPy / irdiv", "numpy/f16/same/64Ki", "irdiv/f16/same/64Ki", 30, 1)
		row("f16 same 64Ki: plain Go (x448) / irdiv", "go/f16/same/64Ki", "irdiv/f16/same/64Ki", 1, 1)
		row("bf16 same 64Ki: irdiv bf16 / irdiv f16", "irdiv/bf16/same/64Ki", "irdiv/f16/same/64Ki", 1.5, 0)
		row("i64 trunc scalar 64Ki: plain Go / irdiv", "go/i64-trunc/scalar/64Ki", "irdiv/i64-trunc/scalar/64Ki", 3, 1)
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
		if ((n = values("infer/ns")) > 0) {
			m = median(n); lo = r[1]; hi = r[n]; n = values("infer/allocs")
			printf "%-56s %6.0f ns  %4.0f-%-4.0f ns < 1000 ns, max %s allocs/op (target 0)\n", "one-element model: Infer", m, lo, hi, r[n]
		}
		printf "targets met: %d, missed: %d (n/a: a peer this run lacks)\n", met, missed
		printf "\nns/elem at 64Ki, medians of the rounds (NumPy has no bf16 and no truncating integer division; ORT has no bf16 Div and its integer Div truncates; C divides f32, f64, i64 and u64 only)\n"
		printf "%-10s %-7s %9s %9s %9s %9s %9s\n", "type", "layout", "irdiv", "NumPy", "ORT", "C-" w, "plain Go"
		n = split(all, types, " ")
		for (i = 1; i <= n; i++) for (l = 1; l <= 3; l++) {
			k = types[i] "/" layouts[l] "/64Ki"
			printf "%-10s %-7s %9s %9s %9s %9s %9s\n", types[i], layouts[l], med("irdiv/" k), med("numpy/" k), med("ort/" k), med(c "-div/" k), med("go/" k)
		}
		printf "\nns/elem at 16Mi, same shape: irdiv, the C add stream of its width, with non-temporal stores\n"
		for (i = 1; i <= n; i++)
			printf "%-10s %9s %9s %9s\n", types[i], med("irdiv/" types[i] "/same/16Mi"), med(c "-add/" stream(types[i]) "/same/16Mi"), med(c "-addnt/" stream(types[i]) "/same/16Mi")
		if ((n = values("ort/call/1")) > 0) printf "ONNX Runtime: one call on a one-element model from node, in every ORT figure: %.0f ns (%.4f ns/elem at 64Ki)\n", median(n), median(n) / 65536
	}' "$results"
echo
echo "raw figures (ns/elem): $results"
