package badcorpus

import (
	"path/filepath"
	"testing"
)

// TestCorpusIsCurrent fails when testdata/bad differs from what cases.go
// makes, or when cases.go has a mistake.
func TestCorpusIsCurrent(t *testing.T) {
	cases, mistakes := Cases()
	for _, m := range mistakes {
		t.Error(m)
	}
	if len(cases) < MinCases {
		t.Errorf("the corpus has %d cases; each way irdiv refuses a hostile file or command line needs one, %d or more in all", len(cases), MinCases)
	}
	stale, err := Stale(filepath.Join("..", "..", "testdata", "bad"), cases)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Fatalf("testdata/bad differs from internal/badcorpus/cases.go in %d files (e.g. %s); run go generate ./internal/badcorpus", len(stale), stale[0])
	}
}
