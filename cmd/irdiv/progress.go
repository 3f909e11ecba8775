package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// progress shows, on a terminal, how far a long run has come: models done
// out of the total and the one being read. It says nothing for a run
// shorter than its delay, nothing when stderr is not a terminal (a CI
// log, a pipe), and nothing under --quiet, so that output stays what
// scripts read.
type progress struct {
	w       io.Writer
	total   int
	delay   time.Duration
	started time.Time

	mu      sync.Mutex
	done    int
	current string
	shown   bool // a line is on the screen, to be cleared
}

// newProgress returns a progress for total items, or nil when w is not a
// terminal or quiet is set; a nil progress does nothing.
func newProgress(w io.Writer, total int, quiet bool) *progress {
	if quiet || !isTerminal(w) {
		return nil
	}
	return &progress{w: w, total: total, delay: time.Second, started: time.Now()}
}

// start says that item name is being worked on.
func (p *progress) start(name string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current = name
	p.show()
}

// finish says that an item is done.
func (p *progress) finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.show()
}

func (p *progress) show() {
	if time.Since(p.started) < p.delay {
		return
	}
	name := p.current
	if len(name) > 60 {
		name = "..." + name[len(name)-57:]
	}
	fmt.Fprintf(p.w, "\r\x1b[K%d/%d models  %s", p.done, p.total, escapeControls(name))
	p.shown = true
}

// end clears the progress line, before the report is printed.
func (p *progress) end() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
