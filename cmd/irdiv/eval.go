package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ir/npy"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

func evalCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("eval", "[flags] A B\n\nA and B are .npy files or inline literals: a number or a nested array such as [[1,2],[3,4]].\nLiterals take --type, or the type of the other operand when that one is a .npy file.", stdout)
	typeName := fs.String("type", "", "element type: f32 f64 f16 bf16 i8 i16 i32 i64 u8 u16 u32 u64 (default f32, or the .npy operand's)")
	pythonDiv := fs.Bool("pythondiv", true, "floor integer division (true) or truncate (false); floats ignore it")
	broadcast := fs.String("broadcast", "numpy", "auto_broadcast: none, numpy or pdpd")
	axis := fs.Int64("axis", -1, "pdpd axis")
	outPath := fs.String("o", "", "write the result to this .npy file instead of printing it")
	simd := fs.String("simd", "auto", "kernel level: auto, avx2 or generic")
	maxTensor := addMaxTensorFlag(fs)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageErr("want two operands A and B, got %d", len(pos))
	}
	mode, err := shapeinfer.ParseMode(*broadcast)
	if err != nil {
		return usageErr("--broadcast: %v", err)
	}
	level, err := ops.ParseSIMDLevel(*simd)
	if err != nil {
		return usageErr("--simd: %v", err)
	}
	var typ ir.ElementType
	haveType := *typeName != ""
	if haveType {
		if typ, err = ir.ParseElementType(*typeName); err != nil || !typ.IsNumeric() {
			return usageErr("--type %q: want one of f32 f64 f16 bf16 i8 i16 i32 i64 u8 u16 u32 u64", *typeName)
		}
	}
	a, b, err := operands(pos[0], pos[1], typ, haveType, int64(*maxTensor))
	if err != nil {
		return err
	}
	d := ops.NewDivide(shapeinfer.Broadcast{Mode: mode, Axis: *axis}, *pythonDiv)
	if a.Type != b.Type {
		_, err := d.Infer([]ops.Value{{Type: a.Type, Shape: shapeinfer.StaticShape(a.Shape...)}, {Type: b.Type, Shape: shapeinfer.StaticShape(b.Shape...)}})
		return err
	}
	call, err := d.Prepare(a.Type, a.Shape, b.Shape, level)
	if err != nil {
		return err
	}
	if err := checkSize("the result", call.Type, call.OutShape, int64(*maxTensor)); err != nil {
		return err
	}
	out, err := ir.NewTensor(call.Type, call.OutShape)
	if err != nil {
		return err
	}
	if err := call.Run(out, a, b); err != nil {
		return err
	}
	if *outPath != "" {
		return npy.WriteFile(*outPath, out)
	}
	fmt.Fprintf(stdout, "shape %s %s\n", shapeString(out.Shape), out.Type)
	if n := out.NumElements(); n > maxPrinted {
		fmt.Fprintf(stdout, "%s (%d values; -o FILE.npy writes them all)\n", summary(out, 16), n)
	} else {
		fmt.Fprintln(stdout, formatTensor(out))
	}
	return nil
}

// maxPrinted is the largest result eval prints in full; a larger one is
// summarised as run does, so printing never costs more than it shows.
const maxPrinted = 256

// operands loads A and B. A .npy operand fixes the type of a literal one;
// an explicit type must agree with every .npy.
func operands(aArg, bArg string, typ ir.ElementType, haveType bool, maxBytes int64) (a, b *ir.Tensor, err error) {
	isFile := func(s string) bool {
		if strings.HasSuffix(s, ".npy") {
			return true
		}
		st, err := os.Stat(s)
		return err == nil && st.Mode().IsRegular()
	}
	load := func(arg string) (*ir.Tensor, error) { return readNPY(arg, typ, haveType, maxBytes) }
	var files [2]*ir.Tensor
	for i, arg := range []string{aArg, bArg} {
		if isFile(arg) {
			if files[i], err = load(arg); err != nil {
				return nil, nil, err
			}
		}
	}
	if !haveType {
		typ = ir.F32
		for _, f := range files {
			if f != nil {
				typ, haveType = f.Type, true
				break
			}
		}
	}
	for i, arg := range []string{aArg, bArg} {
		if files[i] != nil {
			continue
		}
		lit, err := parseLiteral(arg)
		if err != nil {
			return nil, nil, err
		}
		if files[i], err = lit.tensor(typ); err != nil {
			return nil, nil, fmt.Errorf("operand %c: %w", "AB"[i], err)
		}
	}
	return files[0], files[1], nil
}
