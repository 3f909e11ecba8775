package values

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

// Run is the model evaluated on concrete inputs: the type and shape of
// every output inference gives, and the tensors of those irdiv computes
// (opaque layers and what depends on their data stay without one).
type Run struct {
	Infos  map[ir.Output]ops.ValueInfo
	Values map[ir.Output]*ir.Tensor
	// Err is why the model does not run on these inputs (a layer's
	// inference or evaluation fails); nil when it does, as far as irdiv
	// can tell.
	Err error
}

// RunOptions bound a concrete evaluation.
type RunOptions struct {
	// Floor gives the rounding of each integer Divide: the model's own
	// (nil), or another (a model from ONNX evaluated as ONNX specifies).
	Floor func(l *ir.Layer, d *ops.Divide) bool
	// MaxTensorBytes bounds each tensor computed (default 16 MiB); larger
	// outputs keep their shape only.
	MaxTensorBytes int64
	// MaxBytes bounds all tensors computed together (default 256 MiB).
	MaxBytes int64
	// Stop ends the evaluation before this layer (nil: evaluate all).
	Stop *ir.Layer
	// Need, when set, limits the evaluation to these layers (Parameters
	// are always set).
	Need map[*ir.Layer]bool
}

// Evaluate runs the model on the inputs given for its Parameters.
func (a *Analysis) Evaluate(inputs map[*ir.Layer]*ir.Tensor, o RunOptions) *Run {
	run := &Run{Infos: make(map[ir.Output]ops.ValueInfo, len(a.Order)), Values: make(map[ir.Output]*ir.Tensor)}
	perTensor := cmp.Or(o.MaxTensorBytes, 16<<20)
	budget := cmp.Or(o.MaxBytes, 256<<20)
	dynamic := ops.ValueInfo{Type: ir.Dynamic, Shape: shapeinfer.DynamicRankShape()}
	for _, l := range a.Order {
		if l == o.Stop {
			break
		}
		a.RunLayers--
		if _, param := a.Ops[l].(*ops.Parameter); o.Need != nil && !o.Need[l] && !param {
			continue
		}
		op := a.Ops[l]
		n := len(a.Infos[l])
		set := func(i int, info ops.ValueInfo, t *ir.Tensor) {
			out := ir.Output{Layer: l, Index: i}
			run.Infos[out] = info
			if t != nil {
				run.Values[out] = t
			}
		}
		switch c := op.(type) {
		case nil:
			for i := range n {
				// An opaque layer's outputs are known only as declared, and
				// only their types hold for other inputs.
				info := dynamic
				info.Type = a.Infos[l][i].Type
				set(i, info, nil)
			}
			continue
		case *ops.Parameter:
			t := inputs[l]
			if t == nil {
				run.Err = fmt.Errorf("no tensor for input %s", l)
				return run
			}
			set(0, ops.ValueInfo{Type: t.Type, Shape: shapeinfer.StaticShape(t.Shape...), Value: t}, t)
			continue
		case *ops.Const:
			info := a.Infos[l][0]
			info.Value = c.Tensor
			set(0, info, c.Tensor)
			continue
		case *ops.Result:
			continue
		}
		if d, ok := op.(*ops.Divide); ok && o.Floor != nil {
			copied := *d
			copied.PythonDiv = o.Floor(l, d)
			op = &copied
		}
		srcs := a.Sources[l]
		in := make([]ops.ValueInfo, len(l.Inputs))
		tensors := make([]*ir.Tensor, len(l.Inputs))
		known := true
		for i := range in {
			if i >= len(srcs) || srcs[i].Layer == nil {
				in[i], known = dynamic, false
				continue
			}
			in[i] = run.Infos[srcs[i]]
			tensors[i] = run.Values[srcs[i]]
			known = known && tensors[i] != nil
		}
		// InferFold computes small outputs, and those known from shapes
		// alone (ShapeOf of a tensor irdiv does not compute).
		outs, err := ops.InferFold(op, in)
		if err != nil {
			run.Err = &ops.LayerError{Layer: l, Err: err}
			return run
		}
		var values []*ir.Tensor
		if len(outs) > 0 && outs[0].Value != nil {
			for _, o := range outs {
				values = append(values, o.Value)
			}
		} else if known && ops.Evaluable(op) && fitsBudget(outs, perTensor, budget) {
			values, err = ops.Evaluate(op, tensors, ops.Options{MaxTensorBytes: perTensor, Threads: 1})
			switch {
			case errors.Is(err, ir.ErrTooLarge) || errors.Is(err, ops.ErrUnsupportedOp) || errors.Is(err, ops.ErrType):
				values = nil
			case err != nil:
				run.Err = &ops.LayerError{Layer: l, Err: err}
				return run
			}
			for _, t := range values {
				budget -= int64(len(t.Data))
			}
		}
		for i, info := range outs {
			var t *ir.Tensor
			if i < len(values) {
				t = values[i]
				info.Value = t
			}
			set(i, info, t)
		}
	}
	return run
}

// fitsBudget reports whether outputs of these static shapes fit the caps.
func fitsBudget(outs []ops.ValueInfo, perTensor, budget int64) bool {
	total := int64(0)
	for _, o := range outs {
		dims, ok := o.Shape.ToStatic()
		if !ok {
			return false
		}
		n, err := ir.NumElements(dims)
		if err != nil {
			return false
		}
		size, err := ir.ByteSize(o.Type, n)
		if err != nil || size > perTensor {
			return false
		}
		total += size
	}
	return total <= budget
}
