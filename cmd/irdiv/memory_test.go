package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/validate"
)

// mainArgs is the variable that makes TestMaxMemoryWholeRun's child run
// main with these arguments, separated by newlines.
const mainArgs = "IRDIV_TEST_MAIN_ARGS"

// TestMaxMemoryWholeRun: --max-memory bounds the heap of a whole run,
// reading and analysing the model included, not only the tensors of an
// inference: each command that reads a model, given a chain of 200,000
// Abs (hundreds of MiB to import) and a budget of 64 MiB, stops with one
// line naming the model and the flag, exit status 1, where without the
// bound it would take what the model needs; a small model passes under
// the same budget, and under the default. Each run is a child process
// running main, which alone sets up the bound (the other tests call run
// in this process, whose heap they share).
func TestMaxMemoryWholeRun(t *testing.T) {
	if args := os.Getenv(mainArgs); args != "" {
		os.Args = append([]string{"irdiv"}, strings.Split(args, "\n")...)
		main()
		return // main exits
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	child := func(args ...string) (string, string, int) {
		cmd := exec.Command(exe, "-test.run=^TestMaxMemoryWholeRun$")
		cmd.Env = append(os.Environ(), mainArgs+"="+strings.Join(args, "\n"))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("%q: %v", args, err)
		}
		return stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()
	}
	dir := t.TempDir()
	chain, small := filepath.Join(dir, "chain.onnx"), filepath.Join(dir, "small.onnx")
	writeFiles(t, dir, map[string][]byte{"chain.onnx": onnxwire.DeepChain("Abs", 200_000), "small.onnx": divsONNX([]string{"x", "y"}, "x,y")})
	commands := [][]string{
		{"validate", small, chain},
		{"info", chain},
		{"run", chain},
		{"bench", chain, "-niter", "1"},
		{"convert", chain, "-o", filepath.Join(dir, "out", "chain.xml")},
		{"fix", chain, "-o", filepath.Join(dir, "fixed.onnx")},
	}
	if testing.Short() {
		commands = commands[:2]
	}
	want := chain + ": needs more than 64 MiB of memory (the heap held "
	for _, args := range commands {
		t.Run(args[0], func(t *testing.T) {
			stdout, stderr, code := child(append(args, "--max-memory", "64MiB")...)
			if code != 1 || !strings.HasPrefix(stderr, "irdiv: ") || !strings.Contains(stderr, want) ||
				!strings.HasSuffix(stderr, " live); --max-memory raises the limit\n") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("%q --max-memory 64MiB: exit %d, stderr %q (stdout %.200q); want exit 1 and one line %q...", args, code, stderr, stdout, want)
			}
			t.Logf("%s", strings.TrimSpace(stderr))
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the runs stopped left files behind: %v", entries)
	}
	for _, budget := range [][]string{{"--max-memory", "64MiB"}, nil} {
		stdout, stderr, code := child(append([]string{"validate", small}, budget...)...)
		if code != 1 || stderr != "irdiv: 1 error in 1 model\n" || !strings.Contains(stdout, string(validate.FloorTrunc)) {
			t.Errorf("validate %s %q: exit %d, stderr %q, stdout %.300q", small, budget, code, stderr, stdout)
		}
	}
}
