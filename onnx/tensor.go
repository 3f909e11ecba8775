package onnx

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strconv"

	"github.com/irdiv/irdiv/internal/safefile"
	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/onnx/internal/onnxpb"
	"google.golang.org/protobuf/proto"
)

// elementTypes maps TensorProto.DataType to the twelve numeric element
// types and boolean; the others (string, complex, the 8-bit floats) are
// refused.
var elementTypes = map[onnxpb.TensorProto_DataType]ir.ElementType{
	onnxpb.TensorProto_FLOAT: ir.F32, onnxpb.TensorProto_DOUBLE: ir.F64,
	onnxpb.TensorProto_FLOAT16: ir.F16, onnxpb.TensorProto_BFLOAT16: ir.BF16,
	onnxpb.TensorProto_INT8: ir.I8, onnxpb.TensorProto_INT16: ir.I16,
	onnxpb.TensorProto_INT32: ir.I32, onnxpb.TensorProto_INT64: ir.I64,
	onnxpb.TensorProto_UINT8: ir.U8, onnxpb.TensorProto_UINT16: ir.U16,
	onnxpb.TensorProto_UINT32: ir.U32, onnxpb.TensorProto_UINT64: ir.U64,
	onnxpb.TensorProto_BOOL: ir.Boolean,
}

// DataTypeName returns ONNX's name of an element type ("FLOAT", "INT32").
func DataTypeName(t ir.ElementType) string {
	for dt, et := range elementTypes {
		if et == t {
			return dt.String()
		}
	}
	return t.String()
}

// elementType converts a TensorProto.DataType; what names the value in
// errors.
func elementType(dt int32, what string) (ir.ElementType, error) {
	if t, ok := elementTypes[onnxpb.TensorProto_DataType(dt)]; ok {
		return t, nil
	}
	name := onnxpb.TensorProto_DataType(dt).String()
	return 0, errorf("%w: %s has element type %s; irdiv reads the twelve numeric types (FLOAT, DOUBLE, FLOAT16, BFLOAT16, INT8-64, UINT8-64) and BOOL", ErrUnsupported, what, name)
}

// tensorReader decodes TensorProtos, reading external data relative to
// dir within the caps.
type tensorReader struct {
	dir      string // the model's folder; "" when external data is not allowed
	maxBytes int64
	// budgets bounds what each external file may give, by the file's
	// identity (links to one file share it): distinct ranges add up to at
	// most twice its size, as for the .bin of an IR.
	budgets map[any]int64
	// files are the external data files read, each once.
	files []string
}

// tensor decodes tp; what names it in errors ("initializer \"w\"").
func (r *tensorReader) tensor(tp *onnxpb.TensorProto, what string) (*ir.Tensor, error) {
	if tp.GetSegment() != nil {
		return nil, errorf("%w: %s is segmented; irdiv reads whole tensors", ErrUnsupported, what)
	}
	t, err := elementType(tp.GetDataType(), what)
	if err != nil {
		return nil, err
	}
	shape := tp.GetDims()
	n, err := ir.NumElements(shape)
	if err != nil {
		why := "a negative dimension"
		if errors.Is(err, ir.ErrTooLarge) {
			why = "more than 2^63-1 elements"
		}
		return nil, errorf("%w: %s has dims %v: %s", ErrFormat, what, shape, why)
	}
	size, err := ir.ByteSize(t, n)
	if err != nil || size > r.maxBytes {
		return nil, errorf("%w: %s of %s%v is larger than the %d bytes allowed (ReadOptions.MaxTensorBytes)", ir.ErrTooLarge, what, t, shape, r.maxBytes)
	}
	if tp.GetDataLocation() == onnxpb.TensorProto_EXTERNAL {
		return r.external(tp, what, t, shape, size)
	}
	if raw := tp.GetRawData(); raw != nil {
		return fromRaw(t, shape, raw, what)
	}
	out, err := ir.NewTensor(t, shape)
	if err != nil {
		return nil, err
	}
	fields := []struct {
		name  string
		count int
	}{
		{"float_data", len(tp.GetFloatData())}, {"int32_data", len(tp.GetInt32Data())},
		{"int64_data", len(tp.GetInt64Data())}, {"uint64_data", len(tp.GetUint64Data())},
		{"double_data", len(tp.GetDoubleData())},
	}
	want := map[ir.ElementType]string{
		ir.F32: "float_data", ir.F64: "double_data", ir.I64: "int64_data", ir.U32: "uint64_data", ir.U64: "uint64_data",
		ir.F16: "int32_data", ir.BF16: "int32_data", ir.I8: "int32_data", ir.I16: "int32_data", ir.I32: "int32_data",
		ir.U8: "int32_data", ir.U16: "int32_data", ir.Boolean: "int32_data",
	}[t]
	for _, f := range fields {
		if f.count > 0 && f.name != want {
			return nil, errorf("%w: %s is %s but holds %s (%s belongs in %s)", ErrFormat, what, DataTypeName(t), f.name, DataTypeName(t), want)
		}
		if f.name == want && int64(f.count) != n {
			return nil, errorf("%w: %s of dims %v needs %d values in %s, has %d", ErrFormat, what, shape, n, want, f.count)
		}
	}
	for i := range int(n) {
		switch want {
		case "float_data":
			ir.View[float32](out)[i] = tp.GetFloatData()[i]
		case "double_data":
			ir.View[float64](out)[i] = tp.GetDoubleData()[i]
		case "int64_data":
			ir.View[int64](out)[i] = tp.GetInt64Data()[i]
		case "uint64_data":
			// uint32 values travel in uint64_data too.
			out.SetInt64(i, int64(tp.GetUint64Data()[i]))
		case "int32_data":
			// Types narrower than 32 bits travel in int32_data: the
			// value for integers, the bit pattern for f16 and bf16.
			v := tp.GetInt32Data()[i]
			if t.IsFloat() {
				ir.View[uint16](out)[i] = uint16(v)
			} else {
				out.SetInt64(i, int64(v))
			}
		}
	}
	return out, nil
}

// fromRaw copies little-endian raw data, which must hold exactly the
// tensor's elements.
func fromRaw(t ir.ElementType, shape []int64, raw []byte, what string) (*ir.Tensor, error) {
	out, err := ir.NewTensor(t, shape)
	if err != nil {
		return nil, err
	}
	if len(raw) != len(out.Data) {
		return nil, errorf("%w: %s of %s%v needs %d bytes of data, has %d", ErrFormat, what, t, shape, len(out.Data), len(raw))
	}
	copy(out.Data, raw)
	return out, nil
}

// external reads a tensor stored outside the model: the file named by
// "location", inside the model's folder (links followed only while they
// stay inside it), from "offset" for "length" bytes (the rest of the file
// when absent), which must be the size of the tensor's type and dims,
// already checked against the cap.
func (r *tensorReader) external(tp *onnxpb.TensorProto, what string, t ir.ElementType, shape []int64, size int64) (*ir.Tensor, error) {
	if r.dir == "" {
		return nil, errorf("%w: %s has external data, which a model read from memory cannot reach", ErrFormat, what)
	}
	var location string
	var offset, length int64 = 0, -1
	for _, kv := range tp.GetExternalData() {
		var err error
		switch kv.GetKey() {
		case "location":
			location = kv.GetValue()
		case "offset":
			offset, err = strconv.ParseInt(kv.GetValue(), 10, 64)
		case "length":
			length, err = strconv.ParseInt(kv.GetValue(), 10, 64)
		}
		if err != nil || offset < 0 || length < -1 {
			return nil, errorf("%w: %s has external data %s = %q, not a size", ErrFormat, what, kv.GetKey(), kv.GetValue())
		}
	}
	if location == "" {
		return nil, errorf("%w: %s has external data without a location", ErrFormat, what)
	}
	f, err := safefile.OpenIn(r.dir, location)
	switch {
	case errors.Is(err, safefile.ErrEscapes):
		return nil, errorf("%w: %s has external data at %q, outside the model's folder %s", ErrFormat, what, location, r.dir)
	case err != nil:
		return nil, errorf("%w: %s: external data %s: %v", ErrFormat, what, location, pathless(err))
	}
	defer f.Close()
	total := f.Size()
	if length == -1 {
		length = total - offset
	}
	if offset > total || length > total-offset {
		return nil, errorf("%w: %s: external data offset %d + length %d is past the end of %s (%d bytes)", ErrFormat, what, offset, length, location, total)
	}
	if length != size {
		return nil, errorf("%w: %s needs %d bytes of data, its external data in %s has %d", ErrFormat, what, size, location, length)
	}
	if r.budgets == nil {
		r.budgets = make(map[any]int64)
	}
	budget, seen := r.budgets[f.Key()]
	if !seen {
		budget = 2 * total
		r.files = append(r.files, f.Name())
	}
	if length > budget {
		return nil, errorf("%w: %s: the tensors read more than twice the %d bytes of %s", ErrFormat, what, total, location)
	}
	r.budgets[f.Key()] = budget - length
	out, err := ir.NewTensor(t, shape)
	if err != nil {
		return nil, err
	}
	if _, err := f.ReadAt(out.Data, offset); err != nil && !(err == io.EOF && len(out.Data) == 0) {
		return nil, errorf("%w: %s: reading %s: %v", ErrFormat, what, location, err)
	}
	return out, nil
}

// pathless drops the path from an error about opening a file, for
// messages that name the file already.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ReadTensorFile reads a serialized TensorProto, as the .pb files of
// ONNX's test data; it returns the tensor and its name. Its size is bounded
// as a model's.
func ReadTensorFile(path string, opts ReadOptions) (*ir.Tensor, string, error) {
	data, err := readFile(path, opts.maxBytes())
	if err != nil {
		return nil, "", err
	}
	var tp onnxpb.TensorProto
	if err := proto.Unmarshal(data, &tp); err != nil {
		return nil, "", errorf("%w: %s is not a TensorProto: %v", ErrFormat, path, err)
	}
	r := &tensorReader{dir: filepath.Dir(path), maxBytes: opts.maxTensorBytes()}
	what := "tensor"
	if tp.GetName() != "" {
		what = fmt.Sprintf("tensor %q", tp.GetName())
	}
	t, err := r.tensor(&tp, path+": "+what)
	if err != nil {
		return nil, "", err
	}
	return t, tp.GetName(), nil
}

// EncodeTensor serializes a tensor as a TensorProto with raw data, the
// form of ONNX's test data.
func EncodeTensor(t *ir.Tensor, name string) ([]byte, error) {
	for dt, et := range elementTypes {
		if et == t.Type {
			return proto.Marshal(&onnxpb.TensorProto{
				Dims: t.Shape, DataType: proto.Int32(int32(dt)), Name: proto.String(name), RawData: t.Data,
			})
		}
	}
	return nil, errorf("%w: no ONNX type for %s", ErrUnsupported, t.Type)
}

// readFile reads a whole file, a regular one of no more than max bytes.
func readFile(path string, max int64) ([]byte, error) {
	f, err := safefile.Open(path)
	if err != nil {
		return nil, errorf("%s: %w", path, pathless(err))
	}
	defer f.Close()
	if f.Size() > max {
		return nil, errorf("%w: %s has %d bytes, more than the %d allowed (ReadOptions.MaxBytes)", ir.ErrLimit, path, f.Size(), max)
	}
	data, err := f.ReadAll(max)
	if err != nil {
		return nil, errorf("%s: %w", path, pathless(err))
	}
	return data, nil
}
