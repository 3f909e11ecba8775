package search

import (
	"slices"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
)

// evaluation evaluates inputs, each time asked.
func (s *Searcher) evaluation(inputs map[*ir.Layer]*ir.Tensor) func(RunOptions) *Run {
	return func(o RunOptions) *Run { return s.Evaluate(inputs, o) }
}

// edgeRunKey names an evaluation of the k-th edge inputs by what makes
// its values: the options other than Need and Stop, and the rounding
// Floor gives each Divide (a func, which Go cannot compare).
type edgeRunKey struct {
	k                           int
	floors                      string
	maxTensorBytes, maxBytes    int64
	onnx, integersOnly, doubled bool
	emptyAsONNXRuntime          bool
	// anyShape: the inputs of a search of every input shape, whose
	// dims are not the declared ones (makeInputs).
	anyShape bool
}

// edgeRunKeyOf is the key of the evaluation of the k-th edge inputs
// under o.
func (s *Searcher) edgeRunKeyOf(k int, o RunOptions) edgeRunKey {
	return edgeRunKey{k, s.roundings(o), o.MaxTensorBytes, o.MaxBytes, o.ONNX, o.IntegersOnly, o.DoubleReductions, o.EmptyAsONNXRuntime, s.anyShape}
}

// roundings tells how o rounds each Divide of the model, in order: 'f'
// floors, 't' truncates.
func (s *Searcher) roundings(o RunOptions) string {
	var out []byte
	for _, l := range s.an.Order {
		if d, ok := s.opOf(l).(*ops.Divide); ok {
			r := byte('t')
			if floors(o, l, d) {
				r = 'f'
			}
			out = append(out, r)
		}
	}
	return string(out)
}

// floors tells whether Divide d of layer l floors under o.
func floors(o RunOptions, l *ir.Layer, d *ops.Divide) bool {
	if o.Floor != nil {
		return o.Floor(l, d)
	}
	return d.PythonDiv
}

// opOf is the op an evaluation runs for l (nil: opaque).
func (s *Searcher) opOf(l *ir.Layer) ops.Op {
	if op := s.an.Ops[l]; op != nil {
		return op
	}
	return s.failedOp(l)
}

// alike are the layers that compute under test as under ref from the
// same inputs: all but the Divides rounded otherwise, and the layers
// with bodies (If, Loop, TensorIterator), whose Divides an evaluation rounds as it is
// told. The test evaluation of a confirmation takes from the
// reference one each such layer whose inputs are the reference's
// (evaluate): the layers no Divide rounded otherwise reaches, and those
// past where the difference vanished (a floor fix-up, a clip), which is
// where a confirmation that shows nothing spends its time. nil where the
// options differ in more than rounding, or test refuses what ONNX
// refuses (of every layer, evaluated or not).
func (s *Searcher) alike(ref, test RunOptions) map[*ir.Layer]bool {
	if test.ONNX || ref.MaxTensorBytes != test.MaxTensorBytes || ref.MaxBytes != test.MaxBytes ||
		ref.IntegersOnly != test.IntegersOnly || ref.DoubleReductions != test.DoubleReductions ||
		ref.EmptyAsONNXRuntime != test.EmptyAsONNXRuntime {
		return nil
	}
	key := s.roundings(ref) + "/" + s.roundings(test)
	if same, ok := s.alikes[key]; ok {
		return same
	}
	same := make(map[*ir.Layer]bool, len(s.an.Order))
	for _, l := range s.an.Order {
		op := s.opOf(l)
		same[l] = !holdsBodies(op) // their Divides round as an evaluation says
		if d, ok := op.(*ops.Divide); ok {
			same[l] = floors(ref, l, d) == floors(test, l, d)
		}
	}
	if s.alikes == nil {
		s.alikes = make(map[string]map[*ir.Layer]bool)
	}
	s.alikes[key] = same
	return same
}

// evaluationAfter evaluates inputs under o, taking from ref, their
// evaluation under refOpts, the values of the layers that compute alike.
func (s *Searcher) evaluationAfter(inputs map[*ir.Layer]*ir.Tensor, eval func(RunOptions) *Run, ref *Run, refOpts, o RunOptions) *Run {
	same := s.alike(refOpts, o)
	if same == nil || ref.Err != nil || ref.overBudget {
		return eval(o)
	}
	return s.evaluate(inputs, o, &reused{ref, same})
}

// edgeEvaluation evaluates the k-th edge inputs, which every search of
// the model ends with: each search would evaluate them again, around
// its own Divide, and then over the whole model (runs). It evaluates
// them once under each options, over every layer some Result depends
// on, and gives that evaluation for any Need within those layers: a
// layer's values depend on its inputs alone, and an evaluation of fewer
// layers fails only where this one does. Where this one fails, or left
// a tensor uncomputed for the bound of all tensors together (which
// fewer layers might not reach), it evaluates as asked instead. The run
// budget is charged as for an evaluation as asked, so that a model's
// searches stop where they did.
func (s *Searcher) edgeEvaluation(k int, inputs map[*ir.Layer]*ir.Tensor) func(RunOptions) *Run {
	return func(o RunOptions) *Run {
		reaching := s.reachingResults()
		if o.Need == nil || !within(o.Need, reaching) || o.watch != nil {
			// (An evaluation that watches Divides inside bodies reads
			// their operands as it runs: it must run.)
			return s.Evaluate(inputs, o)
		}
		key := s.edgeRunKeyOf(k, o)
		whole, ok := s.edgeRuns[key]
		if !ok {
			before := s.runLayers
			all := o
			all.Need, all.Stop = reaching, nil
			whole = s.Evaluate(inputs, all)
			s.runLayers = before
			if s.edgeRuns == nil {
				s.edgeRuns = make(map[edgeRunKey]*Run)
			}
			s.edgeRuns[key] = whole
		}
		if whole.Err != nil || whole.overBudget {
			return s.Evaluate(inputs, o)
		}
		// What Evaluate charges: a layer up to Stop, or every layer.
		if stop := slices.Index(s.an.Order, o.Stop); o.Stop != nil && stop >= 0 {
			s.runLayers -= stop
		} else {
			s.runLayers -= len(s.an.Order)
		}
		return whole
	}
}

// within tells whether every layer of need is in all.
func within(need, all map[*ir.Layer]bool) bool {
	for l := range need {
		if !all[l] {
			return false
		}
	}
	return true
}
