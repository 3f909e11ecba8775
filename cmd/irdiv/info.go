package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/validate"
)

// The JSON form of info, documented in README.md.
type infoJSON struct {
	Name        string      `json:"name"`
	IRVersion   int         `json:"ir_version"`
	Producer    string      `json:"producer,omitempty"`
	Framework   string      `json:"framework,omitempty"`
	Inputs      []portJSON  `json:"inputs"`
	Outputs     []portJSON  `json:"outputs"`
	Layers      []layerJSON `json:"layers"`
	Edges       []edgeJSON  `json:"edges"`
	Unsupported []string    `json:"unsupported"`
	Warnings    []string    `json:"warnings"`
}

type portJSON struct {
	Name        string `json:"name"`
	ElementType string `json:"element_type"`
	Shape       string `json:"shape"`
}

type valueJSON struct {
	ElementType string   `json:"element_type"`
	Shape       string   `json:"shape"`
	Names       []string `json:"names,omitempty"`
}

type layerJSON struct {
	ID         uint64            `json:"id"`
	Name       string            `json:"name"`
	Type       string            `json:"type"`
	Version    string            `json:"version"`
	Attributes map[string]string `json:"attributes"`
	// Explicit tells, for a Divide, which attributes the file writes (the
	// others take their defaults).
	Explicit map[string]bool `json:"explicit,omitempty"`
	Outputs  []valueJSON     `json:"outputs"`
	// Value holds a small Const's elements (at most maxJSONValues).
	Value []json.RawMessage `json:"value,omitempty"`
}

type edgeJSON struct {
	FromLayer uint64 `json:"from_layer"`
	FromPort  uint64 `json:"from_port"`
	ToLayer   uint64 `json:"to_layer"`
	ToPort    uint64 `json:"to_port"`
}

// maxJSONValues is the largest Const whose values info --json prints.
const maxJSONValues = 16

// infoConstBytes is the largest Const info reads: the small ones of shape
// sub-graphs, never the weights.
const infoConstBytes = 4096

const infoHelp = `[--json | --dot | --svg FILE.svg] [--around LAYER|findings] [--depth N] [--faithful] MODEL.xml|MODEL.onnx

Describes a model: inputs, outputs, layers, its Divides and their
attributes. --dot prints it as Graphviz DOT and --svg draws it, each layer
filled after validate's worst finding (errors red, warnings amber, notes
green), with a legend; an .onnx is drawn as OpenVINO's ONNX frontend
imports it, its Divs flooring, whose errors validate reports (--faithful
draws irdiv's conversion instead). A model of more than 200 layers is cut
to the neighbourhood of its errors and warnings.`

// pictured returns the model a picture shows, validate's report of it and
// its title: an IR as it is; an .onnx as OpenVINO's frontend imports it,
// or with faithful as irdiv converts it (m).
func pictured(path string, m *ir.Model, faithful bool) (*ir.Model, *validate.Report, string, error) {
	if !isONNX(path) {
		return m, validate.Model(m, path, validate.Options{}), path + " (IR)", nil
	}
	if faithful {
		return m, validate.Model(m, path, validate.Options{}), path + " as irdiv converts it: Divs truncate, as ONNX means", nil
	}
	om, err := onnx.ReadFile(path, onnx.ReadOptions{})
	if err != nil {
		return nil, nil, "", err
	}
	imported, err := onnx.Import(om, onnx.ImportOptions{})
	if err != nil {
		return nil, nil, "", err
	}
	return imported, validate.Model(imported, path, validate.Options{Imported: true}), path + " as OpenVINO's ONNX frontend imports it: integer Divs floor", nil
}

func infoCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("info", infoHelp, stdout)
	asJSON := fs.Bool("json", false, "print one JSON object (schema in README.md)")
	dot := fs.Bool("dot", false, "print the model as Graphviz DOT, layers coloured by validate's findings, with a legend")
	svg := fs.String("svg", "", "draw the picture of --dot into `FILE.svg` with Graphviz's dot")
	faithful := fs.Bool("faithful", false, "with --dot or --svg, draw an .onnx as irdiv converts it (Divs truncate) rather than as OpenVINO's frontend imports it (Divs floor)")
	around := fs.String("around", "", "with --dot or --svg, only the layers near `LAYER` (a name or id:N), or near every error and warning (findings; the default past 200 layers)")
	depth := fs.Int("depth", 2, "with --around, how many edges away a layer may be")
	weights := fs.String("weights", "", "weights `FILE.bin` (default: MODEL.bin; info works without it)")
	var limits readLimits
	limits.register(fs)
	var maxMemory memorySize
	maxMemory.register(fs, false, false)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErr("want one MODEL.xml, got %d arguments", len(pos))
	}
	picture := *dot || *svg != ""
	if *depth < 0 || (*around != "" || *faithful) && !picture {
		return usageErr("--around, --faithful and --depth (at least 0) go with --dot or --svg")
	}
	if *dot && *svg != "" {
		return usageErr("--dot prints DOT, --svg writes a picture: give one")
	}
	// info needs types and shapes, and the small constants it prints; it
	// never reads the weights.
	if err := limits.check(); err != nil {
		return err
	}
	defer watchMemory("info", maxMemory.whole(defaultMaxTensor))()
	defer processing(pos[0])()
	m, err := readModel(pos[0], limits.apply(ir.ReadOptions{WeightsPath: *weights, MaxConstBytes: infoConstBytes}), 0)
	if err != nil {
		return err
	}
	if picture {
		drawn, r, title, err := pictured(pos[0], m, *faithful)
		if err != nil {
			return err
		}
		o := dotOptions{around: *around, depth: *depth, title: title}
		if *svg != "" {
			return writeSVG(*svg, drawn, r, o)
		}
		return writeDOT(stdout, drawn, r, o)
	}
	inf, err := ops.InferModel(m)
	if err != nil {
		return err
	}
	info := describe(m, inf)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false) // "<data>" reads better than "\u003cdata\u003e"
		enc.SetIndent("", "  ")
		return enc.Encode(info)
	}
	printInfo(stdout, m, inf, info, isONNX(pos[0]))
	if *weights == "" && !isONNX(pos[0]) {
		bin := strings.TrimSuffix(pos[0], filepath.Ext(pos[0])) + ".bin"
		if _, err := os.Stat(bin); err != nil {
			textln(stdout, "weights   %s is absent: run needs it for the Consts' values (info does not)", bin)
		}
	}
	return nil
}

func describe(m *ir.Model, inf *ops.Inference) infoJSON {
	info := infoJSON{Name: m.Name, IRVersion: m.Version, Producer: m.Producer(), Framework: m.Framework(),
		Inputs: []portJSON{}, Outputs: []portJSON{}, Layers: []layerJSON{}, Edges: []edgeJSON{}, Unsupported: []string{},
		Warnings: append([]string{}, m.Warnings...)}
	for _, e := range m.Edges {
		info.Edges = append(info.Edges, edgeJSON{e.FromLayer, e.FromPort, e.ToLayer, e.ToPort})
	}
	for _, l := range m.Parameters() {
		v := inf.Outputs[l][0]
		info.Inputs = append(info.Inputs, portJSON{l.Name, v.Type.String(), v.Shape.String()})
	}
	for _, l := range m.Results() {
		if src, ok := m.Input(l, 0); ok {
			v := inf.Outputs[src.Layer][src.Index]
			info.Outputs = append(info.Outputs, portJSON{l.Name, v.Type.String(), v.Shape.String()})
		}
	}
	unsupported := make(map[string]bool)
	for _, l := range inf.Unsupported {
		unsupported[l.Type] = true
	}
	info.Unsupported = slices.Sorted(maps.Keys(unsupported))
	if info.Unsupported == nil {
		info.Unsupported = []string{}
	}
	for _, l := range m.Layers {
		lj := layerJSON{ID: l.ID, Name: l.Name, Type: l.Type, Version: l.Version, Attributes: map[string]string{}, Outputs: []valueJSON{}}
		for _, a := range l.Data {
			lj.Attributes[a.Name] = a.Value
		}
		if d, ok := inf.Ops[l].(*ops.Divide); ok {
			lj.Explicit = map[string]bool{}
			for _, a := range d.Attrs() { // effective values, defaults applied
				lj.Attributes[a.Name] = a.Value
				_, lj.Explicit[a.Name] = l.DataAttr(a.Name)
			}
		}
		for i, v := range inf.Outputs[l] {
			vj := valueJSON{ElementType: v.Type.String(), Shape: v.Shape.String()}
			if i < len(l.Outputs) {
				vj.Names = l.Outputs[i].Names
			}
			lj.Outputs = append(lj.Outputs, vj)
		}
		if c := l.Constant; c != nil && c.Type.IsNumeric() && c.Len() <= maxJSONValues {
			for i := range c.Len() {
				text := c.Format(i)
				if _, err := strconv.ParseFloat(text, 64); err != nil || strings.ContainsAny(text, "IN") {
					text = strconv.Quote(text) // NaN and Inf are not JSON numbers
				}
				lj.Value = append(lj.Value, json.RawMessage(text))
			}
		}
		info.Layers = append(info.Layers, lj)
	}
	return info
}

// printInfo prints what describe found. An ONNX model is shown as irdiv
// converts it (its Divs truncating, as ONNX means), and its Divides say
// what OpenVINO's ONNX frontend writes instead (m_pythondiv=true, which
// floors integers), which is what validate checks.
func printInfo(w io.Writer, m *ir.Model, inf *ops.Inference, info infoJSON, fromONNX bool) {
	if fromONNX {
		textln(w, "model     %s (ONNX)", quote(info.Name))
		fmt.Fprintln(w, "imports   shown as irdiv converts it: every Div truncates (m_pythondiv=false), as ONNX means;")
		fmt.Fprintln(w, "          OpenVINO's ONNX frontend writes m_pythondiv=true, which floors integers: validate checks that import")
	} else {
		textln(w, "model     %s (IR v%d)", quote(info.Name), info.IRVersion)
	}
	if info.Producer != "" || info.Framework != "" {
		textln(w, "producer  %s (framework %s)", cmp.Or(info.Producer, "unknown"), cmp.Or(info.Framework, "unknown"))
	}
	textln(w, "inputs")
	for i, p := range info.Inputs {
		textln(w, "  %d %s %s %s", i, quote(p.Name), p.ElementType, p.Shape)
	}
	textln(w, "outputs")
	for i, p := range info.Outputs {
		textln(w, "  %d %s %s %s", i, quote(p.Name), p.ElementType, p.Shape)
	}
	counts := make(map[string]int)
	for _, l := range m.Layers {
		counts[l.Type]++
	}
	types := slices.SortedFunc(maps.Keys(counts), func(a, b string) int { return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(a, b)) })
	var hist []string
	for _, t := range types {
		hist = append(hist, fmt.Sprintf("%s %d", t, counts[t]))
	}
	textln(w, "layers    %d: %s", len(m.Layers), strings.Join(hist, ", "))
	var divides []string
	for _, l := range m.Layers {
		d, ok := inf.Ops[l].(*ops.Divide)
		if !ok {
			continue
		}
		var attrs []string
		for _, a := range d.Attrs() {
			attrs = append(attrs, a.Name+"="+a.Value)
		}
		line := fmt.Sprintf("  %s: %s -> %s", l, strings.Join(attrs, " "), inf.Outputs[l][0])
		if _, explicit := l.DataAttr("m_pythondiv"); fromONNX {
			line += " (OpenVINO's import: m_pythondiv=true)"
		} else if !explicit {
			line += " (m_pythondiv absent: default)"
		}
		divides = append(divides, line)
		for _, warn := range d.Warnings {
			divides = append(divides, "    warning: "+warn)
		}
	}
	textln(w, "divides   %d", len(divides))
	for _, d := range divides {
		textln(w, "%s", d)
	}
	if len(info.Unsupported) > 0 {
		textln(w, "irdiv cannot execute: %s", strings.Join(info.Unsupported, ", "))
	}
	if dead := m.Unreachable(); len(dead) > 0 {
		textln(w, "unreachable: %s no Result reaches (OpenVINO drops them)", plural(len(dead), "layer"))
	}
	for _, warn := range m.Warnings {
		textln(w, "warning: %s", warn)
	}
	if m.Version == 10 {
		for _, p := range info.Outputs {
			if to := v10RuntimeType(p.ElementType); to != p.ElementType {
				textln(w, "note: IR v10: OpenVINO's runtime returns output %s as %s, irdiv keeps %s", quote(p.Name), to, p.ElementType)
			}
		}
	}
}

// v10RuntimeType is the output type OpenVINO's Core gives a v10 model
// (update_v10_model): 32/64-bit integers become i32, other non-f32 f32.
func v10RuntimeType(t string) string {
	switch t {
	case "i64", "u64", "i32", "u32":
		return "i32"
	case "f32", "dynamic":
		return t
	}
	return "f32"
}
