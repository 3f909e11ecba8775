package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// i32 kernels mix two exact methods in every block of 24 elements: 16
// lanes through f32 with integer correction (about 26 vector
// instructions and one VDIVPS per 8 lanes) and 8 lanes through f64 (one
// VDIVPD per 4 lanes, exact by the 1/|b| argument). Where VDIVPD is slow
// (Intel: 8 cycles per ymm against 5 for VDIVPS) the f64 method alone is
// divider-bound and the f32 method alone is bound by its vector ports;
// interleaved, each uses what the other leaves idle. VS needs no divide
// in the f32 method, so its blocks are f32 only.
//
// The f32 method, for a and b != 0 (q is trunc(a/b), rem = a - q*b,
// u = 2^-24, default MXCSR: round to nearest):
//
//  1. rcp = fl(c/fl(b)) with c = 1 - 2^-20, and t0 = fl(fl(a)*rcp). Four
//     roundings of at most u each and the factor c give
//     (1-20.0002u)|a/b| <= |t0| < |a/b|, with the sign of a/b, so
//     q0 = trunc(t0) has that sign, |q0| <= |q| and
//     D = |q| - |q0| <= 2^31 * 20.0002u + 1 < 2562. |t0| < 2^31 cannot
//     overflow the conversion.
//  2. r0 = a - q0*b is exact in 32 bits: q0*b lies between 0 and a. It
//     has the sign of a and |r0|/|b| = D + |rem|/|b| < 2562.
//  3. t1 = fl(fl(r0)*rcp) obeys the same bounds, so |r0|/|b| - 0.0031 <
//     |t1| < |r0|/|b|, and q1 = t1 rounded to nearest has |q1| = D or
//     D + 1. So q0 + q1 is q, or one too far from zero, and
//     r1 = a - (q0+q1)*b is rem, or rem - sign(a)*|b|. Both fit in 32
//     bits (|r1| <= |b|, and r1 = +2^31 would need b = MIN with a a
//     negative multiple of it: a = MIN, where t1 = c rounds to D), and
//     all other arithmetic is modulo 2^32, which is exact for every
//     result that fits.
//  4. Truncation steps back towards zero where r1 and a have opposite
//     signs (psignd(r1, a) < 0). Floor wants p = r1 with b's sign in
//     [0, |b|): it adds one where p == |b| (the overshoot of an exact
//     negative quotient) and subtracts one where p < 0.
//
// Failures show without extra passes: a running unsigned minimum of the
// divisors catches a zero, and MIN / -1 yields 0x80000000 where a and b
// have equal signs, where every valid quotient is non-negative, so
// OR-ing (a^b) &^ q catches it in the sign bit.
func i32Kernel(v variant, floor bool) {
	name := kernelName("I32", true, false, floor, v)
	TEXT(name, NOSPLIT, "func(dst, a, b []int32) bool")
	Pragma("noescape")
	kernelDoc(name, 8, v, true, floor)
	args := loadParams(v)
	dst, a, b := args.dst, args.a, args.b

	// The wrapper gives VS a divisor other than 0 and -1, and SV a
	// dividend other than MIN: VS needs no checks, SV only the zero one.
	zeroCheck, overflowCheck := v.bVec, v.aVec && v.bVec
	// minB and minB4 keep the unsigned minimum of the divisors (zero where
	// one is zero); flags and flags4 collect (a^b) &^ q, whose sign bit is
	// set only by MIN / -1.
	c, minB, flags, minB4, flags4 := YMM(), YMM(), YMM(), XMM(), XMM()
	VBROADCASTSS(rcpScale, c)
	VPCMPEQD(minB, minB, minB)
	VPCMPEQD(minB4, minB4, minB4)
	VPXOR(flags, flags, flags)
	VPXOR(flags4, flags4, flags4)

	// The broadcast operand, converted once.
	var fixedA, fixedB, fixedFA, fixedFB, fixedRcp reg.VecVirtual
	Comment("Constants and the broadcast operand, loaded once.")
	switch {
	case !v.bVec:
		fixedB, fixedFB, fixedRcp = YMM(), YMM(), YMM()
		VPBROADCASTD(b, fixedB)
		VCVTDQ2PS(fixedB, fixedFB)
		VDIVPS(fixedFB, c, fixedRcp)
	case !v.aVec:
		fixedA, fixedFA = YMM(), YMM()
		VPBROADCASTD(a, fixedA)
		VCVTDQ2PS(fixedA, fixedFA)
	}

	group32 := func(off int) {
		va, vb := fixedA, fixedB
		if va == nil {
			va = YMM()
			VMOVDQU(a.Offset(off), va)
		}
		if vb == nil {
			vb = YMM()
			VMOVDQU(b.Offset(off), vb)
		}
		rcp := fixedRcp
		if rcp == nil {
			fb := YMM()
			VCVTDQ2PS(vb, fb)
			rcp = YMM()
			VDIVPS(fb, c, rcp)
		}
		fa := fixedFA
		if fa == nil {
			fa = YMM()
			VCVTDQ2PS(va, fa)
		}
		t, q0 := YMM(), YMM()
		VMULPS(rcp, fa, t)
		VCVTTPS2DQ(t, q0)
		p, r0 := YMM(), YMM()
		VPMULLD(vb, q0, p)
		VPSUBD(p, va, r0)
		fr, q1 := YMM(), YMM()
		VCVTDQ2PS(r0, fr)
		VMULPS(rcp, fr, fr)
		VCVTPS2DQ(fr, q1) // to nearest: one too far in magnitude at worst
		q := YMM()
		VPADDD(q1, q0, q)
		r1 := YMM()
		VPMULLD(vb, q1, p)
		VPSUBD(p, r0, r1)
		s := YMM()
		VPXOR(va, vb, s) // sign bit: the quotient is negative
		if floor {
			// p = r1 with b's sign: floor wants 0 <= p < |b|.
			eq := YMM()
			VPCMPEQD(vb, r1, eq) // p == |b|: one too low
			VPSUBD(eq, q, q)
			VPSIGND(vb, r1, p)
			VPSRAD(Imm(31), p, p) // p < 0: one too high
			VPADDD(p, q, q)
		} else {
			// r1 and a of opposite signs: one too far from zero, so step
			// back towards it. s is zero only where a == b, and there r1
			// is zero too.
			VPSIGND(va, r1, p)
			VPSRAD(Imm(31), p, p)
			VPSIGND(s, p, p)
			VPADDD(p, q, q)
		}
		if zeroCheck {
			VPMINUD(vb, minB, minB)
		}
		if overflowCheck {
			VPANDN(q, s, s)
			VPOR(s, flags, flags)
		}
		if v.nt {
			VMOVNTDQ(q, dst.Offset(off))
		} else {
			VMOVDQU(q, dst.Offset(off))
		}
	}
	group64 := func(off int) {
		fa := YMM()
		if !v.aVec {
			VCVTDQ2PD(fixedA.AsX(), fa)
		} else {
			VCVTDQ2PD(a.Offset(off), fa)
		}
		xb, fb, q := XMM(), YMM(), YMM()
		VMOVDQU(b.Offset(off), xb)
		VCVTDQ2PD(xb, fb)
		VDIVPD(fb, fa, q)
		if floor {
			VROUNDPD(Imm(9), q, q)
		}
		x := XMM()
		VCVTTPD2DQY(q, x)
		VPMINUD(xb, minB4, minB4)
		if overflowCheck {
			t := XMM()
			VPXOR(a.Offset(off), xb, t)
			VPANDN(x, t, t)
			VPOR(t, flags4, flags4)
		}
		if v.nt {
			VMOVNTDQ(x, dst.Offset(off))
		} else {
			VMOVDQU(x, dst.Offset(off))
		}
	}

	const lanes, block = 8, 24
	args.loops(name, v, block, lanes, func() {
		group32(0)
		group32(32)
		if !v.bVec {
			group32(64)
		} else {
			group64(64)
			group64(80)
		}
	}, func() { group32(0) }, 4)
	var test func()
	if zeroCheck {
		test = func() {
			zero := YMM()
			VPXOR(zero, zero, zero)
			VPCMPEQD(zero, minB, minB)
			VPOR(minB, flags, flags)
			VPCMPEQD(zero.AsX(), minB4, minB4)
			VPOR(minB4, flags4, flags4)
			m8, m4 := GP32(), GP32()
			VMOVMSKPS(flags, m8)
			VMOVMSKPS(flags4, m4)
			ORL(m4, m8)
		}
	}
	returnFault(test)
	if v.nt {
		SFENCE()
	}
	VZEROUPPER()
	RET()
}
