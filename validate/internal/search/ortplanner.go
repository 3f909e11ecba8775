package search

import (
	"fmt"
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
)

// This file works around ONNX Runtime (1.30): a counter-example is worth
// only what a user can replay, and ONNX Runtime fails some valid models at
// some inputs, which the search must then not offer.

// ortBuffers are the intermediate tensors of an evaluation as ONNX
// Runtime's memory planner sizes them: where a ceil_mode pooling's
// kernel and shape inference disagree (ceilDropKept), a later tensor of
// the size inferred may be given its buffer, and the model fails. Only
// such a clash is refused: a pooling that drops a window alone runs.
type ortBuffers struct {
	sizes   []sized // type and dims of every intermediate output
	dropped []droppedPool
}

type sized struct {
	t    ir.ElementType
	dims []int64
	l    *ir.Layer // the layer that makes it
}

type droppedPool struct {
	l    *ir.Layer
	kept sized
}

func (b *ortBuffers) add(s *Searcher, l *ir.Layer, op ops.Op, in, outs []ops.ValueInfo) {
	if kept := ceilDropKept(op, in, outs); kept != nil {
		b.dropped = append(b.dropped, droppedPool{l, sized{outs[0].Type, kept, l}})
	}
	for i, info := range outs {
		// Graph outputs get buffers of their own.
		if dims, ok := info.Shape.ToStatic(); ok && !s.feedsResult(ir.Output{Layer: l, Index: i}) {
			b.sizes = append(b.sizes, sized{info.Type, dims, l})
		}
	}
}

// clash is the error of a pooling whose planned buffer another tensor
// of its inferred size may reuse. Only a tensor made once the pooling's
// output is freed can: never one the pooling depends on, which every
// order of execution makes before it (seed 379: a MaxPool of [2, 1] that
// drops its last window, fed by a tensor of that size, runs).
func (b *ortBuffers) clash(s *Searcher) error {
	for _, d := range b.dropped {
		var before map[*ir.Layer]bool
		for _, o := range b.sizes {
			if o.t != d.kept.t || !slices.Equal(o.dims, d.kept.dims) {
				continue
			}
			if before == nil {
				before = make(map[*ir.Layer]bool)
				s.markUpstream(before, d.l, nil)
			}
			if !before[o.l] {
				return &ops.LayerError{Layer: d.l, Err: fmt.Errorf("ONNX Runtime may fail: ceil_mode drops a last window that starts in the padding, which its shape inference keeps (%v), and another tensor has that size, which may be given this output's buffer", d.kept.dims)}
			}
		}
	}
	return nil
}

// feedsResult tells whether an output is a model output.
func (s *Searcher) feedsResult(out ir.Output) bool {
	if s.results == nil {
		s.results = make(map[ir.Output]bool)
		for _, r := range s.an.Model.Results() {
			for _, src := range s.an.Sources[r] {
				s.results[src] = true
			}
		}
	}
	return s.results[out]
}

// ceilDropKept is, where a pooling with ceil_mode (imported as
// ceil_torch) drops a last window that starts in the end padding, the
// shape ONNX Runtime's shape inference gives its output: its kernel
// drops that window, its inference keeps it, and its memory planner
// hands a buffer planned for that output to a later tensor of the
// inferred shape, which then fails ("Shape mismatch attempting to re-use
// buffer", seed 1851: a MaxPool of 3 elements giving 1, not 2, and an
// AveragePool after it giving 2). nil where nothing is dropped.
func ceilDropKept(op ops.Op, in, outs []ops.ValueInfo) []int64 {
	var plain ops.Op
	switch p := op.(type) {
	case *ops.MaxPool:
		if p.RoundingType == ops.RoundCeilTorch {
			c := *p
			c.RoundingType = ops.RoundCeil
			plain = &c
		}
	case *ops.AvgPool:
		if p.RoundingType == ops.RoundCeilTorch {
			c := *p
			c.RoundingType = ops.RoundCeil
			plain = &c
		}
	}
	if plain == nil || len(outs) == 0 {
		return nil
	}
	kept, err := plain.Infer(in)
	if err != nil || len(kept) == 0 || kept[0].Shape.Equal(outs[0].Shape) {
		return nil
	}
	dims, _ := kept[0].Shape.ToStatic()
	return dims
}
