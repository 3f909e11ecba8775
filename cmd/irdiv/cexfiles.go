package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/internal/safefile"
	"github.com/irdiv/irdiv/internal/safename"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ir/npy"
	"github.com/irdiv/irdiv/onnx"
	"github.com/irdiv/irdiv/validate"
)

// defaultMaxFiles bounds what validate --counter-examples writes in one
// run, files and folders: a 6 KB model of 60 Divides beside 240 inputs
// would otherwise ask for 14,400 files. A real model's counter-examples,
// a few inputs each, stay far below.
const defaultMaxFiles = 1024

// cexWriter writes counter-example folders under one DIR. Every file is
// created through an os.Root of DIR, so a path that would leave DIR (by
// "..", or a link met on the way) is refused by the kernel's resolution,
// not by a check of the name beforehand; the names are made safe too
// (internal/safename), so that this is a second guard, not the only one.
type cexWriter struct {
	dir      string
	root     *os.Root
	maxFiles int // files and folders one run may create
	created  int
}

// writeCounterExamples writes the counter-examples of the reports as
// folders DIR/<model>/<n>-<layer>/ of NAME.npy, one per model input, and
// names the folder in each finding's evidence (counter_example_dir).
// Findings of one model whose counter-examples are the same inputs share
// one folder. <model> is unique among the models of the run (two
// model.onnx from different folders are model and model~2) and must be a
// new or empty folder: files of an earlier run are never mixed with these
// nor written over. Past maxFiles files and folders, a counter-example
// is not written and its evidence says so (counter_example_not_written).
func writeCounterExamples(dir string, reports []*validate.Report, paths []string, maxFiles int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--counter-examples: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("--counter-examples: %w", err)
	}
	defer root.Close()
	w := &cexWriter{dir: dir, root: root, maxFiles: maxFiles}
	stems := make([]string, len(paths))
	for i, p := range paths {
		stems[i] = strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))
	}
	stems = safename.Unique(stems)
	// Refuse before writing anything, rather than leave half a run.
	for i, r := range reports {
		if hasCounterExample(r) {
			if err := w.checkNew(stems[i]); err != nil {
				return err
			}
		}
	}
	for i, r := range reports {
		if hasCounterExample(r) {
			if err := w.model(stems[i], r, paths[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// openVINOModel is an .onnx model as OpenVINO's ONNX import computes it,
// every signed integer Div flooring, written with standard ONNX ops
// (onnx.FlooringDivs), so that any runtime replays OpenVINO's side of a
// counter-example; or why it cannot be written.
func openVINOModel(path string) ([]byte, string) {
	data, err := safefile.ReadFile(path, 2<<30-1)
	if err != nil {
		return nil, err.Error()
	}
	om, err := onnx.ReadFile(path, onnx.ReadOptions{})
	if err != nil {
		return nil, err.Error()
	}
	m, err := onnx.Import(om, onnx.ImportOptions{})
	if err != nil {
		return nil, err.Error()
	}
	types := make(map[string]ir.ElementType)
	var outputs []string
	for _, l := range m.AllLayers() {
		if strings.EqualFold(l.Type, "Divide") && len(l.Outputs) > 0 && l.Outputs[0].Type.IsSigned() && l.Outputs[0].Type.IsInteger() && len(l.Outputs[0].Names) > 0 {
			name := l.Outputs[0].Names[0]
			outputs = append(outputs, name)
			types[name] = l.Outputs[0].Type
		}
	}
	floored, _, err := onnx.FlooringDivs(data, outputs, types)
	if err != nil {
		return nil, err.Error()
	}
	return floored, ""
}

func hasCounterExample(r *validate.Report) bool {
	return slices.ContainsFunc(r.Findings, func(f validate.Finding) bool { return f.CounterExample != nil })
}

// checkNew refuses a model folder that holds something already.
func (w *cexWriter) checkNew(name string) error {
	f, err := w.root.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--counter-examples %s: %w", w.dir, err)
	}
	defer f.Close()
	if _, err := f.Readdirnames(1); err != io.EOF {
		return fmt.Errorf("--counter-examples %s: %s is not empty (an earlier run's?); irdiv writes counter-examples into new folders only, never over other files: remove it or choose another folder",
			w.dir, filepath.Join(w.dir, name))
	}
	return nil
}

// model writes one report's counter-examples into the folder name, and
// for an .onnx model, once, openvino.onnx: the model as OpenVINO's import
// computes it, which any runtime runs beside the model itself on each
// counter-example folder.
func (w *cexWriter) model(name string, r *validate.Report, path string) error {
	made := false
	var openvino []byte
	openvinoWhy := ""
	if isONNX(path) {
		openvino, openvinoWhy = openVINOModel(path)
	}
	written := make(map[[32]byte]string) // inputs' digest -> folder
	for j := range r.Findings {
		f := &r.Findings[j]
		c := f.CounterExample
		if c == nil {
			continue
		}
		digest := inputsDigest(c)
		if folder, ok := written[digest]; ok {
			f.Evidence = f.Evidence.With(validate.Fact{Name: "counter_example_dir", Value: folder})
			continue
		}
		need := len(c.Inputs) + 1
		if !made {
			need++
			if openvino != nil {
				need++
			}
		}
		if w.created+need > w.maxFiles {
			f.Evidence = f.Evidence.With(validate.Fact{Name: "counter_example_not_written",
				Value: fmt.Sprintf("--max-files %d: it needs %d files and folders (%d inputs), %d left", w.maxFiles, need, len(c.Inputs), w.maxFiles-w.created)})
			continue
		}
		if !made {
			if err := w.mkdir(name); err != nil {
				return err
			}
			made = true
			if openvino != nil {
				if err := w.writeBytes(filepath.Join(name, "openvino.onnx"), openvino); err != nil {
					return err
				}
			}
		}
		sub := strconv.Itoa(j)
		if f.Layer != nil {
			sub += "-" + safename.Stem(f.Layer.Name)
		}
		rel := filepath.Join(name, sub)
		if err := w.mkdir(rel); err != nil {
			return err
		}
		files := c.Files()
		for _, input := range slices.Sorted(maps.Keys(c.Inputs)) {
			if err := w.write(filepath.Join(rel, files[input]), c, input); err != nil {
				return err
			}
		}
		folder := filepath.Join(w.dir, rel)
		written[digest] = folder
		f.Evidence = f.Evidence.With(validate.Fact{Name: "counter_example_dir", Value: folder})
		switch {
		case openvino != nil:
			f.Evidence = f.Evidence.With(validate.Fact{Name: "openvino_model", Value: filepath.Join(w.dir, name, "openvino.onnx")})
		case openvinoWhy != "":
			f.Evidence = f.Evidence.With(validate.Fact{Name: "openvino_model_not_written", Value: openvinoWhy})
		}
	}
	return nil
}

func (w *cexWriter) mkdir(rel string) error {
	err := w.root.Mkdir(rel, 0o755)
	if errors.Is(err, fs.ErrExist) && rel == filepath.Base(rel) {
		err = nil // the model's folder, checked empty
	}
	if err != nil {
		return fmt.Errorf("--counter-examples: %w", err)
	}
	w.created++
	return nil
}

// writeBytes creates one file, never over an existing one.
func (w *cexWriter) writeBytes(rel string, data []byte) error {
	file, err := w.root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("--counter-examples: %w", err)
	}
	w.created++
	_, err = file.Write(data)
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--counter-examples %s: %w", filepath.Join(w.dir, rel), err)
	}
	return nil
}

// write creates one .npy, never over an existing file.
func (w *cexWriter) write(rel string, c *validate.CounterExample, input string) error {
	file, err := w.root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("--counter-examples: %w", err)
	}
	w.created++
	buf := bufio.NewWriter(file)
	err = npy.Write(buf, c.Inputs[input])
	if err == nil {
		err = buf.Flush()
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--counter-examples %s: %w", filepath.Join(w.dir, rel), err)
	}
	return nil
}

// inputsDigest identifies a counter-example by its inputs: names, types,
// shapes and bytes.
func inputsDigest(c *validate.CounterExample) [32]byte {
	h := sha256.New()
	var n [8]byte
	field := func(b []byte) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	for _, name := range slices.Sorted(maps.Keys(c.Inputs)) {
		t := c.Inputs[name]
		field([]byte(name))
		field([]byte(t.Type.String()))
		for _, d := range t.Shape {
			binary.LittleEndian.PutUint64(n[:], uint64(d))
			h.Write(n[:])
		}
		field(t.Data)
	}
	return [32]byte(h.Sum(nil))
}
