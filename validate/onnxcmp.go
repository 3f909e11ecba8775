package validate

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// compareONNX matches each Div of the ONNX model with the IR's Divide by
// tensor names and evaluates both on the same operands: the model's own
// test data when it has some (test_data_set_0 beside the .onnx), then
// random ones of the declared shapes.
func (v *validator) compareONNX(om *onnx.Model, seed uint64) {
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
	matched := make(map[*ir.Layer]bool)
	testData := onnxTestData(om)
	r := rand.New(rand.NewPCG(seed, 0x0cc))
	for _, n := range om.Graph.Nodes {
		if n.OpType != "Div" || n.Domain != "" {
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
			v.r.add(Warning, "onnx/missing-divide", nil, map[string]any{"node": n.String()},
				"the ONNX %s has no Divide in the IR (none named after it or its output %q; the converter may have folded it)", n, strings.Join(n.Outputs, ","))
			continue
		}
		matched[l] = true
		v.compareDiv(om, n, l, testData, r)
	}
	for _, l := range v.order {
		if strings.EqualFold(l.Type, "Divide") && !matched[l] {
			v.r.add(Note, "onnx/extra-divide", l, nil, "this Divide matches no Div of the ONNX model")
		}
	}
}

// onnxTestData reads the inputs of the ONNX model's first test data set,
// by graph input name, when the model sits beside one.
func onnxTestData(om *onnx.Model) map[string]*ir.Tensor {
	if om.Path == "" {
		return nil
	}
	set := filepath.Join(filepath.Dir(om.Path), "test_data_set_0")
	out := make(map[string]*ir.Tensor)
	for i, in := range om.Graph.Inputs {
		path := filepath.Join(set, fmt.Sprintf("input_%d.pb", i))
		if _, err := os.Stat(path); err != nil {
			return out
		}
		t, _, err := onnx.ReadTensorFile(path, onnx.ReadOptions{})
		if err != nil {
			return out
		}
		out[in.Name] = t
	}
	return out
}

// compareDiv compares one Div with its Divide.
func (v *validator) compareDiv(om *onnx.Model, n *onnx.Node, l *ir.Layer, testData map[string]*ir.Tensor, r *rand.Rand) {
	d, ok := v.ops[l].(*ops.Divide)
	if !ok || len(n.Inputs) != 2 {
		return
	}
	ports := [2]ops.ValueInfo{}
	for i := range ports {
		src := v.sourceOf(l, i)
		if src.Layer == nil {
			return
		}
		ports[i] = v.fold.infos[src.Layer][src.Index]
	}
	want, err := onnx.DivideFor(om, n, ports[0], ports[1])
	if err != nil {
		v.r.add(Error, "onnx/rule", l, nil, "%v", err)
		return
	}
	if want.Broadcast != d.Broadcast {
		v.r.add(Warning, "onnx/broadcast", l, map[string]any{"onnx": want.Broadcast.String(), "ir": d.Broadcast.String()},
			"the ONNX %s broadcasts as %s, this Divide as %s", n, want.Broadcast, d.Broadcast)
	}
	inits := make(map[string]*ir.Tensor)
	for _, init := range om.Graph.Initializers {
		inits[init.Name] = init.Tensor
	}
	// The operand sets: the test data first, then random draws.
	var sets [][2]*ir.Tensor
	fixed := [2]*ir.Tensor{}
	for i, name := range n.Inputs {
		if t := inits[name]; t != nil {
			fixed[i] = t
		}
	}
	if a, b := pick(fixed[0], testData[n.Inputs[0]]), pick(fixed[1], testData[n.Inputs[1]]); a != nil && b != nil {
		sets = append(sets, [2]*ir.Tensor{a, b})
	}
	for range 4 {
		var set [2]*ir.Tensor
		for i := range set {
			if set[i] = fixed[i]; set[i] == nil {
				if set[i] = random(r, ports[i], i == 1); set[i] == nil {
					return
				}
			}
		}
		sets = append(sets, set)
	}
	for _, set := range sets {
		got, err1 := d.Evaluate(set[0], set[1])
		exp, err2 := want.Evaluate(set[0], set[1])
		if err1 != nil || err2 != nil {
			if (err1 == nil) != (err2 == nil) {
				v.r.add(Error, "onnx/semantics", l, nil, "on the same operands the ONNX %s gives %v and this Divide %v", n, err2, err1)
				return
			}
			continue
		}
		if !slices.Equal(got.Shape, exp.Shape) || string(got.Data) != string(exp.Data) {
			ex := counterText(set[0], set[1], exp, got)
			v.r.add(Error, "onnx/semantics", l, map[string]any{"counter_example": ex},
				"this Divide computes something else than the ONNX %s: %s", n, ex)
			return
		}
	}
	v.r.add(Note, "onnx/agree", l, map[string]any{"operand_sets": len(sets)},
		"agrees with the ONNX %s on %d operand sets", n, len(sets))
}

func pick(ts ...*ir.Tensor) *ir.Tensor {
	for _, t := range ts {
		if t != nil {
			return t
		}
	}
	return nil
}

// random draws operands of a declared shape (dynamic dimensions 2):
// signed values in ±[1,100], unsigned in [1,200], floats in [-100,100)
// without zero.
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
		return fmt.Sprintf("%s / %s: ONNX gives %s, this IR gives %s", values(a), values(b), values(onnxOut), values(irOut))
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

// values prints a small tensor as [-3,3,-3,3].
func values(t *ir.Tensor) string {
	parts := make([]string, t.Len())
	for i := range parts {
		parts[i] = t.Format(i)
	}
	if len(t.Shape) == 0 {
		return parts[0]
	}
	return "[" + strings.Join(parts, ",") + "]"
}
