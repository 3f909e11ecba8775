package validate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/ir/npy"
	"github.com/irdiv/irdiv/onnx"
)

// exportsDir holds the PyTorch exports gen.py made there, with the
// verdicts it established on ONNX Runtime (testdata/pytorch/README.md).
const exportsDir = "../testdata/pytorch"

type expectedModel struct {
	Model     string `json:"model"`
	File      string `json:"file"`
	FloorFile string `json:"floor_file"`
	Divs      []struct {
		Output  string `json:"output"`
		Node    string `json:"node"`
		Verdict string `json:"verdict"`
		Reason  string `json:"reason"`
	} `json:"divs"`
}

func readExpected(t *testing.T) []expectedModel {
	data, err := os.ReadFile(filepath.Join(exportsDir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var models []expectedModel
	if err := json.Unmarshal(data, &models); err != nil {
		t.Fatal(err)
	}
	if len(models) < 12 {
		t.Fatalf("testdata/pytorch/expected.json lists %d models", len(models))
	}
	return models
}

// verdicts maps the floor/truncation codes to the words expected.json
// uses.
var verdicts = map[Code]string{
	FloorTrunc:         "error",
	FloorTruncAgree:    "agree",
	FloorTruncPossible: "warning",
	FloorTruncReshape:  "warning",
}

// undecided are the Divs whose verdict is agree on ONNX Runtime and a
// warning in irdiv, each with the reason: the test fails if irdiv proves
// one (take it off the list) or gives another verdict.
var undecided = map[string]string{
	// None: divmod_op9.onnx /Div_2, x % 8 in [0, 7] through opset 9's
	// fix-up of a truncating Div, is proven since absint's floorFixup
	// (binary.go) takes the fix-up for the floor division it is.
}

// TestPyTorchExports: every integer Div of the committed PyTorch exports
// gets the verdict established for it on ONNX Runtime, no safe model gets
// an error, and every counter-example validate reports is replayed: on
// ONNX Runtime where it is installed (the export and its flooring twin,
// the model as OpenVINO's import computes it, must give different
// outputs), else by irdiv's own evaluation.
func TestPyTorchExports(t *testing.T) {
	runner, ortErr := ortreplay.Find()
	if ortErr != nil {
		t.Logf("ONNX Runtime is not available (%v): counter-examples are replayed by irdiv's own evaluation", ortErr)
	} else {
		t.Logf("counter-examples are replayed on %s", runner)
	}
	replays := 0
	for _, em := range readExpected(t) {
		path := filepath.Join(exportsDir, em.File)
		om, err := onnx.ReadFile(path, onnx.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", em.File, err)
		}
		m, err := onnx.Import(om, onnx.ImportOptions{})
		if err != nil {
			t.Fatalf("%s: %v", em.File, err)
		}
		v := analyze(m, em.File, Options{})
		got := make(map[string]Finding)
		for _, f := range v.r.Findings {
			if _, ok := verdicts[f.Code]; ok && f.Layer != nil {
				for _, name := range f.Layer.Outputs[0].Names {
					got[name] = f
				}
			}
			if f.Severity == Error && f.Code != FloorTrunc {
				t.Errorf("%s: %s %s", em.File, f.Code, f.Message)
			}
		}
		for _, d := range em.Divs {
			f, ok := got[d.Output]
			want := d.Verdict
			if why, ok := undecided[em.File+" "+d.Node]; ok && d.Verdict == "agree" {
				want = "warning"
				t.Logf("%s %s: a warning, not the proof it could be: %s", em.File, d.Node, why)
			}
			if !ok || verdicts[f.Code] != want {
				t.Errorf("%s %s: %s %q, want %s (%s)", em.File, d.Node, f.Code, f.Message, d.Verdict, d.Reason)
				continue
			}
			if f.CounterExample == nil {
				continue
			}
			if testing.Short() && replays >= 4 {
				continue
			}
			replays++
			if ortErr != nil {
				if f.Evidence.Get("confirmed") == nil {
					t.Errorf("%s %s: a counter-example irdiv did not confirm", em.File, d.Node)
				}
				continue
			}
			dir := t.TempDir()
			files := f.CounterExample.Files()
			for name, tensor := range f.CounterExample.Inputs {
				if err := npy.WriteFile(filepath.Join(dir, files[name]), tensor); err != nil {
					t.Fatal(err)
				}
			}
			differ, detail, err := ortreplay.ReplayDir(runner, path, filepath.Join(exportsDir, em.FloorFile), dir)
			if err != nil || !differ {
				t.Errorf("%s %s: the counter-example %v (%s) does not change the outputs on ONNX Runtime: %s %v", em.File, d.Node, f.Evidence.Get("counter_example"), inputsText(f.CounterExample), detail, err)
			}
		}
	}
	t.Logf("%d counter-examples replayed", replays)
}

func inputsText(c *CounterExample) string {
	var parts []string
	for name, t := range c.Inputs {
		parts = append(parts, name+"="+t.Type.String()+shapeText(t.Shape))
	}
	return strings.Join(parts, " ")
}
