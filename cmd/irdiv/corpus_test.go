package main

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/irdiv/irdiv/internal/badcorpus"
	"github.com/irdiv/irdiv/internal/testutil"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ir/npy"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/plugin"
)

const corpusDir = "../../testdata/bad"

// TestBadCorpus runs every hostile input of testdata/bad, each in a copy
// of its folder with its links, named pipes and sparse files made, through
// the command line (exit 1, or 2 for usage; exactly one stderr line
// starting "irdiv: "; no panic; the expected text; little memory) and,
// where the case says so, through the Go API (read, infer, compile, bind,
// infer).
func TestBadCorpus(t *testing.T) {
	cases, err := badcorpus.Load(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < badcorpus.MinCases {
		t.Errorf("testdata/bad has %d cases; each way irdiv refuses a hostile file or command line needs one, %d or more in all", len(cases), badcorpus.MinCases)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			top := t.TempDir()
			dir := filepath.Join(top, c.Name)
			if err := badcorpus.Materialize(c, filepath.Join(corpusDir, c.Name), dir); errors.Is(err, badcorpus.ErrUnsupported) {
				t.Skipf("skipped: %v", err)
			} else if err != nil {
				t.Fatal(err)
			}
			args := make([]string, len(c.Args))
			for i, a := range c.Args {
				args[i] = strings.ReplaceAll(a, "{dir}", dir)
			}
			want := strings.ReplaceAll(c.Want, "{dir}", dir)
			before := listTree(t, top)
			var stdout, stderr string
			var code int
			var grown uint64
			done := make(chan struct{})
			go func() {
				defer close(done)
				grown, _ = testutil.Allocated(func() { stdout, stderr, code = irdiv(t, args...) })
			}()
			// A refusal comes at once; a read that blocks (on a named
			// pipe) must fail the case, not hang the test run.
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Fatalf("irdiv %q blocked", args)
			}
			// 40 MiB: cex-many-unused-inputs makes three counter-examples
			// (-3 / 2, MIN / -1, a divisor of 0) of its 3,002 inputs each,
			// 32 MiB in all.
			if grown > 40<<20 {
				t.Errorf("irdiv %q allocated %d MiB", args, grown>>20)
			}
			if code != c.Exit || !strings.Contains(stderr, want) {
				t.Errorf("irdiv %q: exit %d, stderr %q; want exit %d and %q", args, code, stderr, c.Exit, want)
			}
			if !strings.HasPrefix(stderr, "irdiv: ") || strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
				t.Errorf("irdiv %q: stderr is not one line starting \"irdiv: \": %q", args, stderr)
			}
			if strings.Contains(stdout+stderr, "panic") || strings.Contains(stdout+stderr, "goroutine ") {
				t.Errorf("irdiv %q: %s%s", args, stdout, stderr)
			}
			if c.Writes != nil {
				checkWrites(t, c.Writes, dir, before, listTree(t, top))
			}
			if c.API {
				err := apiPath(args)
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("Go API on %q: %v; want %q", args, err, want)
				}
			}
		})
	}
}

// listTree lists the files and folders under top.
func listTree(t *testing.T, top string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
		out[path] = true
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkWrites checks what a case created: only under dir/w.Under, as
// many files and folders as the case says.
func checkWrites(t *testing.T, w *badcorpus.Writes, dir string, before, after map[string]bool) {
	t.Helper()
	under := filepath.Join(dir, w.Under)
	n := 0
	for path := range after {
		if before[path] || path == under {
			continue
		}
		if !strings.HasPrefix(path, under+string(filepath.Separator)) {
			t.Errorf("wrote %s, outside %s", path, under)
			continue
		}
		n++
	}
	if w.Count > 0 && n != w.Count {
		t.Errorf("created %d files and folders under %s; want %d", n, under, w.Count)
	}
	if w.Max > 0 && n > w.Max {
		t.Errorf("created %d files and folders under %s; want at most %d", n, under, w.Max)
	}
}

// apiPath does with the Go API what "irdiv run", "info" or "convert"
// does: read (IR, or ONNX converted), infer, compile, bind the -i inputs
// (.npy or .pb) or small generated ones, infer.
func apiPath(args []string) error {
	var model, weights string
	given := map[string]string{}
	for i := 1; i < len(args); i++ {
		switch {
		case args[i] == "--weights" && i+1 < len(args):
			weights = args[i+1]
			i++
		case args[i] == "-i" && i+1 < len(args):
			name, path, _ := strings.Cut(args[i+1], "=")
			given[name] = path
			i++
		case model == "" && (strings.HasSuffix(args[i], ".xml") || strings.HasSuffix(args[i], ".onnx")):
			model = args[i]
		}
	}
	core := plugin.NewCore()
	var m *ir.Model
	var err error
	if strings.HasSuffix(model, ".onnx") {
		var om *onnx.Model
		if om, err = onnx.ReadFile(model, onnx.ReadOptions{MaxTensorBytes: defaultMaxTensor}); err == nil {
			m, err = onnx.Convert(om)
		}
	} else {
		m, err = ir.ReadFile(model, ir.ReadOptions{WeightsPath: weights})
	}
	if err != nil {
		return err
	}
	if _, err := ops.InferModel(m); err != nil {
		return err
	}
	cm, err := core.CompileModel(m, plugin.Config{Options: ops.Options{MaxTensorBytes: defaultMaxTensor}})
	if err != nil {
		return err
	}
	req := cm.NewInferRequest()
	gen := rand.New(rand.NewPCG(1, 2))
	for _, p := range cm.Inputs() {
		var in *ir.Tensor
		path, ok := given[p.Name]
		switch {
		case ok && strings.HasSuffix(path, ".pb"):
			in, _, err = onnx.ReadTensorFile(path, onnx.ReadOptions{MaxTensorBytes: defaultMaxTensor})
		case ok:
			in, err = npy.ReadFile(path, defaultMaxTensor)
		default:
			in, err = generate(gen, p.Type, concreteDims(p.Shape), defaultMaxTensor)
		}
		if err != nil {
			return err
		}
		if err := req.SetInputTensor(p.Index, in); err != nil {
			return err
		}
	}
	return req.Infer()
}
