package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/plugin"
)

// ONNX's backend node tests (onnx/backend/test/data/node) of the ops irdiv
// evaluates live in testdata/onnx-node, copied from ONNX (Apache-2.0, see
// its LICENSE and SOURCE). -onnx-node-src refreshes that copy from a
// checkout's node folder: every test whose model irdiv reads, imports and
// can compile is kept, whatever its outcome, so that a failure is seen
// rather than left out; the others are listed in SKIPPED with the reason.
var onnxNodeSource = flag.String("onnx-node-src", "", "refresh testdata/onnx-node from this `DIR` (onnx/backend/test/data/node of an ONNX checkout)")

var onnxNodeDir = filepath.Join("..", "..", "testdata", "onnx-node")

// nodeOutcome is what one node test gave on each way irdiv runs an .onnx.
type nodeOutcome struct {
	name   string
	ops    []string // the ONNX op types of its nodes, subgraphs included
	opset  int64
	sets   int
	direct string // "" when run MODEL.onnx matched every data set, else why not
	// converted is the same for convert + run of the IR it writes, floor
	// for the model as OpenVINO's importer writes it (Div flooring).
	converted, floor string
	floorByDesign    bool // floor differs where an integer Divide floors
	refused          string
}

// TestONNXNodeTests runs ONNX's node tests of the ops irdiv evaluates as
// ONNX's backend runner does (every test_data_set_N, outputs within rtol
// 1e-3 and atol 1e-7, integers exactly) in three ways: run of the .onnx,
// convert then run of the IR, and run of the IR that OpenVINO's importer
// would write, whose integer Divs floor and so may differ from ONNX's
// truncation where a quotient is negative (by design, and only there).
// Tests listed in REFUSED must be refused with an error by all three. It
// fails on any other failure, and with -docs rewrites the per-op table in
// docs/onnx-node-tests.md (which it otherwise checks).
func TestONNXNodeTests(t *testing.T) {
	if *onnxNodeSource != "" {
		refreshNodeTests(t, *onnxNodeSource)
	}
	refused := readRefused(t)
	entries, err := os.ReadDir(onnxNodeDir)
	if err != nil {
		t.Fatal(err)
	}
	var outcomes []nodeOutcome
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		o := runNodeTest(t, filepath.Join(onnxNodeDir, e.Name()), refused[e.Name()])
		outcomes = append(outcomes, o)
		switch {
		case o.refused != "":
			for _, got := range []string{o.direct, o.converted, o.floor} {
				if !strings.HasPrefix(got, "refused: ") {
					t.Errorf("%s: want a refusal (%s), got %q", o.name, o.refused, got)
				}
			}
		default:
			if o.direct != "" {
				t.Errorf("%s: run MODEL.onnx: %s", o.name, o.direct)
			}
			if o.converted != "" {
				t.Errorf("%s: convert + run: %s", o.name, o.converted)
			}
			if o.floor != "" && !o.floorByDesign {
				t.Errorf("%s: as OpenVINO imports it: %s", o.name, o.floor)
			}
		}
	}
	for name := range refused {
		if !slices.ContainsFunc(outcomes, func(o nodeOutcome) bool { return o.name == name }) {
			t.Errorf("REFUSED lists %s, which testdata/onnx-node does not hold", name)
		}
	}
	if len(outcomes) < 500 {
		t.Errorf("ran %d node tests; testdata/onnx-node should hold about 570", len(outcomes))
	}
	table := nodeTestTable(outcomes)
	t.Logf("ONNX node tests by op:\n%s", table)
	path := filepath.Join("..", "..", "docs", "onnx-node-tests.md")
	if *rewriteDocs {
		if err := os.WriteFile(path, table, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, table) {
		t.Errorf("docs/onnx-node-tests.md is not what the node tests give (%v); run go test ./cmd/irdiv -run TestONNXNodeTests -docs", err)
	}
}

// runNodeTest runs one node test folder in the three ways.
func runNodeTest(t *testing.T, dir, refused string) nodeOutcome {
	t.Helper()
	o := nodeOutcome{name: filepath.Base(dir), refused: refused}
	model := filepath.Join(dir, "model.onnx")
	m, err := onnx.ReadFile(model, onnx.ReadOptions{})
	if err != nil {
		msg := "refused: " + err.Error()
		o.direct, o.converted, o.floor = msg, msg, msg
		return o
	}
	o.opset = m.Opset
	o.ops = modelOps(m)
	sets, _ := filepath.Glob(filepath.Join(dir, "test_data_set_*"))
	o.sets = len(sets)
	tmp := t.TempDir()
	converted := filepath.Join(tmp, "faithful.xml")
	floor := filepath.Join(tmp, "floor.xml")
	convertErr := ""
	if _, stderr, code := irdiv(t, "convert", model, "-o", converted); code != 0 {
		convertErr = "refused: " + stderr
	}
	floorErr := ""
	imported, err := onnx.Import(m, onnx.ImportOptions{})
	if err == nil {
		err = ir.Write(imported, floor, strings.TrimSuffix(floor, ".xml")+".bin")
	}
	if err != nil {
		floorErr = "refused: " + err.Error()
	}
	runAll := func(path, failed string) string {
		if failed != "" {
			return failed
		}
		for _, set := range sets {
			if _, stderr, code := irdiv(t, "run", path, "--inputs", set, "--expected", set); code != 0 {
				if !strings.Contains(stderr, " differs from ") && !strings.Contains(stderr, " expects ") {
					return "refused: " + strings.TrimSpace(stderr)
				}
				return strings.TrimSpace(stderr)
			}
		}
		return ""
	}
	o.direct = runAll(model, "")
	o.converted = runAll(converted, convertErr)
	o.floor = runAll(floor, floorErr)
	if o.floor != "" && !strings.HasPrefix(o.floor, "refused: ") && o.converted == "" {
		o.floorByDesign = hasFlooringIntegerDivide(imported)
	}
	return o
}

// hasFlooringIntegerDivide reports whether m holds a Divide of integers
// that floors: the only place where the IR OpenVINO's importer writes may
// compute other values than ONNX.
func hasFlooringIntegerDivide(m *ir.Model) bool {
	for _, l := range m.Layers {
		for _, e := range l.Extra {
			if e.Body != nil && hasFlooringIntegerDivide(e.Body) {
				return true
			}
		}
		if l.Type != "Divide" || len(l.Outputs) == 0 || l.Outputs[0].Type.IsFloat() {
			continue
		}
		if v, ok := l.DataAttr("m_pythondiv"); !ok || v == "true" {
			return true
		}
	}
	return false
}

// modelOps lists the op types of a model's nodes, sorted, each once.
func modelOps(m *onnx.Model) []string {
	seen := map[string]bool{}
	for _, n := range m.Graph.Nodes {
		prefix := ""
		if n.Domain != "" {
			prefix = n.Domain + "."
		}
		seen[prefix+n.OpType] = true
	}
	return slices.Sorted(maps.Keys(seen))
}

// readRefused reads REFUSED: lines of "test_name<tab>why", the tests irdiv
// must refuse rather than answer (a Dropout in training mode is random).
func readRefused(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(onnxNodeDir, "REFUSED"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, why, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("REFUSED: %q is not test_name<tab>reason", line)
		}
		out[name] = why
	}
	return out
}

// nodeTestTable is docs/onnx-node-tests.md: for each ONNX op, the opsets
// its tests use, how many tests hold it and how many pass each way.
func nodeTestTable(outcomes []nodeOutcome) []byte {
	type row struct {
		opsets                                    map[int64]bool
		tests, direct, converted, floor, byDesign int
		refused                                   int
	}
	rows := map[string]*row{}
	for _, o := range outcomes {
		for _, op := range o.ops {
			r := rows[op]
			if r == nil {
				r = &row{opsets: map[int64]bool{}}
				rows[op] = r
			}
			r.opsets[o.opset] = true
			r.tests++
			if o.refused != "" {
				r.refused++
				continue
			}
			if o.direct == "" {
				r.direct++
			}
			if o.converted == "" {
				r.converted++
			}
			switch {
			case o.floor == "":
				r.floor++
			case o.floorByDesign:
				r.byDesign++
			}
		}
	}
	var b bytes.Buffer
	b.WriteString("# ONNX node tests\n\n")
	b.WriteString("<!-- Code generated by `go test ./cmd/irdiv -run TestONNXNodeTests -docs`. DO NOT EDIT. -->\n\n")
	fmt.Fprintf(&b, "ONNX's backend node tests of the ops irdiv evaluates (%d tests, copied in `testdata/onnx-node` from\n", len(outcomes))
	b.WriteString("ONNX at the commit its `SOURCE` names), run by `go test ./cmd/irdiv -run TestONNXNodeTests` as ONNX's\n")
	b.WriteString("backend runner compares them (floats within rtol 1e-3 and atol 1e-7, integers and bools exactly), in\n")
	b.WriteString("three ways: `irdiv run MODEL.onnx` (ONNX's semantics), `irdiv convert` then `irdiv run` of the IR,\n")
	b.WriteString("and the IR as OpenVINO's ONNX importer writes it, whose integer Divs floor (a test that divides a\n")
	b.WriteString("negative integer differs there by design, counted as *floors*). A test counts under every op its\n")
	b.WriteString("model holds; *refused* tests are random (Dropout in training mode) and must be refused.\n\n")
	b.WriteString("| op | opsets | tests | run .onnx | convert + run | OpenVINO's import | floors | refused |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|\n")
	for _, op := range slices.Sorted(maps.Keys(rows)) {
		r := rows[op]
		var opsets []string
		for _, v := range slices.Sorted(maps.Keys(r.opsets)) {
			opsets = append(opsets, fmt.Sprint(v))
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %d |\n", op, strings.Join(opsets, ", "), r.tests, r.direct, r.converted, r.floor, r.byDesign, r.refused)
	}
	return b.Bytes()
}

// refreshNodeTests copies from src the node tests whose models irdiv
// reads, imports and compiles, and lists the rest in SKIPPED.
func refreshNodeTests(t *testing.T, src string) {
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	keep := []string{"LICENSE", "SOURCE", "REFUSED", "refresh.sh"}
	old, err := os.ReadDir(onnxNodeDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range old {
		if !slices.Contains(keep, e.Name()) {
			if err := os.RemoveAll(filepath.Join(onnxNodeDir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	var skipped bytes.Buffer
	skipped.WriteString("# ONNX node tests not copied: irdiv does not evaluate one of their ops or element types.\n")
	for _, e := range entries {
		dir := filepath.Join(src, e.Name())
		if why := evaluable(dir); why != "" {
			fmt.Fprintf(&skipped, "%s\t%s\n", e.Name(), why)
			continue
		}
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(src, path)
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			to := filepath.Join(onnxNodeDir, rel)
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
				return err
			}
			return os.WriteFile(to, data, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(onnxNodeDir, "SKIPPED"), skipped.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// evaluable returns "" when irdiv reads, imports and compiles the node
// test in dir, or why not: an op or element type it does not evaluate.
// Any other error keeps the test, whose failure then shows.
func evaluable(dir string) string {
	m, err := onnx.ReadFile(filepath.Join(dir, "model.onnx"), onnx.ReadOptions{})
	if errors.Is(err, onnx.ErrUnsupported) || errors.Is(err, onnx.ErrFormat) {
		return skipReason(err)
	}
	if err != nil {
		return ""
	}
	im, err := onnx.Convert(m)
	if errors.Is(err, onnx.ErrUnsupported) || errors.Is(err, ops.ErrUnsupportedOp) {
		return skipReason(err)
	}
	if err != nil {
		return ""
	}
	if _, err := plugin.NewCore().CompileModel(im, plugin.Config{}); errors.Is(err, ops.ErrUnsupportedOp) {
		return skipReason(err)
	}
	return ""
}

func skipReason(err error) string {
	s := err.Error()
	if _, after, ok := strings.Cut(s, "model.onnx: "); ok {
		s = after // the path differs from one checkout to another
	}
	if i := strings.Index(s, "irdiv cannot execute "); i >= 0 {
		s = s[i:] // the ops, without the advice that follows
		if j := strings.Index(s, "), "); j >= 0 {
			s = s[:j+1]
		}
	}
	s, _, _ = strings.Cut(s, "; irdiv reads")
	return strings.ReplaceAll(s, "\n", " ")
}
