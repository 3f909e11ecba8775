// Command gen writes the hostile-input corpus, testdata/bad, from
// internal/badcorpus/cases.go; "go generate ./internal/badcorpus" runs it.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/irdiv/irdiv/internal/badcorpus"
)

func main() {
	out := flag.String("o", "", "the corpus folder to write (go generate gives testdata/bad)")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	if out == "" {
		return fmt.Errorf("-o names no folder")
	}
	cases, mistakes := badcorpus.Cases()
	if len(mistakes) > 0 {
		return fmt.Errorf("cases.go: %s", mistakes[0])
	}
	return badcorpus.Write(out, cases)
}
