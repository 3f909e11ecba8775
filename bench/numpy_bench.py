"""NumPy peer of bench/run.sh: np.divide (floats) and np.floor_divide
(integers, the "-floor" and unsigned cases) with out=, on the data of
ops.BenchmarkDivide, for every type NumPy has (no bfloat16) and the layouts
same, scalar and row (a row of 256 broadcast over N/256 rows). Prints
"numpy/<case>/<layout>/<N> ns/elem", timed as every peer of bench/run.sh
is: the best of 7 windows of at least 20 ms (BENCH_WINDOWS and
BENCH_WINDOW_MS in the environment change both). An optional argument picks
sizes as bench/run.sh does: "64Ki" or "1Ki|64Ki|1Mi|16Mi" (the default)."""
import os
import sys
import time
import numpy as np

WINDOWS = int(os.environ.get("BENCH_WINDOWS", "7"))
WINDOW = float(os.environ.get("BENCH_WINDOW_MS", "20")) / 1000

SIZES = [("1Ki", 1 << 10), ("64Ki", 64 << 10), ("1Mi", 1 << 20), ("16Mi", 16 << 20)]
if len(sys.argv) > 1:
    SIZES = [s for s in SIZES if s[0] in sys.argv[1].split("|")]
rng = np.random.default_rng(1)


def measure(f, n):
    best = float("inf")
    for _ in range(WINDOWS):
        calls, t0 = 0, time.perf_counter()
        while True:
            f()
            calls += 1
            t = time.perf_counter() - t0
            if t >= WINDOW:
                break
        best = min(best, t / calls / n * 1e9)
    return best


def operands(dt, n):
    if np.issubdtype(dt, np.floating):
        return (rng.random(n) * 200 - 100).astype(dt), (1 + rng.random(n)).astype(dt)
    info = np.iinfo(dt)
    if info.min < 0:
        a = rng.integers(info.min // 2, info.max // 2, n, dtype=np.int64).astype(dt)
        d = rng.integers(1, min(1000, info.max) + 1, n) * rng.choice([-1, 1], n)
        return a, d.astype(dt)
    return rng.integers(0, info.max, n, dtype=np.uint64).astype(dt), rng.integers(1, 256, n).astype(dt)


CASES = [(np.float32, "f32"), (np.float64, "f64"), (np.float16, "f16"),
         (np.int8, "i8-floor"), (np.uint8, "u8"), (np.int16, "i16-floor"), (np.uint16, "u16"),
         (np.int32, "i32-floor"), (np.uint32, "u32"), (np.int64, "i64-floor"), (np.uint64, "u64")]

for name, n in SIZES:
    for dt, case in CASES:
        a, b = operands(dt, n)
        c = np.empty_like(a)
        op = np.divide if np.issubdtype(dt, np.floating) else np.floor_divide
        layouts = [("same", b), ("scalar", b[:1].reshape(())), ("row", b[:256])]
        for layout, d in layouts:
            x = a.reshape(n // 256, 256) if layout == "row" else a
            y = c.reshape(x.shape)
            print(f"numpy/{case}/{layout}/{name} {measure(lambda: op(x, d, out=y), n):.4f}", flush=True)
