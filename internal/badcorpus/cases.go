package badcorpus

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/irdiv/irdiv/internal/onnxwire"
)

// This file is the one source of the hostile-input corpus of testdata/bad:
// every case is made here.

// baseXML is a valid model: q = a / [3,-3,4,-7], a i32 [?,4], floor.
const baseXML = `<?xml version="1.0"?>
<net name="bad" version="11">
<layers>
<layer id="0" name="a" type="Parameter" version="opset1"><data shape="?,4" element_type="i32"/><output><port id="0" precision="I32" names="a"><dim>-1</dim><dim>4</dim></port></output></layer>
<layer id="1" name="b" type="Const" version="opset1"><data element_type="i32" shape="4" offset="0" size="16"/><output><port id="0" precision="I32"><dim>4</dim></port></output></layer>
<layer id="2" name="div" type="Divide" version="opset1"><data auto_broadcast="numpy" m_pythondiv="true"/><input><port id="0" precision="I32"><dim>-1</dim><dim>4</dim></port><port id="1" precision="I32"><dim>4</dim></port></input><output><port id="2" precision="I32" names="div"><dim>-1</dim><dim>4</dim></port></output></layer>
<layer id="3" name="q" type="Result" version="opset1"><input><port id="0" precision="I32"><dim>-1</dim><dim>4</dim></port></input></layer>
</layers>
<edges>
<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
<edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
</edges>
</net>
`

func i32Bytes(vals ...int32) []byte {
	out := make([]byte, 0, 4*len(vals))
	for _, v := range vals {
		out = binary.LittleEndian.AppendUint32(out, uint32(v))
	}
	return out
}

var baseBin = i32Bytes(3, -3, 4, -7)

// npyFile builds a version 1 .npy file from a header dict and data.
func npyFile(dict string, data []byte) []byte {
	header := dict
	total := 10 + len(header) + 1
	header += strings.Repeat(" ", (64-total%64)%64) + "\n"
	out := append([]byte("\x93NUMPY\x01\x00"), byte(len(header)), byte(len(header)>>8))
	return append(append(out, header...), data...)
}

func npyDict(descr, fortran, shape string) string {
	return fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }", descr, fortran, shape)
}

// goodInput is a valid input for a: i32 (2,4).
var goodInput = npyFile(npyDict("<i4", "False", "2, 4"), i32Bytes(1, 2, 3, 4, 5, 6, 7, 8))

// corpusBuilder collects cases; a replacement that does not apply is a
// mistake in this file, reported by the test.
type corpusBuilder struct {
	cases    []Case
	mistakes []string
}

// edit applies old→new replacements to baseXML.
func (b *corpusBuilder) edit(name string, pairs ...string) []byte {
	x := baseXML
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(x, pairs[i]) {
			b.mistakes = append(b.mistakes, fmt.Sprintf("%s: %q not in the base model", name, pairs[i]))
		}
		x = strings.Replace(x, pairs[i], pairs[i+1], 1)
	}
	return []byte(x)
}

// model adds a case of an edited base model run with "run"; extra
// arguments follow, and api tells whether the Go API must fail too.
func (b *corpusBuilder) model(name, want string, api bool, pairs ...string) {
	b.cases = append(b.cases, Case{
		Name:  name,
		Files: map[string][]byte{"model.xml": b.edit(name, pairs...), "model.bin": baseBin},
		Args:  []string{"run", "{dir}/model.xml"},
		Exit:  1, Want: want, API: api,
	})
}

// raw adds a case with its own files and command line.
func (b *corpusBuilder) raw(name string, files map[string][]byte, exit int, want string, api bool, args ...string) {
	b.cases = append(b.cases, Case{Name: name, Files: files, Args: args, Exit: exit, Want: want, API: api})
}

// input adds a case that runs the base model with -i a=a.npy.
func (b *corpusBuilder) input(name string, data []byte, want string) {
	b.raw(name, map[string][]byte{"model.xml": []byte(baseXML), "model.bin": baseBin, "a.npy": data}, 1, want, true,
		"run", "{dir}/model.xml", "-i", "a={dir}/a.npy")
}

const (
	paramA   = `<layer id="0" name="a" type="Parameter" version="opset1">`
	constB   = `<layer id="1" name="b" type="Const" version="opset1">`
	divide   = `<layer id="2" name="div" type="Divide" version="opset1">`
	result   = `<layer id="3" name="q" type="Result" version="opset1">`
	divData  = `<data auto_broadcast="numpy" m_pythondiv="true"/>`
	bData    = `<data element_type="i32" shape="4" offset="0" size="16"/>`
	aData    = `<data shape="?,4" element_type="i32"/>`
	edgeA    = `<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>`
	edgeB    = `<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>`
	edgeQ    = `<edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>`
	endLayer = `</layers>`
	divInput = `<port id="1" precision="I32"><dim>4</dim></port></input>`
	divOut   = `<output><port id="2" precision="I32" names="div"><dim>-1</dim><dim>4</dim></port></output>`
	aOut     = `<output><port id="0" precision="I32" names="a"><dim>-1</dim><dim>4</dim></port></output>`
	bOut     = `<output><port id="0" precision="I32"><dim>4</dim></port></output>`
)

// constLayer returns a Const layer of type t and shape [n] at offset/size.
func constLayer(id int, name, t, prec string, n, offset, size string) string {
	return fmt.Sprintf(`<layer id="%d" name="%s" type="Const" version="opset1"><data element_type="%s" shape="%s" offset="%s" size="%s"/><output><port id="0" precision="%s"><dim>%s</dim></port></output></layer>`, id, name, t, n, offset, size, prec, n)
}

// typedPair is a model q = x / y with Parameters of one type and shape [4].
func typedPair(t, prec string) []byte {
	return []byte(fmt.Sprintf(`<?xml version="1.0"?>
<net name="typed" version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="4" element_type="%[1]s"/><output><port id="0" precision="%[2]s"><dim>4</dim></port></output></layer>
<layer id="1" name="y" type="Parameter" version="opset1"><data shape="4" element_type="%[1]s"/><output><port id="0" precision="%[2]s"><dim>4</dim></port></output></layer>
<layer id="2" name="div" type="Divide" version="opset1"><input><port id="0" precision="%[2]s"><dim>4</dim></port><port id="1" precision="%[2]s"><dim>4</dim></port></input><output><port id="2" precision="%[2]s"><dim>4</dim></port></output></layer>
<layer id="3" name="q" type="Result" version="opset1"><input><port id="0" precision="%[2]s"><dim>4</dim></port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/><edge from-layer="1" from-port="0" to-layer="2" to-port="1"/><edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
</edges></net>
`, t, prec))
}

// constPair is a model q = c0 / c1 of two Consts of type t, shape [4],
// folded at compile time.
func constPair(t, prec, size string) []byte {
	return []byte(`<?xml version="1.0"?>
<net name="consts" version="11"><layers>
` + constLayer(0, "c0", t, prec, "4", "0", size) + "\n" + constLayer(1, "c1", t, prec, "4", "0", size) + `
<layer id="2" name="div" type="Divide" version="opset1"><input><port id="0" precision="` + prec + `"><dim>4</dim></port><port id="1" precision="` + prec + `"><dim>4</dim></port></input><output><port id="2" precision="` + prec + `"><dim>4</dim></port></output></layer>
<layer id="3" name="q" type="Result" version="opset1"><input><port id="0" precision="` + prec + `"><dim>4</dim></port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/><edge from-layer="1" from-port="0" to-layer="2" to-port="1"/><edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
</edges></net>
`)
}

func build() ([]Case, []string) {
	b := &corpusBuilder{}
	notXML := "Unable to read the model"

	// Not XML, or not an IR.
	b.raw("xml-empty", map[string][]byte{"model.xml": {}}, 1, notXML, true, "info", "{dir}/model.xml")
	b.raw("xml-binary", map[string][]byte{"model.xml": {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0}}, 1, "illegal character code U+0002", true, "info", "{dir}/model.xml")
	b.model("xml-unclosed", notXML, true, "</edges>\n</net>\n", "</edges>\n")
	b.model("xml-mismatched-tags", notXML, true, "</layers>", "</layer>")
	b.model("xml-bad-entity", notXML, true, `name="bad"`, `name="&bogus;"`)
	b.raw("xml-billion-laughs", map[string][]byte{"model.xml": []byte(`<?xml version="1.0"?>
<!DOCTYPE net [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<net name="&lol3;" version="11"><layers/></net>
`)}, 1, notXML, true, "info", "{dir}/model.xml")
	b.raw("xml-external-entity", map[string][]byte{"model.xml": []byte(`<?xml version="1.0"?>
<!DOCTYPE net [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<net name="&x;" version="11"><layers/></net>
`)}, 1, notXML, true, "info", "{dir}/model.xml")
	b.raw("xml-deep-nesting", map[string][]byte{"model.xml": []byte(`<net version="11"><rt_info>` + strings.Repeat("<a>", 300) + strings.Repeat("</a>", 300) + `</rt_info></net>`)}, 1, "nested deeper than 256 elements", true, "info", "{dir}/model.xml")
	b.model("root-not-net", notXML, true, `<net name="bad" version="11">`, `<model name="bad" version="11">`, "</net>", "</model>")
	b.model("version-9", `IR version "9"`, true, `version="11">`, `version="9">`)
	b.model("version-12", `IR version "12"`, true, `version="11">`, `version="12">`)
	b.model("version-missing", `IR version ""`, true, ` version="11">`, `>`)
	b.model("version-text", `IR version "eleven"`, true, `version="11">`, `version="eleven">`)

	// Mandatory attributes.
	b.model("layer-missing-id", "node <layer> is missing mandatory attribute: id", true, `<layer id="3" name="q"`, `<layer name="q"`)
	b.model("layer-missing-name", "node <layer> is missing mandatory attribute: name", true, `id="3" name="q" `, `id="3" `)
	b.model("layer-missing-type", "node <layer> is missing mandatory attribute: type", true, ` type="Result"`, ``)
	b.model("layer-missing-version", "node <layer> is missing mandatory attribute: version", true, `type="Result" version="opset1"`, `type="Result"`)
	b.model("layer-id-negative", `node <layer> has attribute "id" = "-3" which is not an unsigned 64 bit integer`, true, `<layer id="3"`, `<layer id="-3"`)
	b.model("port-missing-id", "node <port> is missing mandatory attribute: id", true, `<port id="2" precision="I32" names="div">`, `<port precision="I32" names="div">`)
	b.model("port-id-text", `node <port> has attribute "id" = "two" which is not an unsigned 64 bit integer`, true, `<port id="2" precision="I32" names="div">`, `<port id="two" precision="I32" names="div">`)
	b.model("edge-missing-from-layer", "node <edge> is missing mandatory attribute: from-layer", true, edgeQ, `<edge from-port="2" to-layer="3" to-port="0"/>`)
	b.model("edge-missing-to-port", "node <edge> is missing mandatory attribute: to-port", true, edgeQ, `<edge from-layer="2" from-port="2" to-layer="3"/>`)
	b.model("edge-port-negative", `node <edge> has attribute "to-port" = "-1" which is not an unsigned 64 bit integer`, true, edgeQ, `<edge from-layer="2" from-port="2" to-layer="3" to-port="-1"/>`)
	b.model("edge-port-2pow64", `node <edge> has attribute "from-port" = "18446744073709551616"`, true, edgeQ, `<edge from-layer="2" from-port="18446744073709551616" to-layer="3" to-port="0"/>`)
	b.model("parameter-no-data", "Parameter has no <data>", true, aData, ``)
	b.model("parameter-no-element-type", "Parameter without element_type", true, aData, `<data shape="?,4"/>`)
	b.model("parameter-no-shape", "Parameter without shape", true, aData, `<data element_type="i32"/>`)
	b.model("parameter-type-precision-name", `"FP32" is not a member of enum element::Type_t`, true, aData, `<data shape="?,4" element_type="FP32"/>`)
	b.model("const-no-offset", "node <data> is missing mandatory attribute: offset", true, bData, `<data element_type="i32" shape="4" size="16"/>`)
	b.model("const-no-size", "node <data> is missing mandatory attribute: size", true, bData, `<data element_type="i32" shape="4" offset="0"/>`)
	b.model("const-size-text", `node <data> has attribute "size" = "16 bytes" which is not an unsigned 64 bit integer`, true, bData, `<data element_type="i32" shape="4" offset="0" size="16 bytes"/>`)
	b.model("output-port-no-precision", "output port 2 has no precision", true, `<port id="2" precision="I32" names="div">`, `<port id="2" names="div">`)
	b.model("precision-unknown", "Incorrect type: F32X", true, `<port id="2" precision="I32" names="div">`, `<port id="2" precision="F32X" names="div">`)

	// Dimensions and shapes.
	b.model("dim-minus-2", "dimension (-2) in node dim must be greater or equal to -1", true, `<dim>-1</dim><dim>4</dim></port></output></layer>
<layer id="1"`, `<dim>-2</dim><dim>4</dim></port></output></layer>
<layer id="1"`)
	b.model("dim-text", "dimension (four) in node dim must be greater or equal to -1", true, bOut, `<output><port id="0" precision="I32"><dim>four</dim></port></output>`)
	b.model("dim-2pow63", "dimension (9223372036854775808) in node dim", true, bOut, `<output><port id="0" precision="I32"><dim>9223372036854775808</dim></port></output>`)
	b.model("shape-empty-field", `Cannot get vector of dimensions! "?,,4" is incorrect`, true, `shape="?,4"`, `shape="?,,4"`)
	b.model("shape-bad-max-bound", `Cannot parse max bound: "x"`, true, `shape="?,4"`, `shape="1..x,4"`)
	b.model("shape-min-above-max", "min bound above max bound", true, `shape="?,4"`, `shape="9..2,4"`)
	b.model("shape-dim-2pow63", `Cannot parse dimension: "9223372036854775808"`, true, `shape="?,4"`, `shape="9223372036854775808,4"`)
	b.model("shape-minus-2", `Cannot parse dimension: "-2"`, true, `shape="?,4"`, `shape="-2,4"`)
	b.model("shape-ellipsis-mixed", `Cannot parse dimension: "..."`, true, `shape="?,4"`, `shape="1,...,4"`)
	b.model("shape-product-overflows", "is too large to allocate", false, `shape="?,4"`, `shape="4294967296,4294967296,4"`, `<dim>-1</dim><dim>4</dim></port></output></layer>
<layer id="1"`, `<dim>-1</dim><dim>-1</dim><dim>4</dim></port></output></layer>
<layer id="1"`)
	b.model("shape-generates-2gib", "more than --max-tensor 256MiB allows", false, `shape="?,4"`, `shape="536870912,4"`)
	b.model("const-shape-dynamic", `Const shape "?" is not static`, true, bData, `<data element_type="i32" shape="?" offset="0" size="16"/>`)
	b.model("const-shape-product-overflows", "Attribute and shape size are inconsistent for Const op!", true, bData, `<data element_type="i32" shape="4294967296, 4294967296" offset="0" size="16"/>`)

	// Graph structure.
	b.model("duplicate-layer-id", "share an id", true, `<layer id="3" name="q"`, `<layer id="2" name="q"`)
	b.model("duplicate-port-id", "declares input port 1 twice", true, `<input><port id="0" precision="I32"><dim>-1</dim><dim>4</dim></port><port id="1"`, `<input><port id="1" precision="I32"><dim>-1</dim><dim>4</dim></port><port id="1"`)
	b.model("edge-to-missing-layer", "Attempt to access node 9 that not in graph.", true, edgeQ, `<edge from-layer="2" from-port="2" to-layer="9" to-port="0"/>`)
	b.model("edge-from-missing-layer", "Attempt to access node 8 that not in graph.", true, edgeA, `<edge from-layer="8" from-port="0" to-layer="2" to-port="0"/>`)
	b.model("edge-to-missing-port", "Can not find input port with id 7 in layer q", true, edgeQ, `<edge from-layer="2" from-port="2" to-layer="3" to-port="7"/>`)
	b.model("edge-from-undeclared-port", "Can not find output port with id 5 in layer div", true, edgeQ, `<edge from-layer="2" from-port="5" to-layer="3" to-port="0"/>`)
	b.model("edge-two-into-one-port", "is inconsistent! (input port 0 has two edges)", true, edgeB, `<edge from-layer="1" from-port="0" to-layer="2" to-port="0"/>`)
	b.model("edge-cycle", "cycle through", true, endLayer, `<layer id="4" name="d2" type="Divide" version="opset1"><input><port id="0" precision="I32"/><port id="1" precision="I32"/></input><output><port id="2" precision="I32"/></output></layer>
<layer id="5" name="d3" type="Divide" version="opset1"><input><port id="0" precision="I32"/><port id="1" precision="I32"/></input><output><port id="2" precision="I32"/></output></layer>
</layers>`, edgeQ, edgeQ+`<edge from-layer="4" from-port="2" to-layer="5" to-port="0"/><edge from-layer="5" from-port="2" to-layer="4" to-port="0"/>`)
	b.model("edge-self-loop", "cycle through", true, endLayer, `<layer id="4" name="d2" type="Divide" version="opset1"><input><port id="0" precision="I32"/><port id="1" precision="I32"/></input><output><port id="2" precision="I32"/></output></layer>
</layers>`, edgeQ, edgeQ+`<edge from-layer="4" from-port="2" to-layer="4" to-port="0"/>`)
	b.model("parameter-second-output-used", "Parameter has 1 output, but the layer declares 2 output ports", true, aOut, `<output><port id="0" precision="I32" names="a"><dim>-1</dim><dim>4</dim></port><port id="1" precision="I32"><dim>-1</dim><dim>4</dim></port></output>`, edgeA, `<edge from-layer="0" from-port="1" to-layer="2" to-port="0"/>`)
	b.model("divide-second-output-used", "Divide has 1 output, but the layer declares 2 output ports", true, divOut, `<output><port id="2" precision="I32" names="div"><dim>-1</dim><dim>4</dim></port><port id="3" precision="I32"><dim>-1</dim><dim>4</dim></port></output>`, edgeQ, `<edge from-layer="2" from-port="3" to-layer="3" to-port="0"/>`)
	b.model("result-output-feeds-a-layer", "Result has 0 outputs, but the layer declares 1 output port", true, `<dim>4</dim></port></input></layer>
</layers>`, `<dim>4</dim></port></input><output><port id="1" precision="I32"><dim>-1</dim><dim>4</dim></port></output></layer>
<layer id="4" name="q2" type="Result" version="opset1"><input><port id="0" precision="I32"/></input></layer>
</layers>`, edgeQ, edgeQ+`<edge from-layer="3" from-port="1" to-layer="4" to-port="0"/>`)
	b.model("parameter-without-output-port", "Parameter has 1 output, but the layer declares 0 output ports", true, endLayer, `<layer id="4" name="lonely" type="Parameter" version="opset1"><data shape="4" element_type="i32"/></layer>
</layers>`)
	b.model("divide-without-output-port", "Divide has 1 output, but the layer declares 0 output ports", true, endLayer, `<layer id="4" name="d2" type="Divide" version="opset1"><input><port id="0" precision="I32"><dim>4</dim></port><port id="1" precision="I32"><dim>4</dim></port></input></layer>
</layers>`, edgeQ, edgeQ+`<edge from-layer="1" from-port="0" to-layer="4" to-port="0"/><edge from-layer="1" from-port="0" to-layer="4" to-port="1"/>`)
	b.model("parameter-with-input", "Parameter has no inputs, but the layer declares 1 input port", true, endLayer, `<layer id="4" name="p2" type="Parameter" version="opset1"><data shape="4" element_type="i32"/><input><port id="0" precision="I32"/></input><output><port id="1" precision="I32"><dim>4</dim></port></output></layer>
</layers>`, edgeQ, edgeQ+`<edge from-layer="1" from-port="0" to-layer="4" to-port="0"/>`)
	b.model("divide-one-input", "Incorrect number of inputs. Required: 2, got 1", true, divInput, `</input>`, edgeB, ``)
	b.model("divide-three-inputs", "Incorrect number of inputs. Required: 2, got 3", true, divInput, `<port id="1" precision="I32"><dim>4</dim></port><port id="5" precision="I32"><dim>4</dim></port></input>`, edgeB, edgeB+`<edge from-layer="1" from-port="0" to-layer="2" to-port="5"/>`)
	b.model("divide-input-unconnected", "input 1 is not connected", true, edgeB, ``)
	b.model("result-two-inputs", "Result has 1 input, but the layer declares 2 input ports", true, `<dim>4</dim></port></input></layer>
</layers>`, `<dim>4</dim></port><port id="1" precision="I32"><dim>4</dim></port></input></layer>
</layers>`, edgeQ, edgeQ+`<edge from-layer="1" from-port="0" to-layer="3" to-port="1"/>`)
	b.model("result-no-input", "Result has 1 input, but the layer declares 0 input ports", true, endLayer, `<layer id="4" name="q2" type="Result" version="opset1"/>
</layers>`)
	b.model("unsupported-opset", "irdiv cannot execute 1 layer (Divide opset99 x1)", true, `type="Divide" version="opset1"`, `type="Divide" version="opset99"`)
	b.model("unsupported-op", "irdiv cannot execute 1 layer (Erf opset1 x1)", true, `type="Divide" version="opset1"`, `type="Erf" version="opset1"`)

	// Weights.
	b.model("const-beyond-bin", "Incorrect weights in bin file!", true, bData, `<data element_type="i32" shape="4" offset="8" size="16"/>`)
	b.model("const-offset-overflows", "Incorrect weights in bin file!", true, bData, `<data element_type="i32" shape="4" offset="18446744073709551615" size="16"/>`)
	b.model("const-size-overflows", "Incorrect weights in bin file!", true, bData, `<data element_type="i32" shape="4" offset="0" size="18446744073709551615"/>`)
	b.model("const-size-too-small", "Attribute and shape size are inconsistent for Const op!", true, bData, `<data element_type="i32" shape="4" offset="0" size="8"/>`)
	b.raw("const-empty-bin", map[string][]byte{"model.xml": []byte(baseXML), "model.bin": {}}, 1, "Empty weights data in bin file or bin file cannot be found!", true, "run", "{dir}/model.xml")
	b.raw("const-weights-missing", map[string][]byte{"model.xml": []byte(baseXML)}, 1, "Weights file {dir}/nope.bin cannot be opened!", false, "run", "{dir}/model.xml", "--weights", "{dir}/nope.bin")
	b.raw("const-no-bin", map[string][]byte{"model.xml": []byte(baseXML)}, 1, "Empty weights data in bin file or bin file cannot be found!", true, "run", "{dir}/model.xml")
	overlap := baseXML
	for i := range 6 {
		overlap = strings.Replace(overlap, endLayer, constLayer(10+i, fmt.Sprintf("o%d", i), "u8", "U8", "15", fmt.Sprint(i%2), "15")+"\n"+endLayer, 1)
	}
	b.raw("const-overlapping-ranges", map[string][]byte{"model.xml": []byte(overlap), "model.bin": baseBin}, 1, "the Consts' ranges overlap", true, "run", "{dir}/model.xml")

	// Types.
	b.raw("type-mismatch", map[string][]byte{"model.xml": b.edit("type-mismatch", aData, `<data shape="?,4" element_type="f32"/>`, `<port id="0" precision="I32" names="a">`, `<port id="0" precision="FP32" names="a">`), "model.bin": baseBin}, 1,
		"Arguments do not have the same element type (arg0 element type: f32, arg1 element type: i32).", true, "run", "{dir}/model.xml")
	b.raw("type-boolean", map[string][]byte{"model.xml": typedPair("boolean", "BOOL")}, 1, "This operation does not support inputs with element type: boolean", true, "run", "{dir}/model.xml")
	b.raw("type-string", map[string][]byte{"model.xml": typedPair("string", "STRING")}, 1, "This operation does not support inputs with element type: string", true, "run", "{dir}/model.xml")
	b.raw("type-u4-const", map[string][]byte{"model.xml": constPair("u4", "U4", "2"), "model.bin": {0x21, 0x43}}, 1, "unsupported element type u4", true, "run", "{dir}/model.xml")
	b.raw("type-f8e4m3-const", map[string][]byte{"model.xml": constPair("f8e4m3", "F8E4M3", "4"), "model.bin": {1, 2, 3, 4}}, 1, "unsupported element type f8e4m3", true, "run", "{dir}/model.xml")
	b.raw("type-u4-generated", map[string][]byte{"model.xml": typedPair("u4", "U4")}, 1, "cannot generate u4 data", false, "run", "{dir}/model.xml")

	// Broadcasting.
	b.model("pdpd-axis-int64-max", "Argument shapes are inconsistent.", true, divData, `<data auto_broadcast="pdpd" auto_broadcast.auto_broadcast_axis="9223372036854775807" m_pythondiv="true"/>`)
	b.model("pdpd-axis-int64-min", "Argument shapes are inconsistent.", true, divData, `<data auto_broadcast="pdpd" auto_broadcast.auto_broadcast_axis="-9223372036854775808" m_pythondiv="true"/>`)
	b.model("pdpd-axis-minus-2", "Argument shapes are inconsistent.", true, divData, `<data auto_broadcast="pdpd" auto_broadcast.auto_broadcast_axis="-2" m_pythondiv="true"/>`)
	b.model("pdpd-axis-past-rank", "Argument shapes are inconsistent.", true, divData, `<data auto_broadcast="pdpd" auto_broadcast.auto_broadcast_axis="2" m_pythondiv="true"/>`)
	b.model("auto-broadcast-unknown", `"bidirectional" is not a member of enum ov::op::AutoBroadcastType`, true, divData, `<data auto_broadcast="bidirectional" m_pythondiv="true"/>`)
	b.model("numpy-inconsistent", "Argument shapes are inconsistent.", true, bData, `<data element_type="i32" shape="3" offset="0" size="12"/>`, `<output><port id="0" precision="I32"><dim>4</dim></port></output></layer>`, `<output><port id="0" precision="I32"><dim>3</dim></port></output></layer>`)
	b.model("none-unequal", "Argument shapes are inconsistent.", true, divData, `<data auto_broadcast="none" m_pythondiv="true"/>`)

	// Values.
	b.raw("fold-division-by-zero", map[string][]byte{"model.xml": constPair("i32", "I32", "16"), "model.bin": i32Bytes(5, 0, 7, 0)}, 1, "integer division by zero at flat output index 1", true, "run", "{dir}/model.xml")
	b.raw("run-overflow", map[string][]byte{"model.xml": []byte(baseXML), "model.bin": i32Bytes(3, -3, 4, -1), "a.npy": npyFile(npyDict("<i4", "False", "1, 4"), i32Bytes(1, 1, 1, -2147483648))}, 1,
		"integer division overflow at flat output index 3", true, "run", "{dir}/model.xml", "-i", "a={dir}/a.npy")
	b.raw("run-zero-in-input", map[string][]byte{"model.xml": b.edit("run-zero-in-input", `m_pythondiv="true"`, `m_pythondiv="false"`), "model.bin": i32Bytes(3, 0, 4, -7)}, 1, "integer division by zero at flat output index 1", true, "run", "{dir}/model.xml")

	// .npy inputs.
	good := npyDict("<i4", "False", "2, 4")
	b.input("npy-empty", []byte{}, "no NUMPY magic")
	b.input("npy-no-magic", []byte("PK\x03\x04 not a numpy file"), "no NUMPY magic")
	b.input("npy-truncated-header", goodInput[:40], "truncated header")
	b.input("npy-version-4", append([]byte("\x93NUMPY\x04\x00"), goodInput[8:]...), "format version 4")
	b.input("npy-v2-huge-header", []byte("\x93NUMPY\x02\x00\xff\xff\xff\x7f"), "header of 2147483647 bytes")
	b.input("npy-fortran", npyFile(npyDict("<i4", "True", "2, 4"), i32Bytes(1, 2, 3, 4, 5, 6, 7, 8)), "fortran_order arrays are not supported")
	b.input("npy-big-endian", npyFile(npyDict(">i4", "False", "2, 4"), i32Bytes(1, 2, 3, 4, 5, 6, 7, 8)), `unsupported dtype ">i4"`)
	b.input("npy-object-dtype", npyFile(npyDict("|O", "False", "2,"), []byte("\x80\x04N.")), `unsupported dtype "|O"`)
	b.input("npy-huge-shape", npyFile(npyDict("<i4", "False", "1099511627776, 4"), nil), "declares more data than the file holds")
	b.input("npy-shape-overflows", npyFile(npyDict("<i4", "False", "4294967296, 4294967296, 4"), nil), "tensor too large")
	b.input("npy-short-data", npyFile(good, i32Bytes(1, 2, 3)), "declares more data than the file holds")
	b.input("npy-long-data", npyFile(good, i32Bytes(1, 2, 3, 4, 5, 6, 7, 8, 9)), "data continues past the 32 bytes")
	b.input("npy-negative-dim", npyFile(npyDict("<i4", "False", "-2, 4"), nil), `bad dimension "-2"`)
	b.input("npy-header-garbage", npyFile("{'shape': (2, 4)}", nil), "header without descr")
	b.input("npy-dtype-mismatch", npyFile(npyDict("<f4", "False", "2, 4"), make([]byte, 32)), "irdiv never casts")
	b.cases[len(b.cases)-1].API = false // the Go API takes any tensor and words the mismatch itself
	b.input("npy-shape-not-admitted", npyFile(npyDict("<i4", "False", "2, 5"), make([]byte, 40)), "which does not admit [2 5]")

	// eval: literals and operands.
	b.raw("eval-bool-operands", map[string][]byte{"a.npy": npyFile(npyDict("|b1", "False", "2,"), []byte{1, 0})}, 1, "This operation does not support inputs with element type: boolean", false, "eval", "{dir}/a.npy", "{dir}/a.npy")
	col := npyFile(npyDict("<f4", "False", "16384, 1"), make([]byte, 65536))
	row := npyFile(npyDict("<f4", "False", "1, 16384"), make([]byte, 65536))
	b.raw("eval-broadcast-amplifies", map[string][]byte{"col.npy": col, "row.npy": row}, 1, "the output f32[16384,16384] is larger than the 268435456 bytes allowed (MaxTensorBytes); --max-tensor raises the limit", false, "eval", "{dir}/col.npy", "{dir}/row.npy")
	b.raw("eval-literal-ragged", nil, 1, "ragged array", false, "eval", "[[1],[2,3]]", "1")
	b.raw("eval-literal-too-deep", nil, 1, "nested deeper than 32", false, "eval", strings.Repeat("[", 40)+"1"+strings.Repeat("]", 40), "1")
	b.raw("eval-literal-unterminated", nil, 1, "expected ',' or ']'", false, "eval", "[1,2", "1")
	b.raw("eval-literal-garbage", nil, 1, `"x" is not an i32 value`, false, "eval", "--type", "i32", "[1,x]", "1")
	b.raw("eval-literal-out-of-range", nil, 1, `"300" is not a u8 value`, false, "eval", "--type", "u8", "300", "1")
	b.raw("eval-literal-empty", nil, 1, "expected a number at offset 0", false, "eval", "", "1")
	b.raw("eval-axis-int64-max", nil, 1, "Argument shapes are inconsistent.", false, "eval", "--broadcast", "pdpd", "--axis", "9223372036854775807", "[[1,2]]", "[1,2]")
	b.raw("eval-axis-int64-min", nil, 1, "Argument shapes are inconsistent.", false, "eval", "--broadcast", "pdpd", "--axis", "-9223372036854775808", "[[1,2]]", "[1,2]")
	b.raw("eval-division-by-zero", nil, 1, "integer division by zero at flat output index 1", false, "eval", "--type", "i64", "[1,2]", "[1,0]")
	b.raw("eval-output-dir-missing", nil, 1, "no such file or directory", false, "eval", "1", "2", "-o", "{dir}/missing/out.npy")

	// Flags and usage.
	b.raw("usage-unknown-command", nil, 2, `unknown command "frobnicate"`, false, "frobnicate")
	b.raw("usage-broadcast", nil, 2, "--broadcast", false, "eval", "--broadcast", "sideways", "1", "2")
	b.raw("usage-type-boolean", nil, 2, "--type", false, "eval", "--type", "boolean", "1", "2")
	b.raw("usage-simd", nil, 2, "--simd avx9: must be one of auto", false, "eval", "--simd", "avx9", "1", "2")
	b.raw("usage-unknown-flag", nil, 2, "flag provided but not defined: -frob", false, "eval", "-frob", "1", "2")
	b.raw("usage-max-tensor", nil, 2, "want a size from 1 to 16GiB", false, "eval", "--max-tensor", "-5", "1", "2")
	base := map[string][]byte{"model.xml": []byte(baseXML), "model.bin": baseBin}
	b.raw("usage-bench-niter-negative", base, 2, "-niter -1: want from 1 to 1099511627776 iterations", false, "bench", "{dir}/model.xml", "-niter", "-1")
	b.raw("usage-bench-niter-int64-max", base, 2, "-niter 9223372036854775807: want from 1 to 1099511627776 iterations", false, "bench", "{dir}/model.xml", "-niter", "9223372036854775807")
	b.raw("usage-bench-t-nan", base, 2, "-t NaN: want a number of seconds above 0", false, "bench", "{dir}/model.xml", "-t", "NaN")
	b.raw("usage-bench-t-inf", base, 2, "-t +Inf: want a number of seconds above 0", false, "bench", "{dir}/model.xml", "-t", "Inf")
	b.raw("usage-bench-t-zero", base, 2, "-t 0: want a number of seconds above 0", false, "bench", "{dir}/model.xml", "-t", "0")
	b.raw("usage-bench-percentile-nan", base, 2, "--latency-percentile NaN", false, "bench", "{dir}/model.xml", "--latency-percentile", "NaN")
	b.raw("bench-shape-too-large", base, 1, "more than --max-tensor 256MiB allows", false, "bench", "{dir}/model.xml", "-niter", "1", "--shape", "a=[2147483648,4]")
	b.raw("bench-shape-outside-interval", base, 1, "which does not admit [2 5]", false, "bench", "{dir}/model.xml", "-niter", "1", "--shape", "a=[2,5]")
	b.raw("usage-run-input-syntax", base, 2, `-i "a": want NAME=FILE.npy`, false, "run", "{dir}/model.xml", "-i", "a")
	b.raw("run-input-missing-file", base, 1, "no such file or directory", false, "run", "{dir}/model.xml", "-i", "a={dir}/missing.npy")
	b.raw("run-input-unknown-name", map[string][]byte{"model.xml": []byte(baseXML), "model.bin": baseBin, "a.npy": goodInput}, 1, "-i zz: the model has no input of that name or index", false, "run", "{dir}/model.xml", "-i", "zz={dir}/a.npy")
	b.raw("run-layer-unknown", base, 1, `the model has no layer named "nosuch"`, false, "run", "{dir}/model.xml", "--layer", "nosuch")
	b.raw("run-layer-id-unknown", base, 1, "the model has no layer with id 999", false, "run", "{dir}/model.xml", "--layer", "id:999")
	b.raw("run-layer-not-divide", base, 1, `is a Parameter; run --layer evaluates Divide layers`, false, "run", "{dir}/model.xml", "--layer", "a")
	b.raw("run-output-dir-is-a-file", map[string][]byte{"model.xml": []byte(baseXML), "model.bin": baseBin, "file": []byte("x")}, 1, "not a directory", false, "run", "{dir}/model.xml", "-o", "{dir}/file")
	b.raw("info-weights-missing", base, 1, "cannot be opened!", false, "info", "{dir}/model.xml", "--weights", "{dir}/nope.bin")
	// ONNX models and .pb tensors.
	i32Value := func(name string) []byte { return onnxwire.Value(name, onnxwire.Int32, 4) }
	divGraph := func(inits ...[]byte) []byte {
		inputs := [][]byte{i32Value("x")}
		if len(inits) == 0 {
			inputs = append(inputs, i32Value("y"))
		}
		return onnxwire.Graph("g", [][]byte{onnxwire.Node("Div", "div", []string{"x", "y"}, []string{"z"})}, inits, inputs, [][]byte{i32Value("z")})
	}
	onnxCase := func(name string, model []byte, want string, extra map[string][]byte) {
		files := map[string][]byte{"model.onnx": model}
		for k, v := range extra {
			files[k] = v
		}
		b.raw(name, files, 1, want, false, "run", "{dir}/model.onnx")
	}
	onnxCase("onnx-not-protobuf", []byte("\x08\x07\x12\xff\xff\xff\xff\x0f"), "not a ModelProto", nil)
	onnxCase("onnx-no-graph", []byte{}, "the model has no graph", nil)
	// The graph rules onnx.checker states: one definition per name,
	// nodes in topological order, every graph output defined.
	div := func(out string) []byte { return onnxwire.Node("Div", "div", []string{"x", "y"}, []string{out}) }
	onnxCase("onnx-input-twice", onnxwire.Model(13, onnxwire.Graph("g", [][]byte{div("z")}, nil,
		[][]byte{i32Value("x"), i32Value("y"), onnxwire.Value("x", onnxwire.Float, 4)}, [][]byte{i32Value("z")})), `graph input "x" is declared twice`, nil)
	onnxCase("onnx-two-nodes-one-output", onnxwire.Model(13, onnxwire.Graph("g", [][]byte{div("z"), onnxwire.Node("Div", "div2", []string{"y", "x"}, []string{"z"})}, nil,
		[][]byte{i32Value("x"), i32Value("y")}, [][]byte{i32Value("z")})), `node "div2" (Div, #1) writes "z", which is already defined by node "div" (Div, #0)`, nil)
	onnxCase("onnx-node-writes-input", onnxwire.Model(13, onnxwire.Graph("g", [][]byte{div("x")}, nil,
		[][]byte{i32Value("x"), i32Value("y")}, [][]byte{i32Value("x")})), `node "div" (Div, #0) writes "x", which is already defined by graph input`, nil)
	onnxCase("onnx-output-undefined", onnxwire.Model(13, onnxwire.Graph("g", [][]byte{div("z")}, nil,
		[][]byte{i32Value("x"), i32Value("y")}, [][]byte{i32Value("w")})), `graph output "w" is defined by no graph input, initializer or node`, nil)
	onnxCase("onnx-read-before-written", onnxwire.Model(13, onnxwire.Graph("g",
		[][]byte{onnxwire.Node("Relu", "r", []string{"z"}, []string{"w"}), div("z")}, nil,
		[][]byte{i32Value("x"), i32Value("y")}, [][]byte{i32Value("w")})), `node "r" (Relu, #0) reads "z", which no graph input, initializer or earlier node defines`, nil)
	onnxCase("onnx-div1-integers", onnxwire.Model(1, divGraph()), `node "div" (Div, #0): opset 1, Div-1: type INT32 is not allowed`, nil)
	onnxCase("onnx-initializer-huge-dims", onnxwire.Model(13, divGraph(onnxwire.Tensor("y", onnxwire.Int32, []int64{1 << 40}, i32Bytes(1, 2, 3, 4)))), `initializer "y" of i32[1099511627776] is larger than the 268435456 bytes allowed (ReadOptions.MaxTensorBytes); --max-tensor raises the limit`, nil)
	onnxCase("onnx-initializer-dims-overflow", onnxwire.Model(13, divGraph(onnxwire.Tensor("y", onnxwire.Int32, []int64{1 << 32, 1 << 32, 4}, nil))), `initializer "y" has dims [4294967296 4294967296 4]: more than 2^63-1 elements`, nil)
	onnxCase("onnx-initializer-string", onnxwire.Model(13, divGraph(onnxwire.Tensor("y", onnxwire.String, []int64{4}, nil))), `initializer "y" has element type STRING`, nil)
	onnxCase("onnx-external-escapes", onnxwire.Model(13, divGraph(onnxwire.ExternalTensor("y", onnxwire.Int32, []int64{4}, "../model.bin"))), "outside the model's folder", nil)
	onnxCase("onnx-external-short", onnxwire.Model(13, divGraph(onnxwire.ExternalTensor("y", onnxwire.Int32, []int64{4}, "y.bin"))), `initializer "y" needs 16 bytes of data, its external data in y.bin has 8`, map[string][]byte{"y.bin": i32Bytes(1, 2)})
	goodONNX := onnxwire.Model(13, divGraph())
	b.raw("pb-not-tensor", map[string][]byte{"model.onnx": goodONNX, "x.pb": []byte("\x0a\xff\xff\xff\xff\x0f")}, 1, "is not a TensorProto", false, "run", "{dir}/model.onnx", "-i", "x={dir}/x.pb")
	b.raw("pb-huge-dims", map[string][]byte{"model.onnx": goodONNX, "x.pb": onnxwire.Tensor("x", onnxwire.Int32, []int64{1 << 40}, nil)}, 1, `x.pb: tensor "x" of i32[1099511627776] is larger than the 268435456 bytes allowed`, false, "run", "{dir}/model.onnx", "-i", "x={dir}/x.pb")
	b.raw("pb-expected-mismatch", map[string][]byte{"model.onnx": goodONNX, "x.pb": onnxwire.Tensor("x", onnxwire.Int32, []int64{4}, i32Bytes(-7, -7, 7, 7)),
		"y.pb": onnxwire.Tensor("y", onnxwire.Int32, []int64{4}, i32Bytes(2, -2, 2, -2)), "z.pb": onnxwire.Tensor("z", onnxwire.Int32, []int64{4}, i32Bytes(-4, 3, 3, -4))}, 1,
		"in 2 of 4 values, compared exactly (first at flat index 0: got -3, expected -4)", false, "run", "{dir}/model.onnx", "-i", "x={dir}/x.pb", "-i", "y={dir}/y.pb", "--expected", "{dir}/z.pb")
	b.raw("validate-onnx-not-onnx", map[string][]byte{"model.xml": []byte(baseXML), "model.bin": baseBin, "m.onnx": []byte("<net/>")}, 1, "not a ModelProto", false, "validate", "{dir}/model.xml", "--onnx", "{dir}/m.onnx")

	b.files(goodONNX, base, i32Value, divGraph)
	b.written(i32Value)
	b.dataSets(goodONNX)
	b.messages()
	b.imports()
	return b.cases, b.mistakes
}

// last returns the case added last, to give it links, pipes or sparse
// files.
func (b *corpusBuilder) last() *Case { return &b.cases[len(b.cases)-1] }

const (
	notRegularPipe   = "not a regular file (a named pipe)"
	notRegularDevice = "not a regular file (a character device)"
	outside          = "outside the model's folder"
	readsIt          = "is a file this command reads; irdiv does not write over its inputs"
)

// files are the cases of reading a user's file safely: no FIFO or device
// read (a FIFO would block, /dev/zero never ends), no link out of a
// model's folder for external data, no read beyond the caps, no output
// over an input.
func (b *corpusBuilder) files(goodONNX []byte, base map[string][]byte, i32Value func(string) []byte, divGraph func(...[]byte) []byte) {
	with := func(extra map[string][]byte) map[string][]byte {
		out := map[string][]byte{}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	// Named pipes, wherever a file is read.
	b.raw("fifo-model-xml", nil, 1, "{dir}/model.xml: "+notRegularPipe, true, "info", "{dir}/model.xml")
	b.last().FIFOs = []string{"model.xml"}
	b.raw("fifo-model-bin", map[string][]byte{"model.xml": []byte(baseXML)}, 1, "Weights file {dir}/model.bin cannot be opened! ("+notRegularPipe+")", true, "run", "{dir}/model.xml")
	b.last().FIFOs = []string{"model.bin"}
	b.raw("fifo-weights-flag", map[string][]byte{"model.xml": []byte(baseXML)}, 1, "Weights file {dir}/w.bin cannot be opened! ("+notRegularPipe+")", true, "run", "{dir}/model.xml", "--weights", "{dir}/w.bin")
	b.last().FIFOs = []string{"w.bin"}
	b.raw("fifo-npy-input", base, 1, "{dir}/a.npy: "+notRegularPipe, true, "run", "{dir}/model.xml", "-i", "a={dir}/a.npy")
	b.last().FIFOs = []string{"a.npy"}
	b.raw("fifo-eval-operand", nil, 1, "{dir}/a.npy: "+notRegularPipe, false, "eval", "{dir}/a.npy", "2")
	b.last().FIFOs = []string{"a.npy"}
	b.raw("fifo-onnx", nil, 1, "{dir}/model.onnx: "+notRegularPipe, true, "run", "{dir}/model.onnx")
	b.last().FIFOs = []string{"model.onnx"}
	b.raw("fifo-convert", nil, 1, "{dir}/model.onnx: "+notRegularPipe, true, "convert", "{dir}/model.onnx")
	b.last().FIFOs = []string{"model.onnx"}
	b.raw("fifo-pb-input", map[string][]byte{"model.onnx": goodONNX}, 1, "{dir}/x.pb: "+notRegularPipe, true, "run", "{dir}/model.onnx", "-i", "x={dir}/x.pb")
	b.last().FIFOs = []string{"x.pb"}
	b.raw("fifo-expected", map[string][]byte{"model.onnx": goodONNX}, 1, "{dir}/z.pb: "+notRegularPipe, false, "run", "{dir}/model.onnx", "--expected", "{dir}/z.pb")
	b.last().FIFOs = []string{"z.pb"}
	external := func(location string) []byte {
		return onnxwire.Model(13, divGraph(onnxwire.ExternalTensor("y", onnxwire.Int32, []int64{4}, location)))
	}
	b.raw("fifo-external-data", map[string][]byte{"model.onnx": external("y.bin")}, 1, `initializer "y": external data y.bin: `+notRegularPipe, true, "run", "{dir}/model.onnx")
	b.last().FIFOs = []string{"y.bin"}
	b.raw("fifo-validate-folder", nil, 1, "{dir}/models/m.xml: "+notRegularPipe, false, "validate", "{dir}/models")
	b.last().FIFOs = []string{"models/m.xml"}
	b.raw("fifo-run-inputs-folder", map[string][]byte{"model.onnx": goodONNX}, 1, "--inputs {dir}/set: open {dir}/set: not a directory", false, "run", "{dir}/model.onnx", "--inputs", "{dir}/set")
	b.last().FIFOs = []string{"set"}

	// Links to devices: refused at once, never read.
	for _, dev := range []struct{ name, path string }{{"zero", "/dev/zero"}, {"urandom", "/dev/urandom"}} {
		b.raw("link-xml-dev-"+dev.name, nil, 1, "{dir}/model.xml: "+notRegularDevice, true, "info", "{dir}/model.xml")
		b.last().Links = map[string]string{"model.xml": dev.path}
		b.raw("link-onnx-dev-"+dev.name, nil, 1, "{dir}/model.onnx: "+notRegularDevice, true, "info", "{dir}/model.onnx")
		b.last().Links = map[string]string{"model.onnx": dev.path}
		b.raw("link-pb-dev-"+dev.name, map[string][]byte{"model.onnx": goodONNX}, 1, "{dir}/x.pb: "+notRegularDevice, true, "run", "{dir}/model.onnx", "-i", "x={dir}/x.pb")
		b.last().Links = map[string]string{"x.pb": dev.path}
	}
	b.raw("link-bin-dev-zero", map[string][]byte{"model.xml": []byte(baseXML)}, 1, "Weights file {dir}/model.bin cannot be opened! ("+notRegularDevice+")", true, "run", "{dir}/model.xml")
	b.last().Links = map[string]string{"model.bin": "/dev/zero"}
	b.raw("link-npy-dev-zero", base, 1, "{dir}/a.npy: "+notRegularDevice, true, "run", "{dir}/model.xml", "-i", "a={dir}/a.npy")
	b.last().Links = map[string]string{"a.npy": "/dev/zero"}
	b.raw("validate-folder-link-not-followed", map[string][]byte{"models/notes.txt": []byte("no model here")}, 1, "{dir}/models holds no .onnx or .xml model", false, "validate", "{dir}/models")
	b.last().Links = map[string]string{"models/root": "/"}

	// External data: links are followed only while they stay inside the
	// model's folder.
	b.raw("onnx-external-link-absolute", map[string][]byte{"model.onnx": external("y.bin")}, 1, `has external data at "y.bin", `+outside, true, "convert", "{dir}/model.onnx")
	b.last().Links = map[string]string{"y.bin": "/etc/passwd"}
	b.raw("onnx-external-link-relative", map[string][]byte{"model.onnx": external("y.bin")}, 1, `has external data at "y.bin", `+outside, true, "convert", "{dir}/model.onnx")
	b.last().Links = map[string]string{"y.bin": "../../../../../../../../../../etc/passwd"}
	b.raw("onnx-external-folder-link-root", map[string][]byte{"model.onnx": external("sub/etc/passwd")}, 1, `has external data at "sub/etc/passwd", `+outside, true, "convert", "{dir}/model.onnx")
	b.last().Links = map[string]string{"sub": "/"}
	b.raw("onnx-external-folder-link-parent", map[string][]byte{"model.onnx": external("up/case.json")}, 1, `has external data at "up/case.json", `+outside, true, "convert", "{dir}/model.onnx")
	b.last().Links = map[string]string{"up": ".."}
	b.raw("onnx-external-link-dev-zero", map[string][]byte{"model.onnx": external("y.bin")}, 1, `has external data at "y.bin", `+outside, true, "info", "{dir}/model.onnx")
	b.last().Links = map[string]string{"y.bin": "/dev/zero"}
	b.raw("onnx-external-absolute-location", map[string][]byte{"model.onnx": external("/etc/passwd")}, 1, `has external data at "/etc/passwd", `+outside, true, "convert", "{dir}/model.onnx")
	// A 101-byte model whose external data is a 1 GiB sparse file: the
	// tensor is refused by the cap before anything is read.
	huge := onnxwire.Model(13, divGraph(onnxwire.ExternalTensor("y", onnxwire.Int32, []int64{1 << 28}, "y.bin")))
	b.raw("onnx-external-sparse-1gib", map[string][]byte{"model.onnx": huge}, 1, `initializer "y" of i32[268435456] is larger than the 268435456 bytes allowed (ReadOptions.MaxTensorBytes)`, true, "convert", "{dir}/model.onnx")
	b.last().Sparse = map[string]int64{"y.bin": 1 << 30}
	b.raw("onnx-external-sparse-1gib-info", map[string][]byte{"model.onnx": huge}, 1, `initializer "y" of i32[268435456] is larger than the 268435456 bytes allowed (ReadOptions.MaxTensorBytes)`, true, "info", "{dir}/model.onnx")
	b.last().Sparse = map[string]int64{"y.bin": 1 << 30}
	// Links to one file share its budget of twice its size.
	var inits [][]byte
	for _, name := range []string{"y", "p", "q"} {
		inits = append(inits, onnxwire.ExternalTensor(name, onnxwire.Int32, []int64{4}, name+".bin"))
	}
	b.raw("onnx-external-aliases-share-budget", map[string][]byte{"model.onnx": onnxwire.Model(13, divGraph(inits...)), "y.bin": i32Bytes(1, 2, 3, 4)}, 1,
		`initializer "q": the tensors read more than twice the 16 bytes of q.bin`, true, "run", "{dir}/model.onnx")
	b.last().Links = map[string]string{"p.bin": "y.bin", "q.bin": "y.bin"}
	b.raw("npy-over-max-tensor", with(map[string][]byte{"a.npy": npyFile(npyDict("<i4", "False", "1024, 4"), make([]byte, 16<<10))}), 1,
		"{dir}/a.npy: tensor too large: the file has 16512 bytes, more than the 1024 allowed; --max-tensor raises the limit", false, "run", "{dir}/model.xml", "--max-tensor", "1KiB", "-i", "a={dir}/a.npy")

	// Outputs never replace an input, whatever the spelling.
	b.raw("convert-overwrites-model", map[string][]byte{"model.onnx": goodONNX}, 1, "-o {dir}/model.onnx: {dir}/model.onnx "+readsIt, false, "convert", "{dir}/model.onnx", "-o", "{dir}/model.onnx")
	b.raw("convert-overwrites-model-spelt-otherwise", map[string][]byte{"model.onnx": goodONNX}, 1, "-o {dir}/alias/model.onnx: {dir}/alias/model.onnx is {dir}/model.onnx, a file this command reads", false, "convert", "{dir}/model.onnx", "-o", "{dir}/alias/model.onnx")
	b.last().Links = map[string]string{"alias": "."}
	b.raw("convert-overwrites-through-link", map[string][]byte{"model.onnx": goodONNX}, 1, "-o {dir}/out.xml: {dir}/out.xml is {dir}/model.onnx, a file this command reads", false, "convert", "{dir}/model.onnx", "-o", "{dir}/out.xml")
	b.last().Links = map[string]string{"out.xml": "model.onnx"}
	b.raw("convert-bin-overwrites-external-data", map[string][]byte{"model.onnx": external("y.bin"), "y.bin": i32Bytes(1, 2, 3, 4)}, 1, "-o {dir}/y.xml: {dir}/y.bin "+readsIt, false, "convert", "{dir}/model.onnx", "-o", "{dir}/y.xml")
	b.raw("convert-xml-is-its-bin", map[string][]byte{"model.onnx": goodONNX}, 1, "the weights would overwrite the XML", false, "convert", "{dir}/model.onnx", "-o", "{dir}/out.bin")
	b.raw("eval-output-is-operand", map[string][]byte{"a.npy": goodInput}, 1, "-o {dir}/a.npy: {dir}/a.npy "+readsIt, false, "eval", "{dir}/a.npy", "2", "-o", "{dir}/a.npy")
	b.raw("run-output-overwrites-input", with(map[string][]byte{"q.npy": goodInput}), 1, "-o {dir}: {dir}/q.npy "+readsIt, false, "run", "{dir}/model.xml", "-i", "a={dir}/q.npy", "-o", "{dir}")
	b.raw("bench-report-overwrites-input", with(map[string][]byte{"benchmark_report.csv": goodInput}), 1, "-report_folder {dir}: {dir}/benchmark_report.csv "+readsIt, false,
		"bench", "{dir}/model.xml", "-niter", "1", "-i", "a={dir}/benchmark_report.csv", "-report_type", "no_counters", "-report_folder", "{dir}")
}

// written are the cases of the files validate --counter-examples writes:
// each file of its own (names that collide once made safe, two models of
// one name), all inside the folder given, however the model or its
// inputs are named, and no more than --max-files of them.
func (b *corpusBuilder) written(i32Value func(string) []byte) {
	// div is z = x / y of i32[4], extra inputs beside.
	div := func(x, y string, extra ...[]byte) []byte {
		inputs := append([][]byte{i32Value(x), i32Value(y)}, extra...)
		return onnxwire.Model(13, onnxwire.Graph("g", [][]byte{onnxwire.Node("Div", "div", []string{x, y}, []string{"z"})}, nil, inputs, [][]byte{i32Value("z")}))
	}
	// Each model gives three counter-examples (-3 / 2, MIN / -1 and a
	// divisor of 0): a folder for the model with its openvino.onnx, one
	// for each, and a file per input in each.
	validate := []string{"validate", "--counter-examples", "{dir}/cex"}
	// Outputs an IR cannot name apart.
	twoOutputs := func(second string) []byte {
		return onnxwire.Model(13, onnxwire.Graph("g", [][]byte{onnxwire.Node("Div", "div", []string{"x", "y"}, []string{"z"})}, nil,
			[][]byte{i32Value("x"), i32Value("y")}, [][]byte{i32Value("z"), i32Value(second)}))
	}
	b.raw("convert-outputs-one-name", map[string][]byte{"model.onnx": twoOutputs("z")}, 1, `graph outputs 0 and 1 are both "z": the IR would hold two Results of one name`, false, "convert", "{dir}/model.onnx")
	b.raw("convert-output-is-input", map[string][]byte{"model.onnx": twoOutputs("x")}, 1, `graph output 1 is graph input "x" itself: the IR would hold a Parameter and a Result of one name`, false, "convert", "{dir}/model.onnx")
	// 40 Concats doubling a constant of 2 elements: each under the cap
	// until late, together past it.
	var doubling [][]byte
	prev := "c"
	for i := range 40 {
		out := fmt.Sprintf("d%d", i)
		doubling = append(doubling, onnxwire.NodeAttrs("Concat", out, []string{prev, prev}, []string{out}, onnxwire.IntAttr("axis", 0)))
		prev = out
	}
	doubling = append(doubling, onnxwire.Node("Div", "div", []string{prev, "x"}, []string{"z"}))
	b.raw("fold-running-total", map[string][]byte{"model.onnx": onnxwire.Model(13, onnxwire.Graph("g", doubling,
		[][]byte{onnxwire.Tensor("c", onnxwire.Int32, []int64{2}, i32Bytes(1, 2))}, [][]byte{onnxwire.Value("x", onnxwire.Int32, 1)}, [][]byte{onnxwire.Value("z", onnxwire.Int32)}))}, 1,
		`folding the constants of layer "d16" (id 18): its output is larger than the 16 bytes the constants folded before it leave of the 1048576 allowed in all (MaxTensorBytes); --max-tensor raises the limit`, false, "run", "{dir}/model.onnx", "--max-tensor", "1MiB")
	b.raw("cex-inputs-collide", map[string][]byte{"model.onnx": div("a/b", "a_b")}, 1, "1 error in 1 model", false, append(validate, "{dir}/model.onnx")...)
	b.last().Writes = &Writes{Under: "cex", Count: 2 + 3*3}
	b.raw("cex-models-of-one-name", map[string][]byte{"m1/model.onnx": div("x", "y"), "m2/model.onnx": div("p", "q")}, 1, "2 errors in 2 models", false, append(validate, "{dir}/m1/model.onnx", "{dir}/m2/model.onnx")...)
	b.last().Writes = &Writes{Under: "cex", Count: 2 * (2 + 3*3)}
	b.raw("cex-model-named-dots", map[string][]byte{"...onnx": div("x", "y")}, 1, "1 error in 1 model", false, append(validate, "{dir}/...onnx")...)
	b.last().Writes = &Writes{Under: "cex", Count: 2 + 3*3}
	long := strings.Repeat("n", 300)
	b.raw("cex-names-too-long", map[string][]byte{strings.Repeat("m", 250) + ".onnx": div(long, long+"2")}, 1, "1 error in 1 model", false, append(validate, "{dir}/"+strings.Repeat("m", 250)+".onnx")...)
	b.last().Writes = &Writes{Under: "cex", Count: 2 + 3*3}
	// 3,000 inputs no Divide reads: each counter-example needs all of
	// them (a runtime asks for every input), so the budget stops it.
	var unused [][]byte
	for i := range 3000 {
		unused = append(unused, onnxwire.Value(fmt.Sprintf("u%d", i), onnxwire.Int32, 1))
	}
	b.raw("cex-many-unused-inputs", map[string][]byte{"model.onnx": div("x", "y", unused...)}, 1, "1 error in 1 model", false, append(validate, "{dir}/model.onnx")...)
	b.last().Writes = &Writes{Under: "cex", Max: 1024}
}

// dataSets are the cases of ONNX test-data folders given to run: every
// file matched to an input or output by its tensor name (by position
// when it has none), every input given, no file left over.
func (b *corpusBuilder) dataSets(goodONNX []byte) {
	pb := func(name string, vals ...int32) []byte {
		return onnxwire.Tensor(name, onnxwire.Int32, []int64{4}, i32Bytes(vals...))
	}
	x, y := pb("x", 7, -7, 7, -7), pb("y", 2, 2, -2, -2)
	set := func(files map[string][]byte) map[string][]byte {
		out := map[string][]byte{"model.onnx": goodONNX}
		for k, v := range files {
			out["set/"+k] = v
		}
		return out
	}
	run := []string{"run", "{dir}/model.onnx", "--inputs", "{dir}/set"}
	b.raw("inputs-missing-file", set(map[string][]byte{"input_0.pb": x}), 1, `--inputs {dir}/set has no file for input "y" (input_1.pb, or a .pb holding tensor "y")`, false, run...)
	b.raw("inputs-gap", set(map[string][]byte{"input_0.pb": x, "input_2.pb": pb("", 1, 1, 1, 1)}), 1,
		"--inputs {dir}/set: input_2.pb has no tensor name, and by its position it would be input 2, but there are 2", false, run...)
	b.raw("inputs-extra-named", set(map[string][]byte{"input_0.pb": x, "input_1.pb": y, "input_2.pb": pb("w", 1, 1, 1, 1)}), 1,
		`--inputs {dir}/set: input_2.pb holds tensor "w", which is no input of the model (input "x", input "y")`, false, run...)
	b.raw("inputs-extra-unnamed", set(map[string][]byte{"input_0.pb": x, "input_1.pb": y, "input_2.pb": pb("", 1, 1, 1, 1)}), 1,
		"--inputs {dir}/set: input_2.pb has no tensor name, and by its position it would be input 2, but there are 2", false, run...)
	b.raw("inputs-twice", set(map[string][]byte{"input_0.pb": x, "input_1.pb": pb("x", 1, 1, 1, 1)}), 1,
		`--inputs {dir}/set: input_0.pb and input_1.pb both give input "x"`, false, run...)
	b.raw("inputs-and-i", set(map[string][]byte{"input_0.pb": x, "input_1.pb": y, "x.pb": x}), 1,
		`input "x" is given both by -i x and by --inputs {dir}/set/input_0.pb`, false, append(run, "-i", "x={dir}/set/x.pb")...)
	b.raw("inputs-type-mismatch", set(map[string][]byte{"input_0.pb": x, "input_1.pb": onnxwire.Tensor("y", onnxwire.Float, []int64{4}, make([]byte, 16))}), 1,
		`{dir}/set/input_1.pb holds f32 but input "y" is i32; irdiv never casts`, false, run...)
	b.raw("inputs-empty-folder", set(map[string][]byte{"notes.txt": []byte("x")}), 1,
		"--inputs {dir}/set holds no input_N.pb", false, run...)
	b.raw("inputs-with-layer", set(map[string][]byte{"input_0.pb": x}), 2, "--inputs gives a model's inputs; with --layer, give the layer's inputs as -i PORT=FILE", false,
		append(run, "--layer", "div")...)
	expected := []string{"run", "{dir}/model.onnx", "--inputs", "{dir}/set", "--expected", "{dir}/set"}
	b.raw("expected-missing-output", set(map[string][]byte{"input_0.pb": x, "input_1.pb": y}), 1, "--expected {dir}/set holds no output_N.pb", false, expected...)
	b.raw("expected-extra-named", set(map[string][]byte{"input_0.pb": x, "input_1.pb": y, "output_0.pb": pb("w", 3, -3, -3, 3)}), 1,
		`--expected {dir}/set: output_0.pb holds tensor "w", which is no output of the model (output "z")`, false, expected...)
	b.raw("expected-folder-and-file", set(map[string][]byte{"input_0.pb": x, "input_1.pb": y, "z.pb": pb("z", 3, -3, -3, 3)}), 2,
		"--expected {dir}/set: a test data folder gives every output; give it alone, or one file per output", false, append(expected, "--expected", "{dir}/set/z.pb")...)
}

// messages are cases of error messages that once misled: byte counts that
// overflowed to 0.
func (b *corpusBuilder) messages() {
	b.model("const-bytes-overflow", "Attribute and shape size are inconsistent for Const op! (i64[9223372036854775807] needs more than 2^63-1 bytes, size is 16)", true,
		bData, `<data element_type="i64" shape="9223372036854775807" offset="0" size="16"/>`)
}

// i64Bytes is the little-endian encoding of int64 values.
func i64Bytes(vals ...int64) []byte {
	out := make([]byte, 0, 8*len(vals))
	for _, v := range vals {
		out = binary.LittleEndian.AppendUint64(out, uint64(v))
	}
	return out
}

// imports are the cases of ONNX models whose attributes or types once
// crashed the import of every command (issue 28): each runs through run,
// which imports, infers and compiles, and through the Go API.
func (b *corpusBuilder) imports() {
	onnxRun := func(name string, model []byte, want string) {
		b.raw(name, map[string][]byte{"model.onnx": model}, 1, want, true, "run", "{dir}/model.onnx")
	}
	f32 := func(n int) []byte { return make([]byte, 4*n) }
	// Conv and ConvTranspose with group = 0 divided the weights' first
	// axis by zero; group = -1 left a Reshape of the weights that failed
	// in the model, which convert wrote and nothing could read back.
	x := onnxwire.Value("x", onnxwire.Float, 1, 4, 5, 5)
	w := onnxwire.Tensor("w", onnxwire.Float, []int64{4, 2, 3, 3}, f32(72))
	y := onnxwire.Value("y", onnxwire.Float)
	for _, op := range []string{"Conv", "ConvTranspose"} {
		for _, g := range []int64{0, -1} {
			name := strings.Replace(fmt.Sprintf("onnx-%s-group-%d", strings.ToLower(op), g), "-1", "minus-1", 1)
			model := onnxwire.Model(13, onnxwire.Graph("g", [][]byte{onnxwire.NodeAttrs(op, "conv", []string{"x", "w"}, []string{"y"}, onnxwire.IntAttr("group", g))},
				[][]byte{w}, [][]byte{x}, [][]byte{y}))
			onnxRun(name, model, fmt.Sprintf(`node "conv" (%s, #0): opset 13: group is %d; the channels split into 1 group or more`, op, g))
		}
	}
	// GatherND's batch_dims of 2^63-1 overflowed the bound of its shape
	// rule (b + the index depth) into a slice of a negative start; an
	// output_height of -5 made RoiAlign's output port <dim>-5</dim>.
	relu := onnxwire.Node("Relu", "relu", []string{"t"}, []string{"y"})
	onnxRun("onnx-gathernd-batch-dims-max", onnxwire.Model(13, onnxwire.Graph("g",
		[][]byte{onnxwire.NodeAttrs("GatherND", "gnd", []string{"x", "i"}, []string{"t"}, onnxwire.IntAttr("batch_dims", 1<<63-1)), relu}, nil,
		[][]byte{onnxwire.Value("x", onnxwire.Float, 2, 3), onnxwire.Value("i", onnxwire.Int64, 2, 1)}, [][]byte{y})),
		`irdiv cannot execute 1 layer (GatherND opset8 x1)`)
	onnxRun("onnx-roialign-output-height-negative", onnxwire.Model(13, onnxwire.Graph("g",
		[][]byte{onnxwire.NodeAttrs("RoiAlign", "roi", []string{"x", "r", "i"}, []string{"t"}, onnxwire.IntAttr("output_height", -5)), relu}, nil,
		[][]byte{onnxwire.Value("x", onnxwire.Float, 1, 3, 8, 8), onnxwire.Value("r", onnxwire.Float, 2, 4), onnxwire.Value("i", onnxwire.Int64, 2)}, [][]byte{y})),
		`irdiv cannot execute 1 layer (ROIAlign opset3 x1)`)
	// An op of another domain computes a tensor of unknown element type;
	// the converters that make a constant of their input's type (Clip's
	// omitted bound, Gemm's alpha and beta, Pad-2's value, Slice's steps)
	// made one of the dynamic type, which has no values.
	mystery := onnxwire.DomainNode("com.example", "Mystery", "mystery", []string{"x"}, []string{"u"})
	custom := func(opset int64, nodes ...[]byte) []byte {
		return onnxwire.WithOpset(onnxwire.Model(opset, onnxwire.Graph("g", append([][]byte{mystery}, nodes...), nil,
			[][]byte{onnxwire.Value("x", onnxwire.Float, 4)}, [][]byte{y})), "com.example", 1)
	}
	for _, c := range []struct {
		name  string
		opset int64
		node  []byte
		op    string
	}{
		{"clip-max-omitted", 13, onnxwire.Node("Clip", "clip", []string{"u", "u"}, []string{"y"}), "Clip"},
		{"gemm-alpha", 13, onnxwire.NodeAttrs("Gemm", "gemm", []string{"u", "u"}, []string{"y"}, onnxwire.FloatAttr("alpha", 2)), "Gemm"},
		{"gemm-beta", 13, onnxwire.NodeAttrs("Gemm", "gemm", []string{"u", "u", "u"}, []string{"y"}, onnxwire.FloatAttr("beta", 0.5)), "Gemm"},
		{"pad2-value", 2, onnxwire.NodeAttrs("Pad", "pad", []string{"u"}, []string{"y"}, onnxwire.IntsAttr("pads", 1, 1)), "Pad"},
		{"slice-no-steps", 13, onnxwire.Node("Slice", "slice", []string{"x", "u", "u"}, []string{"y"}), "Slice"},
	} {
		counts := []string{c.op + " ai.onnx x1", "Mystery com.example x1"}
		slices.Sort(counts) // the message lists equal counts by name
		onnxRun("onnx-dynamic-type-"+c.name, custom(c.opset, c.node), "irdiv cannot execute 2 layers ("+strings.Join(counts, ", ")+")")
	}
	// Found by onnx's TestImportHostileNodes: a Conv of no spatial axis
	// (X and W of rank 2, no kernel_shape) sized its window by -1; a Div
	// with an empty input name read a tensor that is not there.
	onnxRun("onnx-conv-no-spatial-axis", onnxwire.Model(13, onnxwire.Graph("g", [][]byte{onnxwire.Node("Conv", "conv", []string{"x", "w"}, []string{"y"})},
		[][]byte{onnxwire.Tensor("w", onnxwire.Float, []int64{4, 4}, f32(16))}, [][]byte{onnxwire.Value("x", onnxwire.Float, 1, 4)}, [][]byte{y})),
		"irdiv cannot execute 1 layer (Conv ai.onnx x1)")
	onnxRun("onnx-div-input-absent", onnxwire.Model(13, onnxwire.Graph("g", [][]byte{onnxwire.Node("Div", "div", []string{"x", ""}, []string{"y"})}, nil,
		[][]byte{onnxwire.Value("x", onnxwire.Float, 4)}, [][]byte{y})),
		`node "div" (Div, #0): opset 13, Div-13: Div takes A and B, the node leaves one out (an empty input name)`)
	// An output port without <dim> of an op irdiv does not know: a
	// scalar or of unknown rank alike (OpenVINO's serializer writes
	// both so, and convert wrote one of unknown rank so). Read as a
	// scalar, it failed the Transpose after it.
	rankless := `<?xml version="1.0"?>
<net name="rankless" version="11">
<layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="2,3" element_type="f32"/><output><port id="0" precision="FP32" names="x"><dim>2</dim><dim>3</dim></port></output></layer>
<layer id="1" name="mystery" type="Mystery" version="com.example"><input><port id="0" precision="FP32"><dim>2</dim><dim>3</dim></port></input><output><port id="1" precision="FP32" names="u"/></output></layer>
<layer id="2" name="perm" type="Const" version="opset1"><data element_type="i64" shape="2" offset="0" size="16"/><output><port id="0" precision="I64"><dim>2</dim></port></output></layer>
<layer id="3" name="t" type="Transpose" version="opset1"><input><port id="0" precision="FP32"/><port id="1" precision="I64"><dim>2</dim></port></input><output><port id="2" precision="FP32" names="y"/></output></layer>
<layer id="4" name="y" type="Result" version="opset1"><input><port id="0" precision="FP32"/></input></layer>
</layers>
<edges>
<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="1" from-port="1" to-layer="3" to-port="0"/>
<edge from-layer="2" from-port="0" to-layer="3" to-port="1"/>
<edge from-layer="3" from-port="2" to-layer="4" to-port="0"/>
</edges>
</net>
`
	// Findings validate once missed (issue 28, item 2): a Mod by a
	// constant 0 (no finding, and the Divide after it shown with a
	// divisor "in [1, -1]"); a graph output whose stated type the ops
	// contradict (ONNX Runtime refuses the model).
	i64Value := onnxwire.Value("x", onnxwire.Int64, 4)
	b.raw("validate-onnx-mod-by-zero", map[string][]byte{"model.onnx": onnxwire.Model(13, onnxwire.Graph("g", [][]byte{
		onnxwire.Node("Mod", "mod", []string{"x", "zero"}, []string{"m"}), onnxwire.Node("Div", "div", []string{"x", "m"}, []string{"y"})},
		[][]byte{onnxwire.Tensor("zero", onnxwire.Int64, []int64{}, i64Bytes(0))}, [][]byte{i64Value}, [][]byte{onnxwire.Value("y", onnxwire.Int64, 4)}))},
		1, "1 error in 1 model", false, "validate", "{dir}/model.onnx")
	b.raw("validate-onnx-output-type-contradicted", map[string][]byte{"model.onnx": onnxwire.Model(13, onnxwire.Graph("g", [][]byte{
		onnxwire.Node("Abs", "abs", []string{"x"}, []string{"y"})}, nil, [][]byte{i64Value}, [][]byte{onnxwire.Value("y", onnxwire.Float, 4)}))},
		1, "1 error in 1 model", false, "validate", "{dir}/model.onnx")
	// A Range of 2^32 + 3 elements made 3 (OpenVINO's Range keeps the
	// low 32 bits of its length): refused at import when the limit is
	// known, at run time when it is an input.
	rangeModel := func(limit []byte) []byte {
		inits := [][]byte{onnxwire.Tensor("s", onnxwire.Int64, []int64{}, i64Bytes(0)), onnxwire.Tensor("d", onnxwire.Int64, []int64{}, i64Bytes(1))}
		var inputs [][]byte
		if limit != nil {
			inits = append(inits, onnxwire.Tensor("l", onnxwire.Int64, []int64{}, limit))
		} else {
			inputs = [][]byte{onnxwire.Value("l", onnxwire.Int64)}
		}
		return onnxwire.Model(13, onnxwire.Graph("g", [][]byte{onnxwire.Node("Range", "range", []string{"s", "l", "d"}, []string{"y"})}, inits, inputs,
			[][]byte{onnxwire.ValueInfo("y", onnxwire.Int64, -1)}))
	}
	onnxRun("onnx-range-2pow32", rangeModel(i64Bytes(1<<32+3)),
		`node "range" (Range, #0): opset 13: Range of 4294967299 elements: OpenVINO's Range holds its length in 32 bits (it would make 3)`)
	b.raw("onnx-range-2pow32-input", map[string][]byte{"model.onnx": rangeModel(nil), "l.npy": npyFile(npyDict("<i8", "False", ""), i64Bytes(1<<32+3))}, 1,
		`layer "range/length_of_2^32_or_more_past_every_cap"`, true, "run", "{dir}/model.onnx", "-i", "l={dir}/l.npy")
	// A 1 KB model of ConstantOfShape (the shape an input) and eleven
	// Reshapes: each tensor under --max-tensor, all of them together
	// held 12 times one until run ended. Now each is released once read,
	// and --max-memory bounds what is held at once.
	reshapes := [][]byte{onnxwire.Node("ConstantOfShape", "fill", []string{"s"}, []string{"r0"})}
	for i := range 11 {
		reshapes = append(reshapes, onnxwire.Node("Reshape", fmt.Sprintf("reshape%d", i), []string{fmt.Sprintf("r%d", i), "flat"}, []string{fmt.Sprintf("r%d", i+1)}))
	}
	reshapes = append(reshapes, onnxwire.Node("ReduceSum", "sum", []string{"r11"}, []string{"y"}))
	chain := onnxwire.Model(13, onnxwire.Graph("g", reshapes, [][]byte{onnxwire.Tensor("flat", onnxwire.Int64, []int64{1}, i64Bytes(-1))},
		[][]byte{onnxwire.Value("s", onnxwire.Int64, 1)}, [][]byte{onnxwire.ValueInfo("y", onnxwire.Float, 1)}))
	b.raw("run-max-memory", map[string][]byte{"model.onnx": chain, "s.npy": npyFile(npyDict("<i8", "False", "1,"), i64Bytes(1<<18))}, 1,
		`plugin: memory budget exceeded: layer "reshape0" (id 4): its output takes more than the 524288 bytes left, which would take the tensors held at once (1048576 bytes) past the 1572864 allowed (Config.MaxMemoryBytes); --max-memory raises the limit`,
		false, "run", "{dir}/model.onnx", "-i", "s={dir}/s.npy", "--max-tensor", "1MiB", "--max-memory", "1536KiB")
	b.raw("usage-max-memory", nil, 2, `invalid value "0" for flag -max-memory: want a size from 1 to 64GiB`, false, "run", "{dir}/model.xml", "--max-memory", "0")
	b.raw("port-without-dims-unknown-op", map[string][]byte{"model.xml": []byte(rankless), "model.bin": i64Bytes(1, 0)}, 1,
		"irdiv cannot execute 1 layer (Mystery com.example x1)", true, "run", "{dir}/model.xml")
}
