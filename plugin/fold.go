package plugin

import (
	"errors"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
)

// The constants folded at compile time are bounded as a whole by the
// tensor cap, not only one by one: each of 40 Concats doubling a
// 2-element constant stays under the cap until the last ones, but
// together they held 521 MiB before any input was read. The model's own
// Consts, which its .bin holds and the read capped, are not counted.

// foldOptions are the options of a folding evaluation: its output may
// take what the folded constants have left of the cap, so that an output
// past it is refused before it is allocated.
func (cm *CompiledModel) foldOptions() ops.Options {
	opts := cm.opts
	opts.MaxTensorBytes = max(cm.opts.MaxTensorBytes-cm.foldedBytes, 1)
	return opts
}

// foldError words a folding evaluation refused for the running total.
func (cm *CompiledModel) foldError(l *ir.Layer, err error) error {
	if errors.Is(err, ir.ErrTooLarge) && cm.foldedBytes > 0 {
		return errorf("%w: folding the constants of %s: its output is larger than the %d bytes the constants folded before it leave of the %d allowed in all (MaxTensorBytes)",
			ir.ErrTooLarge, l, max(cm.opts.MaxTensorBytes-cm.foldedBytes, 0), cm.opts.MaxTensorBytes)
	}
	return nil
}

// countFolded adds the tensors a layer folded to the running total.
func (cm *CompiledModel) countFolded(out ...*ir.Tensor) {
	for _, t := range out {
		cm.foldedBytes += int64(len(t.Data))
	}
}
