package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/internal/safefile"
	"github.com/irdiv/irdiv/validate"
)

// The machine-readable forms of validate's reports, for CI: SARIF 2.1.0
// for code scanning (GitHub, GitLab), JUnit XML for test reports, and a
// baseline of accepted findings.

// sarif* are the parts of SARIF 2.1.0 (OASIS) that irdiv writes.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool      sarifTool       `json:"tool"`
	Artifacts []sarifArtifact `json:"artifacts,omitempty"`
	Results   []sarifResult   `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Version        string      `json:"version,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	Help                 sarifText      `json:"help"`
	DefaultConfiguration sarifRuleLevel `json:"defaultConfiguration"`
}

type sarifRuleLevel struct {
	Level string `json:"level"`
}

type sarifArtifact struct {
	Location    sarifArtifactLocation `json:"location"`
	Description *sarifText            `json:"description,omitempty"`
}

type sarifArtifactLocation struct {
	URI   string `json:"uri"`
	Index *int   `json:"index,omitempty"`
}

type sarifResult struct {
	RuleID              string                 `json:"ruleId"`
	RuleIndex           int                    `json:"ruleIndex"`
	Level               string                 `json:"level"`
	Message             sarifText              `json:"message"`
	Locations           []sarifLocation        `json:"locations"`
	RelatedLocations    []sarifLocation        `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string      `json:"partialFingerprints"`
	BaselineState       string                 `json:"baselineState,omitempty"`
	Suppressions        []sarifSuppression     `json:"suppressions,omitempty"`
	Properties          map[string]interface{} `json:"properties,omitempty"`
}

type sarifLocation struct {
	ID               *int                   `json:"id,omitempty"`
	PhysicalLocation *sarifPhysicalLocation `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
	Message          *sarifText             `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifLogicalLocation struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification,omitempty"`
}

// sarifLevel is SARIF's word for a severity.
func sarifLevel(s validate.Severity) string {
	switch s {
	case validate.Error:
		return "error"
	case validate.Warning:
		return "warning"
	}
	return "note"
}

// artifactURI is a path as a SARIF URI: relative paths stay relative, with
// forward slashes, so that code scanning places them in the repository.
func artifactURI(path string) string {
	if filepath.IsAbs(path) {
		return "file://" + filepath.ToSlash(path)
	}
	return filepath.ToSlash(filepath.Clean(path))
}

// writeSARIF writes the reports as one SARIF run: one rule per finding
// code (its documentation from validate.Codes), one result per finding,
// located at the model file and, logically, at the layer; a
// counter-example's files are related locations.
func writeSARIF(w io.Writer, reports []*validate.Report, baselined map[*validate.Finding]bool) error {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "irdiv", InformationURI: "https://github.com/irdiv/irdiv", Version: toolVersion()}}, Results: []sarifResult{}}
	ruleIndex := make(map[validate.Code]int)
	for i, d := range validate.Codes {
		ruleIndex[d.Code] = i
		help := d.Doc
		if d.Evidence != "" {
			help += " Evidence: " + strings.ReplaceAll(d.Evidence, "`", "") + "."
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID: string(d.Code), Name: ruleName(d.Code),
			ShortDescription:     sarifText{Text: d.Summary},
			FullDescription:      sarifText{Text: d.Doc},
			Help:                 sarifText{Text: help, Markdown: "**" + string(d.Code) + "**: " + help},
			DefaultConfiguration: sarifRuleLevel{sarifLevel(d.Severities[0])},
		})
	}
	artifact := make(map[string]int)
	addArtifact := func(path, description string) int {
		uri := artifactURI(path)
		if i, ok := artifact[uri]; ok {
			return i
		}
		i := len(run.Artifacts)
		artifact[uri] = i
		a := sarifArtifact{Location: sarifArtifactLocation{URI: uri}}
		if description != "" {
			a.Description = &sarifText{Text: description}
		}
		run.Artifacts = append(run.Artifacts, a)
		return i
	}
	for _, r := range reports {
		model := addArtifact(r.Model, "")
		for j := range r.Findings {
			f := &r.Findings[j]
			index, ok := ruleIndex[f.Code]
			if !ok {
				return fmt.Errorf("finding code %s is not documented in validate.Codes", f.Code)
			}
			loc := sarifLocation{PhysicalLocation: &sarifPhysicalLocation{
				ArtifactLocation: sarifArtifactLocation{URI: artifactURI(r.Model), Index: &model},
				Region:           &sarifRegion{StartLine: 1},
			}}
			layer := ""
			if f.Layer != nil {
				layer = f.Layer.Name
				loc.LogicalLocations = []sarifLogicalLocation{{Name: f.Layer.Name, FullyQualifiedName: artifactURI(r.Model) + "#" + f.Layer.Name, Kind: "element"}}
			}
			res := sarifResult{
				RuleID: string(f.Code), RuleIndex: index, Level: sarifLevel(f.Severity),
				Message:             sarifText{Text: sarifMessage(f)},
				Locations:           []sarifLocation{loc},
				PartialFingerprints: map[string]string{"irdivFinding/v1": fingerprint(r.Model, f.Code, layer)},
			}
			if dir, ok := f.Evidence.Get("counter_example_dir").(string); ok {
				names, _ := os.ReadDir(dir)
				for k, e := range names {
					path := filepath.Join(dir, e.Name())
					i := addArtifact(path, "a counter-example input of "+string(f.Code))
					id := k + 1
					res.RelatedLocations = append(res.RelatedLocations, sarifLocation{ID: &id,
						PhysicalLocation: &sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: artifactURI(path), Index: &i}},
						Message:          &sarifText{Text: "counter-example input " + strings.TrimSuffix(e.Name(), ".npy")}})
				}
			}
			if len(f.Evidence) > 0 {
				res.Properties = map[string]interface{}{"evidence": f.Evidence}
			}
			if baselined != nil {
				res.BaselineState = "new"
				if baselined[f] {
					res.BaselineState = "unchanged"
					res.Suppressions = []sarifSuppression{{Kind: "external", Justification: "accepted in the baseline"}}
				}
			}
			run.Results = append(run.Results, res)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

// sarifMessage is the finding's message with its counter-example's
// inputs, as the text report shows them.
func sarifMessage(f *validate.Finding) string {
	msg := f.Message
	if f.Layer != nil {
		msg = f.Layer.String() + ": " + msg
	}
	if f.CounterExample != nil {
		msg += " (counter-example inputs: " + counterInputs(f.CounterExample) + ")"
	}
	return msg
}

// ruleName is a code as SARIF's rule names are written: FloorTrunc for
// divide/floor-trunc.
func ruleName(c validate.Code) string {
	_, rest, _ := strings.Cut(string(c), "/")
	var b strings.Builder
	for _, part := range strings.Split(rest, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// fingerprint identifies a finding across runs as a baseline does: by
// model, code and layer name.
func fingerprint(model string, code validate.Code, layer string) string {
	sum := sha256.Sum256([]byte(artifactURI(model) + "\x00" + string(code) + "\x00" + layer))
	return hex.EncodeToString(sum[:16])
}

// toolVersion is irdiv's version for reports.
func toolVersion() string {
	info, _ := debug.ReadBuildInfo()
	return moduleVersion(info)
}

// JUnit XML, as Jenkins' and GitLab's readers take it (the xunit plugin's
// junit-10.xsd): one suite per model, a test case for the model and one
// for each integer Divide; a finding at the --fail-on severity or worse is
// a failure, one below it is written to the case's system-out.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	File     string      `xml:"file,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string         `xml:"name,attr"`
	ClassName string         `xml:"classname,attr"`
	Failures  []junitFailure `xml:"failure"`
	Skipped   *junitFailure  `xml:"skipped"`
	SystemOut string         `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Type    string `xml:"type,attr"`
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

func writeJUnit(w io.Writer, reports []*validate.Report, failOn failLevel, baselined map[*validate.Finding]bool) error {
	out := junitSuites{Name: "irdiv validate"}
	for _, r := range reports {
		suite := junitSuite{Name: r.Model, File: r.Model}
		whole := junitCase{Name: "model", ClassName: r.Model}
		cases := map[string]*junitCase{}
		var order []string
		caseOf := func(key, name string) *junitCase {
			c, ok := cases[key]
			if !ok {
				c = &junitCase{Name: name, ClassName: r.Model}
				cases[key] = c
				order = append(order, key)
			}
			return c
		}
		for _, d := range r.Coverage.Divides {
			caseOf(d.String(), "Divide "+d.String())
		}
		for j := range r.Findings {
			f := &r.Findings[j]
			c := &whole
			if f.Layer != nil && f.Code != validate.NotAnalysed && isDivideLayer(f) {
				c = caseOf(f.Layer.String(), "Divide "+f.Layer.String())
			}
			text := sarifMessage(f)
			switch {
			case f.Code == validate.NotAnalysed && !failOn.fails(f, baselined):
				c.Skipped = &junitFailure{Type: string(f.Code), Message: text}
			case failOn.fails(f, baselined):
				c.Failures = append(c.Failures, junitFailure{Type: string(f.Code), Message: text, Text: text})
			default:
				c.SystemOut += fmt.Sprintf("%s %s: %s\n", f.Severity, f.Code, text)
			}
		}
		all := append([]*junitCase{&whole}, func() []*junitCase {
			var cs []*junitCase
			for _, k := range order {
				cs = append(cs, cases[k])
			}
			return cs
		}()...)
		for _, c := range all {
			suite.Cases = append(suite.Cases, *c)
			suite.Tests++
			if len(c.Failures) > 0 {
				suite.Failures++
			}
			if c.Skipped != nil && len(c.Failures) == 0 {
				suite.Skipped++
			}
		}
		out.Suites = append(out.Suites, suite)
		out.Tests += suite.Tests
		out.Failures += suite.Failures
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// isDivideLayer reports whether a finding is about a Divide of the model.
func isDivideLayer(f *validate.Finding) bool {
	return strings.EqualFold(f.Layer.Type, "Divide")
}

// failLevel is --fail-on: the severity from which a finding fails the run.
type failLevel struct {
	never   bool
	minimum validate.Severity
}

func parseFailOn(s string) (failLevel, error) {
	if s == "never" {
		return failLevel{never: true}, nil
	}
	sev, err := validate.ParseSeverity(s)
	if err != nil {
		return failLevel{}, usageErr("--fail-on %s: must be one of error, warning, note, never", s)
	}
	return failLevel{minimum: sev}, nil
}

// fails reports whether a finding fails the run: at the level or worse,
// and not accepted by the baseline.
func (l failLevel) fails(f *validate.Finding, baselined map[*validate.Finding]bool) bool {
	return !l.never && f.Severity >= l.minimum && !baselined[f]
}

// A baseline is the findings a team has accepted, matched by model, code
// and layer name, so that a known warning does not fail every later run.
type baseline struct {
	Tool     string          `json:"tool"`
	Version  int             `json:"version"`
	Findings []baselineEntry `json:"findings"`
}

type baselineEntry struct {
	Model string        `json:"model"`
	Code  validate.Code `json:"code"`
	Layer string        `json:"layer"`
}

func entryOf(r *validate.Report, f *validate.Finding) baselineEntry {
	e := baselineEntry{Model: artifactURI(r.Model), Code: f.Code}
	if f.Layer != nil {
		e.Layer = f.Layer.Name
	}
	return e
}

// readBaseline reads a baseline file that --write-baseline wrote.
func readBaseline(path string) (map[baselineEntry]bool, error) {
	data, err := safefile.ReadFile(path, 64<<20)
	if err != nil {
		return nil, fmt.Errorf("--baseline %s: %w", path, err)
	}
	var b baseline
	if err := json.Unmarshal(data, &b); err != nil || b.Tool != "irdiv" || b.Version != 1 {
		return nil, fmt.Errorf("--baseline %s: not an irdiv baseline (write one with --write-baseline)", path)
	}
	out := make(map[baselineEntry]bool, len(b.Findings))
	for _, e := range b.Findings {
		out[e] = true
	}
	return out, nil
}

// matchBaseline marks the findings the baseline accepts and returns the
// entries no finding matched, for the models of this run.
func matchBaseline(reports []*validate.Report, accepted map[baselineEntry]bool) (map[*validate.Finding]bool, []baselineEntry) {
	baselined := make(map[*validate.Finding]bool)
	used := make(map[baselineEntry]bool)
	models := make(map[string]bool)
	for _, r := range reports {
		models[artifactURI(r.Model)] = true
		for j := range r.Findings {
			f := &r.Findings[j]
			if e := entryOf(r, f); accepted[e] {
				baselined[f] = true
				used[e] = true
			}
		}
	}
	var stale []baselineEntry
	for e := range accepted {
		if models[e.Model] && !used[e] {
			stale = append(stale, e)
		}
	}
	slices.SortFunc(stale, func(a, b baselineEntry) int {
		return strings.Compare(a.Model+"\x00"+string(a.Code)+"\x00"+a.Layer, b.Model+"\x00"+string(b.Code)+"\x00"+b.Layer)
	})
	return baselined, stale
}

// writeBaseline writes every finding of the reports as accepted.
func writeBaseline(path string, reports []*validate.Report) error {
	b := baseline{Tool: "irdiv", Version: 1, Findings: []baselineEntry{}}
	seen := make(map[baselineEntry]bool)
	for _, r := range reports {
		for j := range r.Findings {
			if e := entryOf(r, &r.Findings[j]); !seen[e] {
				seen[e] = true
				b.Findings = append(b.Findings, e)
			}
		}
	}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}
