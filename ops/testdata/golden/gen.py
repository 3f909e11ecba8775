#!/usr/bin/python3
"""Writes the golden tensors of the ops evaluation tests: inputs with the
edge values of every type, and the outputs NumPy (numpy 1.24) computes for
each op under OpenVINO's rules, into .npy files and manifest.json.

Where OpenVINO's reference differs from NumPy's own function, the NumPy
expression follows OpenVINO's (noted per op below): Minimum is
std::min(a, b) (b < a ? b : a), Sign(NaN) is 0, Abs(-0.0) is -0.0, Relu(NaN)
is 0, FloorMod of floats is a - b*floor(a/b) in double, Mod of floats is
a - trunc(a/b)*b in the type, Clamp of integers rounds min up and max down,
f16 and bf16 are computed in f32 and rounded to nearest even. What C++
leaves undefined (a float converted to an integer out of range, the integer
ops that go through a double: Power, Sqrt, Exp, Log, Tanh, Sigmoid) comes
from oracle.cpp, the reference expressions compiled by g++ for x86-64, as
OpenVINO is built.

Run from anywhere: /usr/bin/python3 ops/testdata/golden/gen.py
"""
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
INTS = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]
FLOATS = ["f16", "bf16", "f32", "f64"]
NUM = INTS + FLOATS
NP = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
      "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
      "f16": np.float16, "bf16": np.float32, "f32": np.float32, "f64": np.float64,
      "boolean": np.bool_}

cases = []
files = {}
oracle_bin = None


def bf16(x):
    """Rounds float32 values to bfloat16 (nearest even; NaN stays quiet NaN),
    kept as float32."""
    x = np.asarray(x, dtype=np.float32)
    b = x.view(np.uint32).astype(np.uint64)
    nan = np.isnan(x)
    r = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) << 16
    r = np.where(nan, ((b >> 16) | 0x40) << 16, r).astype(np.uint32)
    return r.view(np.float32)


def typed(t, values):
    """The values as an array of t (bf16: float32 values rounded to bf16)."""
    if t == "bf16":
        return bf16(np.asarray(values, dtype=np.float64).astype(np.float32))
    with np.errstate(all="ignore"):
        return np.asarray(values, dtype=np.float64 if t in FLOATS else object).astype(NP[t])


def to_type(t, f32_or_f64):
    """Rounds a computed float32/float64 array to t."""
    with np.errstate(all="ignore"):
        if t == "bf16":
            return bf16(f32_or_f64.astype(np.float32))
        return f32_or_f64.astype(NP[t])


def work(t, x):
    """The working precision of float type t: f64 in f64, others in f32."""
    return x.astype(np.float64 if t == "f64" else np.float32)


def save(name, t, arr):
    arr = np.array(arr, order="C")  # ascontiguousarray would make a scalar 1-D
    if t == "bf16":
        arr = (arr.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    else:
        arr = arr.astype(NP[t])
    np.save(os.path.join(HERE, name), arr, allow_pickle=False)
    files[name] = t
    return {"file": name, "type": t}


def oracle(func, src, dst, *arrays):
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i, a in enumerate(arrays):
            p = os.path.join(d, "in%d" % i)
            np.ascontiguousarray(a.astype(NP[src])).tofile(p)
            paths.append(p)
        out = os.path.join(d, "out")
        subprocess.run([oracle_bin, func, src, dst] + paths + [out], check=True)
        return np.fromfile(out, dtype=NP[dst])


def edges(t):
    if t in INTS:
        bits = int(t[1:])
        if t[0] == "i":
            lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
            return [lo, lo + 1, -100, -7, -3, -2, -1, 0, 1, 2, 3, 7, 100, hi - 1, hi]
        hi = (1 << bits) - 1
        return [0, 1, 2, 3, 7, 100, hi // 2, hi // 2 + 1, hi - 1, hi]
    big = {"f16": 65504.0, "bf16": 3.3895313892515355e38, "f32": 3.4028234663852886e38, "f64": 1.7976931348623157e308}[t]
    return [-math.inf, -big, -1000.5, -7.0, -3.5, -2.5, -1.5, -1.0, -0.5, -0.0, 0.0, 1e-7, 0.5, 1.0, 1.5,
            2.5, 3.0, 7.25, 1000.0, big, math.inf, math.nan]


def pairs(t, nonzero_b=False):
    v = typed(t, edges(t))
    a = np.repeat(v, len(v))
    b = np.tile(v, len(v))
    if nonzero_b and t in INTS:
        keep = b != 0
        a, b = a[keep], b[keep]
    return a, b


def add_case(name, typ, version, attrs, inputs, outputs, note="", ulp=0):
    c = {"name": name, "type": typ, "version": version, "attrs": attrs, "inputs": inputs, "outputs": outputs}
    if note:
        c["note"] = note
    if ulp:
        c["ulp"] = ulp
    cases.append(c)


# The f64 results of these ops come from the C library (glibc for NumPy
# and for OpenVINO on Linux), which irdiv cannot call; Go's math package
# differs from it in the last place for some arguments, and math.Pow by up
# to 4 units with a fractional exponent (measured on these cases; integer
# exponents are correctly rounded in irdiv, as in glibc).
LIBM = {"Power": 4, "Exp": 1, "Log": 1, "Tanh": 1, "Sigmoid": 1}
LIBM_NOTE = "f64 libm result: glibc and Go's math may differ in the last places"


def binary():
    """Arithmetic and comparison ops of two inputs, every type, every pair
    of edge values; outputs of one input set stacked in one file per type."""
    arith = ["Add", "Subtract", "Multiply", "Minimum", "Maximum", "SquaredDifference", "Power"]
    mods = ["FloorMod", "Mod"]
    cmps = ["Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"]
    for t in NUM:
        groups = ((arith + cmps, False), (mods, True)) if t in INTS else ((arith + mods + cmps, False),)
        for group, nonzero in groups:
            a, b = pairs(t, nonzero)
            ia, ib = save("a_%s%s.npy" % (t, "_nz" if nonzero else ""), t, a), save("b_%s%s.npy" % (t, "_nz" if nonzero else ""), t, b)
            rows, cmp_rows, names, cmp_names = [], [], [], []
            with np.errstate(all="ignore"):
                for op in group:
                    if op in cmps:
                        f = {"Equal": np.equal, "NotEqual": np.not_equal, "Less": np.less, "LessEqual": np.less_equal,
                             "Greater": np.greater, "GreaterEqual": np.greater_equal}[op]
                        cmp_rows.append(f(a, b))
                        cmp_names.append(op)
                        continue
                    if t in INTS:
                        r = {
                            "Add": lambda: a + b, "Subtract": lambda: a - b, "Multiply": lambda: a * b,
                            "Minimum": lambda: np.where(b < a, b, a), "Maximum": lambda: np.where(a < b, b, a),
                            "SquaredDifference": lambda: (a - b) * (a - b),
                            "Power": lambda: oracle("pow", t, t, a, b),
                            "FloorMod": lambda: np.mod(a, b), "Mod": lambda: np.fmod(a, b),
                        }[op]()
                    else:
                        x, y = work(t, a), work(t, b)
                        d, e = a.astype(np.float64), b.astype(np.float64)
                        r = {
                            "Add": lambda: x + y, "Subtract": lambda: x - y, "Multiply": lambda: x * y,
                            "Minimum": lambda: np.where(y < x, y, x), "Maximum": lambda: np.where(x < y, y, x),
                            "SquaredDifference": lambda: (x - y) * (x - y),
                            "Power": lambda: work(t, np.power(d, e)),
                            "FloorMod": lambda: work(t, d - e * np.floor(d / e)),
                            "Mod": lambda: x - np.trunc(x / y) * y,
                        }[op]()
                        r = to_type(t, r)
                    rows.append(np.asarray(r))
                    names.append(op)
            if rows:
                suffix = "_nz" if nonzero else ""
                out = save("%s_arith%s.npy" % (t, suffix), t, np.stack(rows))
                for i, op in enumerate(names):
                    libm = t == "f64" and op in LIBM
                    add_case("%s/%s" % (op, t), op, "opset1", {"auto_broadcast": "numpy"}, [ia, ib], [dict(out, row=i)],
                             LIBM_NOTE if libm else "", LIBM[op] if libm else 0)
            if cmp_rows:
                out = save("%s_cmp.npy" % t, "boolean", np.stack(cmp_rows))
                for i, op in enumerate(cmp_names):
                    add_case("%s/%s" % (op, t), op, "opset1", {}, [ia, ib], [dict(out, row=i)])
    # Broadcasting, numpy and pdpd, on i32.
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4) - 11
    b = np.array([[3], [-2], [5]], dtype=np.int32)
    ia, ib = save("bc_a.npy", "i32", a), save("bc_b.npy", "i32", b)
    add_case("Subtract/numpy", "Subtract", "opset1", {}, [ia, ib], [save("bc_sub.npy", "i32", a - b)])
    add_case("FloorMod/pdpd", "FloorMod", "opset1", {"auto_broadcast": "pdpd", "auto_broadcast.auto_broadcast_axis": "1"},
             [ia, save("bc_b3.npy", "i32", b.reshape(3, 1))], [save("bc_floormod.npy", "i32", np.mod(a, b.reshape(1, 3, 1)))])
    t, f = np.array([True, False, True]), np.array([[True], [False]])
    it, iff = save("l_a.npy", "boolean", t), save("l_b.npy", "boolean", f)
    for op, fn in (("LogicalAnd", np.logical_and), ("LogicalOr", np.logical_or), ("LogicalXor", np.logical_xor)):
        add_case(op, op, "opset1", {}, [it, iff], [save("l_%s.npy" % op, "boolean", fn(t, f))])


def unary():
    ops = ["Abs", "Negative", "Sign", "Floor", "Ceiling", "Relu", "Sqrt", "Exp", "Log", "Sigmoid", "Tanh", "LogicalNot",
           "Round/half_to_even", "Round/half_away_from_zero", "Clamp/-1.5,3.7", "Clamp/-1e30,1e30"]
    for t in NUM:
        x = typed(t, edges(t))
        ix = save("x_%s.npy" % t, t, x)
        rows = []
        with np.errstate(all="ignore"):
            for op in ops:
                if t in INTS:
                    bits = int(t[1:])
                    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if t[0] == "i" else (0, (1 << bits) - 1)

                    def clamp(mn, mx):
                        a, b = min(max(math.ceil(mn), lo), hi), min(max(math.floor(mx), lo), hi)
                        return np.where(x < typed(t, [a])[0], typed(t, [a])[0], np.where(x > typed(t, [b])[0], typed(t, [b])[0], x))

                    r = {
                        "Abs": lambda: np.where(x < 0, -x, x), "Negative": lambda: -x,
                        "Sign": lambda: np.where(x < 0, -1, np.where(x > 0, 1, 0)).astype(NP[t]),
                        "Floor": lambda: x, "Ceiling": lambda: x, "Relu": lambda: np.where(x > 0, x, 0).astype(NP[t]),
                        "Sqrt": lambda: oracle("sqrt", t, t, x), "Exp": lambda: oracle("exp", t, t, x),
                        "Log": lambda: oracle("log", t, t, x), "Sigmoid": lambda: oracle("sigmoid", t, t, x),
                        "Tanh": lambda: oracle("tanh", t, t, x), "LogicalNot": lambda: (x == 0).astype(NP[t]),
                        "Round/half_to_even": lambda: x, "Round/half_away_from_zero": lambda: x,
                        "Clamp/-1.5,3.7": lambda: clamp(-1.5, 3.7), "Clamp/-1e30,1e30": lambda: clamp(-1e30, 1e30),
                    }[op]()
                else:
                    w = work(t, x)
                    d = x.astype(np.float64)
                    one = w.dtype.type(1)

                    def sigmoid():
                        e = work(t, np.exp(-d))
                        return one / (one + e)

                    def clamp(mn, mx):
                        a, b = w.dtype.type(mn), w.dtype.type(mx)
                        return np.where(w < a, a, np.where(w > b, b, w))

                    r = {
                        "Abs": lambda: np.where(w < 0, -w, w), "Negative": lambda: -w,
                        "Sign": lambda: np.where(w < 0, -one, np.where(w > 0, one, 0 * one)).astype(w.dtype),
                        "Floor": lambda: np.floor(w), "Ceiling": lambda: np.ceil(w),
                        "Relu": lambda: np.where(w > 0, w, 0 * one).astype(w.dtype),
                        "Sqrt": lambda: np.sqrt(w), "Exp": lambda: work(t, np.exp(d)), "Log": lambda: work(t, np.log(d)),
                        "Sigmoid": sigmoid, "Tanh": lambda: work(t, np.tanh(d)),
                        "LogicalNot": lambda: (w == 0).astype(w.dtype),
                        "Round/half_to_even": lambda: np.round(w),
                        "Round/half_away_from_zero": lambda: oracle("round_away", "f64", "f64", d).astype(w.dtype),
                        "Clamp/-1.5,3.7": lambda: clamp(-1.5, 3.7), "Clamp/-1e30,1e30": lambda: clamp(-1e30, 1e30),
                    }[op]()
                    r = to_type(t, r)
                rows.append(np.asarray(r))
        out = save("%s_unary.npy" % t, t, np.stack(rows))
        for i, op in enumerate(ops):
            typ, _, arg = op.partition("/")
            attrs, version = {}, "opset1"
            if typ == "Round":
                attrs, version = {"mode": arg}, "opset5"
            elif typ == "Clamp":
                mn, mx = arg.split(",")
                attrs = {"min": mn, "max": mx}
            libm = t == "f64" and typ in LIBM
            add_case("%s/%s" % (op, t), typ, version, attrs, [ix], [dict(out, row=i)], LIBM_NOTE if libm else "", LIBM[typ] if libm else 0)


def convert():
    """Every source type (edge values, with .5 fractions) to every
    destination type."""
    for s in NUM + ["boolean"]:
        if s == "boolean":
            x = np.array([False, True, True, False])
        elif s in INTS:
            x = typed(s, edges(s))
        else:
            big = {"f16": [65504.0, 300.7, 70000.0], "bf16": [3e9, 1e19, 2e19, -3e9, 300.7, 65520.0],
                   "f32": [3e9, 1e19, 2e19, -3e9, 9.3e18, 1.8446744e19, 300.7, 70000.5, 65519.0, 65520.0, 4294967296.0 * 2],
                   "f64": [5e9, -5e9, 1e300, -1e300, 300.7, 1e19, 3e38, 1.0000000596046448]}[s]
            x = typed(s, edges(s) + big + [-v for v in big] + [0.49999997, 2.5000002])
        ix = save("cvt_%s.npy" % s, s, x)
        for d in NUM + ["boolean"]:
            with np.errstate(all="ignore"):
                if d == "boolean":
                    r = x != 0
                elif s == "boolean":
                    r = to_type(d, x.astype(np.float64)) if d in FLOATS else x.astype(NP[d])
                elif s in FLOATS and d in INTS:
                    r = oracle("convert", "f64" if s == "f64" else "f32", d, x.astype(np.float64 if s == "f64" else np.float32))
                elif s in FLOATS:
                    r = x.astype(np.float64) if d == "f64" else to_type(d, x.astype(np.float32))
                elif d in INTS:
                    r = x.astype(NP[d])
                elif d == "f64":
                    r = x.astype(np.float64)
                else:
                    v = x.astype(np.float32)
                    if s == "i32" and d == "f16":
                        v = np.clip(x, -65504, 65504).astype(np.float32)
                    r = to_type(d, v)
            out = save("cvt_%s_%s.npy" % (s, d), d, r)
            add_case("Convert/%s->%s" % (s, d), "Convert", "opset1", {"destination_type": d}, [ix], [out])


def shape_ops():
    i64 = lambda name, v: save(name, "i64", np.asarray(v, dtype=np.int64))
    data = np.arange(2 * 3 * 4 * 5, dtype=np.int32).reshape(2, 3, 4, 5) - 60
    idata = save("s_data.npy", "i32", data)
    hdata = save("s_data_f16.npy", "f16", (data / 8).astype(np.float16))

    # Gather: negative indices count from the end, out of range give zeros.
    idx = np.array([[0, -1, 3], [4, -5, 2]], dtype=np.int64)
    want = np.zeros((2, 2, 3, 4, 5), dtype=np.int32)
    for i in range(2):
        for j in range(3):
            k = idx[i, j] + 3 if idx[i, j] < 0 else idx[i, j]
            if 0 <= k < 3:
                want[:, i, j] = data[:, k]
    want = want.reshape(2, 2, 3, 4, 5)
    add_case("Gather/negative-and-out-of-range", "Gather", "opset8", {"batch_dims": "0"},
             [idata, i64("g_idx.npy", idx), i64("g_axis.npy", 1)], [save("g_out.npy", "i32", want)])
    bidx = np.array([[2, -1], [0, 1]], dtype=np.int32)
    bwant = np.stack([np.take(data[b], bidx[b] % 4, axis=1) for b in range(2)])
    add_case("Gather/batch_dims", "Gather", "opset8", {"batch_dims": "1"},
             [idata, save("g_bidx.npy", "i32", bidx), i64("g_baxis.npy", [2])], [save("g_bout.npy", "i32", bwant)])

    # StridedSlice and Slice against Python slices.
    def ss(name, begin, end, strides, masks, py):
        attrs = {k: ",".join(str(x) for x in v) for k, v in masks.items()}
        add_case("StridedSlice/" + name, "StridedSlice", "opset1", attrs,
                 [idata, i64("ss_%s_b.npy" % name, begin), i64("ss_%s_e.npy" % name, end), i64("ss_%s_s.npy" % name, strides)],
                 [save("ss_%s.npy" % name, "i32", data[py])])
    none = {"begin_mask": [0, 0, 0, 0], "end_mask": [0, 0, 0, 0], "new_axis_mask": [], "shrink_axis_mask": [], "ellipsis_mask": []}
    ss("plain", [0, 1, -3, 0], [2, 3, -1, 5], [1, 1, 1, 2], none, np.s_[0:2, 1:3, -3:-1, 0:5:2])
    ss("reverse", [1, -1, 10, 0], [0, -10, -10, 5], [-1, -1, -2, 1], none, np.s_[1:0:-1, -1:-10:-1, 10:-10:-2, 0:5])
    ss("masks", [1, 2, 3, 1], [2, 0, 0, 4], [1, 1, 1, 2],
       dict(none, begin_mask=[1, 0, 1, 0], end_mask=[0, 1, 1, 0]), np.s_[:2, 2:, :, 1:4:2])
    ss("newaxis-shrink", [0, 1, 0, -2], [0, 2, 0, 0], [1, 1, 1, 1],
       dict(none, new_axis_mask=[1, 0, 0, 0], shrink_axis_mask=[0, 1, 0, 1]), np.s_[np.newaxis, 1, :0, -2])
    ss("ellipsis", [0, 1, 0], [0, 3, 0], [1, 1, 1],
       dict(none, ellipsis_mask=[1, 0, 0], begin_mask=[0, 0, 1], end_mask=[0, 0, 1]), np.s_[..., 1:3, :])
    ss("out-of-range", [-100, 1, 2, 100], [100, 100, -100, -100], [1, 2, 1, -1], none, np.s_[-100:100, 1:100:2, 2:-100, 100:-100:-1])

    def sl(name, start, stop, step, axes, py, inp=idata, arr=data, t="i32"):
        ins = [inp, i64("sl_%s_a.npy" % name, start), i64("sl_%s_o.npy" % name, stop), i64("sl_%s_s.npy" % name, step)]
        if axes is not None:
            ins.append(i64("sl_%s_x.npy" % name, axes))
        add_case("Slice/" + name, "Slice", "opset8", {}, ins, [save("sl_%s.npy" % name, t, arr[py])])
    sl("axes", [10, 3], [-4, 100], [-1, 2], [2, -1], np.s_[:, :, 10:-4:-1, 3:100:2])
    sl("default-axes", [1, -100], [2, 100], [1, 1], None, np.s_[1:2, -100:100])
    sl("f16", [2, 0], [-100, 5], [-2, 3], [1, 3], np.s_[:, 2:-100:-2, :, 0:5:3], hdata, (data / 8).astype(np.float16), "f16")

    add_case("Concat/negative-axis", "Concat", "opset1", {"axis": "-1"},
             [idata, save("c_b.npy", "i32", data[:, :, :, :2])],
             [save("c_out.npy", "i32", np.concatenate([data, data[:, :, :, :2]], axis=-1))])
    add_case("Transpose", "Transpose", "opset1", {}, [idata, i64("t_perm.npy", [2, 0, 3, 1])],
             [save("t_out.npy", "i32", np.transpose(data, [2, 0, 3, 1]))])
    add_case("Transpose/empty-order", "Transpose", "opset1", {}, [hdata, i64("t_empty.npy", np.zeros(0, np.int64))],
             [save("t_rev.npy", "f16", np.transpose((data / 8).astype(np.float16)))])
    small = np.array([[1, -2, 3]], dtype=np.int32)
    ismall = save("small.npy", "i32", small)
    add_case("Tile", "Tile", "opset1", {}, [ismall, i64("tile_r.npy", [2, 1, 2])], [save("tile_out.npy", "i32", np.tile(small, [2, 1, 2]))])
    add_case("Tile/negative", "Tile", "opset1", {}, [ismall, i64("tile_n.npy", [-1, 2])], [save("tile_neg.npy", "i32", np.zeros((0, 6), np.int32))])
    add_case("Broadcast/numpy", "Broadcast", "opset3", {"mode": "numpy"}, [ismall, i64("br_t.npy", [2, 2, 3])],
             [save("br_np.npy", "i32", np.broadcast_to(small, (2, 2, 3)))])
    add_case("Broadcast/bidirectional", "Broadcast", "opset3", {"mode": "bidirectional"}, [ismall, i64("br_bt.npy", [4, 1])],
             [save("br_bi.npy", "i32", np.broadcast_to(small, (4, 3)))])
    col = np.array([7, 8], dtype=np.int32)
    add_case("Broadcast/explicit", "Broadcast", "opset1", {"mode": "explicit"},
             [save("br_col.npy", "i32", col), i64("br_et.npy", [2, 3]), i64("br_ax.npy", [0])],
             [save("br_ex.npy", "i32", np.broadcast_to(col[:, None], (2, 3)))])

    def rng(name, version, attrs, start, stop, step, t, want):
        ins = [save("r_%s_%d.npy" % (name, i), t_in, np.asarray(v, dtype=NP[t_in]))
               for i, (v, t_in) in enumerate(zip((start, stop, step), t[0]))]
        add_case("Range/" + name, "Range", version, attrs, ins, [save("r_%s.npy" % name, t[1], want)])
    rng("i32-negative-step", "opset4", {"output_type": "i32"}, 10, -3, -4, (("i64", "i64", "i64"), "i32"), np.arange(10, -3, -4, dtype=np.int32))
    rng("f32", "opset4", {"output_type": "f32"}, 0.5, 3.2, 0.3, (("f32", "f32", "f32"), "f32"),
        np.float32(0.5) + np.arange(math.ceil((np.float64(np.float32(3.2)) - np.float64(np.float32(0.5))) / np.float64(np.float32(0.3))), dtype=np.float32) * np.float32(0.3))
    rng("f64-to-i64", "opset4", {"output_type": "i64"}, 2.9, 9.7, 2.2, (("f64", "f64", "f64"), "i64"), np.arange(2, 9, 2, dtype=np.int64))
    rng("v1-i64", "opset1", {}, -5, 5, 3, (("i64", "i64", "i64"), "i64"), np.arange(-5, 5, 3, dtype=np.int64))

    r = np.array([[[-3, -7, -100], [2, 0, -1]], [[-100, 5, 5], [1, 1, -3]]], dtype=np.int32)
    ir_ = save("red.npy", "i32", r)
    rf = (r / 4).astype(np.float32)
    irf = save("red_f32.npy", "f32", rf)
    for op, fn in (("ReduceSum", np.sum), ("ReduceProd", np.prod), ("ReduceMin", np.min), ("ReduceMax", np.max)):
        for keep in (False, True):
            k = "true" if keep else "false"
            add_case("%s/keep_dims=%s" % (op, k), op, "opset1", {"keep_dims": k}, [ir_, i64("red_ax.npy", [0, -1])],
                     [save("red_%s_%s.npy" % (op, k), "i32", fn(r, axis=(0, 2), keepdims=keep).astype(np.int32))])
        add_case("%s/last axis" % op, op, "opset1", {"keep_dims": "false"}, [ir_, i64("red_ax3.npy", -1)],
                 [save("red_%s_last.npy" % op, "i32", fn(r, axis=-1).astype(np.int32))])
        add_case("%s/f32" % op, op, "opset1", {"keep_dims": "false"}, [irf, i64("red_ax1.npy", 1)],
                 [save("red_%s_f32.npy" % op, "f32", fn(rf, axis=1))])
    # OpenVINO sums floats with Kahan's compensation (reduce_sum.hpp), in
    # f32: eight 1s added to 1e8 are not lost, as a plain sum loses them.
    k = np.array([[1e8, 1, 1, 1, 1, 1, 1, 1, 1]], dtype=np.float32)
    acc, comp = np.float32(0), np.float32(0)
    for x in k[0]:
        y = np.float32(x - comp)
        s_ = np.float32(acc + y)
        comp = np.float32(np.float32(s_ - acc) - y)
        acc = s_
    assert acc != np.float32(1e8)
    add_case("ReduceSum/kahan", "ReduceSum", "opset1", {"keep_dims": "false"}, [save("red_kahan_in.npy", "f32", k), i64("red_ax4.npy", [1])],
             [save("red_kahan.npy", "f32", np.array([acc], dtype=np.float32))])
    add_case("ReduceMean/i32", "ReduceMean", "opset1", {"keep_dims": "false"}, [ir_, i64("red_ax2.npy", [2])],
             [save("red_mean.npy", "i32", np.fix(np.sum(r, axis=2) / 3).astype(np.int32))])

    cond = np.array([[True], [False]])
    add_case("Select/numpy", "Select", "opset1", {}, [save("sel_c.npy", "boolean", cond), ismall, save("sel_e.npy", "i32", np.array([9], np.int32))],
             [save("sel_out.npy", "i32", np.where(cond, small, np.int32(9)))])
    parts = np.split(data, 2, axis=-1 + 4 - 3)
    add_case("Split", "Split", "opset1", {"num_splits": "2"}, [idata, i64("sp_ax.npy", 0)],
             [save("sp_%d.npy" % i, "i32", p) for i, p in enumerate(np.split(data, 2, axis=0))])
    add_case("VariadicSplit", "VariadicSplit", "opset1", {}, [idata, i64("vs_ax.npy", -2), i64("vs_l.npy", [1, -1, 2])],
             [save("vs_%d.npy" % i, "i32", p) for i, p in enumerate(np.split(data, [1, 2], axis=2))])
    del parts
    add_case("Reshape/special_zero", "Reshape", "opset1", {"special_zero": "true"}, [idata, i64("rs_p.npy", [0, -1, 10])],
             [save("rs_out.npy", "i32", data.reshape(2, 6, 10))])
    add_case("Squeeze/axes", "Squeeze", "opset1", {}, [ismall, i64("sq_ax.npy", [0])], [save("sq_out.npy", "i32", small[0])])
    add_case("Unsqueeze", "Unsqueeze", "opset1", {}, [ismall, i64("usq_ax.npy", [-1, 0])],
             [save("usq_out.npy", "i32", small.reshape(1, 1, 3, 1))])
    add_case("ShapeOf", "ShapeOf", "opset3", {"output_type": "i32"}, [hdata], [save("shape_out.npy", "i32", np.array(data.shape, np.int32))])


def main():
    global oracle_bin
    with tempfile.TemporaryDirectory() as d:
        oracle_bin = os.path.join(d, "oracle")
        subprocess.run(["g++", "-O2", "-std=c++17", "-o", oracle_bin, os.path.join(HERE, "oracle.cpp")], check=True)
        for f in os.listdir(HERE):
            if f.endswith(".npy"):
                os.remove(os.path.join(HERE, f))
        binary()
        unary()
        convert()
        shape_ops()
        gxx = subprocess.run(["g++", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    manifest = {"generator": "gen.py with numpy %s and %s" % (np.__version__, gxx), "cases": cases}
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        f.write('{"generator": %s,\n"cases": [\n' % json.dumps(manifest["generator"]))
        f.write(",\n".join(json.dumps(c, separators=(",", ":")) for c in cases))
        f.write("\n]}\n")
    print("%d cases, %d files" % (len(cases), len(files)), file=sys.stderr)


if __name__ == "__main__":
    main()
