package onnx

import (
	"errors"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/plugin"
)

// readsBack encodes an imported model as IR and reads and infers it
// again, as irdiv info does with what convert writes.
func readsBack(t *testing.T, m *ir.Model) {
	t.Helper()
	x, bin, err := ir.Encode(m)
	if err != nil {
		t.Fatalf("encoding: %v", err)
	}
	back, err := ir.ReadBytes(x, bin, ir.ReadOptions{})
	if err != nil {
		t.Fatalf("reading the IR back: %v\n%s", err, x)
	}
	if _, err := ops.InferModel(back); err != nil {
		t.Fatalf("inferring the IR read back: %v\n%s", err, x)
	}
}

// hostile builds the models of TestHostileAttributes: one node of
// opType reading x f32[1,4,5,5] and initializers, writing t, which a Relu
// turns into the graph output y (so that t's type and shape are the
// import's, not a declaration's).
func hostileModel(opset int64, node []byte, inits [][]byte, inputs ...[]byte) []byte {
	nodes := [][]byte{node, onnxwire.Node("Relu", "relu", []string{"t"}, []string{"y"})}
	if len(inputs) == 0 {
		inputs = [][]byte{onnxwire.Value("x", onnxwire.Float, 1, 4, 5, 5)}
	}
	return onnxwire.Model(opset, onnxwire.Graph("g", nodes, inits, inputs, [][]byte{onnxwire.Value("y", onnxwire.Float)}))
}

// customModel is a model where an op of another domain computes u, of
// unknown element type and shape, which node reads.
func customModel(opset int64, node []byte) []byte {
	mystery := onnxwire.DomainNode("com.example", "Mystery", "mystery", []string{"x"}, []string{"u"})
	g := onnxwire.Graph("g", [][]byte{mystery, node}, nil, [][]byte{onnxwire.Value("x", onnxwire.Float, 4)}, [][]byte{onnxwire.Value("t", onnxwire.Float)})
	return onnxwire.WithOpset(onnxwire.Model(opset, g), "com.example", 1)
}

// TestHostileAttributes: attributes and element types that once crashed
// the import (issue 28) are refused naming the node and the attribute,
// or keep the node opaque, and what imports writes an IR that reads back.
func TestHostileAttributes(t *testing.T) {
	weights := onnxwire.Tensor("w", onnxwire.Float, []int64{4, 2, 3, 3}, make([]byte, 4*72))
	conv := func(op string, attrs ...[]byte) []byte {
		return hostileModel(13, onnxwire.NodeAttrs(op, "conv", []string{"x", "w"}, []string{"t"}, attrs...), [][]byte{weights})
	}
	for _, tc := range []struct {
		name  string
		model []byte
		// err is the error's text; "" for a model that imports.
		err string
		// opaque is a layer type the model must keep opaque.
		opaque string
		// dims are t's dims once imported (nil: not checked).
		dims []int64
	}{
		{"conv group 0", conv("Conv", onnxwire.IntAttr("group", 0)), `node "conv" (Conv, #0): opset 13: group is 0; the channels split into 1 group or more`, "", nil},
		{"conv group -1", conv("Conv", onnxwire.IntAttr("group", -1)), `node "conv" (Conv, #0): opset 13: group is -1; the channels split into 1 group or more`, "", nil},
		{"conv group min", conv("Conv", onnxwire.IntAttr("group", -1<<63)), `group is -9223372036854775808`, "", nil},
		{"convtranspose group 0", conv("ConvTranspose", onnxwire.IntAttr("group", 0)), `node "conv" (ConvTranspose, #0): opset 13: group is 0`, "", nil},
		{"conv group 2", conv("Conv", onnxwire.IntAttr("group", 2)), "", "", []int64{1, 4, 3, 3}},
		// A group that does not divide the channels keeps the node
		// opaque; the output_shape constant made on the way goes too.
		{"convtranspose group 3", conv("ConvTranspose", onnxwire.IntAttr("group", 3), onnxwire.IntsAttr("output_shape", 7, 7)), "", "ConvTranspose", nil},
		{"gathernd batch_dims max", hostileModel(13, onnxwire.NodeAttrs("GatherND", "gnd", []string{"x", "i"}, []string{"t"}, onnxwire.IntAttr("batch_dims", 1<<63-1)), nil,
			onnxwire.Value("x", onnxwire.Float, 2, 3), onnxwire.Value("i", onnxwire.Int64, 2, 1)), "", "GatherND", nil},
		{"gathernd batch_dims past indices", hostileModel(13, onnxwire.NodeAttrs("GatherND", "gnd", []string{"x", "i"}, []string{"t"}, onnxwire.IntAttr("batch_dims", 2)), nil,
			onnxwire.Value("x", onnxwire.Float, 2, 3, 4), onnxwire.Value("i", onnxwire.Int64, 2, 1)), "", "GatherND", nil},
		{"gathernd batch_dims 1", hostileModel(13, onnxwire.NodeAttrs("GatherND", "gnd", []string{"x", "i"}, []string{"t"}, onnxwire.IntAttr("batch_dims", 1)), nil,
			onnxwire.Value("x", onnxwire.Float, 2, 3, 4), onnxwire.Value("i", onnxwire.Int64, 2, 1)), "", "GatherND", []int64{2, 4}},
		{"roialign output_height -5", hostileModel(13, onnxwire.NodeAttrs("RoiAlign", "roi", []string{"x", "r", "i"}, []string{"t"}, onnxwire.IntAttr("output_height", -5)), nil,
			onnxwire.Value("x", onnxwire.Float, 1, 3, 8, 8), onnxwire.Value("r", onnxwire.Float, 2, 4), onnxwire.Value("i", onnxwire.Int64, 2)), "", "ROIAlign", []int64{2, 3, -1, 1}},
		// The faithful conversion's length guard hid delta's rank behind
		// a start of unknown rank: it imported one way only (found by
		// FuzzImportNodes).
		{"range delta of rank 2", hostileModel(13, onnxwire.Node("Range", "range", []string{"s", "l", "d"}, []string{"t"}), nil,
			onnxwire.Rankless("s", onnxwire.Float), onnxwire.Value("l", onnxwire.Float), onnxwire.Value("d", onnxwire.Float, 2, 2)),
			`node "range" (Range, #0): opset 13: Range's delta has rank 2; it must be a scalar`, "", nil},
		{"clip of unknown type", customModel(13, onnxwire.Node("Clip", "clip", []string{"u", "u"}, []string{"t"})), "", "Clip", nil},
		{"gemm alpha of unknown type", customModel(13, onnxwire.NodeAttrs("Gemm", "gemm", []string{"u", "u"}, []string{"t"}, onnxwire.FloatAttr("alpha", 2))), "", "Gemm", nil},
		{"gemm beta of unknown type", customModel(13, onnxwire.NodeAttrs("Gemm", "gemm", []string{"u", "u", "u"}, []string{"t"}, onnxwire.FloatAttr("beta", 2))), "", "Gemm", nil},
		{"pad-2 of unknown type", customModel(2, onnxwire.NodeAttrs("Pad", "pad", []string{"u"}, []string{"t"}, onnxwire.IntsAttr("pads", 1, 1))), "", "Pad", nil},
		{"slice without steps, starts of unknown type", customModel(13, onnxwire.Node("Slice", "slice", []string{"x", "u", "u"}, []string{"t"})), "", "Slice", nil},
		{"dropout ratio of unknown type", customModel(13, onnxwire.Node("Dropout", "dropout", []string{"x", "u", "u"}, []string{"t"})), "", "Dropout", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			om, err := Read(tc.model, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, convert := range []func(*Model) (*ir.Model, error){Convert, func(m *Model) (*ir.Model, error) { return Import(m, ImportOptions{}) }} {
				m, err := convert(om)
				if tc.err != "" {
					if err == nil || !errors.Is(err, ErrRule) || !strings.Contains(err.Error(), tc.err) || strings.Count(err.Error(), "onnx: ") != 1 {
						t.Fatalf("got %v, want ErrRule %q", err, tc.err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				readsBack(t, m)
				types := map[string]bool{}
				for _, l := range m.Layers {
					types[l.Type] = true
					if len(l.Outputs) == 0 && l.Type != "Result" {
						t.Errorf("%s has no output port", l)
					}
				}
				if tc.opaque != "" && !types[tc.opaque] {
					t.Errorf("no opaque %s layer: %v", tc.opaque, types)
				}
				if u := m.Unreachable(); len(u) > 0 {
					t.Errorf("the import left layers no Result reaches: %v", u)
				}
				if tc.dims != nil {
					p := producer(m, "t").Outputs[0]
					for _, o := range producer(m, "t").Outputs {
						if len(o.Names) > 0 && o.Names[0] == "t" {
							p = o
						}
					}
					if got := p.Dims; !equalDims(got, tc.dims) {
						t.Errorf("t has dims %v, want %v", got, tc.dims)
					}
				}
			}
		})
	}
}

func equalDims(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRangeLength: ONNX's Range of 2^32 elements or more, whose length
// OpenVINO's Range keeps the low 32 bits of (2^32 + 3 made 3 elements),
// is refused: at import when its inputs are known, both ways; at run
// time otherwise, in the faithful conversion (OpenVINO's import keeps
// OpenVINO's wrap). Shorter ones compute ONNX's answer.
func TestRangeLength(t *testing.T) {
	y := onnxwire.ValueInfo("y", onnxwire.Int64, -1)
	node := onnxwire.Node("Range", "range", []string{"s", "l", "d"}, []string{"y"})
	const guard = `error: layer "range/length_of_2^32_or_more_past_every_cap"`
	for _, tc := range []struct {
		name string
		// limit is a constant, or with limitInput an input given limit.
		limit      int64
		limitInput bool
		delta      int64
		f32        bool
		// faithful and openvino are what Convert and Import give: an
		// output, shaped, or "error: " and a part of the error.
		faithful, openvino string
	}{
		{"known, 2^32 + 3", 1<<32 + 3, false, 1, false, "error: Range of 4294967299 elements: OpenVINO's Range holds its length in 32 bits (it would make 3)", "error: Range of 4294967299 elements"},
		{"known, 2^40 by 256", 1 << 40, false, 256, false, "error: Range of 4294967296 elements", "error: Range of 4294967296 elements"},
		{"known f32", 1 << 33, false, 1, true, "error: Range of 8589934592 elements", "error: Range of 8589934592 elements"},
		{"known, 5", 5, false, 1, false, "[5][0 1 2 3 4]", "[5][0 1 2 3 4]"},
		{"known, away", -5, false, 1, false, "[0][]", "[0][]"},
		{"input, 2^32 + 3", 1<<32 + 3, true, 1, false, guard, "[3][0 1 2]"},
		{"input, 2^32 - 1 past the tensor cap", 1<<32 - 1, true, 1, false, "error: is larger than", "error: is larger than"},
		{"input, 6 by 2", 6, true, 2, false, "[3][0 2 4]", "[3][0 2 4]"},
		{"input, delta 0", 6, true, 0, false, guard, "[0][]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			typ, elem := int32(onnxwire.Int64), ir.I64
			if tc.f32 {
				typ, elem = onnxwire.Float, ir.F32
			}
			scalar := func(v int64) *ir.Tensor {
				x, _ := ir.NewTensor(elem, []int64{})
				x.SetInt64(0, v)
				return x
			}
			inits := [][]byte{onnxwire.Tensor("s", typ, []int64{}, scalar(0).Data), onnxwire.Tensor("d", typ, []int64{}, scalar(tc.delta).Data)}
			var inputs [][]byte
			var given []*ir.Tensor
			if tc.limitInput {
				inputs, given = [][]byte{onnxwire.Value("l", typ)}, []*ir.Tensor{scalar(tc.limit)}
			} else {
				inits = append(inits, onnxwire.Tensor("l", typ, []int64{}, scalar(tc.limit).Data))
			}
			om, err := Read(onnxwire.Model(13, onnxwire.Graph("g", [][]byte{node}, inits, inputs, [][]byte{y})), ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, faithful := range []bool{true, false} {
				want := tc.openvino
				if faithful {
					want = tc.faithful
				}
				m, err := Import(om, ImportOptions{Faithful: faithful})
				var out *ir.Tensor
				if err == nil {
					out, err = runErr(m, given...)
				}
				switch wantErr, isErr := strings.CutPrefix(want, "error: "); {
				case isErr && (err == nil || !strings.Contains(err.Error(), wantErr)):
					t.Errorf("faithful %v: %v, want an error with %q", faithful, err, wantErr)
				case isErr && strings.Contains(wantErr, "elements") && !errors.Is(err, ir.ErrLimit):
					t.Errorf("faithful %v: %v is not ir.ErrLimit", faithful, err)
				case !isErr && err != nil:
					t.Errorf("faithful %v: %v, want %s", faithful, err, want)
				case !isErr && shaped(out) != want:
					t.Errorf("faithful %v: %s, want %s", faithful, shaped(out), want)
				}
			}
		})
	}
}

// runErr compiles m with the default caps and runs it on inputs.
func runErr(m *ir.Model, inputs ...*ir.Tensor) (*ir.Tensor, error) {
	cm, err := plugin.NewCore().CompileModel(m, plugin.Config{})
	if err != nil {
		return nil, err
	}
	req := cm.NewInferRequest()
	for i, in := range inputs {
		if err := req.SetInputTensor(i, in); err != nil {
			return nil, err
		}
	}
	if err := req.Infer(); err != nil {
		return nil, err
	}
	return req.OutputTensor(0)
}
