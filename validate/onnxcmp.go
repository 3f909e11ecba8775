package validate

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
	"github.com/irdiv/irdiv/validate/internal/absint"
	"github.com/irdiv/irdiv/validate/internal/search"
)

// compareONNX matches each Div of the ONNX model with the IR's Divide by
// name, and evaluates both on the operands that reach the Div in the ONNX
// model: first with its test data, then with random inputs. Initializers
// and Constant nodes are fixed values; an operand irdiv cannot compute
// in the ONNX model (it comes through an op irdiv does not evaluate) is
// drawn at random, of the shape and type the IR declares.
func (v *validator) compareONNX(om *onnx.Model) {
	faithful, err := onnx.Convert(om)
	if err != nil {
		v.r.add(Error, ONNXRule, nil, nil, "%v", err)
		return
	}
	src := analyzeModel(faithful)
	byName := make(map[string]*ir.Layer)
	for _, l := range v.m.Layers {
		if !strings.EqualFold(l.Type, "Divide") {
			continue
		}
		byName[l.Name] = l
		for _, p := range l.Outputs {
			for _, n := range p.Names {
				byName[n] = l
			}
		}
	}
	runs := v.onnxRuns(src, om)
	matched := make(map[*ir.Layer]bool)
	for _, n := range om.Graph.Nodes {
		if n.OpType != "Div" || n.Domain != "" || len(n.Outputs) == 0 {
			continue
		}
		var l *ir.Layer
		for _, key := range append([]string{n.Name}, n.Outputs...) {
			if key != "" && byName[key] != nil {
				l = byName[key]
				break
			}
		}
		if l == nil {
			v.r.add(Warning, ONNXMissingDivide, nil, Evidence{{"node", n.String()}},
				"the ONNX %s has no Divide in the IR (none named after it or its output %q; the converter may have folded it)", n, strings.Join(n.Outputs, ","))
			continue
		}
		matched[l] = true
		if div := producerOf(faithful, n.Outputs[0]); div != nil {
			v.compareDiv(n, l, src, div, runs)
		}
	}
	for _, l := range v.order {
		if strings.EqualFold(l.Type, "Divide") && !matched[l] {
			v.r.add(Note, ONNXExtraDivide, l, nil, "this Divide matches no Div of the ONNX model")
		}
	}
}

// producerOf is the layer of m whose output carries an ONNX tensor name.
func producerOf(m *ir.Model, name string) *ir.Layer {
	for _, l := range m.Layers {
		for _, p := range l.Outputs {
			if slices.Contains(p.Names, name) {
				return l
			}
		}
	}
	return nil
}

// analyzeModel infers and analyses a model on its own (an imported ONNX
// model, a body), keeping going where a layer fails (it stays opaque).
func analyzeModel(m *ir.Model) *absint.Analysis {
	inf, err := ops.InferModelWith(m, ops.WalkOptions{Error: func(*ops.LayerError) {}})
	if err != nil {
		// A cycle: every layer stays opaque.
		inf = &ops.Inference{Ops: map[*ir.Layer]ops.Op{}, Outputs: map[*ir.Layer][]ops.ValueInfo{}}
	}
	return absint.Analyze(m, inf, absint.Options{})
}

// onnxRuns evaluates the ONNX model on its test data, when given, and on
// random inputs of its declared shapes.
func (v *validator) onnxRuns(src *absint.Analysis, om *onnx.Model) []*search.Run {
	r := rand.New(rand.NewPCG(v.opts.Seed, 0x0cc))
	var runs []*search.Run
	opts := search.RunOptions{MaxTensorBytes: v.maxTensorBytes()}
	eval := search.New(src, v.searchOptions())
	if len(v.opts.ONNXTestData) > 0 {
		inputs := make(map[*ir.Layer]*ir.Tensor)
		for _, in := range src.Inputs {
			if t := v.opts.ONNXTestData[in.Layer.Name]; t != nil {
				inputs[in.Layer] = t
			}
		}
		if len(inputs) == len(src.Inputs) {
			runs = append(runs, eval.Evaluate(inputs, opts))
		}
	}
	for range 4 {
		inputs := make(map[*ir.Layer]*ir.Tensor)
		for _, in := range src.Inputs {
			t := random(r, ops.ValueInfo{Type: in.Type, Shape: in.Shape}, false)
			if t == nil {
				return runs
			}
			inputs[in.Layer] = t
		}
		runs = append(runs, eval.Evaluate(inputs, opts))
	}
	return runs
}

func (v *validator) maxTensorBytes() int64 {
	if v.opts.MaxTensorBytes > 0 {
		return v.opts.MaxTensorBytes
	}
	return 16 << 20
}

// compareDiv compares one Div with its Divide on the operands that reach
// the Div in each evaluation of the ONNX model.
func (v *validator) compareDiv(n *onnx.Node, l *ir.Layer, src *absint.Analysis, div *ir.Layer, runs []*search.Run) {
	d, ok := v.ops[l].(*ops.Divide)
	want, ok2 := src.Ops[div].(*ops.Divide)
	if !ok || !ok2 || len(src.Sources[div]) != 2 {
		return
	}
	var ports, onnxPorts [2]ops.ValueInfo
	for i := range ports {
		s := v.sourceOf(l, i)
		if s.Layer == nil {
			return
		}
		ports[i] = v.infos[s.Layer][s.Index]
		o := src.Sources[div][i]
		onnxPorts[i] = src.Infos[o.Layer][o.Index]
	}
	// Types or shapes that cannot be the same Div's come first: values
	// compared across them would mean nothing.
	for i := range ports {
		if mismatch(ports[i], onnxPorts[i]) {
			v.r.add(Error, ONNXMismatch, l, Evidence{{"onnx", onnxPorts[i].String()}, {"ir", ports[i].String()}, {"input", i}},
				"input %d of the ONNX %s is %s, of this Divide %s: they are not the same division (is --onnx the model this IR came from?)", i, n, onnxPorts[i], ports[i])
			return
		}
	}
	if want.Broadcast != d.Broadcast {
		v.r.add(Warning, ONNXBroadcast, l, Evidence{{"onnx", want.Broadcast.String()}, {"ir", d.Broadcast.String()}},
			"the ONNX %s broadcasts as %s, this Divide as %s", n, want.Broadcast, d.Broadcast)
	}
	r := rand.New(rand.NewPCG(v.opts.Seed, uint64(l.ID)))
	compared, tooLarge := 0, false
	for _, run := range runs {
		var set [2]*ir.Tensor
		for i := range set {
			if run.Err == nil {
				set[i] = run.Value(src.Sources[div][i])
			}
			if set[i] == nil {
				if set[i] = random(r, ports[i], i == 1); set[i] == nil {
					break
				}
			}
		}
		if set[0] == nil || set[1] == nil {
			continue
		}
		opts := ops.Options{MaxTensorBytes: v.maxTensorBytes(), Threads: 1}
		got, err1 := evaluateWith(d, set, opts)
		exp, err2 := evaluateWith(want, set, opts)
		if errors.Is(err1, ir.ErrTooLarge) || errors.Is(err2, ir.ErrTooLarge) {
			tooLarge = true
			continue
		}
		compared++
		if err1 != nil || err2 != nil {
			if (err1 == nil) != (err2 == nil) {
				v.r.add(Error, ONNXSemantics, l, nil, "on the same operands the ONNX %s gives %v and this Divide %v", n, err2, err1)
				return
			}
			continue
		}
		if !slices.Equal(got.Shape, exp.Shape) || string(got.Data) != string(exp.Data) {
			ex := counterText(set[0], set[1], exp, got)
			v.r.add(Error, ONNXSemantics, l, Evidence{{"counter_example", ex}},
				"this Divide computes something else than the ONNX %s: %s", n, ex)
			return
		}
	}
	if tooLarge {
		v.r.add(Note, ONNXNotCompared, l, Evidence{{"max_tensor_bytes", v.maxTensorBytes()}},
			"some operands of the ONNX %s make an output larger than the %d bytes validation computes: those sets were not compared", n, v.maxTensorBytes())
	}
	if compared > 0 {
		v.r.add(Note, ONNXAgree, l, Evidence{{"operand_sets", compared}},
			"agrees with the ONNX %s on %d operand sets", n, compared)
	}
}

// mismatch reports whether two operands cannot be the same: other
// element types, or static dims that differ.
func mismatch(a, b ops.ValueInfo) bool {
	if a.Type != b.Type && a.Type != ir.Dynamic && b.Type != ir.Dynamic {
		return true
	}
	if a.Shape.DynamicRank || b.Shape.DynamicRank {
		return false
	}
	if len(a.Shape.Dims) != len(b.Shape.Dims) {
		return true
	}
	for i, d := range a.Shape.Dims {
		if _, ok := shapeinfer.Merge(d, b.Shape.Dims[i]); !ok {
			return true
		}
	}
	return false
}

// evaluateWith divides within the caps: the output's size is checked
// before anything is allocated.
func evaluateWith(d *ops.Divide, set [2]*ir.Tensor, o ops.Options) (*ir.Tensor, error) {
	call, err := d.Prepare(set[0], set[1], o)
	if err != nil {
		return nil, err
	}
	return call.Evaluate(set[0], set[1])
}

// random draws operands of a declared shape (dynamic dimensions 2):
// signed values in ±[1,100], unsigned in [1,200], floats in [-100,100)
// without zero. It returns nil beyond 2^16 elements.
func random(r *rand.Rand, info ops.ValueInfo, divisor bool) *ir.Tensor {
	if info.Shape.DynamicRank || !info.Type.IsNumeric() {
		return nil
	}
	dims := make([]int64, len(info.Shape.Dims))
	for i, d := range info.Shape.Dims {
		dims[i] = max(d.Min, min(d.Max, 2))
	}
	if n, err := ir.NumElements(dims); err != nil || n > 1<<16 {
		return nil
	}
	t, err := ir.NewTensor(info.Type, dims)
	if err != nil {
		return nil
	}
	for i := range t.Len() {
		switch {
		case info.Type.IsFloat():
			f := r.Float64()*200 - 100
			if f == 0 {
				f = 1
			}
			t.SetFloat64(i, f)
		case info.Type.IsSigned():
			x := int64(1 + r.IntN(100))
			if r.IntN(2) == 0 {
				x = -x
			}
			t.SetInt64(i, x)
		default:
			t.SetInt64(i, int64(1+r.IntN(200)))
		}
	}
	return t
}

// counterText prints a disagreement: whole tensors when they are small,
// the first differing element with its operands otherwise.
func counterText(a, b, onnxOut, irOut *ir.Tensor) string {
	if a.Len() <= 8 && b.Len() <= 8 && onnxOut.Len() <= 8 && slices.Equal(onnxOut.Shape, irOut.Shape) {
		return fmt.Sprintf("%s / %s: ONNX gives %s, this IR gives %s", tensorText(a), tensorText(b), tensorText(onnxOut), tensorText(irOut))
	}
	if !slices.Equal(onnxOut.Shape, irOut.Shape) {
		return fmt.Sprintf("ONNX gives shape %s, this IR %s", shapeText(onnxOut.Shape), shapeText(irOut.Shape))
	}
	size := onnxOut.Type.Size()
	for i := range onnxOut.Len() {
		if string(onnxOut.Data[i*size:(i+1)*size]) == string(irOut.Data[i*size:(i+1)*size]) {
			continue
		}
		coord := make([]int64, len(onnxOut.Shape))
		rem := i
		for k := len(coord) - 1; k >= 0; k-- {
			coord[k] = int64(rem) % onnxOut.Shape[k]
			rem /= int(onnxOut.Shape[k])
		}
		ai := shapeinfer.BroadcastIndex(coord, a.Shape, len(coord)-len(a.Shape))
		bi := shapeinfer.BroadcastIndex(coord, b.Shape, len(coord)-len(b.Shape))
		return fmt.Sprintf("at flat index %d, %s / %s: ONNX gives %s, this IR gives %s", i, a.Format(ai), b.Format(bi), onnxOut.Format(i), irOut.Format(i))
	}
	return "no difference"
}

// tensorText prints a small tensor as [-3,3,-3,3].
func tensorText(t *ir.Tensor) string {
	parts := make([]string, t.Len())
	for i := range parts {
		parts[i] = t.Format(i)
	}
	if len(t.Shape) == 0 {
		return parts[0]
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// shapeText prints dims as OpenVINO does: [1,3,270,480].
func shapeText(dims []int64) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = fmt.Sprint(d)
	}
	return "[" + strings.Join(parts, ",") + "]"
}
