package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/irdiv/irdiv/ir"
	"github.com/irdiv/irdiv/ir/npy"
	"github.com/irdiv/irdiv/ops"
	"github.com/irdiv/irdiv/shapeinfer"
)

const evalHelp = `[flags] A B

Divides A by B. Each operand is a literal or a .npy file, told apart by
syntax: a literal is a number (5, -2.5, inf, nan) or starts with "["
([[1,2],[3,4]]); anything else names a file. Literals take --type, or the
type of the other operand when that one is a .npy file.`

func evalCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("eval", evalHelp, stdout)
	typeName := fs.String("type", "", "element type: f32 f64 f16 bf16 i8 i16 i32 i64 u8 u16 u32 u64 (default f32, or the .npy operand's)")
	pythonDiv := fs.Bool("pythondiv", true, "floor integer division (true) or truncate (false); floats ignore it")
	broadcast := fs.String("broadcast", "numpy", "auto_broadcast: none, numpy or pdpd")
	axis := fs.Int64("axis", -1, "pdpd axis")
	outPath := fs.String("o", "", "write the result to this .npy file instead of printing it")
	var k kernelFlags
	k.register(fs)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageErr("want two operands A and B, got %d", len(pos))
	}
	mode, err := shapeinfer.ParseMode(*broadcast)
	if err != nil {
		return usageErr("--broadcast %s: must be one of none, numpy, pdpd (or explicit, which is none)", *broadcast)
	}
	opts, err := k.options()
	if err != nil {
		return err
	}
	var typ ir.ElementType
	haveType := *typeName != ""
	if haveType {
		if typ, err = ir.ParseElementType(*typeName); err != nil || !typ.IsNumeric() {
			return usageErr("--type %s: must be one of f32, f64, f16, bf16, i8, i16, i32, i64, u8, u16, u32, u64", *typeName)
		}
	}
	a, b, err := operands(pos[0], pos[1], typ, haveType, opts.MaxTensorBytes)
	if err != nil {
		return err
	}
	call, err := ops.NewDivide(shapeinfer.Broadcast{Mode: mode, Axis: *axis}, *pythonDiv).Prepare(a, b, opts)
	if err != nil {
		return err
	}
	out, err := call.Evaluate(a, b)
	if err != nil {
		return err
	}
	if *outPath != "" {
		var inputs inputFiles
		for _, arg := range pos {
			if !isLiteral(arg) {
				inputs.add(arg)
			}
		}
		if err := inputs.checkOutput("-o "+*outPath, *outPath); err != nil {
			return err
		}
		return npy.WriteFile(*outPath, out)
	}
	fmt.Fprintf(stdout, "shape %s %s\n", shapeString(out.Shape), out.Type)
	if n := out.Len(); n > maxPrinted {
		fmt.Fprintf(stdout, "%s (%d values; -o FILE.npy writes them all)\n", summary(out, 16), n)
	} else {
		fmt.Fprintln(stdout, formatTensor(out))
	}
	return nil
}

// maxPrinted is the largest result eval prints in full; a larger one is
// summarised as run does, so printing never costs more than it shows.
const maxPrinted = 256

// isLiteral tells an inline operand from a file name by its syntax alone,
// never by what happens to exist on disk.
func isLiteral(arg string) bool {
	s := strings.TrimSpace(arg)
	return s == "" || strings.HasPrefix(s, "[") || isNumber(s)
}

// operands loads A and B. A .npy operand fixes the type of a literal one;
// an explicit type must agree with every .npy.
func operands(aArg, bArg string, typ ir.ElementType, haveType bool, maxBytes int64) (a, b *ir.Tensor, err error) {
	var tensors [2]*ir.Tensor
	for i, arg := range []string{aArg, bArg} {
		if !isLiteral(arg) {
			if tensors[i], err = readNPY(arg, typ, haveType, maxBytes); err != nil {
				return nil, nil, err
			}
		}
	}
	if !haveType {
		typ = ir.F32
		for _, t := range tensors {
			if t != nil {
				typ = t.Type
				break
			}
		}
	}
	for i, arg := range []string{aArg, bArg} {
		if tensors[i] != nil {
			continue
		}
		lit, err := parseLiteral(arg)
		if err != nil {
			return nil, nil, err
		}
		if tensors[i], err = lit.tensor(typ); err != nil {
			return nil, nil, fmt.Errorf("operand %c: %w", "AB"[i], err)
		}
	}
	return tensors[0], tensors[1], nil
}
