// Runs ONNX models on ONNX Runtime's CPU provider (npm onnxruntime-node,
// found through NODE_PATH) for package ortreplay and for
// testdata/pytorch/gen.py. It reads one JSON request on stdin:
//
//   {"models": ["a.onnx", ...],
//    "runs": [{"x": {"type": "int32", "dims": [2, 3], "data": "<base64>"}, ...}, ...]}
//
// (a large input as {"type", "dims", "file": "<path of its raw data>"}),
// and writes one JSON answer on stdout:
//
//   {"models": [{"inputs": [{"name", "type", "shape"}], "outputs": [...]} | {"error": "..."}],
//    "results": [[{"outputs": {"y": {"type", "dims", "data"}}} | {"error": "..."}, ...per model], ...per run]}
//
// A request may instead hold jobs, each a model with runs of its own (the
// differential test of validate runs hundreds of models on hundreds of
// inputs each, and one node process per model would cost more than the
// runs):
//
//   {"jobs": [{"model": "a.onnx", "runs": [{...inputs...}, ...]}, ...]}
//
// answered by
//
//   {"jobs": [{"error": "..."} | {"results": [{"outputs": {...}} | {"error": "..."}, ...per run]}, ...]}
//
// Each job's session is released before the next one loads.
//
// Tensor data is little-endian and packed, as in ir.Tensor and .npy files;
// bool is one byte per element, float16 its bit patterns. Every run feeds
// the same inputs to every model, so a model and its flooring twin see
// exactly the same values. Graph optimisations are off and one thread runs,
// so what is measured is each ONNX op's kernel, not ORT's rewrites of them.
//
// The session is driven through the package's native binding, as
// bench/ort_bench.js does: synchronously, without the Promise layer of the
// public API. MIN / -1 in an integer Div or Mod kills this process with
// SIGFPE inside ORT's kernel; the caller reports the signal. An integer
// division by zero fails only its run: ORT 1.30 checks the divisor first.
"use strict";
const fs = require("fs");
const { binding, initOrt } = require("onnxruntime-node/dist/binding");
// Once: require resolves a bare name through the file system at every call.
const { Tensor } = require("onnxruntime-common");

// ONNX TensorProto.DataType -> name used by onnxruntime-common.
const TYPE_NAMES = { 1: "float32", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32", 7: "int64", 8: "string", 9: "bool", 10: "float16", 11: "float64", 12: "uint32", 13: "uint64" };
const ARRAYS = {
	float32: Float32Array, float64: Float64Array, float16: Uint16Array, bool: Uint8Array,
	int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
	int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
};

function metadata(list) {
	return list.map((m) => ({
		name: m.name,
		type: m.isTensor ? TYPE_NAMES[m.type] || `onnx type ${m.type}` : "non-tensor",
		shape: m.isTensor ? Array.from(m.shape, (d, i) => (d === -1 ? m.symbolicDimensions[i] || "?" : d)) : [],
	}));
}

function toTensor(name, t) {
	const Arr = ARRAYS[t.type];
	if (!Arr) throw new Error(`input ${name}: element type ${t.type} is not supported`);
	// A large input comes as a file of its data (ortreplay's fileFeeds).
	const bytes = t.file !== undefined ? fs.readFileSync(t.file) : Buffer.from(t.data, "base64");
	if (bytes.length % Arr.BYTES_PER_ELEMENT !== 0) throw new Error(`input ${name}: ${bytes.length} bytes is not a whole number of ${t.type}`);
	// A fresh buffer: Buffer.from may return a view at an offset no typed array of wide elements accepts.
	const copy = new ArrayBuffer(bytes.length);
	new Uint8Array(copy).set(bytes);
	return new Tensor(t.type, new Arr(copy), t.dims);
}

function fromResult(r) {
	const d = r.data;
	if (!ArrayBuffer.isView(d)) throw new Error(`output of type ${r.type} is not a typed array`);
	return { type: r.type, dims: Array.from(r.dims, Number), data: Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString("base64") };
}

function message(e) {
	return String((e && e.message) || e).split("\n")[0];
}

const request = JSON.parse(fs.readFileSync(0, "utf8"));
initOrt();
// Failed runs are answered in the JSON; ORT would also log them on stderr.
const options = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: "sequential", graphOptimizationLevel: "disabled", logSeverityLevel: 4 };

function runOne(s, run) {
	try {
		const feeds = {};
		for (const [name, t] of Object.entries(run)) feeds[name] = toTensor(name, t);
		const fetches = {};
		for (const o of s.outputs) fetches[o.name] = null;
		const got = s.session.run(feeds, fetches, {});
		const outputs = {};
		for (const o of s.outputs) outputs[o.name] = fromResult(got[o.name]);
		return { outputs };
	} catch (e) {
		return { error: message(e) };
	}
}

if (request.jobs) {
	const jobs = request.jobs.map((job) => {
		let s;
		try {
			s = new binding.InferenceSession();
			const bytes = fs.readFileSync(job.model);
			s.loadModel(bytes.buffer, bytes.byteOffset, bytes.byteLength, options);
		} catch (e) {
			return { error: `${job.model}: ${message(e)}` };
		}
		const session = { session: s, outputs: metadata(s.outputMetadata) };
		const results = (job.runs || []).map((run) => runOne(session, run));
		s.dispose();
		return { results };
	});
	process.stdout.write(JSON.stringify({ jobs }));
} else {
	runSameInputs();
}

// runSameInputs answers a request of models and runs: every run feeds every model.
function runSameInputs() {
	const sessions = request.models.map((path) => {
		try {
			const s = new binding.InferenceSession();
			const bytes = fs.readFileSync(path);
			s.loadModel(bytes.buffer, bytes.byteOffset, bytes.byteLength, options);
			return { session: s, inputs: metadata(s.inputMetadata), outputs: metadata(s.outputMetadata) };
		} catch (e) {
			return { error: `${path}: ${message(e)}` };
		}
	});
	const results = (request.runs || []).map((run) => sessions.map((s) => (s.error ? { error: s.error } : runOne(s, run))));
	const models = sessions.map((s) => (s.error ? { error: s.error } : { inputs: s.inputs, outputs: s.outputs }));
	process.stdout.write(JSON.stringify({ models, results }));
}
