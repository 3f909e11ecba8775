// Package bf16 converts between float32 and bfloat16 bit patterns. It is
// the one place both ir (tensor values) and the division kernels round
// to bfloat16, so that the two can never disagree.
package bf16

import "math"

// ToFloat32 widens a bfloat16 bit pattern; the conversion is exact.
func ToFloat32(b uint16) float32 { return math.Float32frombits(uint32(b) << 16) }

// FromFloat32 rounds an f32 to bfloat16, to nearest even. A NaN stays a
// NaN, made quiet, with the top of its payload: plain truncation would
// turn a NaN whose payload sits in the low 16 bits into an infinity.
func FromFloat32(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 0x0040
	}
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}
