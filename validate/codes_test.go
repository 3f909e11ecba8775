package validate

import (
	"bytes"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite README.md's table of finding codes from Codes")

// TestCodesDocumented: every Code constant is documented in Codes once,
// with a severity, a summary and a paragraph.
func TestCodesDocumented(t *testing.T) {
	declared := codeConstants(t)
	seen := map[Code]bool{}
	for _, d := range Codes {
		if seen[d.Code] {
			t.Errorf("%s is documented twice", d.Code)
		}
		seen[d.Code] = true
		if len(d.Severities) == 0 || d.Summary == "" || d.Doc == "" {
			t.Errorf("%s: severity, summary or doc missing", d.Code)
		}
		if !declared[d.Code] {
			t.Errorf("%s is documented but not declared as a constant", d.Code)
		}
	}
	for c := range declared {
		if !seen[c] {
			t.Errorf("%s is declared but not in Codes", c)
		}
	}
}

// codeConstants parses codes.go for its Code constants.
func codeConstants(t *testing.T) map[Code]bool {
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[Code]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok {
			if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "Code" {
				for _, v := range vs.Values {
					s, _ := strconv.Unquote(v.(*ast.BasicLit).Value)
					out[Code(s)] = true
				}
			}
		}
		return true
	})
	if len(out) < 30 {
		t.Fatalf("found %d Code constants in codes.go", len(out))
	}
	return out
}

// TestNoCodeLiterals: no Go file of the module spells a finding code as a
// string literal outside codes.go: code refers to the constants, so that
// a code cannot drift from its documentation.
func TestNoCodeLiterals(t *testing.T) {
	declared := codeConstants(t)
	literal := regexp.MustCompile(`"((?:divide|mod|onnx|cpu|structure|ir|analysis)/[a-z0-9-]+)"`)
	root := filepath.Join("..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || path == filepath.Join(root, "validate", "codes.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range literal.FindAllSubmatch(data, -1) {
			if declared[Code(m[1])] {
				t.Errorf("%s spells %s as a literal; use its constant", path, m[0])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// codesTable is the README's table of finding codes.
func codesTable() string {
	var b strings.Builder
	b.WriteString("| code | severity | finding |\n|---|---|---|\n")
	for _, d := range Codes {
		var sev []string
		for _, s := range d.Severities {
			sev = append(sev, s.String())
		}
		what := d.Summary
		if d.Evidence != "" {
			what += ": " + d.Evidence
		}
		b.WriteString("| `" + string(d.Code) + "` | " + strings.Join(sev, ", ") + " | " + what + " |\n")
	}
	return b.String()
}

// TestCodesTable: README.md's table of finding codes is codesTable.
func TestCodesTable(t *testing.T) {
	path := filepath.Join("..", "README.md")
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	begin := []byte("<!-- codes: generated from validate.Codes by `go test ./validate -run TestCodesTable -update`. DO NOT EDIT. -->\n")
	end := []byte("<!-- codes end -->\n")
	i, j := bytes.Index(readme, begin), bytes.Index(readme, end)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the markers of the codes table")
	}
	want := codesTable()
	got := string(readme[i+len(begin) : j])
	if got == want {
		return
	}
	if !*update {
		t.Fatalf("README.md's table of finding codes is not validate.Codes; run go test ./validate -run TestCodesTable -update")
	}
	out := append(append(append([]byte{}, readme[:i+len(begin)]...), want...), readme[j:]...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
