package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/validate"
)

// severityColors fill the layers with findings in DOT: errors red,
// warnings amber, notes (proofs among them) green.
var severityColors = map[validate.Severity]string{validate.Error: "#e8544e", validate.Warning: "#f6c453", validate.Note: "#9fd59a"}

// dotOptions say what a picture shows.
type dotOptions struct {
	// around is a layer (a name or id:N), "findings" for every layer with
	// an error or a warning, or "" for the whole model; depth is how many
	// edges away from them a layer may be.
	around string
	depth  int
	// title says which import of the model is drawn.
	title string
}

// largeModel is the number of layers past which a picture of the whole
// model is unreadable: without --around, only the findings' neighbourhood
// is drawn.
const largeModel = 200

// writeDOT prints the model, or the layers near some, as Graphviz DOT:
// one box per layer (name, type, output shapes), filled after the worst
// finding of report, with a legend.
func writeDOT(w io.Writer, m *ir.Model, r *validate.Report, o dotOptions) error {
	byID := make(map[uint64]*ir.Layer)
	for _, l := range m.Layers {
		byID[l.ID] = l
	}
	worst := make(map[*ir.Layer]validate.Finding)
	for _, f := range r.Findings {
		if f.Layer != nil {
			if prev, ok := worst[f.Layer]; !ok || f.Severity > prev.Severity {
				worst[f.Layer] = f
			}
		}
	}
	around := o.around
	cut := ""
	if around == "" && len(m.Layers) > largeModel {
		around = "findings"
	}
	keep := make(map[*ir.Layer]bool)
	var centers []*ir.Layer
	switch around {
	case "":
		for _, l := range m.Layers {
			keep[l] = true
		}
	case "findings":
		for _, l := range m.Layers {
			if f, ok := worst[l]; ok && f.Severity >= validate.Warning {
				centers = append(centers, l)
			}
		}
	default:
		center, err := findLayer(m, around)
		if err != nil {
			return err
		}
		centers = []*ir.Layer{center}
	}
	if around != "" {
		neighbours := make(map[*ir.Layer][]*ir.Layer)
		for _, e := range m.Edges {
			from, to := byID[e.FromLayer], byID[e.ToLayer]
			if from != nil && to != nil {
				neighbours[from] = append(neighbours[from], to)
				neighbours[to] = append(neighbours[to], from)
			}
		}
		frontier := slices.Clone(centers)
		for _, c := range centers {
			keep[c] = true
		}
		for range o.depth {
			var next []*ir.Layer
			for _, l := range frontier {
				for _, n := range neighbours[l] {
					if !keep[n] {
						keep[n] = true
						next = append(next, n)
					}
				}
			}
			frontier = next
		}
		what := "around " + around
		if around == "findings" {
			what = "around its errors and warnings"
		}
		cut = fmt.Sprintf("%d of %d layers, %s (%d edges away at most)", len(keep), len(m.Layers), what, o.depth)
	}
	title := o.title
	if cut != "" {
		title += "\n" + cut
	}
	fmt.Fprintf(w, "digraph %s {\n\tlabel=%s;\n\tlabelloc=t;\n\tfontname=\"Helvetica\";\n", dotString(escapeControls(m.Name)), dotString(escapeControls(title)))
	fmt.Fprintln(w, "\tnode [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\"];")
	fmt.Fprintln(w, "\tsubgraph cluster_legend {\n\t\tlabel=\"legend: the worst finding of each layer\";\n\t\tfontsize=10;")
	for i, s := range []validate.Severity{validate.Error, validate.Warning, validate.Note} {
		fmt.Fprintf(w, "\t\tlegend%d [label=%s, fillcolor=%s];\n", i, dotString(s.String()), dotString(severityColors[s]))
	}
	fmt.Fprintln(w, "\t\tlegend3 [label=\"no finding\"];\n\t\tlegend0 -> legend1 -> legend2 -> legend3 [style=invis];\n\t}")
	for _, l := range m.Layers {
		if !keep[l] {
			continue
		}
		// The name and type are escaped first, so that a newline they hold
		// shows as \n instead of breaking the label where irdiv's do.
		label := escapeControls(l.Name) + "\n" + escapeControls(l.Type)
		for _, p := range l.Outputs {
			label += " " + p.Type.String() + p.Shape().String()
		}
		attrs := fmt.Sprintf("label=%s", dotString(label))
		if f, ok := worst[l]; ok {
			attrs += fmt.Sprintf(", fillcolor=%s, tooltip=%s", dotString(severityColors[f.Severity]), dotString(escapeControls(f.Severity.String()+" "+string(f.Code)+": "+f.Message)))
			if f.Severity == validate.Error {
				attrs += ", penwidth=2"
			}
		}
		fmt.Fprintf(w, "\tn%d [%s];\n", l.ID, attrs)
	}
	for _, e := range m.Edges {
		if from, to := byID[e.FromLayer], byID[e.ToLayer]; keep[from] && keep[to] {
			fmt.Fprintf(w, "\tn%d -> n%d;\n", e.FromLayer, e.ToLayer)
		}
	}
	fmt.Fprintln(w, "}")
	return nil
}

// errNoGraphviz is the error of --svg without Graphviz's dot.
var errNoGraphviz = errors.New("--svg renders with Graphviz's dot, which is not installed: apt-get install graphviz (Debian, Ubuntu), dnf install graphviz, brew install graphviz; or print DOT with --dot and render it elsewhere")

// writeSVG renders the DOT of a picture with Graphviz into path.
func writeSVG(path string, m *ir.Model, r *validate.Report, o dotOptions) error {
	dot, err := exec.LookPath("dot")
	if err != nil {
		return errNoGraphviz
	}
	var src bytes.Buffer
	if err := writeDOT(&src, m, r, o); err != nil {
		return err
	}
	cmd := exec.Command(dot, "-Tsvg")
	cmd.Stdin = &src
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("Graphviz's dot failed: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return os.WriteFile(path, out.Bytes(), 0o644)
}

// dotString quotes a DOT string.
func dotString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}
