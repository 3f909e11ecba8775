package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/irdiv/irdiv/internal/heapwatch"
)

// defaultRunMemory is what --max-memory gives a run by default besides
// the tensors of an inference (4 × --max-tensor): reading and analysing a
// model take about 3 KB a layer, so that an IR at the --max-layers cap
// (262,144 layers) fits with room, and every real model many times over.
const defaultRunMemory = 4 << 30

// memoryInterval is how often the heap is sampled against --max-memory.
const memoryInterval = 5 * time.Millisecond

// memoryGuard bounds the heap of the whole process (--max-memory): the
// tensors an inference holds are counted before it runs (plugin's
// Config.MaxMemoryBytes), but reading a model, importing it and
// analysing it take memory in proportion to its size, which only the
// heap as a whole shows. Past the bound, the guard ends the process with
// an error naming the files being processed. Only main sets one up: the
// tests call run in one process, whose heap they share.
type memoryGuard struct {
	stderr io.Writer
	exit   func(code int)

	mu       sync.Mutex
	command  string
	files    []string // being processed, in the order they started
	cleanups map[int]func()
	next     int
}

// guard is the process's memoryGuard, set by main; nil in tests.
var guard *memoryGuard

// watchMemory bounds the heap of the command's whole run to limit bytes:
// the garbage collector works to stay under it (debug.SetMemoryLimit),
// and the live heap is sampled every memoryInterval. It returns the
// function that ends the watch.
func watchMemory(command string, limit int64) (stop func()) {
	g := guard
	if g == nil {
		return func() {}
	}
	g.mu.Lock()
	g.command = command
	g.mu.Unlock()
	old := debug.SetMemoryLimit(limit)
	end := heapwatch.Watch(heapwatch.Live, uint64(limit), memoryInterval, func(held uint64) { g.over(limit, held) })
	return func() {
		end()
		debug.SetMemoryLimit(old)
	}
}

// processing names path, for the message of a run past --max-memory,
// until done is called.
func processing(path string) (done func()) {
	g := guard
	if g == nil {
		return func() {}
	}
	g.mu.Lock()
	g.files = append(g.files, path)
	g.mu.Unlock()
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		for i, f := range g.files {
			if f == path {
				g.files = append(g.files[:i], g.files[i+1:]...)
				break
			}
		}
	}
}

// atExit registers what an exit past --max-memory must undo (a
// temporary file), until cancel is called.
func atExit(f func()) (cancel func()) {
	g := guard
	if g == nil {
		return func() {}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cleanups == nil {
		g.cleanups = make(map[int]func())
	}
	id := g.next
	g.next++
	g.cleanups[id] = f
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		delete(g.cleanups, id)
	}
}

// over ends the process: the heap held more than limit.
func (g *memoryGuard) over(limit int64, held uint64) {
	g.mu.Lock()
	what := g.command
	if len(g.files) > 0 {
		what = strings.Join(g.files, ", ")
	}
	for _, f := range g.cleanups {
		f()
	}
	g.mu.Unlock()
	fmt.Fprintf(g.stderr, "irdiv: %s\n", oneLine(fmt.Sprintf("%s: needs more than %s of memory (the heap held %s live); --max-memory raises the limit",
		what, mebibytes(uint64(limit)), mebibytes(held+1<<20-1))))
	g.exit(1)
}

// mebibytes prints a size in whole MiB (rounded down), or in bytes below
// one.
func mebibytes(n uint64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%d MiB", n>>20)
}
