package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// magicSmallAVX2 is magicSmall512 on ymm registers without opmasks: 16
// lanes of 16 bits (8-bit elements widened) or 8 of 32 bits per group. The
// lanes whose sign differs from d's are found by shifting the sign of
// a^negD across the lane; the floor's step and the negation are masked
// arithmetic, and 8-bit results are packed back with saturating packs,
// which never saturate: |q| <= 128 when |d| >= 2, and u8 quotients fit.
func magicSmallAVX2(typ, goType string, size int, signed, floor, add bool) {
	lanes, laneBits := 16, 16
	if size == 4 {
		lanes, laneBits = 8, 32
	}
	name := magicSmallText(typ, goType, signed, floor, add, "AVX2", lanes, laneBits)
	n := Load(Param("dst").Len(), GP64())
	dst := Mem{Base: Load(Param("dst").Base(), GP64())}
	a := Mem{Base: Load(Param("a").Base(), GP64())}
	bcast := func(p string) reg.VecVirtual {
		x, y := XMM(), YMM()
		MOVQ(Load(Param(p), GP64()), x)
		if laneBits == 16 {
			VPBROADCASTW(x, y)
		} else {
			VPBROADCASTD(x, y)
		}
		return y
	}
	magic, absD, negD := bcast("magic"), bcast("absD"), bcast("negD")
	shift := XMM()
	MOVQ(Load(Param("shift"), GP64()), shift)

	group := func(off int) {
		v := YMM()
		switch {
		case size == 1 && signed:
			VPMOVSXBW(a.Offset(off), v)
		case size == 1:
			VPMOVZXBW(a.Offset(off), v)
		default:
			VMOVDQU(a.Offset(off), v)
		}
		u := v
		if signed {
			u = YMM()
			if laneBits == 16 {
				VPABSW(v, u)
			} else {
				VPABSD(v, u)
			}
		}
		q := YMM()
		if laneBits == 16 {
			VPMULHUW(magic, u, q)
		} else {
			// The high halves of the odd lanes' products land in the odd
			// lanes of q; the even lanes' are shifted down and blended in.
			lo, hi := YMM(), YMM()
			VPMULUDQ(magic, u, lo)
			VPSRLQ(Imm(32), lo, lo)
			VPSRLQ(Imm(32), u, hi)
			VPMULUDQ(magic, hi, q)
			VPBLENDD(Imm(0x55), lo, q, q)
		}
		magicShift(q, u, YMM, shift, laneBits, add)
		if signed {
			differ := YMM() // all ones where a's sign differs from d's
			VPXOR(negD, v, differ)
			if laneBits == 16 {
				VPSRAW(Imm(15), differ, differ)
			} else {
				VPSRAD(Imm(31), differ, differ)
			}
			if floor {
				p, step := YMM(), YMM()
				if laneBits == 16 {
					VPMULLW(absD, q, p)
					VPCMPEQW(u, p, p) // q*|d| == |a|
				} else {
					VPMULLD(absD, q, p)
					VPCMPEQD(u, p, p)
				}
				VPANDN(differ, p, step) // -1 where inexact and the signs differ
				if laneBits == 16 {
					VPSUBW(step, q, q)
				} else {
					VPSUBD(step, q, q)
				}
			}
			VPXOR(differ, q, q)
			if laneBits == 16 {
				VPSUBW(differ, q, q)
			} else {
				VPSUBD(differ, q, q)
			}
		}
		if size == 1 {
			hi, packed := XMM(), XMM()
			VEXTRACTI128(Imm(1), q, hi)
			if signed {
				VPACKSSWB(hi, q.AsX(), packed)
			} else {
				VPACKUSWB(hi, q.AsX(), packed)
			}
			VMOVDQU(packed, dst.Offset(off))
		} else {
			VMOVDQU(q, dst.Offset(off))
		}
	}
	groupLoops(name, n, a, dst, lanes, size, group)
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// magicShift finishes a 16- or 32-bit magic-number quotient q of u, the
// high half of u*magic: the add variant takes q + ((u-q) >> 1) first;
// both then shift right by shift.
func magicShift(q, u reg.VecVirtual, vec func() reg.VecVirtual, shift Op, laneBits int, add bool) {
	if add {
		t := vec()
		if laneBits == 16 {
			VPSUBW(q, u, t)
			VPSRLW(Imm(1), t, t)
			VPADDW(q, t, q)
		} else {
			VPSUBD(q, u, t)
			VPSRLD(Imm(1), t, t)
			VPADDD(q, t, q)
		}
	}
	if laneBits == 16 {
		VPSRLW(shift, q, q)
	} else {
		VPSRLD(shift, q, q)
	}
}
