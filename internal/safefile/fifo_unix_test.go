//go:build unix

package safefile

import (
	"path/filepath"
	"syscall"
	"testing"
)

// makeFIFO makes a named pipe dir/name and returns its path.
func makeFIFO(t *testing.T, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	return path
}
