package validate

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"fmt"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/validate/internal/randmodel"
)

func TestZZSeed(t *testing.T) {
	for _, s := range strings.Fields(os.Getenv("ZZ_SEEDS")) {
		seed, _ := strconv.ParseUint(s, 10, 64)
		m := randmodel.Generate(seed)
		p := "/work/scratch/s3/models/" + s + ".onnx"
		os.WriteFile(p, m.Bytes(), 0o644)
		t.Logf("seed %s\n%s", s, m.Listing())
		om, err := onnx.ReadFile(p, onnx.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		im, err := onnx.Import(om, onnx.ImportOptions{})
		if err != nil {
			t.Log(err)
			continue
		}
		for _, f := range Model(im, "m", Options{}).Findings {
			t.Logf("%s %v %s", f.Code, f.Layer, f.Message)
		}
	}
}

func TestZZValues(t *testing.T) {
	for _, s := range strings.Fields(os.Getenv("ZZ_SEEDS")) {
		seed, _ := strconv.ParseUint(s, 10, 64)
		m := randmodel.Generate(seed)
		p := "/work/scratch/s3/models/" + s + ".onnx"
		os.WriteFile(p, m.Bytes(), 0o644)
		om, _ := onnx.ReadFile(p, onnx.ReadOptions{})
		im, err := onnx.Import(om, onnx.ImportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		v := analyze(im, p, Options{})
		for _, l := range im.Layers {
			for i := range l.Outputs {
				val := v.an.Values[ir.Output{Layer: l, Index: i}]
				if val == nil {
					t.Logf("%s %s: nil", l.Name, l.Type)
					continue
				}
				fr := ""
				if val.F != nil {
					fr = fmt.Sprintf(" F=%+v", *val.F)
				}
				t.Logf("%s %s: %s%s", l.Name, l.Type, v.an.String(val), fr)
			}
		}
	}
}
