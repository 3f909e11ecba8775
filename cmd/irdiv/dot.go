package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/validate"
)

// severityColors fill the layers with findings in DOT.
var severityColors = map[validate.Severity]string{validate.Error: "#f4a3a3", validate.Warning: "#f6d98b", validate.Note: "#c7dcf3"}

// writeDOT prints the model, or the layers at most depth edges from
// around, as Graphviz DOT: one box per layer (name, type, output shapes),
// filled after the worst finding validate gives it.
func writeDOT(w io.Writer, m *ir.Model, path, around string, depth int) error {
	byID := make(map[uint64]*ir.Layer)
	for _, l := range m.Layers {
		byID[l.ID] = l
	}
	keep := make(map[*ir.Layer]bool)
	if around == "" {
		for _, l := range m.Layers {
			keep[l] = true
		}
	} else {
		center, err := findLayer(m, around)
		if err != nil {
			return err
		}
		neighbours := make(map[*ir.Layer][]*ir.Layer)
		for _, e := range m.Edges {
			from, to := byID[e.FromLayer], byID[e.ToLayer]
			if from != nil && to != nil {
				neighbours[from] = append(neighbours[from], to)
				neighbours[to] = append(neighbours[to], from)
			}
		}
		keep[center] = true
		frontier := []*ir.Layer{center}
		for range depth {
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
	}
	worst := make(map[*ir.Layer]validate.Finding)
	for _, f := range validate.Model(m, path, validate.Options{}).Findings {
		if f.Layer != nil {
			if prev, ok := worst[f.Layer]; !ok || f.Severity > prev.Severity {
				worst[f.Layer] = f
			}
		}
	}
	fmt.Fprintf(w, "digraph %s {\n\tnode [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\"];\n", dotString(escapeControls(m.Name)))
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
			attrs += fmt.Sprintf(", fillcolor=%s, tooltip=%s", dotString(severityColors[f.Severity]), dotString(escapeControls(f.Severity.String()+" "+f.Code+": "+f.Message)))
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

// dotString quotes a DOT string.
func dotString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}
