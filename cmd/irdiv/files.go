package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/irdiv/irdiv/internal/safefile"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx"
)

// inputFiles are the files a command reads. No output of the command may
// be one of them: convert -o M.onnx, an -o whose .bin is the model's
// weights, a report written over the model are refused, whatever the
// spelling, because files are compared by identity.
type inputFiles []string

func (in *inputFiles) add(paths ...string) { *in = append(*in, paths...) }

// checkOutput refuses to write path when it is one of the inputs; flag
// is what the user typed to name it ("-o out.xml").
func (in inputFiles) checkOutput(flag, path string) error {
	for _, p := range in {
		if !safefile.SameFile(path, p) {
			continue
		}
		if filepath.Clean(p) == filepath.Clean(path) {
			return fmt.Errorf("%s: %s is a file this command reads; irdiv does not write over its inputs", flag, path)
		}
		return fmt.Errorf("%s: %s is %s, a file this command reads; irdiv does not write over its inputs", flag, path, p)
	}
	return nil
}

// readModelFiles reads a model as readModel does and returns the files it
// read: the .xml and its .bin, or the .onnx and its external data.
func readModelFiles(path string, opts ir.ReadOptions, maxTensor int64) (*ir.Model, inputFiles, error) {
	if maxTensor <= 0 {
		maxTensor = defaultMaxTensor
	}
	if isONNX(path) {
		m, err := onnx.ReadFile(path, onnx.ReadOptions{MaxTensorBytes: maxTensor})
		if err != nil {
			return nil, nil, err
		}
		model, err := onnx.Convert(m)
		return model, append(inputFiles{path}, m.DataFiles...), err
	}
	bin := opts.WeightsPath
	if bin == "" {
		bin = strings.TrimSuffix(path, filepath.Ext(path)) + ".bin"
	}
	m, err := ir.ReadFile(path, opts)
	if errors.Is(err, ir.ErrLimit) {
		// Name the flag that raises the cap the file passed.
		for _, c := range []struct{ field, flag string }{{"MaxNodes", "--max-nodes"}, {"MaxLayers", "--max-layers"}, {"MaxPorts", "--max-layers"}, {"MaxEdges", "--max-layers"}} {
			if strings.Contains(err.Error(), "ReadOptions."+c.field+")") {
				err = fmt.Errorf("%w; %s raises it", err, c.flag)
				break
			}
		}
	}
	return m, inputFiles{path, bin}, err
}

// pbOptions bound a .pb tensor file: the tensor by the cap, the file by
// the cap and room for its header.
func pbOptions(maxTensor int64) onnx.ReadOptions {
	return onnx.ReadOptions{MaxBytes: maxTensor + 1<<20, MaxTensorBytes: maxTensor}
}

// target is what a file of a test data set may give: a model input or
// output, or an input of one layer.
type target struct {
	what  string   // `input "x"`, in messages
	names []string // the names a tensor may carry to match it
	typ   ir.ElementType
}

// dataFile is a tensor of an ONNX test data set, read.
type dataFile struct {
	path   string
	tensor *ir.Tensor
}

var dataSetName = regexp.MustCompile(`^(input|output)_(0|[1-9][0-9]{0,8})\.pb$`)

// matchDataSet reads the prefix_N.pb files of an ONNX test data set
// (test_data_set_N) and gives each target the file meant for it: by the
// tensor's name where the file holds one, else by position, prefix_N.pb
// being target N, as ONNX's test runners do. Targets in skip are given
// otherwise (by -i). A target without a file, a file that matches no
// target, and two files for one target are errors naming the file and
// the target: the data set must say all, and irdiv never makes up data
// in its place.
func matchDataSet(flag, dir, prefix string, targets []target, skip map[int]string, maxTensor int64) (map[int]dataFile, error) {
	entries, err := safefile.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, dir, err)
	}
	type file struct {
		n    int
		name string
	}
	var files []file
	for _, e := range entries {
		if m := dataSetName.FindStringSubmatch(e.Name()); m != nil && m[1] == prefix {
			n, _ := strconv.Atoi(m[2])
			files = append(files, file{n, e.Name()})
		}
	}
	slices.SortFunc(files, func(a, b file) int { return a.n - b.n })
	if len(files) == 0 && len(targets) > len(skip) {
		return nil, fmt.Errorf("%s %s holds no %s_N.pb (an ONNX test_data_set folder holds input_N.pb and output_N.pb)", flag, dir, prefix)
	}
	all := make([]string, len(targets))
	for i, t := range targets {
		all[i] = t.what
	}
	matched := make(map[int]dataFile)
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		t, name, err := onnx.ReadTensorFile(path, pbOptions(maxTensor))
		if err != nil {
			return nil, err
		}
		i := -1
		if name != "" {
			i = slices.IndexFunc(targets, func(t target) bool { return slices.Contains(t.names, name) })
			if i < 0 {
				return nil, fmt.Errorf("%s %s: %s holds tensor %q, which is no %s of the model (%s)", flag, dir, f.name, name, prefix, strings.Join(all, ", "))
			}
		} else if i = f.n; i >= len(targets) {
			return nil, fmt.Errorf("%s %s: %s has no tensor name, and by its position it would be %s %d, but there are %d (%s)", flag, dir, f.name, prefix, f.n, len(targets), strings.Join(all, ", "))
		}
		if by, ok := skip[i]; ok {
			return nil, fmt.Errorf("%s is given both by %s and by %s %s", targets[i].what, by, flag, path)
		}
		if prev, ok := matched[i]; ok {
			return nil, fmt.Errorf("%s %s: %s and %s both give %s", flag, dir, filepath.Base(prev.path), f.name, targets[i].what)
		}
		if t.Type != targets[i].typ {
			return nil, fmt.Errorf("%s holds %s but %s is %s; irdiv never casts", path, t.Type, targets[i].what, targets[i].typ)
		}
		matched[i] = dataFile{path, t}
	}
	for i, t := range targets {
		if _, ok := matched[i]; !ok && skip[i] == "" {
			return nil, fmt.Errorf("%s %s has no file for %s (%s_%d.pb, or a .pb holding tensor %q)", flag, dir, t.what, prefix, i, t.names[0])
		}
	}
	return matched, nil
}

// isDir reports whether path is a folder (links followed).
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// walkModels appends the .xml files under dir, in lexical order, as
// filepath.WalkDir finds them: links to folders are not followed, and
// every folder is opened without waiting (a FIFO in a folder's place is
// refused).
func walkModels(dir string, paths []string) ([]string, error) {
	entries, err := safefile.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			if paths, err = walkModels(path, paths); err != nil {
				return nil, err
			}
		case strings.EqualFold(filepath.Ext(path), ".xml") || strings.EqualFold(filepath.Ext(path), ".onnx"):
			paths = append(paths, path)
		}
	}
	return paths, nil
}
