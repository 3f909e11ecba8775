package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// magic8Lo and magic8Hi are the low and high bytes of M(d) = ceil(2^15/d)
// for 1 <= d <= 128, at index d mod 128: the tables the byte kernels look
// up.
var magic8Lo, magic8Hi Mem

func constantsBytes() {
	table := func(name string, shift uint) Mem {
		m := GLOBL(name, RODATA|NOPTR)
		for i := range 128 {
			d := uint32(i)
			if d == 0 {
				d = 128
			}
			v := (1<<15 + d - 1) / d
			DATA(i, U8(uint8(v>>shift)))
		}
		return m
	}
	magic8Lo = table("magic8lo", 0)
	magic8Hi = table("magic8hi", 8)
}

// byteKernel512 divides 8-bit integers with two operands (VV and RW) or by
// a broadcast divisor (VS) on
// 64 byte lanes per zmm, without a float divide: AVX512_VBMI's VPERMI2B
// looks up M(d) = ceil(2^15/d) for 64 divisors at once, and the quotient of
// n by d, both unsigned bytes, is
//
//	q = (2n * M(d)) >> 16 for 1 <= d <= 128 (VPMULHUW in 16-bit lanes),
//	q = (n >= d) for d > 128 (unsigned only), as n < 2d there.
//
// The product is exact: M(d) = 2^15/d + e with 0 <= e < 1 (e = 0 for
// d = 128), so n*M(d)/2^15 exceeds n/d by n*e/2^15 <= 255/2^15 < 1/128,
// while the fraction of n/d is at most 1 - 1/d; the floor is n/d's. (The
// kernel tests run every pair of bytes.) Signed bytes divide their
// magnitudes (|-128| = 128 is a byte, looked up at index 0) and negate
// where a^b is negative; floor divides n = |a| + |b| - 1 instead of |a|
// there, as floor(a/b) = -ceil(|a|/|b|), and n stays below 256. A
// broadcast divisor is looked up once. The checks of 64-lane groups
// gather into vectors tested at the end (the minimum of b, for a zero;
// for MIN / -1, the OR of the quotients of lanes whose signs agree, which
// reach 128 only there), as mask tests per group cost as much as the
// division.
// Groups of 16 (rows, tails) use the same zmm code on an xmm load, whose
// upper lanes are zero, so they test b under a mask instead.
func byteKernel512(signed, floor bool, v variant) {
	name, args := intKernelText(8, signed, floor, v, 16, "VBMI", "It needs AVX512_VBMI besides the AVX-512 level.")
	dst, a, b := args.dst, args.a, args.b

	Comment("Tables and constants, loaded once.")
	lo0, lo1, hi0, hi1 := ZMM(), ZMM(), ZMM(), ZMM()
	VMOVDQU64(magic8Lo, lo0)
	VMOVDQU64(magic8Lo.Offset(64), lo1)
	VMOVDQU64(magic8Hi, hi0)
	VMOVDQU64(magic8Hi.Offset(64), hi1)
	zero, ones := ZMM(), ZMM()
	VPXORQ(zero, zero, zero)
	VPTERNLOGQ(Imm(0xff), ones, ones, ones) // -1 in every byte
	var one reg.VecVirtual
	if !signed {
		one = ZMM()
		VPABSB(ones, one)
	}
	failed := K()
	KXORQ(failed, failed, failed)
	var minB, overflow reg.VecVirtual
	if v.bVec {
		minB = ZMM()
		VMOVDQA64(ones, minB)
		if signed {
			overflow = ZMM()
			VPXORQ(overflow, overflow, overflow)
		}
	}

	// divisor looks up the magic numbers of the magnitudes in d.
	type divisor struct {
		d, dm1, m0, m1 reg.VecVirtual
		big            reg.OpmaskVirtual
	}
	lookUp := func(d reg.VecVirtual) divisor {
		x := divisor{d: d, m0: ZMM(), m1: ZMM()}
		if floor {
			x.dm1 = ZMM()
			VPADDB(ones, d, x.dm1)
		}
		if !signed {
			x.big = K()
			VPMOVB2M(d, x.big) // d >= 128
		}
		mLo, mHi := ZMM(), ZMM()
		VMOVDQA64(d, mLo)
		VPERMI2B(lo1, lo0, mLo) // mLo = magic8lo[d & 127]
		VMOVDQA64(d, mHi)
		VPERMI2B(hi1, hi0, mHi)
		VPUNPCKLBW(mHi, mLo, x.m0) // 16-bit M(d), in each 128-bit lane's order
		VPUNPCKHBW(mHi, mLo, x.m1)
		return x
	}
	// A broadcast divisor (VS) is looked up once; the wrapper keeps 0 and
	// -1 for itself, so its lanes need no checks.
	var fixedB reg.VecVirtual
	var fixed divisor
	if !v.bVec {
		fixedB = ZMM()
		VPBROADCASTB(b, fixedB)
		d := fixedB
		if signed {
			d = ZMM()
			VPABSB(fixedB, d)
		}
		fixed = lookUp(d)
	}

	// group divides 64 lanes at off, or 16 when wide is false.
	group := func(off int, wide bool) {
		load := func(m Mem, z reg.VecVirtual) {
			if wide {
				VMOVDQU8(m, z)
			} else {
				VMOVDQU(m, z.AsX())
			}
		}
		view := func(z reg.VecVirtual) Op {
			if wide {
				return z
			}
			return z.AsX()
		}
		va, vb := ZMM(), fixedB
		load(a.Offset(off), va)
		if v.bVec {
			vb = ZMM()
			load(b.Offset(off), vb)
			if wide {
				VPMINUB(vb, minB, minB)
			} else {
				bad := K()
				VPTESTNMB(view(vb), view(vb), bad) // b == 0
				KORQ(bad, failed, failed)
			}
		}
		n := va
		var neg reg.OpmaskVirtual
		var s reg.VecVirtual
		if signed {
			s = ZMM()
			neg = K()
			VPXORQ(va, vb, s)
			VPMOVB2M(s, neg)
			n = ZMM()
			VPABSB(va, n)
		}
		x := fixed
		if v.bVec {
			d := vb
			if signed {
				d = ZMM()
				VPABSB(vb, d)
			}
			x = lookUp(d)
		}
		if signed && floor {
			VPADDB(x.dm1, n, neg, n) // |a| + |b| - 1 where the signs differ
		}
		n0, n1 := ZMM(), ZMM()
		VPUNPCKLBW(zero, n, n0)
		VPUNPCKHBW(zero, n, n1)
		VPADDW(n0, n0, n0) // 2n
		VPADDW(n1, n1, n1)
		VPMULHUW(x.m0, n0, n0)
		VPMULHUW(x.m1, n1, n1)
		q := ZMM()
		VPACKUSWB(n1, n0, q) // undoes the unpacks' order
		if !signed {
			ge := K()
			VPCMPUB(Imm(5), x.d, n, x.big, ge) // n >= d, where d >= 128
			VMOVDQU8(zero, x.big, q)
			VMOVDQU8(one, ge, q)
		}
		if signed && v.bVec {
			VPTERNLOGQ(Imm(0xf4), s, q, overflow) // overflow |= q &^ s
		}
		if signed {
			VPSUBB(q, zero, neg, q)
		}
		switch {
		case wide && v.nt:
			VMOVNTDQ(q, dst.Offset(off))
		case wide:
			VMOVDQU8(q, dst.Offset(off))
		case v.nt:
			VMOVNTDQ(q.AsX(), dst.Offset(off))
		default:
			VMOVDQU(q.AsX(), dst.Offset(off))
		}
	}

	args.loops(name, v, 128, 16, func() {
		group(0, true)
		group(64, true)
	}, func() { group(0, false) }, 1)
	var test func()
	if v.bVec {
		zeroB := K()
		VPTESTNMB(minB, minB, zeroB)
		KORQ(zeroB, failed, failed)
		if signed {
			minus := K()
			VPMOVB2M(overflow, minus) // 128: MIN / -1
			KORQ(minus, failed, failed)
		}
		test = func() { KORTESTQ(failed, failed) }
	}
	returnFault(test)
	if v.nt {
		SFENCE()
	}
	VZEROUPPER()
	RET()
}
