package main

import (
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The AVX-512 level (F, DQ, BW, VL) runs the AVX2 recipes on zmm
// registers, where VDIVPS and VDIVPD divide twice the lanes at the same
// issue rate on the cores of our pool, and replaces the shuffles and the
// bias tricks with what AVX-512 adds:
//
//   - 8- and 16-bit results leave through the truncating VPMOVDB and
//     VPMOVDW instead of VPSHUFB and VPERMD;
//   - u32 converts with VCVTUDQ2PD and VCVTTPD2UDQ instead of the bias;
//   - i32 divides in f64 only (VCVTDQ2PD, VDIVPD, VCVTTPD2DQ; exact by the
//     1/|b| argument), eight lanes per zmm;
//   - bf16 rounds with the same integer recipe as AVX2, with the NaN lanes
//     merged under a mask, so subnormals stay exact (VCVTNE2PS2BF16 would
//     flush them);
//   - checks set opmask bits: VPTESTNMD marks zero divisors, and a
//     quotient equal to 2^(bits-1) in the float lanes marks MIN / -1,
//     the only pair whose exact quotient is that value.
type kind512 struct {
	name, goType string
	size, lanes  int
	double       bool // f64 lanes (VDIVPD)
	signed       bool
	float        bool
	unroll       int
	// setup loads the constants the kind's loops use, once per call.
	setup func()
	// load reads one group from src (memory, or a register holding a
	// broadcast element in every lane) and returns its integer lanes,
	// for the zero check (nil for floats), and its float lanes.
	load func(src Op) (raw, f reg.VecVirtual)
	// broadcast reads the element at m into every lane of a register that
	// load accepts.
	broadcast func(m Mem) Op
	// store converts the quotient lanes back and writes one group to dst,
	// with a non-temporal store when nt is set.
	store func(q reg.VecVirtual, dst Mem, nt bool)
}

// minQuotient is 2^(bits-1) in the float format of q's lanes: the one
// quotient only MIN / -1 produces.
var minQuotient8, minQuotient16, minQuotient32 Mem

func constants512() {
	f32 := func(name string, v uint32) Mem {
		m := GLOBL(name, RODATA|NOPTR)
		DATA(0, U32(v))
		return m
	}
	minQuotient8 = f32("minquot8", 0x43000000)   // 128
	minQuotient16 = f32("minquot16", 0x47000000) // 32768
	minQuotient32 = GLOBL("minquot32", RODATA|NOPTR)
	DATA(0, U64(0x41e0000000000000)) // 2^31 as f64
}

func kinds512() []kind512 {
	same := func(f reg.VecVirtual) (reg.VecVirtual, reg.VecVirtual) { return nil, f }
	f32 := kind512{name: "F32", goType: "float32", size: 4, lanes: 16, float: true, unroll: 4,
		load: func(src Op) (reg.VecVirtual, reg.VecVirtual) {
			if r, ok := src.(reg.VecVirtual); ok {
				return same(r)
			}
			z := ZMM()
			VMOVUPS(src, z)
			return same(z)
		},
		broadcast: func(m Mem) Op { z := ZMM(); VBROADCASTSS(m, z); return z },
		store: func(q reg.VecVirtual, dst Mem, nt bool) {
			if nt {
				VMOVNTPS(q, dst)
			} else {
				VMOVUPS(q, dst)
			}
		},
	}
	f64 := kind512{name: "F64", goType: "float64", size: 8, lanes: 8, double: true, float: true, unroll: 4,
		load: func(src Op) (reg.VecVirtual, reg.VecVirtual) {
			if r, ok := src.(reg.VecVirtual); ok {
				return same(r)
			}
			z := ZMM()
			VMOVUPD(src, z)
			return same(z)
		},
		broadcast: func(m Mem) Op { z := ZMM(); VBROADCASTSD(m, z); return z },
		store: func(q reg.VecVirtual, dst Mem, nt bool) {
			if nt {
				VMOVNTPD(q, dst)
			} else {
				VMOVUPD(q, dst)
			}
		},
	}
	bcastW := func(m Mem) Op { y := YMM(); VPBROADCASTW(m, y); return y }
	bcastB := func(m Mem) Op { x := XMM(); VPBROADCASTB(m, x); return x }
	bcastD := func(m Mem) Op { y := YMM(); VPBROADCASTD(m, y); return y }
	f16 := kind512{name: "F16", goType: "uint16", size: 2, lanes: 16, float: true, unroll: 4,
		load: func(src Op) (reg.VecVirtual, reg.VecVirtual) {
			z := ZMM()
			VCVTPH2PS(src, z)
			return same(z)
		},
		broadcast: bcastW,
		store: func(q reg.VecVirtual, dst Mem, nt bool) {
			if nt {
				y := YMM()
				VCVTPS2PH(Imm(0), q, y)
				VMOVNTDQ(y, dst)
			} else {
				VCVTPS2PH(Imm(0), q, dst)
			}
		},
	}
	var one, bias, quietBit reg.VecVirtual // bf16 rounding
	bf16 := kind512{name: "BF16", goType: "uint16", size: 2, lanes: 16, float: true, unroll: 4,
		setup: func() {
			one, bias, quietBit = ZMM(), ZMM(), ZMM()
			VPBROADCASTD(lsb, one)
			VPBROADCASTD(round7fff, bias)
			VPBROADCASTD(quiet, quietBit)
		},
		load: func(src Op) (reg.VecVirtual, reg.VecVirtual) {
			z := ZMM()
			VPMOVZXWD(src, z)
			VPSLLD(Imm(16), z, z)
			return same(z)
		},
		broadcast: bcastW,
		store: func(q reg.VecVirtual, dst Mem, nt bool) {
			// Round to nearest even in the integer lanes; NaN lanes keep
			// their payload, made quiet.
			t, r := ZMM(), ZMM()
			VPSRLD(Imm(16), q, t)
			VPANDD(one, t, t)
			VPADDD(bias, t, t)
			VPADDD(q, t, r)
			nan := K()
			VCMPPS(Imm(3), q, q, nan) // unordered: NaN lanes
			VPORD(quietBit, q, nan, r)
			VPSRLD(Imm(16), r, r)
			narrow(VPMOVDW, YMM, r, dst, nt)
		},
	}
	small := func(name, goType string, size int, signed bool, widen func(src, dst Op), bcast func(Mem) Op) kind512 {
		return kind512{name: name, goType: goType, size: size, lanes: 16, signed: signed, unroll: 4,
			load: func(src Op) (reg.VecVirtual, reg.VecVirtual) {
				raw, f := ZMM(), ZMM()
				widen(src, raw)
				VCVTDQ2PS(raw, f)
				return raw, f
			},
			broadcast: bcast,
			store: func(q reg.VecVirtual, dst Mem, nt bool) {
				i := ZMM()
				VCVTTPS2DQ(q, i)
				if size == 1 {
					narrow(VPMOVDB, XMM, i, dst, nt)
				} else {
					narrow(VPMOVDW, YMM, i, dst, nt)
				}
			},
		}
	}
	i8 := small("I8", "int8", 1, true, func(s, d Op) { VPMOVSXBD(s, d) }, bcastB)
	u8 := small("U8", "uint8", 1, false, func(s, d Op) { VPMOVZXBD(s, d) }, bcastB)
	i16 := small("I16", "int16", 2, true, func(s, d Op) { VPMOVSXWD(s, d) }, bcastW)
	u16 := small("U16", "uint16", 2, false, func(s, d Op) { VPMOVZXWD(s, d) }, bcastW)
	word := func(name, goType string, signed bool) kind512 {
		return kind512{name: name, goType: goType, size: 4, lanes: 8, double: true, signed: signed, unroll: 4,
			load: func(src Op) (reg.VecVirtual, reg.VecVirtual) {
				raw, f := YMM(), ZMM()
				if r, ok := src.(reg.VecVirtual); ok {
					raw = r
				} else {
					VMOVDQU(src, raw)
				}
				if signed {
					VCVTDQ2PD(raw, f)
				} else {
					VCVTUDQ2PD(raw, f)
				}
				return raw, f
			},
			broadcast: bcastD,
			store: func(q reg.VecVirtual, dst Mem, nt bool) {
				y := YMM()
				if signed {
					VCVTTPD2DQ(q, y)
				} else {
					VCVTTPD2UDQ(q, y)
				}
				if nt {
					VMOVNTDQ(y, dst)
				} else {
					VMOVDQU(y, dst)
				}
			},
		}
	}
	return []kind512{f32, f64, f16, bf16, i8, u8, i16, u16, word("I32", "int32", true), word("U32", "uint32", false)}
}

func kernel512(k kind512, v variant, floor bool) {
	name := strings.TrimSuffix(kernelName(k.name, k.signed, k.float, floor, v), "AVX2") + "AVX512"
	sig := "func(dst, a, b []" + k.goType + ")"
	if !k.float {
		sig += " bool"
	}
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	kernelDoc(name, k.lanes, v, !k.float, floor)
	args := loadParams(v)
	dst, a, b := args.dst, args.a, args.b

	Comment("Constants, checks and the broadcast operand, set up once.")
	if k.setup != nil {
		k.setup()
	}
	zeroCheck := !k.float && v.bVec               // the wrapper checks a scalar divisor
	overflowCheck := k.signed && v.aVec && v.bVec // and SV's a[0] for MIN
	var failed reg.OpmaskVirtual
	var minQuotient reg.VecVirtual
	if zeroCheck {
		failed = K()
		KXORW(failed, failed, failed)
	}
	if overflowCheck {
		minQuotient = ZMM()
		switch k.size {
		case 1:
			VBROADCASTSS(minQuotient8, minQuotient)
		case 2:
			VBROADCASTSS(minQuotient16, minQuotient)
		default:
			VBROADCASTSD(minQuotient32, minQuotient)
		}
	}
	var fixedF reg.VecVirtual
	switch {
	case !v.bVec:
		_, fixedF = k.load(k.broadcast(b))
	case !v.aVec:
		_, fixedF = k.load(k.broadcast(a))
	}

	group := func(i int) {
		off := i * k.lanes * k.size
		fa, fb := fixedF, fixedF
		if v.aVec {
			_, fa = k.load(a.Offset(off))
		}
		if v.bVec {
			var raw reg.VecVirtual
			raw, fb = k.load(b.Offset(off))
			if zeroCheck {
				zero := K()
				VPTESTNMD(raw, raw, zero)
				KORW(zero, failed, failed)
			}
		}
		q := ZMM()
		if k.double {
			VDIVPD(fb, fa, q)
			if floor {
				VRNDSCALEPD(Imm(9), q, q)
			}
		} else {
			VDIVPS(fb, fa, q)
			if floor {
				VRNDSCALEPS(Imm(9), q, q)
			}
		}
		if overflowCheck {
			over := K()
			if k.double {
				VCMPPD(Imm(0), minQuotient, q, over)
			} else {
				VCMPPS(Imm(0), minQuotient, q, over)
			}
			KORW(over, failed, failed)
		}
		k.store(q, dst.Offset(off), v.nt)
	}

	if v.nt && k.double && !k.float {
		args.prefetch = streamPrefetch
	}
	args.loops(name, v, k.unroll*k.lanes, k.lanes, func() {
		for i := range k.unroll {
			group(i)
		}
	}, func() { group(0) }, k.size)
	if !k.float {
		var test func()
		if zeroCheck {
			test = func() { KORTESTW(failed, failed) }
		}
		returnFault(test)
	}
	if v.nt {
		SFENCE()
	}
	VZEROUPPER()
	RET()
}

// narrow writes the lanes of q narrowed by a truncating VPMOVDB or VPMOVDW
// to dst: straight to memory, or for a non-temporal store through a
// register of the narrowed width, as those instructions have no
// non-temporal form.
func narrow(pmov func(...Op), width func() reg.VecVirtual, q reg.VecVirtual, dst Mem, nt bool) {
	if !nt {
		pmov(q, dst)
		return
	}
	r := width()
	pmov(q, r)
	VMOVNTDQ(r, dst)
}

// Constants of the 64-bit kernels.
var big61, one64 Mem

func constants64() {
	big61 = GLOBL("big61", RODATA|NOPTR)
	DATA(0, U64(0xe000000000000000)) // bits at or above 2^61
	one64 = GLOBL("one64", RODATA|NOPTR)
	DATA(0, U64(0x3ff0000000000000)) // 1.0
}

// div64Kernel512 divides 64-bit integers, eight lanes per zmm, in f64
// with an exact integer correction. On the magnitudes A = |a| and
// B = |b| as unsigned numbers (|MIN| = 2^63 included), with u = 2^-53 and
// round to nearest, for any A < 2^64 and 0 < B <= 2^61:
//
//  1. rcp = fl(1/fl(B)) and t = fl(fl(A)*rcp) are within 4.0001u of A/B
//     (four roundings), so Q0 = trunc(t) (2^64-1 where t >= 2^64) has
//     |Q - Q0| < 4.0001u*A/B + 1, and with D = Q - Q0 and Q = floor(A/B),
//     |D|*B < 4.0001u*A + B < 8193 + B.
//  2. R0 = A - Q0*B (VPMULLQ, modulo 2^64) equals r + D*B, r = A mod B in
//     [0, B): it lies in (-(B+8193), 2B+8193), which fits a signed lane
//     when B <= 2^61 (other lanes take the scalar path).
//  3. t1 = fl(fl(R0)*rcp) is within 4.0001u*8195 < 2^-37 of R0/B = D + r/B,
//     so Q1, t1 rounded to the nearest integer (VCVTPD2QQ), is D or D+1,
//     and Q2 = Q0 + Q1 is Q or Q + 1.
//  4. R1 = R0 - Q1*B is r or r - B: where it is negative, Q = Q2 - 1
//     (adding R1's sign, spread by VPSRAQ).
//
// Signed quotients take the sign of a^b. Floor, where the signs differ,
// divides A+B-1 instead of A (< 2^63 + 2^61, inside the proof): that is
// ceil(A/B), and floor(a/b) = -ceil(A/B) there.
//
// The kernel reports lanes it cannot divide: B = 0, B > 2^61 and MIN / -1
// (the one lane whose signs agree and whose Q is 2^63). The checks OR
// B-1 and Q into vectors tested once at the end, since per-group mask
// tests and KORB held the kernel to about half its speed on Zen 5 (the
// mask ops issue on fewer ports). Its wrapper then divides the whole
// call with the generic kernel, which also finds the faults.
func div64Kernel512(signed, floor bool, v variant) {
	name, args := intKernelText(64, signed, floor, v, 8, "AVX512",
		"It also reports divisors of magnitude above 2^61, which it does not divide.")
	dst, a, b := args.dst, args.a, args.b

	Comment("Constants, and the broadcast operand, set up once.")
	ones, one := ZMM(), ZMM()
	VPTERNLOGQ(Imm(0xff), ones, ones, ones) // -1 in every lane
	VBROADCASTSD(one64, one)
	// The checks accumulate in vectors, not masks, to keep the mask
	// ports free: the OR of every B-1 (all ones where B = 0) and, for
	// signed lanes whose signs agree, the OR of every quotient (2^63
	// only for MIN / -1).
	divisors := ZMM()
	VPXORQ(divisors, divisors, divisors)
	var overflow, zero, fixed reg.VecVirtual
	if signed {
		overflow, zero = ZMM(), ZMM()
		VPXORQ(overflow, overflow, overflow)
		VPXORQ(zero, zero, zero)
	}
	if !v.aVec {
		fixed = ZMM()
		VPBROADCASTQ(a, fixed)
	}

	group := func(off int) {
		va, vb := fixed, ZMM()
		if va == nil {
			va = ZMM()
			VMOVDQU64(a.Offset(off), va)
		}
		VMOVDQU64(b.Offset(off), vb)
		ua, ub := va, vb
		if signed {
			ua, ub = ZMM(), ZMM()
			VPABSQ(va, ua)
			VPABSQ(vb, ub)
		}
		below := ZMM()
		VPADDQ(ones, ub, below) // B - 1
		VPORQ(below, divisors, divisors)
		var s reg.VecVirtual
		var differ reg.OpmaskVirtual
		if signed {
			s, differ = ZMM(), K()
			VPXORQ(va, vb, s)
			VPMOVQ2M(s, differ)
			if floor {
				// Where the signs differ, floor(a/b) = -ceil(A/B)
				// = -floor((A+B-1)/B).
				VPADDQ(below, ua, differ, ua)
			}
		}
		fa, fb, rcp, t := ZMM(), ZMM(), ZMM(), ZMM()
		VCVTUQQ2PD(ua, fa)
		VCVTUQQ2PD(ub, fb)
		VDIVPD(fb, one, rcp)
		VMULPD(rcp, fa, t)
		q, p, r := ZMM(), ZMM(), ZMM()
		VCVTTPD2UQQ(t, q)
		VPMULLQ(ub, q, p)
		VPSUBQ(p, ua, r)
		fr, q1 := ZMM(), ZMM()
		VCVTQQ2PD(r, fr)
		VMULPD(rcp, fr, fr)
		VCVTPD2QQ(fr, q1) // to nearest
		VPADDQ(q1, q, q)
		VPMULLQ(ub, q1, p)
		VPSUBQ(p, r, r)
		VPSRAQ(Imm(63), r, r)
		VPADDQ(r, q, q) // one too high where r < 0
		if signed {
			VPTERNLOGQ(Imm(0xf4), s, q, overflow) // overflow |= q &^ s
			VPSUBQ(q, zero, differ, q)
		}
		if v.nt {
			VMOVNTDQ(q, dst.Offset(off))
		} else {
			VMOVDQU64(q, dst.Offset(off))
		}
	}

	if v.nt {
		args.prefetch = streamPrefetch
	}
	args.loops(name, v, 16, 8, func() {
		group(0)
		group(64)
	}, func() { group(0) }, 8)
	bigBits, failed := ZMM(), K()
	VPBROADCASTQ(big61, bigBits)
	VPTESTMQ(bigBits, divisors, failed) // B = 0 or B > 2^61
	if signed {
		minus := K()
		VPMOVQ2M(overflow, minus)
		KORB(minus, failed, failed)
	}
	returnFault(func() { KORTESTB(failed, failed) })
	if v.nt {
		SFENCE()
	}
	VZEROUPPER()
	RET()
}

// magicSmall512 divides 8-, 16- and 32-bit integers by one divisor d with
// libdivide's unsigned magic number for |d| (parameters magic and shift;
// the add variant adds back the numerator), never dividing in the loop.
// 8-bit elements are widened to 16-bit lanes and use the 16-bit magic
// number of d; 32-bit lanes build the high half of the product from two
// VPMULUDQ. Signed elements divide their magnitudes (|MIN| fits the
// unsigned lane) and take the sign of a^d. Floor, where the signs differ,
// divides |a|+|d|-1 instead: that is ceil(|a|/|d|), the quotient's
// magnitude there, and it stays below 2^laneBits, where the magic number
// holds (a multiply and a compare per group fewer than testing
// q*|d| == |a|). The wrapper keeps d = 0, d = -1 (MIN / -1) and |d| = 1
// for itself.
func magicSmall512(typ, goType string, size int, signed, floor, add bool) {
	lanes, laneBits := 32, 16
	if size == 4 {
		lanes, laneBits = 16, 32
	}
	name := magicSmallText(typ, goType, signed, floor, add, "AVX512", lanes, laneBits)
	n := Load(Param("dst").Len(), GP64())
	dst := Mem{Base: Load(Param("dst").Base(), GP64())}
	a := Mem{Base: Load(Param("a").Base(), GP64())}
	bcast := func(p string) reg.VecVirtual {
		g, z := GP64(), ZMM()
		Load(Param(p), g)
		if laneBits == 16 {
			VPBROADCASTW(g.As32(), z)
		} else {
			VPBROADCASTD(g.As32(), z)
		}
		return z
	}
	magic, absD, negD := bcast("magic"), bcast("absD"), bcast("negD")
	shift := XMM()
	MOVQ(Load(Param("shift"), GP64()), shift)
	zero, absDLess1 := ZMM(), ZMM()
	VPXORD(zero, zero, zero)
	VPTERNLOGD(Imm(0xff), absDLess1, absDLess1, absDLess1)
	if laneBits == 16 {
		VPADDW(absD, absDLess1, absDLess1)
	} else {
		VPADDD(absD, absDLess1, absDLess1)
	}
	var even reg.OpmaskVirtual
	if laneBits == 32 {
		even = K()
		m := GP32()
		MOVL(U32(0x5555), m)
		KMOVW(m, even)
	}

	group := func(off int) {
		v := ZMM()
		switch {
		case size == 1 && signed:
			VPMOVSXBW(a.Offset(off), v)
		case size == 1:
			VPMOVZXBW(a.Offset(off), v)
		default:
			VMOVDQU64(a.Offset(off), v)
		}
		u := v
		var differ reg.OpmaskVirtual
		if signed {
			u = ZMM()
			s := ZMM()
			differ = K()
			VPXORD(negD, v, s)
			if laneBits == 16 {
				VPABSW(v, u)
				VPMOVW2M(s, differ)
				if floor {
					VPADDW(absDLess1, u, differ, u)
				}
			} else {
				VPABSD(v, u)
				VPMOVD2M(s, differ)
				if floor {
					VPADDD(absDLess1, u, differ, u)
				}
			}
		}
		q := ZMM()
		if laneBits == 16 {
			VPMULHUW(magic, u, q)
		} else {
			// The high halves of the odd lanes' products land in the odd
			// lanes of q; the even lanes' are shifted down and merged.
			lo, hi := ZMM(), ZMM()
			VPMULUDQ(magic, u, lo)
			VPSRLQ(Imm(32), lo, lo)
			VPSRLQ(Imm(32), u, hi)
			VPMULUDQ(magic, hi, q)
			VMOVDQA32(lo, even, q)
		}
		magicShift(q, u, ZMM, shift, laneBits, add)
		if signed {
			if laneBits == 16 {
				VPSUBW(q, zero, differ, q)
			} else {
				VPSUBD(q, zero, differ, q)
			}
		}
		if size == 1 {
			VPMOVWB(q, dst.Offset(off))
		} else {
			VMOVDQU64(q, dst.Offset(off))
		}
	}
	groupLoops(name, n, a, dst, lanes, size, group)
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// magic64AVX512 is magic64 on zmm registers: eight lanes per group, the
// magnitude from VPABSQ and the sign under an opmask. Floor divides
// |a|+|d|-1 where the signs differ, as magicSmall512 does (below 2^64),
// instead of magic64's exactness test q*|d| == |a|.
func magic64AVX512(signed, add, floor bool) {
	name := magic64Text(signed, floor, add, "AVX512")
	Doc(name+" is the AVX-512 form of the AVX2 kernel of the same name,",
		"eight elements per group; d is neither 0, -1 nor a power of two.")
	n := Load(Param("dst").Len(), GP64())
	dst := Mem{Base: Load(Param("dst").Base(), GP64())}
	a := Mem{Base: Load(Param("a").Base(), GP64())}
	bcast := func(p string) reg.VecVirtual {
		g, z := Load(Param(p), GP64()), ZMM()
		VPBROADCASTQ(g, z)
		return z
	}
	mLo, absD, negD := bcast("magic"), bcast("absD"), bcast("negD")
	shift := XMM()
	MOVQ(Load(Param("shift"), GP64()), shift)
	mHi, lo32, zero, absDLess1 := ZMM(), ZMM(), ZMM(), ZMM()
	VPSRLQ(Imm(32), mLo, mHi)
	VPTERNLOGQ(Imm(0xff), absDLess1, absDLess1, absDLess1)
	VPSRLQ(Imm(32), absDLess1, lo32)
	VPADDQ(absD, absDLess1, absDLess1)
	VPXORQ(zero, zero, zero)

	group := func(off int) {
		v := ZMM()
		VMOVDQU64(a.Offset(off), v)
		u := v
		var differ reg.OpmaskVirtual
		if signed {
			u, differ = ZMM(), K()
			s := ZMM()
			VPABSQ(v, u)
			VPXORQ(negD, v, s)
			VPMOVQ2M(s, differ)
			if floor {
				VPADDQ(absDLess1, u, differ, u)
			}
		}
		hh := mulhi64(u, mLo, mHi, lo32, ZMM, func(x, y, z Op) { VPANDQ(x, y, z) })
		q := ZMM()
		if add {
			VPSUBQ(hh, u, q)
			VPSRLQ(Imm(1), q, q)
			VPADDQ(hh, q, q)
			VPSRLQ(shift, q, q)
		} else {
			VPSRLQ(shift, hh, q)
		}
		if signed {
			VPSUBQ(q, zero, differ, q)
		}
		VMOVDQU64(q, dst.Offset(off))
	}
	groupLoops(name, n, a, dst, 8, 8, group)
	Label(name + "_done")
	VZEROUPPER()
	RET()
}
