package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/plugin"
	"github.com/irdiv/irdiv/shapeinfer"
)

// readTensor reads an input or expected tensor: ONNX's TensorProto for
// a .pb file, NumPy's format otherwise. With want set, the dtype must be
// that type (bf16 travels in .npy as <u2); irdiv never casts.
func readTensor(path string, want ir.ElementType, haveWant bool, maxBytes int64) (*ir.Tensor, error) {
	if strings.EqualFold(filepath.Ext(path), ".pb") {
		t, _, err := onnx.ReadTensorFile(path, pbOptions(maxBytes))
		if err != nil {
			return nil, err
		}
		if haveWant && t.Type != want {
			return nil, fmt.Errorf("%s holds %s but the type is %s; irdiv never casts", path, t.Type, want)
		}
		return t, nil
	}
	return readNPY(path, want, haveWant, maxBytes)
}

// readExpected reads the --expected values before the model runs: one
// ONNX test data folder, whose output_N.pb files are matched to the
// outputs by tensor name; or files (.npy, .pb), one per output in output
// order.
func readExpected(values []string, outputs []plugin.Port, maxBytes int64) (map[int]dataFile, error) {
	if len(values) == 0 {
		return nil, nil
	}
	if len(values) == 1 && isDir(values[0]) {
		return matchDataSet("--expected", values[0], "output", portTargets(outputs, "output"), nil, maxBytes)
	}
	for _, v := range values {
		if isDir(v) {
			return nil, usageErr("--expected %s: a test data folder gives every output; give it alone, or one file per output", v)
		}
	}
	if len(values) != len(outputs) {
		return nil, fmt.Errorf("--expected gives %d tensors for the model's %d outputs", len(values), len(outputs))
	}
	out := make(map[int]dataFile, len(values))
	for i, v := range values {
		t, err := readTensor(v, outputs[i].Type, true, maxBytes)
		if err != nil {
			return nil, err
		}
		out[outputs[i].Index] = dataFile{v, t}
	}
	return out, nil
}

// mismatch is one element where a result differs from its expected value.
type mismatch struct {
	index     int
	got, want string
}

// compare finds the elements of got that differ from want: integers
// must be equal, floats bit-equal, NaN only by class (any NaN matches
// any NaN). It returns the number of differences and the first few.
func compare(got, want *ir.Tensor, first int) (int, []mismatch) {
	n := got.Len()
	count := 0
	var out []mismatch
	size := got.Type.Size()
	for i := range n {
		g, w := got.Data[i*size:(i+1)*size], want.Data[i*size:(i+1)*size]
		if string(g) == string(w) || got.Type.IsFloat() && math.IsNaN(got.Float64At(i)) && math.IsNaN(want.Float64At(i)) {
			continue
		}
		count++
		if len(out) < first {
			out = append(out, mismatch{i, got.Format(i), want.Format(i)})
		}
	}
	return count, out
}

// checkExpected compares an output with its expected tensor, printing the
// differences with operands(i), the operands that gave element i (or ""
// when unknown). It returns an error when they differ.
func checkExpected(w io.Writer, name string, got, want *ir.Tensor, path string, operands func(i int) string) error {
	if got.Type != want.Type || !slices.Equal(got.Shape, want.Shape) {
		return fmt.Errorf("output %q is %s%s, %s expects %s%s", name, got.Type, shapeString(got.Shape), path, want.Type, shapeString(want.Shape))
	}
	count, first := compare(got, want, 10)
	if count == 0 {
		fmt.Fprintf(w, "       matches %s (%d values, exactly)\n", path, got.Len())
		return nil
	}
	fmt.Fprintf(w, "       differs from %s in %d of %d values:\n", path, count, got.Len())
	for _, m := range first {
		fmt.Fprintf(w, "         [%d] got %s, expected %s%s\n", m.index, m.got, m.want, operands(m.index))
	}
	return fmt.Errorf("output %q differs from %s in %d of %d values (first at flat index %d: got %s, expected %s)", name, path, count, got.Len(), first[0].index, first[0].got, first[0].want)
}

// operandsOf returns, for the output of a model computed by a Divide whose
// inputs are model inputs or constants, the text " (a / b)" of the
// operands of each of its elements; "" where they are not known.
func operandsOf(m *ir.Model, req *plugin.InferRequest, result string, outShape []int64) func(int) string {
	none := func(int) string { return "" }
	var res *ir.Layer
	for _, l := range m.Results() {
		if l.Name == result {
			res = l
		}
	}
	if res == nil {
		return none
	}
	src, ok := m.Input(res, 0)
	if !ok {
		return none
	}
	op, err := ops.New(src.Layer)
	d, isDivide := op.(*ops.Divide)
	if err != nil || !isDivide {
		return none
	}
	var operands [2]*ir.Tensor
	for i := range operands {
		in, ok := m.Input(src.Layer, i)
		switch {
		case !ok:
			return none
		case in.Layer.Constant != nil:
			operands[i] = in.Layer.Constant
		case strings.EqualFold(in.Layer.Type, "Parameter"):
			if operands[i], err = req.Tensor(in.Layer.Name); err != nil {
				return none
			}
		default:
			return none
		}
	}
	a, b := operands[0], operands[1]
	aOffset, bOffset := len(outShape)-len(a.Shape), len(outShape)-len(b.Shape)
	if d.Broadcast.Mode == shapeinfer.PDPD {
		aOffset, bOffset = 0, shapeinfer.PDPDAxis(len(a.Shape), len(b.Shape), d.Broadcast.Axis)
	}
	return func(flat int) string {
		coord := make([]int64, len(outShape))
		for i := len(outShape) - 1; i >= 0; i-- {
			coord[i] = int64(flat) % outShape[i]
			flat /= int(outShape[i])
		}
		return fmt.Sprintf(" (%s / %s)", a.Format(shapeinfer.BroadcastIndex(coord, a.Shape, aOffset)), b.Format(shapeinfer.BroadcastIndex(coord, b.Shape, bOffset)))
	}
}
