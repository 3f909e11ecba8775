package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestExampleUpToDate regenerates the example and fails if the committed
// files differ: run "go run ./examples/gen -o examples/floordiv" to update.
func TestExampleUpToDate(t *testing.T) {
	dir := t.TempDir()
	if err := generate(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"model.xml", "model.bin", "a.npy"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		committed, err := os.ReadFile(filepath.Join("..", "floordiv", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, committed) {
			t.Errorf("examples/floordiv/%s is stale; run go run ./examples/gen -o examples/floordiv", name)
		}
	}
}
