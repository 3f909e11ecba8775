// Command gen writes the hostile-input corpus, testdata/bad, from
// internal/badcorpus/cases.go; "go generate ./internal/badcorpus" runs it.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/irdiv/irdiv/internal/badcorpus"
)

func main() {
	out := flag.String("o", "", "the corpus folder (default: testdata/bad of the module)")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	if out == "" {
		root, err := moduleRoot()
		if err != nil {
			return err
		}
		out = filepath.Join(root, "testdata", "bad")
	}
	cases, mistakes := badcorpus.Cases()
	if len(mistakes) > 0 {
		return fmt.Errorf("cases.go: %s", mistakes[0])
	}
	return badcorpus.Write(out, cases)
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
