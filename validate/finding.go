package validate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/ir"
)

// Severity orders findings: an Error is a model that computes something
// wrong or cannot run, a Warning something that may, a Note a fact worth
// knowing (often a proof that all is well).
type Severity uint8

const (
	Note Severity = iota
	Warning
	Error
)

var severityNames = []string{"note", "warning", "error"}

func (s Severity) String() string {
	if int(s) < len(severityNames) {
		return severityNames[s]
	}
	return fmt.Sprintf("Severity(%d)", uint8(s))
}

// ParseSeverity parses "note", "warning" or "error".
func ParseSeverity(s string) (Severity, error) {
	for i, name := range severityNames {
		if strings.EqualFold(s, name) {
			return Severity(i), nil
		}
	}
	return 0, fmt.Errorf("validate: severity %q must be one of note, warning, error", s)
}

// MarshalText writes the severity's name in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Finding is one fact about a model.
type Finding struct {
	Severity Severity
	// Code is stable across versions: scripts may match on it. The codes
	// are listed in README.md.
	Code string
	// Layer is the layer concerned, nil for the whole model.
	Layer   *ir.Layer
	Message string
	// Evidence holds the numbers behind the message: ranges, values,
	// counter-examples, and for a Divide its sub-graph ("expression").
	Evidence map[string]any
	// CounterExample, when set, holds the model inputs of the finding's
	// counter-example, for a caller to write out or replay.
	CounterExample *CounterExample
}

// Report is the findings about one model.
type Report struct {
	Model    string
	Findings []Finding
}

// Count returns the number of findings of each severity.
func (r *Report) Count() map[Severity]int {
	c := make(map[Severity]int)
	for _, f := range r.Findings {
		c[f.Severity]++
	}
	return c
}

// HasErrors reports whether some finding is an error.
func (r *Report) HasErrors() bool { return r.Count()[Error] > 0 }

func (r *Report) add(s Severity, code string, l *ir.Layer, evidence map[string]any, format string, args ...any) {
	r.Findings = append(r.Findings, Finding{Severity: s, Code: code, Layer: l, Message: fmt.Sprintf(format, args...), Evidence: evidence})
}

// sort orders the findings: the worst first, then by layer position.
func (r *Report) sort(position map[*ir.Layer]int) {
	slices.SortStableFunc(r.Findings, func(a, b Finding) int {
		pa, pb := -1, -1
		if a.Layer != nil {
			pa = position[a.Layer]
		}
		if b.Layer != nil {
			pb = position[b.Layer]
		}
		return cmp.Or(cmp.Compare(b.Severity, a.Severity), cmp.Compare(pa, pb))
	})
}
