// ONNX Runtime peer of bench/run.sh: one ONNX Div node (opset 14) per type
// and layout, run on ONNX Runtime's CPU execution provider with one intra-op
// thread, inputs and the output preallocated. Prints
// "ort/<case>/<layout>/<N> ns/elem", timed as every peer of bench/run.sh is:
// the best of 7 windows of at least 20 ms (BENCH_WINDOWS and BENCH_WINDOW_MS
// in the environment change both). ONNX integer Div truncates, so the
// signed cases are named "-trunc". Types ONNX Runtime has no Div kernel for
// are reported on stderr and skipped. A last line, "ort/call/1", is the cost
// of one call on a one-element model: the part of every figure that is the
// binding's and the session's, not the division's.
//
//   node bench/ort_bench.js [sizes]    # sizes as bench/run.sh: "64Ki" or "64Ki|16Mi"
//
// The module is found through NODE_PATH (bench/run.sh installs
// onnxruntime-node there with npm --ignore-scripts). The session is driven
// through the package's native binding, synchronously: the public
// InferenceSession.run goes through a Promise and setImmediate, which costs
// more than the division at 64Ki elements. Run it with
// MALLOC_MMAP_THRESHOLD_=1073741824 as bench/run.sh does: otherwise glibc
// serves the buffers ORT allocates in each call with mmap and munmap, and
// calls fault their pages in again (f32 at 64Ki: 700 us a call instead of
// 26 us, in runs of seconds).
"use strict";
const { binding, initOrt } = require("onnxruntime-node/dist/binding");
const { Tensor } = require("onnxruntime-common");

const SIZES = [["1Ki", 1 << 10], ["64Ki", 64 << 10], ["1Mi", 1 << 20], ["16Mi", 16 << 20]];
const pick = process.argv[2] ? process.argv[2].split("|") : null;

// case name, ONNX elem_type, onnxruntime-common type, typed array
const CASES = [
	["f32", 1, "float32", Float32Array],
	["f64", 11, "float64", Float64Array],
	["f16", 10, "float16", Uint16Array],
	["i8-trunc", 3, "int8", Int8Array],
	["u8", 2, "uint8", Uint8Array],
	["i16-trunc", 5, "int16", Int16Array],
	["u16", 4, "uint16", Uint16Array],
	["i32-trunc", 6, "int32", Int32Array],
	["u32", 12, "uint32", Uint32Array],
	["i64-trunc", 7, "int64", BigInt64Array],
	["u64", 13, "uint64", BigUint64Array],
];

// A minimal protobuf writer: enough for a ModelProto with one node.
function varint(v) {
	const out = [];
	v = BigInt(v);
	do {
		let b = Number(v & 0x7fn);
		v >>= 7n;
		if (v) b |= 0x80;
		out.push(b);
	} while (v);
	return out;
}
const field = (num, bytes) => [...varint((num << 3) | 2), ...varint(bytes.length), ...bytes];
const int = (num, v) => [...varint(num << 3), ...varint(v)];
const str = (num, s) => field(num, [...Buffer.from(s)]);

function valueInfo(name, elemType, shape) {
	const dims = shape.flatMap((d) => field(1, int(1, d)));
	const tensorType = [...int(1, elemType), ...field(2, dims)];
	return [...str(1, name), ...field(2, field(1, tensorType))];
}

function divModel(elemType, shapeA, shapeB, shapeC) {
	const node = [...str(1, "a"), ...str(1, "b"), ...str(2, "c"), ...str(4, "Div")];
	const graph = [
		...field(1, node),
		...str(2, "div"),
		...field(11, valueInfo("a", elemType, shapeA)),
		...field(11, valueInfo("b", elemType, shapeB)),
		...field(12, valueInfo("c", elemType, shapeC)),
	];
	const model = [...int(1, 8), ...field(8, [...str(1, ""), ...int(2, 14)]), ...field(7, graph)];
	return Uint8Array.from(model);
}

const WINDOWS = Number(process.env.BENCH_WINDOWS || 7);
const WINDOW_NS = Number(process.env.BENCH_WINDOW_MS || 20) * 1e6;

function measure(f, n) {
	let best = Infinity;
	for (let rep = 0; rep < WINDOWS; rep++) {
		let calls = 0;
		const t0 = process.hrtime.bigint();
		let t;
		do {
			f();
			calls++;
			t = Number(process.hrtime.bigint() - t0);
		} while (t < WINDOW_NS);
		best = Math.min(best, t / calls / n);
	}
	return best;
}

// Operands drawn as bench/numpy_bench.py and ops.BenchmarkDivide draw them:
// dividends over the type's range, divisors small and never zero.
let seed = 1;
const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);

function fill(name, Arr, n, divisor) {
	const a = new Arr(n);
	for (let i = 0; i < n; i++) {
		if (name === "f32" || name === "f64") a[i] = divisor ? 1 + rand() : rand() * 200 - 100;
		else if (name === "f16") a[i] = divisor ? 0x3c00 + Math.floor(rand() * 1024) : Math.floor(rand() * 0x7800) | (rand() < 0.5 ? 0x8000 : 0);
		else {
			const bits = Arr.BYTES_PER_ELEMENT * 8;
			const signed = name.startsWith("i");
			let v;
			if (divisor) {
				v = 1 + Math.floor(rand() * (bits === 8 ? (signed ? 127 : 255) : 1000));
				if (signed && rand() < 0.5) v = -v;
			} else {
				v = Math.floor(rand() * 2 ** Math.min(bits, 52));
				if (signed) v -= 2 ** (Math.min(bits, 52) - 1);
			}
			a[i] = Arr === BigInt64Array || Arr === BigUint64Array ? BigInt(v) : v;
		}
	}
	return a;
}

function session(model) {
	const s = new binding.InferenceSession();
	s.loadModel(model.buffer, model.byteOffset, model.byteLength, {
		intraOpNumThreads: 1,
		interOpNumThreads: 1,
		executionMode: "sequential",
		graphOptimizationLevel: "all",
	});
	return s;
}

initOrt();
// Besides, the first second or so of large calls in a process runs 10-20x
// slower (the first case measured 11 ns/elem, the same case in a new
// session 0.6), so the figures start after a second of f32 division.
{
	const n = 64 << 10;
	const s = session(divModel(1, [n], [n], [n]));
	const feeds = { a: new Tensor("float32", fill("f32", Float32Array, n, false), [n]), b: new Tensor("float32", fill("f32", Float32Array, n, true), [n]) };
	const fetches = { c: new Tensor("float32", new Float32Array(n), [n]) };
	for (const t0 = process.hrtime.bigint(); process.hrtime.bigint() - t0 < 1000000000n; ) s.run(feeds, fetches, {});
}
{
	const s = session(divModel(1, [1], [1], [1]));
	const feeds = { a: new Tensor("float32", new Float32Array([6]), [1]), b: new Tensor("float32", new Float32Array([3]), [1]) };
	const fetches = { c: new Tensor("float32", new Float32Array(1), [1]) };
	console.log(`ort/call/1 ${measure(() => s.run(feeds, fetches, {}), 1).toFixed(1)}`);
}
for (const [size, n] of SIZES) {
	if (pick && !pick.includes(size)) continue;
	for (const [name, elemType, type, Arr] of CASES) {
		const a = fill(name, Arr, n, false);
		const b = fill(name, Arr, n, true);
		const layouts = [
			["same", [n], b, [n]],
			["scalar", [n], b.subarray(0, 1), []],
			["row", [n / 256, 256], b.subarray(0, 256), [256]],
		];
		for (const [layout, shapeA, bData, shapeB] of layouts) {
			let s;
			try {
				s = session(divModel(elemType, shapeA, shapeB, shapeA));
			} catch (e) {
				if (layout === "same" && size === (pick ? pick[0] : "1Ki")) console.error(`ort: ${name}: ${String(e.message).split("\n")[0]}`);
				continue;
			}
			const feeds = { a: new Tensor(type, a, shapeA), b: new Tensor(type, bData, shapeB) };
			const fetches = { c: new Tensor(type, new Arr(n), shapeA) };
			const options = {};
			s.run(feeds, fetches, options);
			console.log(`ort/${name}/${layout}/${size} ${measure(() => s.run(feeds, fetches, options), n).toFixed(4)}`);
		}
	}
}
