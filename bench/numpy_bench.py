"""NumPy peer of bench/run.sh: np.divide and np.floor_divide with out=,
the same data as ops.BenchmarkDivide. Prints "numpy/<case>/<layout>/<N> ns/elem",
the minimum over repetitions of at least 20 ms each. An optional argument
picks sizes as bench/run.sh does: "64Ki" or "1Ki|64Ki|1Mi|16Mi" (the default)."""
import sys
import time
import numpy as np

SIZES = [("1Ki", 1 << 10), ("64Ki", 64 << 10), ("1Mi", 1 << 20), ("16Mi", 16 << 20)]
if len(sys.argv) > 1:
    SIZES = [s for s in SIZES if s[0] in sys.argv[1].split("|")]
rng = np.random.default_rng(1)


def measure(f, n):
    best = float("inf")
    for _ in range(7):
        calls, t0 = 0, time.perf_counter()
        while True:
            f()
            calls += 1
            t = time.perf_counter() - t0
            if t >= 0.02:
                break
        best = min(best, t / calls / n * 1e9)
    return best


def signed_divisor(n, dtype):
    d = rng.integers(1, 1001, n) * rng.choice([-1, 1], n)
    return d.astype(dtype)


for name, n in SIZES:
    for dt, case in [(np.float32, "f32"), (np.float64, "f64"), (np.float16, "f16")]:
        a = (rng.random(n) * 200 - 100).astype(dt)
        b = (1 + rng.random(n)).astype(dt)
        c = np.empty_like(a)
        print(f"numpy/{case}/same/{name} {measure(lambda: np.divide(a, b, out=c), n):.4f}")
        s = b[:1].reshape(())
        print(f"numpy/{case}/scalar/{name} {measure(lambda: np.divide(a, s, out=c), n):.4f}")
    for dt, case, bits in [(np.int32, "i32", 32), (np.int64, "i64", 64)]:
        a = (rng.integers(-(1 << (bits - 3)), 1 << (bits - 3), n)).astype(dt)
        b = signed_divisor(n, dt)
        c = np.empty_like(a)
        print(f"numpy/{case}-floor/same/{name} {measure(lambda: np.floor_divide(a, b, out=c), n):.4f}")
        s = b[:1].reshape(())
        print(f"numpy/{case}-floor/scalar/{name} {measure(lambda: np.floor_divide(a, s, out=c), n):.4f}")
