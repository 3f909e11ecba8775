package main

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/irdiv/irdiv/internal/ortreplay"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/validate"
)

// TestOpenVINOReplayModel: validate --counter-examples writes, beside the
// counter-example folders of an .onnx model, openvino.onnx: the model as
// OpenVINO's import computes it, in standard ONNX ops. It computes what
// OpenVINO's flooring Divide computes on every input (MIN and signs
// included; compared with irdiv's evaluation of OpenVINO's import, and
// with ONNX Runtime where installed), and run on the counter-example it
// gives what the finding says OpenVINO gives, where the model gives ONNX's.
func TestOpenVINOReplayModel(t *testing.T) {
	_, model := divONNX(t)
	cex := filepath.Join(t.TempDir(), "cex")
	stdout, stderr, code := irdiv(t, "validate", model, "--counter-examples", cex, "--json")
	if code != 1 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var report struct {
		Findings []struct {
			Code     string
			Evidence map[string]any
		}
	}
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatal(err)
	}
	folder, ov := "", ""
	for _, f := range report.Findings {
		if f.Code == string(validate.FloorTrunc) {
			folder, _ = f.Evidence["counter_example_dir"].(string)
			ov, _ = f.Evidence["openvino_model"].(string)
		}
	}
	if folder == "" || ov != filepath.Join(cex, "model", "openvino.onnx") {
		t.Fatalf("the floor-trunc finding names %q and %q\n%s", folder, ov, stdout)
	}
	x, y := filepath.Join(folder, "x.npy"), filepath.Join(folder, "y.npy")
	onnxOut, _, _ := irdiv(t, "run", model, "-i", "x="+x, "-i", "y="+y)
	ovOut, stderr, code := irdiv(t, "run", ov, "-i", "x="+x, "-i", "y="+y)
	if code != 0 || onnxOut == ovOut {
		t.Fatalf("openvino.onnx on the counter-example: exit %d %s\nONNX: %s\nOpenVINO: %s", code, stderr, onnxOut, ovOut)
	}

	// On random and edge inputs, openvino.onnx is OpenVINO's import.
	data, err := os.ReadFile(ov)
	if err != nil {
		t.Fatal(err)
	}
	om, err := onnx.Read(data, onnx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	written, err := onnx.Convert(om)
	if err != nil {
		t.Fatal(err)
	}
	orig, err := onnx.ReadFile(model, onnx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	imported, err := onnx.Import(orig, onnx.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	runner, ortErr := ortreplay.Find()
	r := rand.New(rand.NewPCG(3, 4))
	edges := []int32{math.MinInt32, math.MinInt32 + 1, -7, -3, -1, 0, 1, 2, 3, 7, math.MaxInt32}
	for round := range 200 {
		xs, ys := make([]int32, 4), make([]int32, 4)
		for i := range 4 {
			xs[i], ys[i] = r.Int32N(41)-20, r.Int32N(9)-4
			if round%2 == 0 {
				xs[i], ys[i] = edges[r.IntN(len(edges))], edges[r.IntN(len(edges))]
			}
			if ys[i] == 0 || xs[i] == math.MinInt32 && ys[i] == -1 {
				ys[i] = 3 // a fault under every reading
			}
		}
		in := map[string]*ir.Tensor{"x": tensorOf(t, xs), "y": tensorOf(t, ys)}
		want, err := evaluate(imported, in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := evaluate(written, in)
		if err != nil {
			t.Fatal(err)
		}
		if d := differentOutputs(want, got); d != "" {
			t.Fatalf("x = %v, y = %v: openvino.onnx %s", xs, ys, d)
		}
		if ortErr == nil && round < 10 {
			path := filepath.Join(t.TempDir(), "ov.onnx")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := runner.Run(path, in)
			if err != nil {
				t.Fatal(err)
			}
			if d := differentOutputs(want, got); d != "" {
				t.Fatalf("x = %v, y = %v: openvino.onnx in ONNX Runtime %s", xs, ys, d)
			}
		}
	}
}

func tensorOf(t *testing.T, vs []int32) *ir.Tensor {
	tn, err := ir.TensorOf(ir.I32, []int64{int64(len(vs))}, vs)
	if err != nil {
		t.Fatal(err)
	}
	return tn
}
