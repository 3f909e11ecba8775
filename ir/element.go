package ir

import (
	"fmt"
	"strings"
)

// ElementType is a tensor element type, as OpenVINO's element::Type_t.
type ElementType uint8

// The element types of OpenVINO. The twelve numeric ones (F16 ... U64 except
// the sub-byte and 8-bit float formats) are the ones Divide evaluates.
const (
	Dynamic ElementType = iota // "dynamic", also read from "undefined"
	Boolean
	BF16
	F16
	F32
	F64
	I4
	I8
	I16
	I32
	I64
	U1
	U2
	U3
	U4
	U6
	U8
	U16
	U32
	U64
	NF4
	F8E4M3
	F8E5M2
	String
	F4E2M1
	F8E8M0
	numElementTypes
)

type elementInfo struct {
	name      string // IR name in <data element_type>
	precision string // port precision name
	bits      int
}

var elementInfos = [numElementTypes]elementInfo{
	Dynamic: {"dynamic", "UNSPECIFIED", 0},
	Boolean: {"boolean", "BOOL", 8},
	BF16:    {"bf16", "BF16", 16},
	F16:     {"f16", "FP16", 16},
	F32:     {"f32", "FP32", 32},
	F64:     {"f64", "FP64", 64},
	I4:      {"i4", "I4", 4},
	I8:      {"i8", "I8", 8},
	I16:     {"i16", "I16", 16},
	I32:     {"i32", "I32", 32},
	I64:     {"i64", "I64", 64},
	U1:      {"u1", "BIN", 1},
	U2:      {"u2", "U2", 2},
	U3:      {"u3", "U3", 3},
	U4:      {"u4", "U4", 4},
	U6:      {"u6", "U6", 6},
	U8:      {"u8", "U8", 8},
	U16:     {"u16", "U16", 16},
	U32:     {"u32", "U32", 32},
	U64:     {"u64", "U64", 64},
	NF4:     {"nf4", "NF4", 4},
	F8E4M3:  {"f8e4m3", "F8E4M3", 8},
	F8E5M2:  {"f8e5m2", "F8E5M2", 8},
	String:  {"string", "STRING", 8},
	F4E2M1:  {"f4e2m1", "F4E2M1", 4},
	F8E8M0:  {"f8e8m0", "F8E8M0", 8},
}

// String returns the IR name ("f32", "i64", "boolean"...).
func (t ElementType) String() string {
	if t < numElementTypes {
		return elementInfos[t].name
	}
	return fmt.Sprintf("ElementType(%d)", uint8(t))
}

// Precision returns the port precision name ("FP32", "I64", "BOOL"...).
func (t ElementType) Precision() string {
	if t < numElementTypes {
		return elementInfos[t].precision
	}
	return t.String()
}

// Bits returns the width of one element in bits (0 for Dynamic).
func (t ElementType) Bits() int {
	if t < numElementTypes {
		return elementInfos[t].bits
	}
	return 0
}

// Size returns the width of one element in bytes, rounded up.
func (t ElementType) Size() int { return (t.Bits() + 7) / 8 }

// IsNumeric reports whether t is one of the twelve types Divide evaluates.
func (t ElementType) IsNumeric() bool {
	switch t {
	case F16, BF16, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64:
		return true
	}
	return false
}

// IsFloat reports whether t is f16, bf16, f32 or f64.
func (t ElementType) IsFloat() bool { return t == F16 || t == BF16 || t == F32 || t == F64 }

// IsInteger reports whether t is one of the eight byte-sized integer types.
func (t ElementType) IsInteger() bool { return t.IsNumeric() && !t.IsFloat() }

// IsSigned reports whether t is i8, i16, i32 or i64.
func (t ElementType) IsSigned() bool { return t == I8 || t == I16 || t == I32 || t == I64 }

// ParseElementType parses a <data element_type> value. As OpenVINO does, it
// matches the lower-case IR names case-insensitively, so "F32" is accepted
// and "FP32" is not; "undefined" means Dynamic.
func ParseElementType(s string) (ElementType, error) {
	l := strings.ToLower(s)
	if l == "undefined" {
		return Dynamic, nil
	}
	for t := range numElementTypes {
		if elementInfos[t].name == l {
			return t, nil
		}
	}
	return 0, errorf("%q is not a member of enum element::Type_t", s)
}

// ParsePrecision parses a port precision. It is case-sensitive and accepts
// either spelling: "f32" or "FP32", "boolean" or "BOOL", "u1", "U1", "BIN" or
// "bin", "undefined", "UNSPECIFIED" or "dynamic".
func ParsePrecision(s string) (ElementType, error) {
	switch s {
	case "undefined", "dynamic":
		return Dynamic, nil
	case "U1", "bin":
		return U1, nil
	}
	for t := range numElementTypes {
		if elementInfos[t].name == s || elementInfos[t].precision == s {
			return t, nil
		}
	}
	return 0, errorf("Incorrect type: %s", s)
}
