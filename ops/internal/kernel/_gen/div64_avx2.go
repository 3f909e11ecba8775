package main

import (
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Constants of the AVX2 64-bit kernels, 32 bytes each (four lanes): AVX2
// has no broadcast memory operands, and two groups in flight need the
// registers.
var (
	c64Magic, c64MagicHi, c64MagicLo, c64Exp, c64Hi, c64HiSigned, c64HiSub, c64HiSubSigned Mem
	c64One, c64Half, c64Two32, c64TwoM32, c64SignBit, c64Abs                               Mem
	c64AllOnes, c64Two63, c64Range, c64Above50, c64Above51                                 Mem
)

func constants64AVX2() {
	lanes := func(name string, v uint64) Mem {
		m := GLOBL(name, RODATA|NOPTR)
		for i := range 4 {
			DATA(8*i, U64(v))
		}
		return m
	}
	c64Magic = lanes("c64magic", 0x4338000000000000) // 1.5*2^52
	// 1.5*2^52 - 0x43380000: its low word, shifted up 32 bits, cancels
	// the bits of 1.5*2^52 in the other half of the quotient.
	mHi := 1.5*(1<<52) - float64(0x43380000)
	c64MagicHi = lanes("c64magichi", math.Float64bits(mHi))
	// M' + 1.5*2^20: Y minus it, times 2^32, subtracted from Q0, leaves
	// 1.5*2^52 + Ql.
	c64MagicLo = lanes("c64magiclo", math.Float64bits(mHi+1.5*(1<<20)))
	c64Exp = lanes("c64exp", 0x4330000000000000)                 // 2^52
	c64Hi = lanes("c64hi", 0x4530000000000000)                   // 2^84: ORed into a >> 32
	c64HiSigned = lanes("c64hisigned", 0x4530000080000000)       // 2^84 + 2^63: XORed into a >> 32, signed
	c64HiSub = lanes("c64hisub", 0x4530000000100000)             // 2^84 + 2^52
	c64HiSubSigned = lanes("c64hisubsigned", 0x4530000080100000) // 2^84 + 2^63 + 2^52
	c64One = lanes("c64one", 0x3ff0000000000000)                 // 1.0
	c64Half = lanes("c64half", 0x3fe0000000000000)               // 0.5
	c64Two32 = lanes("c64two32", 0x41f0000000000000)             // 2^32
	c64TwoM32 = lanes("c64twom32", 0x3df0000000000000)           // 2^-32
	c64SignBit = lanes("c64signbit", 0x8000000000000000)
	c64Abs = lanes("c64abs", 0x7fffffffffffffff)
	c64AllOnes = lanes("c64allones", ^uint64(0))
	c64Two63 = lanes("c64two63", 0x43e0000000000000)   // 2^63
	c64Range = lanes("c64range", 1<<50)                // b + 2^50 is below 2^51 for the signed divisors taken
	c64Above50 = lanes("c64above50", ^uint64(1<<50-1)) // unsigned: b-1 is below 2^50
	c64Above51 = lanes("c64above51", ^uint64(1<<51-1)) // signed: b+2^50 is below 2^51
}

// div64KernelAVX2 divides 64-bit integers four lanes per ymm without an
// integer divide. AVX2 has neither the int64 <-> f64 conversions nor a
// 64-bit multiply, so the division happens in f64 lanes, arranged so that
// every step but a few roundings whose error is bounded below is exact.
// For a (|a| <= 2^63, or a < 2^64 unsigned) and b with 1 <= |b| <= 2^50,
// u = 2^-53, round to nearest:
//
//  1. b + 1.5*2^52 in integer lanes is the f64 1.5*2^52 + b, so fb = b
//     exactly. a splits into ah = a >> 32 (signed for i64) and
//     al < 2^32: with ah ORed (XORed, signed, with 2^31 as a bias) into
//     the f64 2^84, H = ah*2^32 - 2^52 and L = 2^52 + al are exact f64s,
//     and fa = fl(H + L) = a(1+d0), |d0| <= u.
//  2. rcp = fl(1/fb) and t = fl(fa*rcp) are within 3.0001u*|a/b| of a/b;
//     Q0 = t rounded to an integer has |Q0 - a/b| <= 3.0001u*|a/b| + 1/2,
//     so R0 = a - Q0*b has |R0/b| <= 3.0001u*2^64/|b| + 1/2 <= 6145.
//  3. H - Q0*b = R0 - al - 2^52 is an integer below 2^53 in magnitude, so
//     one FMA gives it exactly, and adding L gives R0, exactly.
//  4. R0/b = D + f, where D = floor(a/b) - Q0 and f = a/b - floor(a/b)
//     is in [0, 1 - 1/|b|]. With beta = |rcp|/2, about 1/(2|b|),
//     t1 = fl(R0*rcp + fl(beta - 1/2)) (beta - 1/2 = rcp*sign(b)/2 - 1/2,
//     one FMA) is R0/b + beta - 1/2 to within
//     e <= u(2|R0/b| + 3/2) <= u(6.0002*2^11/|b| + 2.5); |b|*e < (1-u)/2
//     for |b| <= 2^50, so e is below beta(1-u) and below 1/|b| - beta,
//     and t1 lies strictly inside (D - 1/2, D + 1/2): adding 1.5*2^52
//     rounds it to Q1 = D, and Q0 + Q1 = floor(a/b). Truncation wants
//     ceil(a/b) where the quotient is negative, and there adds 1/2 - beta
//     instead ((|rcp| - 1)/2 with the sign bit of a^b flipped in): by the
//     same bounds, Q1 = D + [f > 0].
//  5. Q0 + Q1 leaves f64 in two exact parts: Y = fl(t*2^-32 + M') rounds
//     t/2^32 to an integer Qh (|Qh| <= 2^32 + 1) held in Y's low bits, so
//     Ql = Q0 - Qh*2^32 is at most 2^31 in magnitude, and
//     Q0 - (Qh - 1.5*2^20)*2^32 = 1.5*2^52 + Ql (one FMA, exact);
//     Z = fl(t1 + 1.5*2^52 + Ql) = 1.5*2^52 + Ql + Q1 holds Ql + Q1 in its
//     low bits. (Y << 32) + Z in integer lanes, modulo 2^64, is the
//     quotient, as M' = 1.5*2^52 - 0x43380000 makes Y << 32 cancel the
//     bits of Z's 1.5*2^52.
//
// The kernel refuses (reports) a call holding a lane it cannot divide: a
// divisor outside the proof (signed: outside [-2^50, 2^50), found from
// the OR of b + 2^50; unsigned: 0 or above 2^50, from the OR of b - 1),
// a zero divisor (signed: rcp = +Inf) and MIN / -1 (t = 2^63), both found
// by a running maximum of max(t, rcp), which stays below 2^63 everywhere
// else but where b = -1 and fl(a) = -2^63 (a up to MIN + 512) or b = 1
// and fl(a) = 2^63 (a from MAX - 511): those are refused too.
// Its wrapper then divides the call with the generic kernel, which finds
// the faults. Two groups go through each step together, which ran faster
// than one after the other (a group's chain of dependent steps is about
// 45 cycles long); reciprocals computed a block ahead, through memory,
// ran slower.
func div64KernelAVX2(signed, floor bool, v variant) {
	name, args := intKernelText(64, signed, floor, v, 4, "AVX2",
		"It also reports divisors outside [-2^50, 2^50) (u64: above 2^50), and (i64) a by -1 or 1 where fl(a) is -2^63 or 2^63, which it does not divide.")
	dst, a, b := args.dst, args.a, args.b

	Comment("Checks and the broadcast operand, set up once.")
	// checks ORs b + 2^50 (b - 1 unsigned, which also catches b = 0),
	// whose bits from 51 (50) up must stay clear; maxQ (signed) is the
	// running maximum of max(t, rcp), which must stay below 2^63.
	checks := YMM()
	VPXOR(checks, checks, checks)
	var maxQ reg.VecVirtual
	if signed {
		maxQ = YMM()
		VXORPD(maxQ, maxQ, maxQ)
	}
	hi, hiSub := c64Hi, c64HiSub
	if signed {
		hi, hiSub = c64HiSigned, c64HiSubSigned
	}
	// split returns H and L, a's exact halves, and fa.
	split := func(va reg.VecVirtual) (h, l, fa reg.VecVirtual) {
		h, l, fa = YMM(), YMM(), YMM()
		VPSRLQ(Imm(32), va, h)
		if signed {
			VPXOR(hi, h, h)
		} else {
			VPOR(hi, h, h)
		}
		VSUBPD(hiSub, h, h)                // H = ah*2^32 - 2^52
		VPBLENDD(Imm(0xaa), c64Exp, va, l) // L = 2^52 + al
		VADDPD(l, h, fa)
		return h, l, fa
	}
	// sign returns 1/2 with the sign bit of x.
	sign := func(x Op) reg.VecVirtual {
		h := YMM()
		VPAND(c64SignBit, x, h)
		VPOR(c64Half, h, h)
		return h
	}
	var fixedA, fixedH, fixedL, fixedFa reg.VecVirtual
	if !v.aVec {
		fixedA = YMM()
		VPBROADCASTQ(a, fixedA)
		fixedH, fixedL, fixedFa = split(fixedA)
	}

	// groups divides n groups from byte offset base: each step for every
	// group, then the next.
	groups := func(n, base int) {
		each := func(f func(i int)) {
			for i := range n {
				f(i)
			}
		}
		off := func(i int) int { return base + 32*i }
		vecs := func() []reg.VecVirtual { return make([]reg.VecVirtual, n) }
		h, l, fa, fb, hb, sq := vecs(), vecs(), vecs(), vecs(), vecs(), vecs()
		rcp, q0, y, t1 := vecs(), vecs(), vecs(), vecs()
		each(func(i int) {
			va, vb := fixedA, YMM()
			if v.aVec {
				va = YMM()
				VMOVDQU(a.Offset(off(i)), va)
				h[i], l[i], fa[i] = split(va)
			} else {
				h[i], l[i], fa[i] = fixedH, fixedL, fixedFa
			}
			VMOVDQU(b.Offset(off(i)), vb)
			t := YMM()
			if signed {
				VPADDQ(c64Range, vb, t)
			} else {
				VPADDQ(c64AllOnes, vb, t) // b - 1
			}
			VPOR(t, checks, checks)
			// Step 4's addend: rcp*hb - 1/2 with hb = 1/2 (unsigned) or
			// sign(b)/2 (floor); for truncation (|rcp| - 1)/2 with the
			// sign of a*b, which needs only that sign now.
			switch {
			case !signed:
			case floor:
				hb[i] = sign(vb)
			default:
				sq[i] = YMM()
				VPXOR(va, vb, sq[i])
				VPAND(c64SignBit, sq[i], sq[i])
			}
			fb[i] = vb
			VPADDQ(c64Magic, fb[i], fb[i])
			VSUBPD(c64Magic, fb[i], fb[i]) // b, exact
		})
		each(func(i int) {
			rcp[i] = YMM()
			VMOVUPD(c64One, rcp[i])
			VDIVPD(fb[i], rcp[i], rcp[i])
		})
		each(func(i int) {
			t := YMM()
			VMULPD(rcp[i], fa[i], t)
			if signed {
				m := YMM()
				VMAXPD(rcp[i], t, m)
				VMAXPD(m, maxQ, maxQ)
			}
			q0[i], y[i] = YMM(), YMM()
			VROUNDPD(Imm(8), t, q0[i]) // to nearest
			VMOVUPD(c64MagicHi, y[i])
			VFMADD231PD(c64TwoM32, t, y[i]) // M' + round(t/2^32)
		})
		each(func(i int) {
			r := YMM()
			VMOVAPD(h[i], r)
			VFNMADD231PD(fb[i], q0[i], r) // H - q0*b, exact
			VADDPD(l[i], r, r)            // R0
			t1[i] = YMM()
			VMOVUPD(c64Half, t1[i])
			switch {
			case !signed:
				VFMSUB231PD(c64Half, rcp[i], t1[i])
			case floor:
				VFMSUB231PD(hb[i], rcp[i], t1[i])
			default:
				abs := YMM()
				VANDPD(c64Abs, rcp[i], abs)
				VFMSUB231PD(c64Half, abs, t1[i])
				VXORPD(sq[i], t1[i], t1[i])
			}
			VFMADD231PD(rcp[i], r, t1[i]) // t1 = R0*rcp + beta -+ 1/2
		})
		each(func(i int) {
			qh := YMM()
			VSUBPD(c64MagicLo, y[i], qh)      // Qh - 1.5*2^20
			VFNMADD231PD(c64Two32, qh, q0[i]) // 1.5*2^52 + Ql = q0 - qh*2^32
			VADDPD(t1[i], q0[i], q0[i])       // 1.5*2^52 + Ql + Q1
			VPSLLQ(Imm(32), y[i], y[i])
			VPADDQ(y[i], q0[i], q0[i])
			if v.nt {
				VMOVNTDQ(q0[i], dst.Offset(off(i)))
			} else {
				VMOVDQU(q0[i], dst.Offset(off(i)))
			}
		})
	}

	block := func() { groups(2, 0) }
	if !v.aVec || signed {
		// The broadcast dividend's registers, or a signed division's
		// running maximum and signs, leave too few for two groups at
		// once: AVX2 has 16 vector registers, and avo, which knows the
		// AVX-512 forms, would take Y16 and up, which only EVEX encodes
		// (SIGILL on an AVX2-only CPU such as Zen 3).
		block = func() { groups(1, 0); groups(1, 32) }
	}
	args.loops(name, v, 8, 4, block, func() { groups(1, 0) }, 8)
	returnFault(func() {
		if !signed {
			VPTEST(c64Above50, checks)
			return
		}
		big := YMM()
		VCMPPD(Imm(0x1d), c64Two63, maxQ, big) // maxQ >= 2^63
		VANDPD(c64Above51, checks, checks)
		VORPD(big, checks, checks)
		VPTEST(checks, checks)
	})
	if v.nt {
		SFENCE()
	}
	VZEROUPPER()
	RET()
}
