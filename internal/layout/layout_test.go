package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/irdiv/irdiv/"

// root is the module's folder.
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// packages parses the non-test Go files of every package of the module,
// by import path relative to the module ("validate/internal/absint").
func packages(t *testing.T) map[string][]*ast.File {
	t.Helper()
	out := make(map[string][]*ast.File)
	base := root(t)
	fset := token.NewFileSet()
	err := filepath.WalkDir(base, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "_gen") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, filepath.Dir(path))
		out[filepath.ToSlash(rel)] = append(out[filepath.ToSlash(rel)], f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// within tells whether package p is pkg or one of its sub-packages.
func within(p, pkg string) bool { return p == pkg || strings.HasPrefix(p, pkg+"/") }

// TestImports: architecture.md's table of what each package must never
// import, and the leaves that import no other project package (leaf
// helpers under internal/ aside, as the table allows for bf16).
func TestImports(t *testing.T) {
	never := map[string][]string{
		"ir":                       {"ops", "plugin", "onnx", "validate", "cmd"},
		"ops":                      {"plugin", "onnx", "validate", "cmd"},
		"plugin":                   {"onnx", "validate", "cmd"},
		"onnx":                     {"plugin", "validate", "cmd"},
		"validate":                 {"plugin", "cmd"},
		"validate/internal/absint": {"validate", "onnx", "plugin", "cmd", "validate/internal/search"},
		"validate/internal/search": {"validate", "onnx", "plugin", "cmd"},
	}
	leaves := []string{"shapeinfer", "validate/internal/sym", "ops/internal/kernel"}
	checked := 0
	for pkg, files := range packages(t) {
		for _, f := range files {
			for _, imp := range f.Imports {
				path := strings.Trim(imp.Path.Value, `"`)
				if !strings.HasPrefix(path, module) {
					continue
				}
				dep := strings.TrimPrefix(path, module)
				checked++
				for owner, bans := range never {
					if !within(pkg, owner) || within(dep, owner) {
						continue
					}
					for _, ban := range bans {
						if within(dep, ban) && !within(owner, ban) {
							t.Errorf("%s imports %s, which architecture.md forbids %s", pkg, dep, owner)
						}
					}
				}
				for _, leaf := range leaves {
					if within(pkg, leaf) && !within(dep, leaf) && !strings.HasPrefix(dep, "internal/") {
						t.Errorf("%s imports %s: architecture.md keeps %s a leaf", pkg, dep, leaf)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no project imports found: the test reads nothing")
	}
}

// TestOneWalker: ops owns the one walk of a model; no other package
// orders a model's layers itself.
func TestOneWalker(t *testing.T) {
	for pkg, files := range packages(t) {
		if pkg == "ops" || pkg == "ir" {
			continue
		}
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "TopoOrder" {
					t.Errorf("%s (%s) calls TopoOrder: walk the model with ops.Walk", pkg, f.Name.Name)
				}
				return true
			})
		}
	}
}

// TestRuleFilesMirrorOps: the abstract interpreter's rules live one file
// per op family, named as ops' file of that family; its own files (the
// walk, the values, the table) are the only others.
func TestRuleFilesMirrorOps(t *testing.T) {
	list := func(dir string) []string {
		entries, err := os.ReadDir(filepath.Join(root(t), dir))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
				names = append(names, n)
			}
		}
		return names
	}
	opsFiles := list("ops")
	own := []string{"absint.go", "interp.go", "table.go", "move.go", "floats.go", "requirements.go"}
	rules := 0
	for _, name := range list("validate/internal/absint") {
		switch {
		case slices.Contains(own, name):
		case slices.Contains(opsFiles, name):
			rules++
		default:
			t.Errorf("validate/internal/absint/%s is no file of ops: name a rule file after the ops file of its family", name)
		}
	}
	if rules < 10 {
		t.Errorf("%d rule files: the test reads the wrong folders", rules)
	}
}
