package validate

import (
	"bytes"
	"cmp"
	"encoding/json"
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
	// Code is stable across versions: scripts may match on it. Codes
	// documents each (and README.md lists them).
	Code Code
	// Baselined is set by callers that compare the findings with a
	// baseline of accepted ones (irdiv validate --baseline).
	Baselined bool
	// Layer is the layer concerned, nil for the whole model.
	Layer *ir.Layer
	// Inner, for a finding about a layer inside a body of Layer (an If
	// or a Loop, at any depth), is that layer; the evidence's "divide"
	// names the path to it.
	Inner   *ir.Layer
	Message string
	// Evidence holds the numbers behind the message: ranges, values,
	// counter-examples, and for a Divide its sub-graph ("expression").
	Evidence Evidence
	// CounterExample, when set, holds the model inputs of the finding's
	// counter-example, for a caller to write out or replay.
	CounterExample *CounterExample
}

// divide is the layer a finding is about: Inner inside a body, else
// Layer.
func (f *Finding) divide() *ir.Layer {
	if f.Inner != nil {
		return f.Inner
	}
	return f.Layer
}

// Evidence is the named facts behind a finding's message. The findings
// of one Divide share the facts they have in common, so evidence is never
// changed in place: With makes a copy.
type Evidence []Fact

// Fact is one named value of a finding's evidence: a string, a number, or
// the lists and objects of a counter-example.
type Fact struct {
	Name  string
	Value any
}

// Get returns the value of the fact named name, nil when there is none.
func (e Evidence) Get(name string) any {
	for _, f := range e {
		if f.Name == name {
			return f.Value
		}
	}
	return nil
}

// With returns a copy of e with facts added; a fact of a name e already
// has replaces it.
func (e Evidence) With(facts ...Fact) Evidence {
	if len(facts) == 0 {
		return e
	}
	out := make(Evidence, len(e), len(e)+len(facts))
	copy(out, e)
	for _, f := range facts {
		if i := slices.IndexFunc(out, func(g Fact) bool { return g.Name == f.Name }); i >= 0 {
			out[i] = f
		} else {
			out = append(out, f)
		}
	}
	return out
}

// MarshalJSON writes an object, its names in sorted order as for a map.
func (e Evidence) MarshalJSON() ([]byte, error) {
	sorted := slices.SortedStableFunc(slices.Values(e), func(f, g Fact) int { return cmp.Compare(f.Name, g.Name) })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the caller's encoder escapes, or not, as it was told
	buf.WriteByte('{')
	for i, f := range sorted {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := enc.Encode(f.Name); err != nil {
			return nil, err
		}
		buf.WriteByte(':')
		if err := enc.Encode(f.Value); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// Report is the findings about one model.
type Report struct {
	Model    string
	Findings []Finding
	// Coverage says what became of each integer Divide.
	Coverage Coverage
	// Hidden counts the findings a caller left out of Findings (irdiv
	// validate --severity): Summary counts them too, so that every form
	// of a report gives the same totals and says what it does not show.
	Hidden Summary
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

func (r *Report) add(s Severity, code Code, l *ir.Layer, evidence Evidence, format string, args ...any) {
	msg := format // a message without arguments is not copied: a deep model has a hundred thousand
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	r.Findings = append(r.Findings, Finding{Severity: s, Code: code, Layer: l, Message: msg, Evidence: evidence})
}

// sort orders the findings: the worst first, then by layer position.
func (r *Report) sort(position map[*ir.Layer]int) {
	// Sorting keys, then moving each finding once, costs a deep model's
	// hundreds of thousands of findings far less than comparing them.
	type key struct {
		severity Severity
		position int
		index    int
	}
	keys := make([]key, len(r.Findings))
	for i, f := range r.Findings {
		keys[i] = key{f.Severity, -1, i}
		if f.Layer != nil {
			keys[i].position = position[f.Layer]
		}
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(b.severity, a.severity), cmp.Compare(a.position, b.position), cmp.Compare(a.index, b.index))
	})
	// Apply the permutation in place, one cycle at a time: place j takes
	// the finding at keys[j].index; a used key's index is set to -1.
	for start := range keys {
		if keys[start].index < 0 {
			continue
		}
		first := r.Findings[start]
		for j := start; ; {
			from := keys[j].index
			keys[j].index = -1
			if from == start {
				r.Findings[j] = first
				break
			}
			r.Findings[j] = r.Findings[from]
			j = from
		}
	}
}
