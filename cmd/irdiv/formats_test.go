package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/irdiv/irdiv/validate"
)

var unetModel = filepath.Join("..", "..", "examples", "unet", "model.onnx")

// TestSARIFSchema: validate --format sarif is valid SARIF 2.1.0 by the
// published schema, with a rule for every code, each result located at
// the model and its layer, and the counter-example's files related.
func TestSARIFSchema(t *testing.T) {
	cex := t.TempDir()
	stdout, stderr, code := irdiv(t, "validate", unetModel, "--format", "sarif", "--counter-examples", cex)
	if code != 1 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	c := jsonschema.NewCompiler()
	schema, err := c.Compile(filepath.Join("..", "..", "testdata", "schemas", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(stdout))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(doc); err != nil {
		t.Fatalf("not valid SARIF 2.1.0: %v", err)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Tool.Driver.Rules) != len(validate.Codes) {
		t.Errorf("%d rules for %d codes", len(run.Tool.Driver.Rules), len(validate.Codes))
	}
	errors := 0
	for _, r := range run.Results {
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID || r.Locations[0].PhysicalLocation.ArtifactLocation.URI != "../../examples/unet/model.onnx" {
			t.Errorf("%+v", r)
		}
		if r.Level != "error" {
			continue
		}
		errors++
		if len(r.Locations[0].LogicalLocations) != 1 || len(r.RelatedLocations) != 1 || !strings.HasSuffix(r.RelatedLocations[0].PhysicalLocation.ArtifactLocation.URI, "/x.npy") {
			t.Errorf("error result without its layer or counter-example: %+v", r)
		}
	}
	if errors != 2 {
		t.Errorf("%d error results, want the README's 2", errors)
	}
	// A model that does not meet the schema would fail: the check can fail.
	broken := strings.Replace(stdout, `"level": "error"`, `"level": "fatal"`, 1)
	doc, _ = jsonschema.UnmarshalJSON(strings.NewReader(broken))
	if schema.Validate(doc) == nil {
		t.Error("the schema accepted level fatal")
	}
}

// TestJUnitSchema: validate --format junit is JUnit XML that the xUnit
// plugin's schema accepts (with xmllint, where installed) and that
// encoding/xml reads back: a suite per model, a case for the model and
// one per integer Divide, the two error Divides failing.
func TestJUnitSchema(t *testing.T) {
	stdout, stderr, code := irdiv(t, "validate", unetModel, "--format", "junit")
	if code != 1 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var got junitSuites
	if err := xml.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Suites) != 1 || got.Tests != 5 || got.Failures != 2 || got.Suites[0].Cases[0].Name != "model" {
		t.Errorf("%+v", got)
	}
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint is not installed (Debian's libxml2-utils; .ci/run installs it): the JUnit output was read back but not checked against junit-10.xsd")
	}
	path := filepath.Join(t.TempDir(), "report.xml")
	if err := os.WriteFile(path, []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	xsd := filepath.Join("..", "..", "testdata", "schemas", "junit-10.xsd")
	if out, err := exec.Command(xmllint, "--noout", "--schema", xsd, path).CombinedOutput(); err != nil {
		t.Errorf("junit-10.xsd rejects the report: %v\n%s", err, out)
	}
	bad := strings.Replace(stdout, `<testcase name="model"`, `<testcase nom="model"`, 1)
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command(xmllint, "--noout", "--schema", xsd, path).Run(); err == nil {
		t.Error("junit-10.xsd accepted a test case without a name: the check cannot fail")
	}
}

// TestFailOnAndBaseline: --fail-on sets the severity that fails the run;
// a baseline written by --write-baseline accepts the findings it lists
// (reported as baselined, in JSON and SARIF), and its entries that no
// longer match are listed.
func TestFailOnAndBaseline(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 1, "irdiv: 2 errors in 1 model"},
		{[]string{"--fail-on", "never"}, 0, ""},
		{[]string{"--fail-on", "note"}, 1, "findings of note or worse in 1 model (--fail-on note)"},
		{[]string{"--fail-on", "fatal"}, 2, "--fail-on fatal: must be one of error, warning, note, never"},
		{[]string{"--json", "--format", "sarif"}, 2, "--json and --format sarif say different things"},
		{[]string{"--format", "yaml"}, 2, "--format yaml: must be one of text, json, sarif, junit"},
	} {
		_, stderr, code := irdiv(t, append([]string{"validate", unetModel}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d %q; want %d %q", c.args, code, stderr, c.code, c.want)
		}
	}
	base := filepath.Join(t.TempDir(), "baseline.json")
	if _, stderr, code := irdiv(t, "validate", unetModel, "--write-baseline", base); code != 1 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	stdout, stderr, code := irdiv(t, "validate", unetModel, "--baseline", base, "--json")
	if code != 0 || stderr != "" || strings.Count(stdout, `"baselined": true`) != 8 {
		t.Errorf("with the baseline: exit %d %q\n%s", code, stderr, stdout)
	}
	stdout, _, _ = irdiv(t, "validate", unetModel, "--baseline", base, "--format", "sarif")
	if strings.Count(stdout, `"baselineState": "unchanged"`) != 8 || !strings.Contains(stdout, `"kind": "external"`) {
		t.Errorf("SARIF with the baseline:\n%s", stdout)
	}
	// An accepted error that is no longer found is stale; an error not in
	// the baseline fails the run.
	data, _ := os.ReadFile(base)
	edited := bytes.Replace(data, []byte(`"layer": "/Div_1"`), []byte(`"layer": "/Div_gone"`), 1)
	if err := os.WriteFile(base, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = irdiv(t, "validate", unetModel, "--baseline", base)
	if code != 1 || !strings.Contains(stderr, "entry no longer found") || !strings.Contains(stderr, `"/Div_gone"`) || !strings.Contains(stderr, "irdiv: 1 error in 1 model") {
		t.Errorf("stale baseline: exit %d %q", code, stderr)
	}
}

// TestSummariesAgree: with --severity, the text and the JSON count every
// finding the same way and say how many they do not show.
func TestSummariesAgree(t *testing.T) {
	text, _, _ := irdiv(t, "validate", unetModel, "--severity", "warning")
	if !strings.Contains(text, "2 errors, 0 warnings, 6 notes (6 notes not shown: --severity warning)") {
		t.Errorf("text:\n%s", text)
	}
	out, _, _ := irdiv(t, "validate", unetModel, "--severity", "warning", "--json")
	var r struct {
		Findings []json.RawMessage
		Summary  validate.Summary
		Hidden   validate.Summary
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 2 || r.Summary != (validate.Summary{Errors: 2, Notes: 6}) || r.Hidden != (validate.Summary{Notes: 6}) {
		t.Errorf("JSON: %d findings, summary %+v, hidden %+v", len(r.Findings), r.Summary, r.Hidden)
	}
}

// TestPicture: info --dot of an .onnx colours the Divides OpenVINO's
// import gets wrong red, with a legend; --faithful draws irdiv's
// conversion, where they are not errors; --svg renders with Graphviz where
// it is installed and says how to install it where not.
func TestPicture(t *testing.T) {
	stdout, stderr, code := irdiv(t, "info", "--dot", unetModel)
	if code != 0 {
		t.Fatal(stderr)
	}
	red := `fillcolor="` + severityColors[validate.Error] + `"`
	for _, want := range []string{"as OpenVINO's ONNX frontend imports it", "cluster_legend", `"/Div\nDivide i64[]", ` + red, `"/Div_1\nDivide i64[]", ` + red} {
		if !strings.Contains(stdout, want) {
			t.Errorf("missing %q", want)
		}
	}
	stdout, _, _ = irdiv(t, "info", "--dot", "--faithful", unetModel)
	if strings.Contains(stdout, `"/Div\nDivide i64[]", `+red) || !strings.Contains(stdout, "as irdiv converts it") {
		t.Errorf("--faithful:\n%s", stdout)
	}
	stdout, _, _ = irdiv(t, "info", "--dot", "--around", "findings", "--depth", "1", unetModel)
	if !strings.Contains(stdout, "of 140 layers, around its errors and warnings (1 edges away at most)") {
		t.Errorf("--around findings:\n%s", stdout)
	}
	svg := filepath.Join(t.TempDir(), "m.svg")
	if _, err := exec.LookPath("dot"); err == nil {
		if _, stderr, code := irdiv(t, "info", "--svg", svg, unetModel); code != 0 {
			t.Errorf("--svg: %s", stderr)
		} else if data, _ := os.ReadFile(svg); !bytes.Contains(data, []byte("<svg")) {
			t.Errorf("--svg wrote %.100q", data)
		}
	}
	t.Setenv("PATH", "")
	if _, stderr, code := irdiv(t, "info", "--svg", svg, unetModel); code != 1 || !strings.Contains(stderr, "apt-get install graphviz") {
		t.Errorf("--svg without Graphviz: exit %d %q", code, stderr)
	}
}

// TestReadmePicture: the README's picture (docs/unet-findings.svg, made by
// the command the README gives) shows the example's two error Divides in
// red, and nothing else in red but the legend.
func TestReadmePicture(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "unet-findings.svg"))
	if err != nil {
		t.Fatal(err)
	}
	var red []string
	for _, node := range strings.Split(string(data), "<g id=\"node")[1:] {
		title, _, _ := strings.Cut(strings.SplitN(node, "<title>", 2)[1], "</title>")
		if strings.Contains(node, `fill="`+severityColors[validate.Error]+`"`) {
			red = append(red, title)
		}
	}
	// n108 and n118 are /Div and /Div_1 of OpenVINO's import.
	if strings.Join(red, " ") != "legend0 n108 n118" {
		t.Errorf("red nodes %v; regenerate with the README's command", red)
	}
}

// TestTargets: --target keeps the findings about one device: the
// example's floor errors concern OpenVINO's reference, not the CPU plugin,
// which truncates as ONNX does; JSON names each finding's devices; an
// error on a PyTorch export says the Div may be Python's //.
func TestTargets(t *testing.T) {
	if _, stderr, code := irdiv(t, "validate", unetModel, "--target", "cpu"); code != 0 {
		t.Errorf("--target cpu: exit %d %q", code, stderr)
	}
	if stdout, _, code := irdiv(t, "validate", unetModel, "--target", "reference"); code != 1 || !strings.Contains(stdout, "2 errors") || strings.Contains(stdout, "cpu/") {
		t.Errorf("--target reference: exit %d\n%s", code, stdout)
	}
	if _, stderr, code := irdiv(t, "validate", unetModel, "--target", "tpu"); code != 2 || !strings.Contains(stderr, "must be one of reference, cpu, gpu") {
		t.Errorf("--target tpu: exit %d %q", code, stderr)
	}
	stdout, _, _ := irdiv(t, "validate", unetModel, "--json")
	if !strings.Contains(stdout, `"targets": [
        "reference"
      ]`) || !strings.Contains(stdout, `"targets": [
        "cpu",
        "gpu"
      ]`) {
		t.Errorf("JSON targets:\n%s", stdout)
	}
	stdout, _, _ = irdiv(t, "validate", filepath.Join("..", "..", "testdata", "pytorch", "div_floor_op13.onnx"))
	if !strings.Contains(stdout, "the model comes from PyTorch, whose a // b floors: if this Div is a //, the export already disagrees with PyTorch") {
		t.Errorf("PyTorch export:\n%s", stdout)
	}
}
