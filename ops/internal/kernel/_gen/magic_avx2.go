package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// magicSmallAVX2 is magicSmall512 on ymm registers without opmasks: 16
// lanes of 16 bits or 8 of 32 bits per group. The lanes whose sign differs
// from d's are those of a^negD: floor divides |a|+|d|-1 there (below
// 2^laneBits, where the magic number holds; a multiply and a compare per
// group fewer than testing q*|d| == |a|), and the quotient takes the sign
// of a^negD (VPSIGNW/VPSIGND, which zero the lane where a^negD = 0: there
// a is 0, or -1 with d < 0, and q is 0 anyway).
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
	magic, negD := bcast("magic"), bcast("negD")
	shift := XMM()
	MOVQ(Load(Param("shift"), GP64()), shift)
	var absDLess1 reg.VecVirtual
	if signed && floor {
		absDLess1 = bcast("absD")
		ones := YMM()
		VPCMPEQW(ones, ones, ones)
		if laneBits == 16 {
			VPADDW(ones, absDLess1, absDLess1)
		} else {
			VPADDD(ones, absDLess1, absDLess1)
		}
	}

	group := func(off int) {
		v := YMM()
		VMOVDQU(a.Offset(off), v)
		u := v
		var s reg.VecVirtual
		if signed {
			u, s = YMM(), YMM()
			VPXOR(negD, v, s) // the quotient's sign
			if laneBits == 16 {
				VPABSW(v, u)
			} else {
				VPABSD(v, u)
			}
			if floor {
				step := YMM()
				if laneBits == 16 {
					VPSRAW(Imm(15), s, step)
					VPAND(absDLess1, step, step)
					VPADDW(step, u, u) // |a|+|d|-1 where the signs differ
				} else {
					VPSRAD(Imm(31), s, step)
					VPAND(absDLess1, step, step)
					VPADDD(step, u, u)
				}
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
			if laneBits == 16 {
				VPSIGNW(s, q, q)
			} else {
				VPSIGND(s, q, q)
			}
		}
		VMOVDQU(q, dst.Offset(off))
	}
	groupLoops(name, n, a, dst, lanes, size, group)
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// magic8Name names a byte kernel of magic8: div<typ>Magic8[Trunc|Floor]<level>.
func magic8Name(signed, floor bool, level string) string {
	name := "divU8Magic8"
	if signed {
		name = "divI8Magic8Trunc"
		if floor {
			name = "divI8Magic8Floor"
		}
	}
	return name + level
}

// magic8 divides bytes by one divisor d, 2 <= |d| <= 255 (|d| <= 128 for
// i8), at the AVX2 level (32 lanes per ymm) or AVX-512 (64 per zmm),
// without widening them. For n <= 255, M = ceil(2^16/|d|) (the parameter
// magic, at most 2^15) gives floor(n/|d|) = (n*M) >> 16: M = 2^16/|d| + e
// with 0 <= e < 1, so n*M/2^16 exceeds n/|d| by n*e/2^16 < 1/|d|
// (n*|d| < 2^16), less than the distance from n/|d| up to the next
// integer. Each 16-bit lane holds two bytes: the even one, masked, times M
// gives its quotient in the lane's low byte (VPMULHUW); the odd one,
// masked in place (n*2^8), times M gives floor(n*M/2^8), whose high byte is
// its quotient. Signed bytes divide |a| (VPABSB; |-128| = 128 is a byte)
// and take the sign of a^negD (VPSIGNB, or a masked negation; a^negD = 0
// only where the quotient is 0); floor divides |a|+|d|-1 (at most 255)
// where the signs differ.
func magic8(signed, floor bool, wide bool) {
	level, vec, lanes := "AVX2", YMM, 32
	if wide {
		level, vec, lanes = "AVX512", ZMM, 64
	}
	goType := "uint8"
	if signed {
		goType = "int8"
	}
	name := magic8Name(signed, floor, level)
	TEXT(name, NOSPLIT, "func(dst, a []"+goType+", magic, shift, absD, negD uint64)")
	Pragma("noescape")
	mode := "truncating division"
	if floor {
		mode = "floor division"
	}
	Doc(name+" divides groups of "+fmt.Sprint(lanes)+" bytes by one divisor d, "+mode+", with",
		"magic = ceil(2^16/|d|), |d| itself and negD all ones when d < 0:",
		"",
		"\tfor i := range n { // n = len(dst) rounded down to a multiple of "+fmt.Sprint(lanes),
		"\t\tdst[i] = a[i] / d",
		"\t}",
		"",
		"d is neither 0, 1 nor -1: the caller keeps those; shift is unused.")
	n := Load(Param("dst").Len(), GP64())
	dst := Mem{Base: Load(Param("dst").Base(), GP64())}
	a := Mem{Base: Load(Param("a").Base(), GP64())}
	bcast := func(p string, word bool) reg.VecVirtual {
		g, r := GP64(), vec()
		Load(Param(p), g)
		if wide {
			if word {
				VPBROADCASTW(g.As32(), r)
			} else {
				VPBROADCASTB(g.As32(), r)
			}
			return r
		}
		x := XMM()
		MOVQ(g, x)
		if word {
			VPBROADCASTW(x, r)
		} else {
			VPBROADCASTB(x, r)
		}
		return r
	}
	magic := bcast("magic", true)
	low, high := vec(), vec() // 0x00ff and 0xff00 in every word
	if wide {
		VPTERNLOGD(Imm(0xff), low, low, low)
	} else {
		VPCMPEQW(low, low, low)
	}
	VPSLLW(Imm(8), low, high)
	VPSRLW(Imm(8), low, low)
	var negD, absDLess1, zero reg.VecVirtual
	if signed {
		negD = bcast("negD", false)
		zero = vec()
		if wide {
			VPXORD(zero, zero, zero)
		} else {
			VPXOR(zero, zero, zero)
		}
	}
	if signed && floor {
		absDLess1 = bcast("absD", false)
		ones := vec()
		if wide {
			VPTERNLOGD(Imm(0xff), ones, ones, ones)
		} else {
			VPCMPEQB(ones, ones, ones)
		}
		VPADDB(ones, absDLess1, absDLess1)
	}
	and := func(x, y, z Op) {
		if wide {
			VPANDQ(x, y, z)
		} else {
			VPAND(x, y, z)
		}
	}

	group := func(off int) {
		v := vec()
		if wide {
			VMOVDQU64(a.Offset(off), v)
		} else {
			VMOVDQU(a.Offset(off), v)
		}
		u := v
		var s reg.VecVirtual
		var differ reg.OpmaskVirtual
		if signed {
			u, s = vec(), vec()
			if wide {
				VPXORQ(negD, v, s)
				differ = K()
				VPMOVB2M(s, differ)
			} else {
				VPXOR(negD, v, s) // the quotient's sign
			}
			VPABSB(v, u)
			if floor {
				if wide {
					VPADDB(absDLess1, u, differ, u)
				} else {
					step := vec()
					VPCMPGTB(s, zero, step) // 0 > s: the signs differ
					VPAND(absDLess1, step, step)
					VPADDB(step, u, u) // |a|+|d|-1 where the signs differ
				}
			}
		}
		even, odd := vec(), vec()
		and(low, u, even)
		and(high, u, odd)
		VPMULHUW(magic, even, even)
		VPMULHUW(magic, odd, odd)
		and(high, odd, odd)
		q := even
		if wide {
			VPORQ(odd, even, q)
		} else {
			VPOR(odd, even, q)
		}
		if signed {
			if wide {
				VPSUBB(q, zero, differ, q)
			} else {
				VPSIGNB(s, q, q)
			}
		}
		if wide {
			VMOVDQU64(q, dst.Offset(off))
		} else {
			VMOVDQU(q, dst.Offset(off))
		}
	}
	groupLoops(name, n, a, dst, lanes, 1, group)
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

// permBytes undoes the lane order of VPACKxSDW and VPACKxSWB on four
// vectors of eight dwords (bytes 0-3, 8-11, 16-19, 24-27 in the low lane,
// 4-7, 12-15, 20-23, 28-31 in the high one): dword i of the result is
// dword permBytes[i] of the packed vector.
var permBytes Mem

func constantsBytesAVX2() {
	permBytes = GLOBL("permbytes", RODATA|NOPTR)
	for i, v := range []uint32{0, 4, 1, 5, 2, 6, 3, 7} {
		DATA(4*i, U32(v))
	}
}

// bytesAVX2 divides 8-bit integers 32 at a time through f32 (exact by the
// 1/|b| argument, as for the 16-bit types): four groups of eight widened
// lanes, each VDIVPS (and VROUNDPS for floor), truncated to dwords, then
// packed back with VPACKSSDW/VPACKUSDW and VPACKSSWB/VPACKUSWB, which
// saturate only MIN / -1 (a fault), and VPERMD to undo the packs' lane
// order: one 32-byte store, which may be non-temporal. The checks work on
// the bytes themselves, 32 lanes per compare: zero divisors, and for
// signed bytes a = -128 with b = -1.
func bytesAVX2(signed, floor bool, v variant) {
	typ, goType := "U8", "uint8"
	if signed {
		typ, goType = "I8", "int8"
	}
	name := kernelName(typ, signed, false, floor, v)
	TEXT(name, NOSPLIT, "func(dst, a, b []"+goType+") bool")
	Pragma("noescape")
	kernelDoc(name, 32, v, true, floor)
	args := loadParams(v)
	dst, a, b := args.dst, args.a, args.b

	Comment("Constants, checks and the broadcast operand, set up once.")
	widen := func(src Op) reg.VecVirtual {
		w, f := YMM(), YMM()
		if signed {
			VPMOVSXBD(src, w)
		} else {
			VPMOVZXBD(src, w)
		}
		VCVTDQ2PS(w, f)
		return f
	}
	checks := v.bVec                       // the wrapper checks a scalar divisor
	overflow := signed && v.aVec && v.bVec // SV's wrapper checks a[0] for MIN
	perm := YMM()
	VMOVDQU(permBytes, perm)
	var acc, zero, minA, ones reg.VecVirtual
	if checks {
		acc, zero = YMM(), YMM()
		VPXOR(acc, acc, acc)
		VPXOR(zero, zero, zero)
	}
	if overflow {
		ones, minA = YMM(), YMM()
		VPCMPEQB(ones, ones, ones)
		VPABSB(ones, minA)
		VPSLLW(Imm(7), minA, minA) // 0x80 in every byte
	}
	var fixed reg.VecVirtual
	switch {
	case !v.bVec:
		x := XMM()
		VPBROADCASTB(b, x)
		fixed = widen(x)
	case !v.aVec:
		x := XMM()
		VPBROADCASTB(a, x)
		fixed = widen(x)
	}

	group := func(off int) {
		if checks {
			rb, t := YMM(), YMM()
			VMOVDQU(b.Offset(off), rb)
			VPCMPEQB(zero, rb, t)
			VPOR(t, acc, acc)
			if overflow {
				u := YMM()
				VPCMPEQB(ones, rb, t)            // b == -1
				VPCMPEQB(a.Offset(off), minA, u) // a == -128
				VPAND(u, t, t)
				VPOR(t, acc, acc)
			}
		}
		var ints [4]reg.VecVirtual
		for j := range 4 {
			fa, fb := fixed, fixed
			if v.aVec {
				fa = widen(a.Offset(off + 8*j))
			}
			if v.bVec {
				fb = widen(b.Offset(off + 8*j))
			}
			q := YMM()
			VDIVPS(fb, fa, q)
			if floor {
				VROUNDPS(Imm(9), q, q)
			}
			ints[j] = YMM()
			VCVTTPS2DQ(q, ints[j])
		}
		lo, hi := ints[0], ints[2]
		if signed {
			VPACKSSDW(ints[1], ints[0], lo)
			VPACKSSDW(ints[3], ints[2], hi)
			VPACKSSWB(hi, lo, lo)
		} else {
			VPACKUSDW(ints[1], ints[0], lo)
			VPACKUSDW(ints[3], ints[2], hi)
			VPACKUSWB(hi, lo, lo)
		}
		VPERMD(lo, perm, lo)
		if v.nt {
			VMOVNTDQ(lo, dst.Offset(off))
		} else {
			VMOVDQU(lo, dst.Offset(off))
		}
	}

	args.loops(name, v, 64, 32, func() {
		group(0)
		group(32)
	}, func() { group(0) }, 1)
	var test func()
	if checks {
		test = func() { VPTEST(acc, acc) }
	}
	returnFault(test)
	if v.nt {
		SFENCE()
	}
	VZEROUPPER()
	RET()
}
