package testutil

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// held is the heap the child of TestBoundedStopsWhatRunsTooLong grows.
var held [][]byte

// TestBoundedStopsWhatRunsTooLong: a body that never ends, or that holds
// more heap than allowed, brings the process down naming the input; one
// within the bounds runs as it is. The first two run in a child process,
// which they kill.
func TestBoundedStopsWhatRunsTooLong(t *testing.T) {
	if mode := os.Getenv("IRDIV_BOUNDED_CHILD"); mode != "" {
		FuzzTime, FuzzBytes = 300*time.Millisecond, 64<<20
		Bounded(t, "input "+mode, func() {
			if mode == "hang" {
				select {}
			}
			for {
				held = append(held, make([]byte, 1<<20))
				time.Sleep(time.Millisecond)
			}
		})
		return
	}
	for mode, want := range map[string]string{"hang": "input hang: still running after 300ms", "heap": "input heap: the heap holds"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestBoundedStopsWhatRunsTooLong$")
		cmd.Env = append(os.Environ(), "IRDIV_BOUNDED_CHILD="+mode)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), want) {
			t.Errorf("%s: %v\n%s", mode, err, out)
		}
	}
	ran := false
	Bounded(t, "fine", func() { ran = true })
	if !ran {
		t.Error("the body did not run")
	}
}
