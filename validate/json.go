package validate

import (
	"bytes"
	"encoding/json"
)

// Summary counts findings by severity.
type Summary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Notes    int `json:"notes"`
}

// Summary counts the report's findings, those Hidden included.
func (r *Report) Summary() Summary {
	c := r.Count()
	s := Summary{Errors: c[Error], Warnings: c[Warning], Notes: c[Note]}
	s.Add(r.Hidden)
	return s
}

// Add adds another summary's counts.
func (s *Summary) Add(o Summary) {
	s.Errors += o.Errors
	s.Warnings += o.Warnings
	s.Notes += o.Notes
}

type findingJSON struct {
	Severity Severity   `json:"severity"`
	Code     Code       `json:"code"`
	Layer    *layerJSON `json:"layer"`
	Message  string     `json:"message"`
	Evidence Evidence   `json:"evidence"`
	// Targets are the devices the finding concerns (Code.Targets).
	Targets []string `json:"targets"`
	// Baselined is there only when true.
	Baselined bool `json:"baselined,omitempty"`
}

// MarshalJSON writes the report as README.md documents it:
// {"model", "findings": [{"severity", "code", "layer": {"id", "name"} or
// null, "message", "evidence", "targets"}], "summary": {"errors", "warnings", "notes"},
// "hidden": {...} (the findings summary counts but a caller left out),
// "coverage": {"integer_divides", "proven", "errors", "warnings", "clean",
// "not_analysed": [{"layer", "divide", "reason"}]}}.
func (r *Report) MarshalJSON() ([]byte, error) {
	out := struct {
		Model    string        `json:"model"`
		Findings []findingJSON `json:"findings"`
		Summary  Summary       `json:"summary"`
		Hidden   *Summary      `json:"hidden,omitempty"`
		Coverage coverageJSON  `json:"coverage"`
	}{Model: r.Model, Findings: []findingJSON{}, Summary: r.Summary(), Coverage: r.Coverage.json()}
	if r.Hidden != (Summary{}) {
		out.Hidden = &r.Hidden
	}
	for _, f := range r.Findings {
		fj := findingJSON{Severity: f.Severity, Code: f.Code, Message: f.Message, Evidence: f.Evidence, Targets: f.Code.Targets(), Baselined: f.Baselined}
		if f.Layer != nil {
			fj.Layer = &layerJSON{ID: f.Layer.ID, Name: f.Layer.Name}
		}
		out.Findings = append(out.Findings, fj)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // messages quote "<data>" and "a < b"
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// coverageJSON is Coverage with its layers named as findings name them.
type coverageJSON struct {
	IntegerDivides int              `json:"integer_divides"`
	Proven         int              `json:"proven"`
	Errors         int              `json:"errors"`
	Warnings       int              `json:"warnings"`
	Clean          int              `json:"clean"`
	NotAnalysed    []unanalysedJSON `json:"not_analysed"`
	RunsOnNoInput  int              `json:"runs_on_no_input,omitempty"`
}

type unanalysedJSON struct {
	Layer  layerJSON `json:"layer"`
	Divide string    `json:"divide,omitempty"` // inside a body: the path to it
	Reason string    `json:"reason"`
}

func (c Coverage) json() coverageJSON {
	out := coverageJSON{IntegerDivides: c.IntegerDivides, Proven: c.Proven, Errors: c.Errors, Warnings: c.Warnings, Clean: c.Clean, NotAnalysed: []unanalysedJSON{}, RunsOnNoInput: c.RunsOnNoInput}
	for _, u := range c.NotAnalysed {
		out.NotAnalysed = append(out.NotAnalysed, unanalysedJSON{layerJSON{u.Layer.ID, u.Layer.Name}, u.Path, u.Reason})
	}
	return out
}

// MarshalJSON writes the coverage as in a report.
func (c Coverage) MarshalJSON() ([]byte, error) { return json.Marshal(c.json()) }
