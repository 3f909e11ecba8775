package onnx

import (
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx/internal/onnxpb"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/plugin"
	"google.golang.org/protobuf/proto"
)

// Builders of small ONNX graphs with subgraphs.

func nd(op string, ins, outs []string, attrs ...*onnxpb.AttributeProto) *onnxpb.NodeProto {
	return &onnxpb.NodeProto{Name: proto.String(outs[0]), OpType: proto.String(op), Input: ins, Output: outs, Attribute: attrs}
}

func graphAttr(name string, g *onnxpb.GraphProto) *onnxpb.AttributeProto {
	return &onnxpb.AttributeProto{Name: proto.String(name), Type: onnxpb.AttributeProto_GRAPH.Enum(), G: g}
}

func graph(name string, nodes []*onnxpb.NodeProto, inputs, outputs []*onnxpb.ValueInfoProto, inits ...*onnxpb.TensorProto) *onnxpb.GraphProto {
	return &onnxpb.GraphProto{Name: proto.String(name), Node: nodes, Input: inputs, Output: outputs, Initializer: inits}
}

// untyped is a subgraph input or output without a type, as ONNX allows.
func untyped(name string) *onnxpb.ValueInfoProto {
	return &onnxpb.ValueInfoProto{Name: proto.String(name)}
}

// anyShape is a tensor of type t and unknown shape.
func anyShape(name string, t int32) *onnxpb.ValueInfoProto {
	return &onnxpb.ValueInfoProto{Name: proto.String(name), Type: &onnxpb.TypeProto{Value: &onnxpb.TypeProto_TensorType{
		TensorType: &onnxpb.TypeProto_Tensor{ElemType: proto.Int32(t)}}}}
}

func i64Init(name string, dims []int64, vs ...int64) *onnxpb.TensorProto {
	return &onnxpb.TensorProto{Name: proto.String(name), DataType: proto.Int32(dataType(ir.I64)), Dims: dims, Int64Data: vs}
}

func boolConst(out string, v bool) *onnxpb.NodeProto {
	b := int32(0)
	if v {
		b = 1
	}
	t := &onnxpb.TensorProto{DataType: proto.Int32(dataType(ir.Boolean)), Int32Data: []int32{b}}
	return nd("Constant", nil, []string{out}, &onnxpb.AttributeProto{Name: proto.String("value"), Type: onnxpb.AttributeProto_TENSOR.Enum(), T: t})
}

func onnxModel(opset int64, g *onnxpb.GraphProto) *onnxpb.ModelProto {
	return &onnxpb.ModelProto{IrVersion: proto.Int64(8), OpsetImport: []*onnxpb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(opset)}}, Graph: g}
}

var (
	i64T  = dataType(ir.I64)
	boolT = dataType(ir.Boolean)
)

func i64Tensor(t *testing.T, dims []int64, vs ...int64) *ir.Tensor {
	x, err := ir.TensorOf(ir.I64, dims, vs)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func boolTensor(v bool) *ir.Tensor {
	x, _ := ir.NewTensor(ir.Boolean, []int64{})
	if v {
		x.Data[0] = 1
	}
	return x
}

// runAll compiles m and runs it on inputs, returning every output.
func runAll(m *ir.Model, cfg plugin.Config, inputs ...*ir.Tensor) ([]*ir.Tensor, error) {
	cm, err := plugin.NewCore().CompileModel(m, cfg)
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
	var outs []*ir.Tensor
	for i := range cm.Outputs() {
		t, err := req.OutputTensor(i)
		if err != nil {
			return nil, err
		}
		outs = append(outs, t)
	}
	return outs, nil
}

// i64Out is an expected i64 output.
type i64Out struct {
	dims []int64
	vals []int64
}

func checkI64(t *testing.T, what string, got []*ir.Tensor, want []i64Out) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d outputs, want %d", what, len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Type != ir.I64 || !slices.Equal(g.Shape, w.dims) || !slices.Equal(ir.View[int64](g), w.vals) {
			var vals []int64
			if g.Type == ir.I64 {
				vals = ir.View[int64](g)
			}
			t.Errorf("%s: output %d is %s%v %v, want i64%v %v", what, i, g.Type, g.Shape, vals, w.dims, w.vals)
		}
	}
}

// loopBody is a Loop body of the loop-carried v: its nodes compute
// cond_out, v_out and the scan outputs named.
func loopBody(nodes []*onnxpb.NodeProto, scans ...string) *onnxpb.GraphProto {
	outs := []*onnxpb.ValueInfoProto{untyped("cond_out"), untyped("v_out")}
	for _, s := range scans {
		outs = append(outs, untyped(s))
	}
	return graph("body", nodes, []*onnxpb.ValueInfoProto{tensorInfo("iter", i64T), tensorInfo("cond_in", boolT), untyped("v_in")}, outs)
}

// TestControlFlow: If and Loop models built here import both ways (the
// Divs of bodies floor with Import and truncate with Convert, like the
// main graph's), run, and run again after a round trip through IR files,
// giving the values worked out by hand.
func TestControlFlow(t *testing.T) {
	keep := nd("Identity", []string{"cond_in"}, []string{"cond_out"})
	cases := []struct {
		name    string
		model   *onnxpb.ModelProto
		inputs  []*ir.Tensor
		floor   []i64Out // Import: Div floors integers
		trunc   []i64Out // Convert: Div truncates them (nil: as floor)
		portDim []int64  // the If's or Loop's first output port, as inferred
	}{
		{
			name: "if on an input, outer-scope names, branches of different shapes (then)",
			model: onnxModel(13, graph("g", []*onnxpb.NodeProto{
				nd("If", []string{"c"}, []string{"r"},
					graphAttr("then_branch", graph("then", []*onnxpb.NodeProto{nd("Add", []string{"x", "y"}, []string{"t"})}, nil, []*onnxpb.ValueInfoProto{untyped("t")})),
					graphAttr("else_branch", graph("else", []*onnxpb.NodeProto{nd("Concat", []string{"x", "y"}, []string{"e"}, intAttr("axis", 0))}, nil, []*onnxpb.ValueInfoProto{untyped("e")}))),
			}, []*onnxpb.ValueInfoProto{tensorInfo("c", boolT), tensorInfo("x", i64T, 3)}, []*onnxpb.ValueInfoProto{anyShape("r", i64T)}, i64Init("y", []int64{3}, 10, 20, 30))),
			inputs:  []*ir.Tensor{boolTensor(true), i64Tensor(t, []int64{3}, 1, -2, 3)},
			floor:   []i64Out{{[]int64{3}, []int64{11, 18, 33}}},
			portDim: []int64{-1},
		},
		{
			name: "if on an input (else)",
			model: onnxModel(13, graph("g", []*onnxpb.NodeProto{
				nd("If", []string{"c"}, []string{"r"},
					graphAttr("then_branch", graph("then", []*onnxpb.NodeProto{nd("Add", []string{"x", "y"}, []string{"t"})}, nil, []*onnxpb.ValueInfoProto{untyped("t")})),
					graphAttr("else_branch", graph("else", []*onnxpb.NodeProto{nd("Concat", []string{"x", "y"}, []string{"e"}, intAttr("axis", 0))}, nil, []*onnxpb.ValueInfoProto{untyped("e")}))),
			}, []*onnxpb.ValueInfoProto{tensorInfo("c", boolT), tensorInfo("x", i64T, 3)}, []*onnxpb.ValueInfoProto{anyShape("r", i64T)}, i64Init("y", []int64{3}, 10, 20, 30))),
			inputs:  []*ir.Tensor{boolTensor(false), i64Tensor(t, []int64{3}, 1, -2, 3)},
			floor:   []i64Out{{[]int64{6}, []int64{1, -2, 3, 10, 20, 30}}},
			portDim: []int64{-1},
		},
		{
			name: "if on a constant, a Div in the branch taken",
			model: onnxModel(13, graph("g", []*onnxpb.NodeProto{
				boolConst("c", false),
				nd("If", []string{"c"}, []string{"r"},
					graphAttr("then_branch", graph("then", []*onnxpb.NodeProto{nd("Concat", []string{"x", "x"}, []string{"t"}, intAttr("axis", 0))}, nil, []*onnxpb.ValueInfoProto{untyped("t")})),
					graphAttr("else_branch", graph("else", []*onnxpb.NodeProto{nd("Div", []string{"x", "two"}, []string{"e"})}, nil, []*onnxpb.ValueInfoProto{untyped("e")}))),
			}, []*onnxpb.ValueInfoProto{tensorInfo("x", i64T, 3)}, []*onnxpb.ValueInfoProto{tensorInfo("r", i64T, 3)}, i64Init("two", nil, 2))),
			inputs:  []*ir.Tensor{i64Tensor(t, []int64{3}, 7, -7, -8)},
			floor:   []i64Out{{[]int64{3}, []int64{3, -4, -4}}},
			trunc:   []i64Out{{[]int64{3}, []int64{3, -3, -4}}},
			portDim: []int64{3},
		},
		{
			name: "loop of a trip count, a scan output reading an outer name",
			model: onnxModel(13, graph("g", []*onnxpb.NodeProto{
				nd("Loop", []string{"M", "", "v"}, []string{"v_final", "scan"}, graphAttr("body", loopBody([]*onnxpb.NodeProto{
					keep, nd("Add", []string{"v_in", "iter"}, []string{"v_out"}), nd("Mul", []string{"v_out", "two"}, []string{"s"}),
				}, "s"))),
			}, []*onnxpb.ValueInfoProto{tensorInfo("v", i64T, 1)}, []*onnxpb.ValueInfoProto{anyShape("v_final", i64T), anyShape("scan", i64T)},
				i64Init("M", nil, 3), i64Init("two", nil, 2))),
			inputs: []*ir.Tensor{i64Tensor(t, []int64{1}, 5)},
			floor:  []i64Out{{[]int64{1}, []int64{8}}, {[]int64{3, 1}, []int64{10, 12, 16}}},
		},
		{
			name: "loop of a condition only",
			model: onnxModel(13, graph("g", []*onnxpb.NodeProto{
				nd("Loop", []string{"", "c", "v"}, []string{"v_final", "scan"}, graphAttr("body", loopBody([]*onnxpb.NodeProto{
					nd("Mul", []string{"v_in", "two"}, []string{"v_out"}), nd("Less", []string{"v_out", "ten"}, []string{"cond_out"}), nd("Identity", []string{"v_out"}, []string{"s"}),
				}, "s"))),
			}, []*onnxpb.ValueInfoProto{tensorInfo("c", boolT), tensorInfo("v", i64T, 1)}, []*onnxpb.ValueInfoProto{anyShape("v_final", i64T), anyShape("scan", i64T)},
				i64Init("two", nil, 2), i64Init("ten", nil, 10))),
			inputs: []*ir.Tensor{boolTensor(true), i64Tensor(t, []int64{1}, 1)},
			floor:  []i64Out{{[]int64{1}, []int64{16}}, {[]int64{4, 1}, []int64{2, 4, 8, 16}}},
		},
		{
			name: "loop of a trip count and a condition",
			model: onnxModel(13, graph("g", []*onnxpb.NodeProto{
				nd("Loop", []string{"M", "c", "v"}, []string{"v_final", "scan"}, graphAttr("body", loopBody([]*onnxpb.NodeProto{
					nd("Mul", []string{"v_in", "two"}, []string{"v_out"}), nd("Less", []string{"v_out", "ten"}, []string{"cond_out"}), nd("Identity", []string{"v_out"}, []string{"s"}),
				}, "s"))),
			}, []*onnxpb.ValueInfoProto{tensorInfo("M", i64T), tensorInfo("c", boolT), tensorInfo("v", i64T, 1)}, []*onnxpb.ValueInfoProto{anyShape("v_final", i64T), anyShape("scan", i64T)},
				i64Init("two", nil, 2), i64Init("ten", nil, 10))),
			inputs: []*ir.Tensor{i64Tensor(t, nil, 2), boolTensor(true), i64Tensor(t, []int64{1}, 1)},
			floor:  []i64Out{{[]int64{1}, []int64{4}}, {[]int64{2, 1}, []int64{2, 4}}},
		},
		{
			name: "loop that runs no iteration",
			model: onnxModel(13, graph("g", []*onnxpb.NodeProto{
				nd("Loop", []string{"M", "", "v"}, []string{"v_final", "scan"}, graphAttr("body", loopBody([]*onnxpb.NodeProto{
					keep, nd("Add", []string{"v_in", "iter"}, []string{"v_out"}), nd("Identity", []string{"v_out"}, []string{"s"}),
				}, "s"))),
			}, []*onnxpb.ValueInfoProto{tensorInfo("M", i64T), tensorInfo("v", i64T, 2)}, []*onnxpb.ValueInfoProto{anyShape("v_final", i64T), anyShape("scan", i64T)})),
			inputs: []*ir.Tensor{i64Tensor(t, nil, 0), i64Tensor(t, []int64{2}, 5, 6)},
			floor:  []i64Out{{[]int64{2}, []int64{5, 6}}, {[]int64{0, 2}, nil}},
		},
		{
			name: "loop of constants, longer than inference folds",
			model: onnxModel(13, graph("g", []*onnxpb.NodeProto{
				nd("Loop", []string{"M", "", "v"}, []string{"v_final"}, graphAttr("body", loopBody([]*onnxpb.NodeProto{
					keep, nd("Add", []string{"v_in", "one"}, []string{"v_out"}),
				}))),
			}, nil, []*onnxpb.ValueInfoProto{anyShape("v_final", i64T)},
				i64Init("M", nil, ops.FoldMaxBodyRuns+5), i64Init("v", []int64{1}, -3), i64Init("one", nil, 1))),
			floor: []i64Out{{[]int64{1}, []int64{ops.FoldMaxBodyRuns + 2}}},
		},
		{
			name: "loop of Divs of negative integers",
			model: onnxModel(13, graph("g", []*onnxpb.NodeProto{
				nd("Loop", []string{"M", "", "v"}, []string{"v_final"}, graphAttr("body", loopBody([]*onnxpb.NodeProto{
					keep, nd("Div", []string{"v_in", "two"}, []string{"v_out"}),
				}))),
			}, []*onnxpb.ValueInfoProto{tensorInfo("v", i64T, 2)}, []*onnxpb.ValueInfoProto{anyShape("v_final", i64T)},
				i64Init("M", nil, 2), i64Init("two", nil, 2))),
			inputs: []*ir.Tensor{i64Tensor(t, []int64{2}, -7, 9)},
			floor:  []i64Out{{[]int64{2}, []int64{-2, 2}}},
			trunc:  []i64Out{{[]int64{2}, []int64{-1, 2}}},
		},
		{
			name: "loop nested in a loop, its trip count from the outer iteration",
			model: onnxModel(13, graph("g", []*onnxpb.NodeProto{
				nd("Loop", []string{"M", "", "v"}, []string{"v_final", "scan"}, graphAttr("body", loopBody([]*onnxpb.NodeProto{
					keep,
					nd("Add", []string{"iter", "one"}, []string{"n"}),
					nd("Loop", []string{"n", "", "v_in"}, []string{"v_out"}, graphAttr("body", graph("inner", []*onnxpb.NodeProto{
						nd("Identity", []string{"c_in"}, []string{"c_out"}), nd("Add", []string{"w_in", "one"}, []string{"w_out"}),
					}, []*onnxpb.ValueInfoProto{untyped("j"), untyped("c_in"), untyped("w_in")}, []*onnxpb.ValueInfoProto{untyped("c_out"), untyped("w_out")}))),
					nd("Identity", []string{"v_out"}, []string{"s"}),
				}, "s"))),
			}, []*onnxpb.ValueInfoProto{tensorInfo("M", i64T), tensorInfo("v", i64T, 1)}, []*onnxpb.ValueInfoProto{anyShape("v_final", i64T), anyShape("scan", i64T)},
				i64Init("one", nil, 1))),
			inputs: []*ir.Tensor{i64Tensor(t, nil, 3), i64Tensor(t, []int64{1}, 0)},
			floor:  []i64Out{{[]int64{1}, []int64{6}}, {[]int64{3, 1}, []int64{1, 3, 6}}},
		},
		{
			name: "if nested in a loop, reading names of both enclosing graphs",
			model: onnxModel(13, graph("g", []*onnxpb.NodeProto{
				nd("Loop", []string{"M", "", "v"}, []string{"v_final", "scan"}, graphAttr("body", loopBody([]*onnxpb.NodeProto{
					keep,
					nd("Mod", []string{"iter", "two"}, []string{"parity"}),
					nd("Equal", []string{"parity", "zero"}, []string{"even"}),
					nd("If", []string{"even"}, []string{"v_out"},
						graphAttr("then_branch", graph("then", []*onnxpb.NodeProto{nd("Add", []string{"v_in", "one"}, []string{"t"})}, nil, []*onnxpb.ValueInfoProto{untyped("t")})),
						graphAttr("else_branch", graph("else", []*onnxpb.NodeProto{nd("Sub", []string{"v_in", "ten"}, []string{"e0"}), nd("Div", []string{"e0", "two"}, []string{"e"})}, nil, []*onnxpb.ValueInfoProto{untyped("e")}))),
					nd("Identity", []string{"v_out"}, []string{"s"}),
				}, "s"))),
			}, []*onnxpb.ValueInfoProto{tensorInfo("M", i64T), tensorInfo("v", i64T, 1)}, []*onnxpb.ValueInfoProto{anyShape("v_final", i64T), anyShape("scan", i64T)},
				i64Init("one", nil, 1), i64Init("two", nil, 2), i64Init("ten", nil, 10), i64Init("zero", nil, 0))),
			inputs: []*ir.Tensor{i64Tensor(t, nil, 4), i64Tensor(t, []int64{1}, 0)},
			// 0 -> +1 = 1 -> (1-10)/2 -> +1 -> (x-10)/2
			floor: []i64Out{{[]int64{1}, []int64{-7}}, {[]int64{4, 1}, []int64{1, -5, -4, -7}}},
			trunc: []i64Out{{[]int64{1}, []int64{-6}}, {[]int64{4, 1}, []int64{1, -4, -3, -6}}},
		},
	}
	for _, c := range cases {
		data, err := proto.Marshal(c.model)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Read(data, ReadOptions{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		for _, faithful := range []bool{false, true} {
			want := c.floor
			if faithful && c.trunc != nil {
				want = c.trunc
			}
			what := c.name
			if faithful {
				what += " (Convert)"
			}
			model, err := Import(m, ImportOptions{Faithful: faithful})
			if err != nil {
				t.Errorf("%s: %v", what, err)
				continue
			}
			if c.portDim != nil {
				for _, l := range model.Layers {
					if l.Type == "If" || l.Type == "Loop" {
						if !slices.Equal(l.Outputs[0].Dims, c.portDim) {
							t.Errorf("%s: %s output 0 has dims %v, want %v", what, l, l.Outputs[0].Dims, c.portDim)
						}
					}
				}
			}
			got, err := runAll(model, plugin.Config{}, c.inputs...)
			if err != nil {
				t.Errorf("%s: %v", what, err)
				continue
			}
			checkI64(t, what, got, want)
			// The IR written for it runs the same.
			dir := t.TempDir()
			xml := filepath.Join(dir, "m.xml")
			if err := ir.Write(model, xml, ""); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			back, err := ir.ReadFile(xml, ir.ReadOptions{})
			if err != nil {
				t.Fatalf("%s: reading the IR back: %v", what, err)
			}
			got, err = runAll(back, plugin.Config{}, c.inputs...)
			if err != nil {
				t.Errorf("%s, IR read back: %v", what, err)
				continue
			}
			checkI64(t, what+", IR read back", got, want)
		}
	}
}

// TestControlFlowRefused: crafted subgraphs fail with errors that name the
// node (or the cap), never a panic or a hang.
func TestControlFlowRefused(t *testing.T) {
	branch := func(out string, nodes ...*onnxpb.NodeProto) *onnxpb.GraphProto {
		return graph("b", nodes, nil, []*onnxpb.ValueInfoProto{untyped(out)})
	}
	ifModel := func(attrs ...*onnxpb.AttributeProto) *onnxpb.ModelProto {
		return onnxModel(13, graph("g", []*onnxpb.NodeProto{nd("If", []string{"c"}, []string{"r"}, attrs...)},
			[]*onnxpb.ValueInfoProto{tensorInfo("c", boolT), tensorInfo("x", i64T, 2)}, []*onnxpb.ValueInfoProto{anyShape("r", i64T)}))
	}
	idBranch := branch("y", nd("Identity", []string{"x"}, []string{"y"}))
	// nested is an If whose then_branch holds an If, depth levels deep.
	var nested func(depth int) *onnxpb.GraphProto
	nested = func(depth int) *onnxpb.GraphProto {
		if depth == 0 {
			return idBranch
		}
		return branch("y", nd("If", []string{"c"}, []string{"y"}, graphAttr("then_branch", nested(depth-1)), graphAttr("else_branch", idBranch)))
	}
	loop := func(inputs []string, body *onnxpb.GraphProto, inits ...*onnxpb.TensorProto) *onnxpb.ModelProto {
		var attrs []*onnxpb.AttributeProto
		if body != nil {
			attrs = append(attrs, graphAttr("body", body))
		}
		return onnxModel(13, graph("g", []*onnxpb.NodeProto{nd("Loop", inputs, []string{"v_final"}, attrs...)},
			[]*onnxpb.ValueInfoProto{tensorInfo("v", i64T, 1)}, []*onnxpb.ValueInfoProto{anyShape("v_final", i64T)}, inits...))
	}
	keep := nd("Identity", []string{"cond_in"}, []string{"cond_out"})
	// scan is a Scan of opset, state v and scanned v (inputs, sequence_lens
	// first in opset 8), whose body adds each element to the state.
	scan := func(opset int64, inputs []string, body *onnxpb.GraphProto, attrs ...*onnxpb.AttributeProto) *onnxpb.ModelProto {
		attrs = append(attrs, graphAttr("body", body), intAttr("num_scan_inputs", 1))
		return onnxModel(opset, graph("g", []*onnxpb.NodeProto{nd("Scan", inputs, []string{"s_final", "ys"}, attrs...)},
			[]*onnxpb.ValueInfoProto{tensorInfo("v", i64T, 1)}, []*onnxpb.ValueInfoProto{anyShape("s_final", i64T), anyShape("ys", i64T)}))
	}
	scanBody := func(reads string) *onnxpb.GraphProto {
		return graph("body", []*onnxpb.NodeProto{nd("Add", []string{"s_in", reads}, []string{"s_out"}), nd("Identity", []string{"s_out"}, []string{"y"})},
			[]*onnxpb.ValueInfoProto{untyped("s_in"), untyped("x_in")}, []*onnxpb.ValueInfoProto{untyped("s_out"), untyped("y")})
	}
	seqOut := &onnxpb.ValueInfoProto{Name: proto.String("y"), Type: &onnxpb.TypeProto{Value: &onnxpb.TypeProto_SequenceType{SequenceType: &onnxpb.TypeProto_Sequence{ElemType: &onnxpb.TypeProto{}}}}}
	cases := []struct {
		name  string
		model *onnxpb.ModelProto
		cfg   plugin.Config
		want  string
		is    error
	}{
		{"missing else_branch", ifModel(graphAttr("then_branch", idBranch)), plugin.Config{}, `node "r" (If, #0): opset 13: Missing 'else_branch' attribute`, ErrRule},
		{"branches of different output counts", ifModel(graphAttr("then_branch", idBranch), graphAttr("else_branch",
			graph("b", []*onnxpb.NodeProto{nd("Identity", []string{"x"}, []string{"y"})}, nil, []*onnxpb.ValueInfoProto{untyped("y"), untyped("x")}))),
			plugin.Config{}, "'then' and 'else' branches have to have the same number of outputs (1 and 2)", ErrRule},
		{"branch reading an undefined name", ifModel(graphAttr("then_branch", branch("y", nd("Identity", []string{"nope"}, []string{"y"}))), graphAttr("else_branch", idBranch)),
			plugin.Config{}, `node "r" (If, #0) attribute "then_branch": malformed ONNX: node "y" (Identity, #0) reads "nope"`, ErrFormat},
		{"branch reading a name defined after the If", onnxModel(13, graph("g", []*onnxpb.NodeProto{
			nd("If", []string{"c"}, []string{"r"}, graphAttr("then_branch", branch("y", nd("Identity", []string{"later"}, []string{"y"}))), graphAttr("else_branch", idBranch)),
			nd("Identity", []string{"x"}, []string{"later"}),
		}, []*onnxpb.ValueInfoProto{tensorInfo("c", boolT), tensorInfo("x", i64T, 2)}, []*onnxpb.ValueInfoProto{anyShape("r", i64T)})),
			plugin.Config{}, `reads "later"`, ErrFormat},
		{"sequence output of a branch", ifModel(graphAttr("then_branch", graph("b", []*onnxpb.NodeProto{nd("Identity", []string{"x"}, []string{"y"})}, nil, []*onnxpb.ValueInfoProto{seqOut})), graphAttr("else_branch", idBranch)),
			plugin.Config{}, `output "y" is a sequence, not a tensor: an OpenVINO model's inputs and outputs are tensors`, ErrUnsupported},
		{"subgraphs nested too deep", ifModel(graphAttr("then_branch", nested(9)), graphAttr("else_branch", idBranch)),
			plugin.Config{}, "subgraphs nest more than 8 deep", ir.ErrLimit},
		{"a branch holding an op irdiv does not know", ifModel(graphAttr("then_branch", branch("y", nd("Sin", []string{"x"}, []string{"y"}))), graphAttr("else_branch", idBranch)),
			plugin.Config{}, `irdiv cannot execute 1 layer (If opset8 x1), first layer "r"`, plugin.ErrUnsupportedOp},
		{"missing body", loop([]string{"", "", "v"}, nil), plugin.Config{}, "Missing 'body' attribute", ErrRule},
		{"body of too few inputs", loop([]string{"", "", "v"}, graph("body", []*onnxpb.NodeProto{nd("Identity", []string{"v_in"}, []string{"v_out"})},
			[]*onnxpb.ValueInfoProto{untyped("v_in")}, []*onnxpb.ValueInfoProto{untyped("v_out"), untyped("v_out")})),
			plugin.Config{}, "The provided loop body graph inputs size (1), does not match the sum of loop carried dependencies and two mandatory inputs (3)", ErrRule},
		{"body of too few outputs", loop([]string{"", "", "v"}, graph("body", []*onnxpb.NodeProto{keep},
			[]*onnxpb.ValueInfoProto{untyped("i"), untyped("cond_in"), untyped("v_in")}, []*onnxpb.ValueInfoProto{untyped("cond_out")})),
			plugin.Config{}, "outputs size (1) is smaller than number of outputs. Required at least: 2", ErrRule},
		{"a Loop that never ends", loop([]string{"", "", "v"}, loopBody([]*onnxpb.NodeProto{keep, nd("Identity", []string{"v_in"}, []string{"v_out"})})),
			plugin.Config{Options: ops.Options{MaxBodyRuns: 1000}}, "more than 1000 body runs", ir.ErrLimit},
		{"a huge trip count", loop([]string{"M", "", "v"}, loopBody([]*onnxpb.NodeProto{keep, nd("Identity", []string{"v_in"}, []string{"v_out"})}), i64Init("M", nil, 1<<60)),
			plugin.Config{Options: ops.Options{MaxBodyRuns: 1000}}, "more than 1000 body runs", ir.ErrLimit},
		{"trip count INT64_MAX, a condition that ends it", loop([]string{"M", "", "v"}, loopBody([]*onnxpb.NodeProto{
			nd("Add", []string{"v_in", "one"}, []string{"v_out"}), nd("Less", []string{"v_out", "ten"}, []string{"c1"}), nd("Squeeze", []string{"c1"}, []string{"cond_out"})}),
			i64Init("M", nil, math.MaxInt64), i64Init("one", nil, 1), i64Init("ten", []int64{1}, 10)),
			plugin.Config{Options: ops.Options{MaxBodyRuns: 1000}}, "", nil},
		{"a division by zero in a body", loop([]string{"M", "", "v"}, loopBody([]*onnxpb.NodeProto{keep, nd("Div", []string{"v_in", "iter"}, []string{"v_out"})}), i64Init("M", nil, 3)),
			plugin.Config{}, `ops: layer "v_final" (id 3): iteration 0: body layer "v_out" (id 3): integer division by zero`, ops.ErrDivideByZero},
		{"a scan output past the tensor cap", onnxModel(13, graph("g", []*onnxpb.NodeProto{nd("Loop", []string{"", "", "v"}, []string{"v_final", "scan"},
			graphAttr("body", loopBody([]*onnxpb.NodeProto{keep, nd("Identity", []string{"v_in"}, []string{"v_out"}), nd("Identity", []string{"v_in"}, []string{"s"})}, "s")))},
			[]*onnxpb.ValueInfoProto{tensorInfo("v", i64T, 1)}, []*onnxpb.ValueInfoProto{anyShape("v_final", i64T), anyShape("scan", i64T)})),
			plugin.Config{Options: ops.Options{MaxTensorBytes: 4096}}, "scan output 1 grows past the 4096 bytes allowed", ir.ErrTooLarge},
	}
	cases = append(cases, []struct {
		name  string
		model *onnxpb.ModelProto
		cfg   plugin.Config
		want  string
		is    error
	}{
		{"Scan-8 with sequence_lens", scan(8, []string{"v", "v", "v"}, scanBody("x_in")), plugin.Config{}, "opset 8: ONNX Scan-8 `sequence_lens` input is not supported.", ErrRule},
		{"a scan axis out of range", scan(13, []string{"v", "v"}, scanBody("x_in"), intsAttr("scan_input_axes", 3)), plugin.Config{}, "Parameter axis 3 out of the tensor rank range [-1, 0].", ErrRule},
		{"scan axes of another count", scan(13, []string{"v", "v"}, scanBody("x_in"), intsAttr("scan_output_axes", 0, 0)), plugin.Config{}, "scan_output_axes has 2 values, want 1", ErrRule},
		{"a Scan", scan(13, []string{"v", "v"}, scanBody("x_in")), plugin.Config{}, "", nil},
		// Scan-8's batch axis: scanned along axis 1 by default.
		{"a Scan-8 of a vector", scan(8, []string{"", "v", "v"}, scanBody("x_in"), intsAttr("directions", 1)), plugin.Config{}, "opset 8: Parameter axis 1 out of the tensor rank range [-1, 0].", ErrRule},
		// A Scan the import cannot turn into a TensorIterator (scan
		// inputs of 1 and 2 elements) stays opaque, as before.
		{"scan inputs of different lengths", func() *onnxpb.ModelProto {
			m := scan(13, []string{"v", "v", "two"}, graph("body", []*onnxpb.NodeProto{nd("Add", []string{"s_in", "x_in"}, []string{"s_out"}), nd("Identity", []string{"z_in"}, []string{"y"})},
				[]*onnxpb.ValueInfoProto{untyped("s_in"), untyped("x_in"), untyped("z_in")}, []*onnxpb.ValueInfoProto{untyped("s_out"), untyped("y")}))
			m.Graph.Node[0].Attribute[1] = intAttr("num_scan_inputs", 2)
			m.Graph.Initializer = append(m.Graph.Initializer, i64Init("two", []int64{2}, 1, 2))
			return m
		}(), plugin.Config{}, "irdiv cannot execute 1 layer (Scan ai.onnx x1)", plugin.ErrUnsupportedOp},
	}...)
	for _, c := range cases {
		data, err := proto.Marshal(c.model)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Read(data, ReadOptions{})
		var model *ir.Model
		if err == nil {
			model, err = Import(m, ImportOptions{})
		}
		if err == nil {
			// Only the Loops import; each reads v.
			_, err = runAll(model, c.cfg, i64Tensor(t, []int64{1}, 0))
		}
		switch {
		case c.is == nil && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.is == nil:
		case err == nil:
			t.Errorf("%s: no error", c.name)
		case !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want):
			t.Errorf("%s: %v\nwant %q (%v)", c.name, err, c.want, c.is)
		}
	}
}

// TestONNXControlFlowNodeTests runs ONNX's own node tests of If, Loop (the
// expanded Range tests are Loops) and Scan (opset 8 and 9, TensorIterators),
// in testdata/node: those of tensors match their expected outputs exactly,
// both ways of importing; those of sequences and optionals are refused as
// unsupported ONNX.
func TestONNXControlFlowNodeTests(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/node/test_*")
	if len(dirs) == 0 {
		t.Fatal("no testdata/node/test_*")
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			m, err := ReadFile(filepath.Join(dir, "model.onnx"), ReadOptions{})
			if strings.Contains(name, "_seq") || strings.Contains(name, "_opt") {
				if !errors.Is(err, ErrUnsupported) {
					t.Fatalf("want ErrUnsupported, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			set := filepath.Join(dir, "test_data_set_0")
			var inputs []*ir.Tensor
			for i := range m.Graph.Inputs {
				in, _, err := ReadTensorFile(filepath.Join(set, "input_"+strconv.Itoa(i)+".pb"), ReadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				inputs = append(inputs, in)
			}
			for _, faithful := range []bool{false, true} {
				model, err := Import(m, ImportOptions{Faithful: faithful})
				if err != nil {
					t.Fatal(err)
				}
				got, err := runAll(model, plugin.Config{}, inputs...)
				if err != nil {
					t.Fatal(err)
				}
				for i, g := range got {
					want, _, err := ReadTensorFile(filepath.Join(set, "output_"+strconv.Itoa(i)+".pb"), ReadOptions{})
					if err != nil {
						t.Fatal(err)
					}
					if g.Type != want.Type || !slices.Equal(g.Shape, want.Shape) || string(g.Data) != string(want.Data) {
						t.Errorf("faithful=%v: output %d is %v, want %v", faithful, i, g, want)
					}
				}
			}
		})
	}
}

// TestNonTensorEdges: a graph input or output that is not a tensor (ONNX's
// test_if_seq, test_loop13_seq, test_if_opt, test_loop16_seq_none) is
// refused, naming it, its type and why OpenVINO has no model of it: its
// inputs and outputs are tensors, its ONNX frontend keeps sequences only
// between nodes and converts no optional value.
func TestNonTensorEdges(t *testing.T) {
	f32 := dataType(ir.F32)
	elem := &onnxpb.TypeProto{Value: &onnxpb.TypeProto_TensorType{TensorType: &onnxpb.TypeProto_Tensor{ElemType: proto.Int32(f32)}}}
	for _, tc := range []struct {
		name string
		typ  *onnxpb.TypeProto
		want string
	}{
		{"sequence", &onnxpb.TypeProto{Value: &onnxpb.TypeProto_SequenceType{SequenceType: &onnxpb.TypeProto_Sequence{ElemType: elem}}},
			"is a sequence, not a tensor: an OpenVINO model's inputs and outputs are tensors, and OpenVINO's ONNX frontend keeps a sequence only between nodes (a SequenceMark"},
		{"optional", &onnxpb.TypeProto{Value: &onnxpb.TypeProto_OptionalType{OptionalType: &onnxpb.TypeProto_Optional{ElemType: elem}}},
			"is an optional, not a tensor: an OpenVINO model's inputs and outputs are tensors, and OpenVINO's ONNX frontend converts no optional value"},
		{"map", &onnxpb.TypeProto{Value: &onnxpb.TypeProto_MapType{MapType: &onnxpb.TypeProto_Map{KeyType: proto.Int32(dataType(ir.I64)), ValueType: elem}}},
			"is a map, not a tensor: an OpenVINO model's inputs and outputs are tensors, and OpenVINO has no map type"},
		{"sparse", &onnxpb.TypeProto{Value: &onnxpb.TypeProto_SparseTensorType{SparseTensorType: &onnxpb.TypeProto_SparseTensor{ElemType: proto.Int32(f32)}}},
			"is a sparse tensor, not a tensor: an OpenVINO model's inputs and outputs are tensors, and OpenVINO has no sparse tensor type"},
		{"no type", nil, "is not a tensor: it has no type"},
	} {
		for _, edge := range []string{"input", "output"} {
			odd := &onnxpb.ValueInfoProto{Name: proto.String("s"), Type: tc.typ}
			in, out := []*onnxpb.ValueInfoProto{odd}, []*onnxpb.ValueInfoProto{tensorInfo("y", f32, 1)}
			if edge == "output" {
				in, out = []*onnxpb.ValueInfoProto{tensorInfo("y", f32, 1)}, []*onnxpb.ValueInfoProto{odd}
			}
			_, err := convertProto(t, onnxModel(16, graph("g", []*onnxpb.NodeProto{nd("Identity", []string{in[0].GetName()}, []string{out[0].GetName()})}, in, out)))
			want := edge + ` "s" ` + tc.want
			if !errors.Is(err, ErrUnsupported) || err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s %s: %v, want %q", tc.name, edge, err, want)
			}
		}
	}
}
