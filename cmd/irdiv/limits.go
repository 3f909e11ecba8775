package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/ir"
)

// defaultMaxTensor bounds every tensor the command line generates or
// computes, and the data of an input read from a stream, unless
// --max-tensor raises it: a 600-byte model or two small .npy files must not
// make irdiv allocate gigabytes.
const defaultMaxTensor = 256 << 20

// byteSize is a flag value in bytes: a number with an optional KiB, MiB,
// GiB or TiB suffix (KB, MB... mean the same powers of 1024).
type byteSize int64

func (b *byteSize) String() string { return formatBytes(int64(*b)) }

func (b *byteSize) Set(s string) error {
	n, err := parseSize(s, ir.MaxTensorBytes)
	if err != nil {
		return err
	}
	*b = byteSize(n)
	return nil
}

// memorySize is --max-memory: a size as byteSize reads it, up to four
// times the largest tensor cap, or 0 for its defaults (whole and
// inference say which).
type memorySize int64

func (m *memorySize) String() string {
	if *m == 0 {
		return "the default"
	}
	return formatBytes(int64(*m))
}

// register adds --max-memory to a command; inference says that the
// command runs a model, whose tensors the flag bounds too, and
// maxTensor that it has --max-tensor, which the default follows.
func (m *memorySize) register(fs *flagSet, inference, maxTensor bool) {
	usage := "most `SIZE` of memory the whole run may hold (the models read, their analysis, the tensors computed): the live heap is sampled every few milliseconds, and past it irdiv stops with an error naming the file"
	def := formatBytes(defaultRunMemory + 4*defaultMaxTensor)
	if maxTensor {
		def = formatBytes(defaultRunMemory) + " more than 4 × --max-tensor"
	}
	if inference {
		usage += "; an inference is also refused before it runs where the tensors it holds at once, each kept until the last layer that reads it has run, would take more"
		def += " for the run, 4 × --max-tensor for an inference's tensors"
	}
	fs.Var(m, "max-memory", usage+" (default "+def+")")
}

// whole is the bound of the whole run: the flag's size, or by default
// defaultRunMemory more than the tensors of an inference, 4 × maxTensor.
func (m memorySize) whole(maxTensor int64) int64 {
	if m != 0 {
		return int64(m)
	}
	return defaultRunMemory + 4*maxTensor
}

func (m *memorySize) Set(s string) error {
	n, err := parseSize(s, 4*ir.MaxTensorBytes)
	*m = memorySize(n)
	return err
}

// parseSize reads a size in bytes, from 1 to most.
func parseSize(s string, most int64) (int64, error) {
	num := strings.TrimSpace(s)
	shift := 0
	for i, suffix := range []string{"KiB", "MiB", "GiB", "TiB"} {
		short := suffix[:1] + "B"
		if rest, ok := strings.CutSuffix(num, suffix); ok {
			num, shift = rest, 10*(i+1)
			break
		}
		if rest, ok := strings.CutSuffix(num, short); ok {
			num, shift = rest, 10*(i+1)
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n <= 0 || n > most>>shift {
		return 0, fmt.Errorf("want a size from 1 to %s, such as 512MiB, got %q", formatBytes(most), s)
	}
	return n << shift, nil
}

// formatBytes prints 268435456 as 256MiB.
func formatBytes(n int64) string {
	for _, u := range []struct {
		shift int
		name  string
	}{{40, "TiB"}, {30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// checkSize refuses a tensor of type t and shape dims above max before it
// is allocated; what names the tensor.
func checkSize(what string, t ir.ElementType, dims []int64, max int64) error {
	n, err := ir.NumElements(dims)
	if err == nil {
		var size int64
		if size, err = ir.ByteSize(t, n); err == nil && size <= max {
			return nil
		}
		if err == nil {
			return fmt.Errorf("%s %s%s would take %s, more than --max-tensor %s allows; raise it to go on", what, t, shapeString(dims), formatBytes(size), formatBytes(max))
		}
	}
	return fmt.Errorf("%s %s%s is too large to allocate (%v)", what, t, shapeString(dims), err)
}
