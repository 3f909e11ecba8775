package main

import (
	"math/rand/v2"
	"path/filepath"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/plugin"
)

// kernelFlags are the flags of every command that divides: the SIMD
// level, the thread count and the tensor cap.
type kernelFlags struct {
	simd      string
	threads   int
	maxTensor byteSize
}

func (k *kernelFlags) register(fs *flagSet) {
	fs.StringVar(&k.simd, "simd", "auto", "kernel `LEVEL`: "+strings.Join(allSIMDNames(), ", ")+" (irdiv version names the best this CPU runs)")
	fs.IntVar(&k.threads, "nthreads", 0, "at most `N` goroutines for one large Divide (default GOMAXPROCS, 0)")
	k.maxTensor = defaultMaxTensor
	fs.Var(&k.maxTensor, "max-tensor", "largest `SIZE` of a tensor irdiv reads, generates or computes")
}

// allSIMDNames lists every level irdiv has, whatever this CPU runs, so
// that the help reads the same on every machine.
func allSIMDNames() []string {
	var names []string
	for s := ops.SIMDAuto; !strings.HasPrefix(s.String(), "SIMD("); s++ {
		names = append(names, s.String())
	}
	return names
}

// simdNames lists the levels this CPU runs.
func simdNames() []string {
	names := []string{ops.SIMDAuto.String()}
	for _, s := range ops.AvailableSIMD() {
		names = append(names, s.String())
	}
	return names
}

// options checks the flags and returns them as ops.Options.
func (k *kernelFlags) options() (ops.Options, error) {
	level, err := ops.ParseSIMD(k.simd)
	if err != nil {
		return ops.Options{}, usageErr("--simd %s: must be one of %s on this machine", k.simd, strings.Join(simdNames(), ", "))
	}
	if k.threads < 0 {
		return ops.Options{}, usageErr("--nthreads %d: want 0 (GOMAXPROCS) or more", k.threads)
	}
	return ops.Options{SIMD: level, Threads: k.threads, MaxTensorBytes: int64(k.maxTensor)}, nil
}

// config is options for a whole model.
func (k *kernelFlags) config() (plugin.Config, error) {
	o, err := k.options()
	return plugin.Config{Options: o}, err
}

// modelFlags are the flags run and bench share, besides kernelFlags.
type modelFlags struct {
	kernelFlags
	readLimits
	weights   string
	inputs    multiFlag
	seed      uint64
	maxMemory memorySize
}

func (m *modelFlags) register(fs *flagSet) {
	fs.StringVar(&m.weights, "weights", "", "weights `FILE.bin` (default: MODEL.bin)")
	fs.Var(&m.inputs, "i", "input as `NAME=FILE.npy` (Parameter name, tensor name or index; with run --layer, the input port index); repeatable")
	fs.Uint64Var(&m.seed, "seed", 1, "seed of generated inputs")
	m.kernelFlags.register(fs)
	m.maxMemory.register(fs, true, true)
	m.readLimits.register(fs)
}

// readLimits are the caps on an IR's XML that --max-nodes and
// --max-layers raise for a model larger than the defaults allow (a
// 200k-layer IR passes the 4Mi XML nodes).
type readLimits struct {
	nodes, layers int
}

func (r *readLimits) register(fs *flagSet) {
	fs.IntVar(&r.nodes, "max-nodes", ir.DefaultMaxNodes, "largest `N` of XML elements and attributes an IR may hold")
	fs.IntVar(&r.layers, "max-layers", ir.DefaultMaxLayers, "largest `N` of layers an IR may hold (ports and edges: 4 N)")
}

// apply sets the caps in opts.
func (r readLimits) apply(opts ir.ReadOptions) ir.ReadOptions {
	opts.MaxNodes = r.nodes
	opts.MaxLayers, opts.MaxPorts, opts.MaxEdges = r.layers, 4*r.layers, 4*r.layers
	return opts
}

// check refuses caps that are not positive.
func (r readLimits) check() error {
	if r.nodes < 1 || r.layers < 1 {
		return usageErr("--max-nodes %d and --max-layers %d must be at least 1", r.nodes, r.layers)
	}
	return nil
}

// config is kernelFlags' config with the memory budget.
func (m *modelFlags) config() (plugin.Config, error) {
	cfg, err := m.kernelFlags.config()
	cfg.MaxMemoryBytes = int64(m.maxMemory)
	return cfg, err
}

// generator is the source of generated inputs: the same seed gives the
// same data in run and bench.
func (m *modelFlags) generator() *rand.Rand { return rand.New(rand.NewPCG(m.seed, 0x1d1f)) }

// readModel reads the model of run, bench, info or validate: IR, or an
// ONNX model converted in memory (a file ending in .onnx), each tensor of
// which is bounded by maxTensor (0: --max-tensor's default).
func readModel(path string, opts ir.ReadOptions, maxTensor int64) (*ir.Model, error) {
	m, _, err := readModelFiles(path, opts, maxTensor)
	return m, err
}

func isONNX(path string) bool { return strings.EqualFold(filepath.Ext(path), ".onnx") }
