// Package testutil holds what the tests of several irdiv packages share:
// finding the real-data corpus in ../shared, the files of the hostile
// corpus testdata/bad as fuzz seeds, measuring what a call allocates, the
// exact floor-division oracle, a loop over SIMD levels and the bounds of
// a fuzz input (Bounded). It imports no other package of the project but
// the leaf internal/heapwatch, so that any package's own tests may use
// it.
package testutil

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// SharedFiles returns the files that match pattern (a filepath.Glob
// pattern such as "ir-models/*/*.xml") under the shared folder that sits
// beside the repository, ../shared. When there are none, the test is
// skipped with one line saying why; as go test caches results, rerun with
// -count=1 after adding the folder.
func SharedFiles(t testing.TB, pattern string) []string {
	t.Helper()
	root, err := moduleRoot()
	if err == nil {
		files, _ := filepath.Glob(filepath.Join(root, "..", "shared", pattern))
		if len(files) > 0 {
			return files
		}
	}
	t.Skipf("skipped: no ../shared/%s beside the repository (real-data tests run where it is)", pattern)
	return nil
}

// SharedDir returns the path of a folder of ../shared, skipping the test
// as SharedFiles does when it is absent.
func SharedDir(t testing.TB, name string) string {
	t.Helper()
	return SharedFiles(t, name)[0]
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
		dir = parent
	}
}

// Integer is every Go integer type.
type Integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// FloorDiv is the exact oracle of floor division (truncation for unsigned
// types): b must not be 0, nor -1 with a the type's minimum.
func FloorDiv[T Integer](a, b T) T {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// ForEach runs f as a subtest once per level, named after it.
func ForEach[L fmt.Stringer](t *testing.T, levels []L, f func(t *testing.T, level L)) {
	t.Helper()
	for _, level := range levels {
		t.Run(level.String(), func(t *testing.T) { f(t, level) })
	}
}

// Seed is a file of the hostile corpus, read.
type Seed struct {
	Path string
	Data []byte
}

// Sibling returns the content of the file beside the seed with its
// extension replaced by ext (".bin"), or nil when there is none.
func (s Seed) Sibling(ext string) []byte {
	data, err := os.ReadFile(strings.TrimSuffix(s.Path, filepath.Ext(s.Path)) + ext)
	if err != nil {
		return nil
	}
	return data
}

// Corpus returns the files that match pattern ("model.xml", "*.npy") in
// the cases of the hostile corpus, testdata/bad (written by
// internal/badcorpus), to seed fuzz targets. It fails the test when the
// corpus is missing or has none.
func Corpus(tb testing.TB, pattern string) []Seed {
	tb.Helper()
	root, err := moduleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(root, "testdata", "bad", "*", pattern))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no testdata/bad/*/%s (%v); the corpus is made by go generate ./internal/badcorpus", pattern, err)
	}
	seeds := make([]Seed, 0, len(paths))
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, Seed{path, data})
	}
	return seeds
}

// Allocated returns the bytes and the number of allocations made while f
// ran, after a collection so that garbage from before does not count.
func Allocated(f func()) (bytes, count uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs
}
