package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/irdiv/irdiv/internal/onnxwire"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate"
)

// bodyFixCase is a model whose integer Divs lie inside bodies only: its
// ONNX graph, and what its outputs mean, each Div truncating (ONNX) or
// flooring (PyTorch's //), for inputs x and y (i32[n]) and c (a bool).
type bodyFixCase struct {
	name  string
	graph func(n int64) []byte
	// want computes the outputs, by name, with div as every Div.
	want func(x, y []int32, c bool, div func(a, b int32) int32) map[string][]int32
	// fixes are the layers inside bodies fix must rewrite, by name, each
	// with the phrase of its fix under ONNX and PyTorch (an exact form
	// where the operands may pass 2^24, correctedPhrase elsewhere).
	fixes map[string]string
	// what is what fix says it fixed, before "from".
	what string
}

// The phrases of fix's summary for each kind of fix.
const (
	exactPhrase     = "exact form (a Newton step"
	correctedPhrase = "" // m_pythondiv="false" from ONNX, a flooring correction from PyTorch
)

func i32Scalar(name string, v int32) []byte {
	return onnxwire.Tensor(name, onnxwire.Int32, []int64{}, binary.LittleEndian.AppendUint32(nil, uint32(v)))
}

func i32Const(name string, v int32) []byte {
	return onnxwire.NodeAttrs("Constant", name, nil, []string{name}, onnxwire.TensorAttr("value", i32Scalar("", v)))
}

var bodyFixCases = []bodyFixCase{
	{
		// An If whose then branch divides x by yc, y clipped to [1, 4096]
		// in the outer graph (x any i32, a divisor the exact form takes),
		// and whose else branch divides x clipped to [-1000, 1000] by -7
		// (small operands).
		name: "if",
		graph: func(n int64) []byte {
			then := onnxwire.Graph("then", [][]byte{onnxwire.Node("Div", "by_y", []string{"x", "yc"}, []string{"by_y"})},
				nil, nil, [][]byte{onnxwire.Value("by_y", onnxwire.Int32, n)})
			els := onnxwire.Graph("else", [][]byte{
				i32Const("minus_seven", -7),
				onnxwire.Node("Clip", "xc", []string{"x", "lo", "hi"}, []string{"xc"}),
				onnxwire.Node("Div", "seventh", []string{"xc", "minus_seven"}, []string{"seventh"}),
			}, nil, nil, [][]byte{onnxwire.Value("seventh", onnxwire.Int32, n)})
			return onnxwire.Graph("g", [][]byte{
				onnxwire.Node("Clip", "yc", []string{"y", "one", "big"}, []string{"yc"}),
				onnxwire.NodeAttrs("If", "q", []string{"c"}, []string{"q"}, onnxwire.GraphAttr("then_branch", then), onnxwire.GraphAttr("else_branch", els)),
			}, [][]byte{i32Scalar("one", 1), i32Scalar("big", 4096), i32Scalar("lo", -1000), i32Scalar("hi", 1000)},
				[][]byte{onnxwire.Value("x", onnxwire.Int32, n), onnxwire.Value("y", onnxwire.Int32, n), onnxwire.ValueDims("c", onnxwire.Bool, []onnxwire.Dim{})},
				[][]byte{onnxwire.Value("q", onnxwire.Int32, n)})
		},
		want: func(x, y []int32, c bool, div func(a, b int32) int32) map[string][]int32 {
			q := make([]int32, len(x))
			for i, v := range x {
				if c {
					q[i] = div(v, min(max(y[i], 1), 4096))
				} else {
					q[i] = div(min(max(v, -1000), 1000), -7)
				}
			}
			return map[string][]int32{"q": q}
		},
		fixes: map[string]string{"by_y": exactPhrase, "seventh": correctedPhrase},
		what:  "2 integer Divides",
	},
	{
		// A Loop of two rounds carrying v (x at first): w = v / 3 (v any
		// i32), then, in an If nested in the body, w / -2 where c holds,
		// w - 1 elsewhere.
		name: "loop",
		graph: func(n int64) []byte {
			then := onnxwire.Graph("then", [][]byte{onnxwire.Node("Div", "half", []string{"w", "minus_two"}, []string{"half"})},
				nil, nil, [][]byte{onnxwire.Rankless("half", onnxwire.Int32)})
			els := onnxwire.Graph("else", [][]byte{onnxwire.Node("Sub", "less", []string{"w", "one"}, []string{"less"})},
				nil, nil, [][]byte{onnxwire.Rankless("less", onnxwire.Int32)})
			body := onnxwire.Graph("body", [][]byte{
				onnxwire.Node("Div", "w", []string{"v_in", "three"}, []string{"w"}),
				onnxwire.NodeAttrs("If", "v_out", []string{"c"}, []string{"v_out"}, onnxwire.GraphAttr("then_branch", then), onnxwire.GraphAttr("else_branch", els)),
				onnxwire.Node("Identity", "cond_out", []string{"cond_in"}, []string{"cond_out"}),
			}, nil, [][]byte{onnxwire.ValueDims("i", onnxwire.Int64, []onnxwire.Dim{}), onnxwire.ValueDims("cond_in", onnxwire.Bool, []onnxwire.Dim{}), onnxwire.Value("v_in", onnxwire.Int32, n)},
				[][]byte{onnxwire.Rankless("cond_out", onnxwire.Bool), onnxwire.Rankless("v_out", onnxwire.Int32)})
			trip := onnxwire.Tensor("trip", onnxwire.Int64, []int64{}, binary.LittleEndian.AppendUint64(nil, 2))
			return onnxwire.Graph("g", [][]byte{
				onnxwire.NodeAttrs("Loop", "v", []string{"trip", "", "x"}, []string{"v"}, onnxwire.GraphAttr("body", body)),
			}, [][]byte{trip, i32Scalar("one", 1), i32Scalar("three", 3), i32Scalar("minus_two", -2)},
				[][]byte{onnxwire.Value("x", onnxwire.Int32, n), onnxwire.Value("y", onnxwire.Int32, n), onnxwire.ValueDims("c", onnxwire.Bool, []onnxwire.Dim{})},
				[][]byte{onnxwire.Value("v", onnxwire.Int32, n)})
		},
		want: func(x, _ []int32, c bool, div func(a, b int32) int32) map[string][]int32 {
			v := slices.Clone(x)
			for range 2 {
				for i := range v {
					w := div(v[i], 3)
					if c {
						v[i] = div(w, -2)
					} else {
						v[i] = w - 1 // wraps, as the i32 Subtract does
					}
				}
			}
			return map[string][]int32{"v": v}
		},
		fixes: map[string]string{"w": exactPhrase, "half": exactPhrase},
		what:  "2 integer Divides",
	},
	{
		// A Scan (a TensorIterator) over x's elements e: each e / -7 is a
		// scan output (the body's Result reads the Div), and s the
		// largest of them and 0.
		name: "scan",
		graph: func(n int64) []byte {
			scalar := func(name string) []byte { return onnxwire.ValueDims(name, onnxwire.Int32, []onnxwire.Dim{}) }
			body := onnxwire.Graph("body", [][]byte{
				onnxwire.Node("Div", "h", []string{"e", "minus_seven"}, []string{"h"}),
				onnxwire.Node("Max", "s_out", []string{"s_in", "h"}, []string{"s_out"}),
			}, nil, [][]byte{scalar("s_in"), scalar("e")}, [][]byte{onnxwire.Rankless("s_out", onnxwire.Int32), onnxwire.Rankless("h", onnxwire.Int32)})
			return onnxwire.Graph("g", [][]byte{
				onnxwire.NodeAttrs("Scan", "scan", []string{"s0", "x"}, []string{"s", "ys"}, onnxwire.IntAttr("num_scan_inputs", 1), onnxwire.GraphAttr("body", body)),
			}, [][]byte{i32Scalar("s0", 0), i32Scalar("minus_seven", -7)},
				[][]byte{onnxwire.Value("x", onnxwire.Int32, n), onnxwire.Value("y", onnxwire.Int32, n), onnxwire.ValueDims("c", onnxwire.Bool, []onnxwire.Dim{})},
				[][]byte{onnxwire.ValueDims("s", onnxwire.Int32, []onnxwire.Dim{}), onnxwire.Value("ys", onnxwire.Int32, n)})
		},
		want: func(x, _ []int32, _ bool, div func(a, b int32) int32) map[string][]int32 {
			ys := make([]int32, len(x))
			s := int32(0)
			for i, v := range x {
				ys[i] = div(v, -7)
				s = max(s, ys[i])
			}
			return map[string][]int32{"s": {s}, "ys": ys}
		},
		fixes: map[string]string{"h": exactPhrase},
		what:  "1 integer Divide",
	},
	{
		// A Scan whose body computes, of each element e of x, e mod -3
		// (FloorMod: ONNX's Mod, fmod 0, as PyTorch's %), the remainder
		// of e / 5 (Mod: fmod 1), e > 0 ? e : that remainder (Select) and
		// max(e, 0) < 2^24 + 1 (Less, made i32), each a scan output: the
		// CPU plugin computes all four in float32 (2^24 < 2^24 + 1 is
		// false there), and the Select passes large values rounded.
		name: "scan of remainders",
		graph: func(n int64) []byte {
			scalar := func(name string) []byte { return onnxwire.ValueDims(name, onnxwire.Int32, []onnxwire.Dim{}) }
			body := onnxwire.Graph("body", [][]byte{
				onnxwire.NodeAttrs("Mod", "floor_mod", []string{"e", "minus_three"}, []string{"floor_mod"}, onnxwire.IntAttr("fmod", 0)),
				onnxwire.NodeAttrs("Mod", "trunc_mod", []string{"e", "five"}, []string{"trunc_mod"}, onnxwire.IntAttr("fmod", 1)),
				onnxwire.Node("Greater", "positive", []string{"e", "zero"}, []string{"positive"}),
				onnxwire.Node("Where", "chosen", []string{"positive", "e", "trunc_mod"}, []string{"chosen"}),
				onnxwire.Node("Max", "non_negative", []string{"e", "zero"}, []string{"non_negative"}),
				onnxwire.Node("Less", "below", []string{"non_negative", "limit"}, []string{"below"}),
				onnxwire.NodeAttrs("Cast", "below_i32", []string{"below"}, []string{"below_i32"}, onnxwire.IntAttr("to", onnxwire.Int32)),
				onnxwire.Node("Identity", "s_out", []string{"s_in"}, []string{"s_out"}),
			}, nil, [][]byte{scalar("s_in"), scalar("e")},
				[][]byte{onnxwire.Rankless("s_out", onnxwire.Int32), onnxwire.Rankless("floor_mod", onnxwire.Int32), onnxwire.Rankless("trunc_mod", onnxwire.Int32), onnxwire.Rankless("chosen", onnxwire.Int32), onnxwire.Rankless("below_i32", onnxwire.Int32)})
			return onnxwire.Graph("g", [][]byte{
				onnxwire.NodeAttrs("Scan", "scan", []string{"s0", "x"}, []string{"s", "fm", "tm", "sel", "lt"}, onnxwire.IntAttr("num_scan_inputs", 1), onnxwire.GraphAttr("body", body)),
			}, [][]byte{i32Scalar("s0", 0), i32Scalar("minus_three", -3), i32Scalar("five", 5), i32Scalar("zero", 0), i32Scalar("limit", 1<<24+1)},
				[][]byte{onnxwire.Value("x", onnxwire.Int32, n), onnxwire.Value("y", onnxwire.Int32, n), onnxwire.ValueDims("c", onnxwire.Bool, []onnxwire.Dim{})},
				[][]byte{onnxwire.ValueDims("s", onnxwire.Int32, []onnxwire.Dim{}), onnxwire.Value("fm", onnxwire.Int32, n), onnxwire.Value("tm", onnxwire.Int32, n), onnxwire.Value("sel", onnxwire.Int32, n), onnxwire.Value("lt", onnxwire.Int32, n)})
		},
		want: func(x, _ []int32, _ bool, _ func(a, b int32) int32) map[string][]int32 {
			fm, tm, sel, lt := make([]int32, len(x)), make([]int32, len(x)), make([]int32, len(x)), make([]int32, len(x))
			for i, v := range x {
				if max(v, 0) < 1<<24+1 {
					lt[i] = 1
				}
				fm[i] = v - floorDiv(v, -3)*-3
				tm[i] = v % 5
				sel[i] = tm[i]
				if v > 0 {
					sel[i] = v
				}
			}
			return map[string][]int32{"s": {0}, "fm": fm, "tm": tm, "sel": sel, "lt": lt}
		},
		fixes: map[string]string{"floor_mod": "FloorMod: exact form (A - q*B", "trunc_mod": "Mod: exact form (A - q*B", "chosen": "Select: y + Convert(c)*(x - y)",
			"below": "Less: Subtract(A, B) compared with 0"},
		what: "0 integer Divides and 4 other integer ops (FloorMod, Mod, Select, Less)",
	},
}

// bodyFixInputs are the operands the fixed models are run on: every pair
// of i32's edges (its ends, 2^24 and its neighbours, small values of
// both signs) and of divisors, then random values of every magnitude.
func bodyFixInputs() (xs, ys []int32) {
	as := []int32{math.MinInt32, math.MinInt32 + 1, -1<<24 - 1, -1 << 24, -1<<24 + 1, -1001, -7, -1, 0, 1, 7, 1001, 1<<24 - 1, 1 << 24, 1<<24 + 1, 0x40000001, math.MaxInt32 - 64, math.MaxInt32}
	bs := []int32{1, 2, 3, 4096, 4095, -5, 1 << 30, -1 << 30, 100, 0}
	for _, a := range as {
		for _, b := range bs {
			xs, ys = append(xs, a), append(ys, b)
		}
	}
	r := rand.New(rand.NewPCG(29, 2))
	for range 200 {
		x := int32(r.Uint32())
		switch r.IntN(3) {
		case 0:
			x >>= r.IntN(31) // every magnitude
		case 1:
			x = int32(r.IntN(1<<26)) - 1<<25 // around 2^24
		}
		xs, ys = append(xs, x), append(ys, int32(r.Uint32())>>r.IntN(31))
	}
	return xs, ys
}

// truncDiv and floorDiv are ONNX's Div and PyTorch's // of i32.
func truncDiv(a, b int32) int32 { return int32(int64(a) / int64(b)) }

func floorDiv(a, b int32) int32 {
	q := int64(a) / int64(b)
	if int64(a)%int64(b) != 0 && (a < 0) != (b < 0) {
		q--
	}
	return int32(q)
}

// setFramework sets the framework an IR's rt_info names.
func setFramework(t *testing.T, m *ir.Model, framework string) {
	t.Helper()
	for _, top := range m.Meta {
		if n := top.Child("conversion_parameters").Child("framework"); n != nil {
			for i := range n.Attrs {
				if n.Attrs[i].Name == "value" {
					n.Attrs[i].Value = framework
					return
				}
			}
		}
	}
	t.Fatal("the IR names no framework")
}

// TestFixIRBodies: an IR whose integer Divides lie inside an If branch,
// a Loop body (and an If nested in it) or a TensorIterator's body (the
// import of ONNX's If, Loop and Scan, m_pythondiv="true" as OpenVINO
// writes them), from ONNX, whose Div truncates, or from PyTorch, whose //
// floors, is fixed where the Divides are: fix names each as the outer
// layer and the path to it, writes the exact form where the operands may
// pass 2^24 (the divisor a constant, or clipped to [1, 4096] in the outer
// graph and read through the Loop) and m_pythondiv="false" or a flooring
// correction elsewhere, inside the body; validate finds no error in the
// fixed IR and no CPU note on its Divides; the fixed IR reads back and
// writes again byte for byte, and differs from the original only in the
// fixed layers and the layers added after them; and under irdiv's
// reference (m_pythondiv honoured) and under OpenVINO's CPU plugin
// (ops.CPUPlugin) it computes what the source meant, on i32's edges and
// random values, where the original does not.
func TestFixIRBodies(t *testing.T) {
	xs, ys := bodyFixInputs()
	n := int64(len(xs))
	for _, tc := range bodyFixCases {
		for _, framework := range []string{"onnx", "pytorch"} {
			t.Run(tc.name+"/"+framework, func(t *testing.T) {
				div := truncDiv
				if framework == "pytorch" {
					div = floorDiv
				}
				m := importedAs(t, onnxwire.Model(13, tc.graph(n)), framework)
				dir := t.TempDir()
				xml, fixed := filepath.Join(dir, "model.xml"), filepath.Join(dir, "fixed.xml")
				if err := ir.Write(m, xml, filepath.Join(dir, "model.bin")); err != nil {
					t.Fatal(err)
				}
				stdout, stderr, code := irdiv(t, "fix", xml, "-o", fixed)
				if _, err := os.Stat(fixed); code != 0 || err != nil {
					t.Fatalf("exit %d, no fixed IR written (%v)\n%s%s", code, err, stdout, stderr)
				}
				// Each body Divide is fixed, named by the outer layer and
				// the path to it, in the form its operands need.
				for name, phrase := range tc.fixes {
					line := ""
					for _, l := range strings.Split(stdout, "\n") {
						if strings.Contains(l, fmt.Sprintf(`> layer %q (id `, name)) && strings.HasPrefix(l, "  layer ") {
							line = l
						}
					}
					switch {
					case line == "":
						t.Errorf("%s is not fixed:\n%s", name, stdout)
					case phrase != "" && !strings.Contains(line, phrase) || phrase == "" && strings.Contains(line, exactPhrase):
						t.Errorf("%s: want %q: %s", name, phrase, line)
					}
				}
				want := fmt.Sprintf("fixed %s from %s, %d of them inside bodies", tc.what, framework, len(tc.fixes))
				if len(tc.fixes) == 1 {
					want = fmt.Sprintf("fixed %s from %s, inside a body", tc.what, framework)
				}
				if !strings.Contains(stdout, want) {
					t.Errorf("want %q:\n%s", want, stdout)
				}
				report, _, code := irdiv(t, "validate", fixed)
				if code != 0 || strings.Contains(report, string(validate.CPUI32Float32)) || strings.Contains(report, string(validate.CPUPythonDivIgnore)) {
					t.Errorf("validate of the fixed IR: exit %d\n%s", code, report)
				}
				fm, err := ir.ReadFile(fixed, ir.ReadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				checkRewrittenOnly(t, xml, fixed, fm)

				wrong := 0
				for _, c := range []bool{true, false} {
					cond, _ := ir.NewTensor(ir.Boolean, []int64{})
					if c {
						cond.Data[0] = 1
					}
					inputs := map[string]*ir.Tensor{"x": tensorOf(t, xs), "y": tensorOf(t, ys), "c": cond}
					want := tc.want(xs, ys, c, div)
					for name, got := range cpuRunByName(t, m, inputs) {
						for i, v := range ir.View[int32](got) {
							if v != want[name][i] {
								wrong++
							}
						}
					}
					ref, err := evaluate(fm, inputs)
					if err != nil {
						t.Fatal(err)
					}
					for how, out := range map[string]map[string]*ir.Tensor{"reference": ref, "CPU plugin": cpuRunByName(t, fm, inputs)} {
						for name, w := range want {
							got := ir.View[int32](out[name])
							if len(got) != len(w) {
								t.Fatalf("c %v: %s: %s has %d values, want %d", c, how, name, len(got), len(w))
							}
							for i := range w {
								if got[i] != w[i] {
									t.Fatalf("c %v: %s: %s[%d] = %d, want %d (x %d, y %d)", c, how, name, i, got[i], w[i], xs[min(i, len(xs)-1)], ys[min(i, len(ys)-1)])
								}
							}
						}
					}
				}
				if wrong == 0 {
					t.Error("the original IR is right everywhere under the CPU plugin")
				}
			})
		}
	}
}

// cpuRunByName runs m as OpenVINO's CPU plugin computes it (ops.CPUPlugin
// at every layer, those of bodies too), its outputs by Result name.
func cpuRunByName(t *testing.T, m *ir.Model, inputs map[string]*ir.Tensor) map[string]*ir.Tensor {
	t.Helper()
	p, err := ops.NewProgram(m)
	if err != nil {
		t.Fatal(err)
	}
	var in []*ir.Tensor
	for _, l := range m.Parameters() {
		in = append(in, inputs[l.Name])
	}
	out, err := p.Run(in, ops.Options{BodyLayer: func(_ *ir.Layer, op ops.Op, _ []*ir.Tensor) (ops.Op, error) { return ops.CPUPlugin(op), nil }})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*ir.Tensor{}
	for i, l := range m.Results() {
		byName[l.Name] = out[i]
	}
	return byName
}

// checkRewrittenOnly checks the byte-for-byte rule on a fixed IR: it
// reads back and writes again byte for byte (.xml and .bin), and every
// line of the original's .xml that it lacks lies in a layer fix rewrote
// (a Divide's m_pythondiv, an output port whose names moved to the fix's
// last layer, a Select become Subtract) or is an edge to or from one. The
// one other change is where the .bin keeps the constants packed after a
// body that gained some (the offset of their <data>, whose bytes stay
// those of the original's constants).
func checkRewrittenOnly(t *testing.T, orig, fixed string, fm *ir.Model) {
	t.Helper()
	dir := t.TempDir()
	again := filepath.Join(dir, "again.xml")
	if err := ir.Write(fm, again, filepath.Join(dir, "again.bin")); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".xml", ".bin"} {
		x, _ := os.ReadFile(strings.TrimSuffix(fixed, ".xml") + ext)
		y, _ := os.ReadFile(strings.TrimSuffix(again, ".xml") + ext)
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("the fixed IR's %s changes when read and written again (%d bytes, then %d)", ext, len(x), len(y))
		}
	}
	om, err := ir.ReadFile(orig, ir.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sameConstants(t, om, fm)
	// The layers fix rewrote, by the line that opens them: those whose
	// name starts the names of the layers a fix added, and the Divides it
	// made truncate. (Ids repeat across bodies, names may too: that only
	// widens what is allowed.)
	rewritten, ids := map[string]bool{}, map[string]bool{}
	byName := map[string][]*ir.Layer{}
	for _, l := range fm.AllLayers() {
		byName[l.Name] = append(byName[l.Name], l)
	}
	for _, l := range fm.AllLayers() {
		var fixedLayers []*ir.Layer
		for _, marker := range []string{"/irdiv_exact/", "/irdiv_floor/", "/irdiv_select/", "/irdiv_compare/"} {
			if name, _, ok := strings.Cut(l.Name, marker); ok {
				fixedLayers = append(fixedLayers, byName[name]...)
			}
		}
		if v, _ := l.DataAttr("m_pythondiv"); v == "false" {
			fixedLayers = append(fixedLayers, l)
		}
		for _, x := range fixedLayers {
			rewritten[fmt.Sprintf("%d %q", x.ID, x.Name)] = true
			ids[fmt.Sprint(x.ID)] = true
		}
	}
	offset := regexp.MustCompile(` offset="[0-9]+"`)
	a, _ := os.ReadFile(orig)
	b, _ := os.ReadFile(fixed)
	a, b = offset.ReplaceAll(a, []byte(` offset=""`)), offset.ReplaceAll(b, []byte(` offset=""`))
	lines := strings.Split(string(a), "\n")
	// The layer each line of the original lies in, innermost.
	opens := regexp.MustCompile(`^<layer id="([0-9]+)" name=("(?:[^"\\]|\\.)*")`)
	within := make([]string, len(lines))
	var stack []string
	for i, line := range lines {
		s := strings.TrimSpace(line)
		if m := opens.FindStringSubmatch(s); m != nil && !strings.HasSuffix(s, "/>") {
			stack = append(stack, m[1]+" "+m[2])
		}
		if len(stack) > 0 {
			within[i] = stack[len(stack)-1]
		}
		if s == "</layer>" && len(stack) > 0 {
			stack = stack[:len(stack)-1]
		}
	}
	edge := regexp.MustCompile(`^<edge from-layer="([0-9]+)" from-port="[0-9]+" to-layer="([0-9]+)"`)
	lost := 0
	for _, i := range removedLines(lines, strings.Split(string(b), "\n")) {
		s := strings.TrimSpace(lines[i])
		if m := edge.FindStringSubmatch(s); m != nil && (ids[m[1]] || ids[m[2]]) || rewritten[within[i]] {
			continue
		}
		lost++
		t.Errorf("the fixed IR lost a line of the original that no fix explains: %s", s)
		if lost > 5 {
			break
		}
	}
}

// sameConstants checks that the layers of a, and of each of its bodies,
// open those of b in the same order, and that each Const holds the same
// bytes.
func sameConstants(t *testing.T, a, b *ir.Model) {
	t.Helper()
	if len(b.Layers) < len(a.Layers) {
		t.Fatalf("the fixed model has %d layers, the original %d", len(b.Layers), len(a.Layers))
	}
	for i, x := range a.Layers {
		y := b.Layers[i]
		if x.ID != y.ID || x.Name != y.Name || len(x.Extra) != len(y.Extra) {
			t.Fatalf("%s became %s", x, y)
		}
		if x.Constant != nil && (y.Constant == nil || !bytes.Equal(x.Constant.Data, y.Constant.Data)) {
			t.Errorf("%s holds other bytes in the fixed model", x)
		}
		for j, e := range x.Extra {
			if e.Body != nil {
				sameConstants(t, e.Body, y.Extra[j].Body)
			}
		}
	}
}

// removedLines are the indices of the lines of a that a longest common
// subsequence of a and b leaves out.
func removedLines(a, b []string) []int {
	// lcs[i][j] is the length of one of a[i:] and b[j:].
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []int
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			out = append(out, i)
			i++
		default:
			j++
		}
	}
	for ; i < len(a); i++ {
		out = append(out, i)
	}
	return out
}

// TestFixIRBodyNotAnalysed: a Divide inside a body that validate could
// not walk (a Scan the import kept as it is: its scan inputs have
// different lengths), which it reports as not analysed, is fixed where it
// is: from ONNX it truncates, and from PyTorch it gets the flooring
// correction rather than being kept as one validate found no fault in.
func TestFixIRBodyNotAnalysed(t *testing.T) {
	i64 := func(v int64) []byte { return binary.LittleEndian.AppendUint64(nil, uint64(v)) }
	two := onnxwire.Dim{Value: 2}
	body := onnxwire.Graph("body", [][]byte{
		onnxwire.NodeAttrs("Constant", "two", nil, []string{"two"}, onnxwire.TensorAttr("value", onnxwire.Tensor("", onnxwire.Int64, []int64{}, i64(2)))),
		onnxwire.Node("Div", "half", []string{"e", "two"}, []string{"half"}),
		onnxwire.Node("Add", "s_out", []string{"s_in", "half"}, []string{"s_out"}),
	}, nil, [][]byte{onnxwire.ValueDims("s_in", onnxwire.Int64, []onnxwire.Dim{two}), onnxwire.ValueDims("e", onnxwire.Int64, []onnxwire.Dim{two}), onnxwire.ValueDims("unused", onnxwire.Int64, []onnxwire.Dim{two})},
		[][]byte{onnxwire.Rankless("s_out", onnxwire.Int64)})
	graph := onnxwire.Graph("g", [][]byte{
		onnxwire.NodeAttrs("Scan", "scan", []string{"s0", "x", "z"}, []string{"s"}, onnxwire.IntAttr("num_scan_inputs", 2), onnxwire.GraphAttr("body", body)),
	}, [][]byte{onnxwire.Tensor("s0", onnxwire.Int64, []int64{2}, append(i64(0), i64(0)...))},
		[][]byte{onnxwire.Value("x", onnxwire.Int64, 3, 2), onnxwire.Value("z", onnxwire.Int64, 4, 2)}, [][]byte{onnxwire.Rankless("s", onnxwire.Int64)})
	for framework, phrase := range map[string]string{"onnx": `m_pythondiv="false"`, "pytorch": "truncates, then floors by a correction"} {
		m := importedAs(t, onnxwire.Model(13, graph), framework)
		dir := t.TempDir()
		xml, fixed := filepath.Join(dir, "kept.xml"), filepath.Join(dir, "fixed.xml")
		if err := ir.Write(m, xml, ""); err != nil {
			t.Fatal(err)
		}
		if report, _, _ := irdiv(t, "validate", xml); !strings.Contains(report, string(validate.NotAnalysed)) {
			t.Fatalf("%s: the Divide is analysed:\n%s", framework, report)
		}
		stdout, stderr, code := irdiv(t, "fix", xml, "-o", fixed)
		if code != 0 || !strings.Contains(stdout, `layer "scan" (id `) || !strings.Contains(stdout, `body > layer "half" (id `) || !strings.Contains(stdout, phrase) {
			t.Fatalf("%s: exit %d\n%s%s", framework, code, stdout, stderr)
		}
		if stdout, _, code := irdiv(t, "fix", fixed, "-o", filepath.Join(dir, "again.xml")); code != 0 || !strings.Contains(stdout, "nothing to fix") {
			t.Errorf("%s: fixing the fixed IR: exit %d\n%s", framework, code, stdout)
		}
	}
}

// importedAs is an ONNX model imported as OpenVINO does, its rt_info
// naming framework as the source.
func importedAs(t *testing.T, data []byte, framework string) *ir.Model {
	t.Helper()
	om, err := onnx.Read(data, onnx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := onnx.Import(om, onnx.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	setFramework(t, m, framework)
	return m
}
