// Command gen writes irdiv's division kernels, at the AVX2 and AVX-512
// levels, with avo, and the dispatch tables that put them in each level's
// Table:
//
//	go run . -out ../div_amd64.s -stubs ../div_amd64.go -pkg kernel -tables ../tables_amd64.go
//
// Every kernel divides whole groups of elements (a group fills one vector);
// the Go wrappers in wrap_amd64.go finish the tail with the generic
// kernels. Four variants per type: VV (two vectors), VS (b[0] broadcast),
// SV (a[0] broadcast) and RW (rows of a divided by the one row b, for row
// broadcasting in one call); the AVX-512 level adds VVNT, VV with
// non-temporal stores for large outputs. Integer kernels check for zero
// divisors (and MIN / -1 for signed types) inside the loop and return
// whether any lane failed; the wrapper then locates the element. A
// broadcast integer divisor is never divided by in the loop: the magic
// kernels multiply by its magic number.
//
// Files: gen.go (the AVX2 float-lane kernels, shared helpers), i32.go
// (AVX2 i32), magic_avx2.go (AVX2 magic numbers), avx512.go (the AVX-512
// level, its 64-bit and magic kernels), bytes512.go (AVX512_VBMI bytes),
// tables.go (the dispatch tables). Recipes and proofs are in the comments
// of the functions that emit them; divide-spec.md and simd-design.md
// section 8 give the semantics.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

//go:generate go run . -out ../div_amd64.s -stubs ../div_amd64.go -pkg kernel -tables ../tables_amd64.go

// variant is the shape of the runs a kernel divides: whether a and b are
// vectors (advancing with dst) or one broadcast element, and whether b is
// one row that repeats over rows of a (RW).
type variant struct {
	name       string
	aVec, bVec bool
	rows       bool
	// nt: dst is written with non-temporal stores (AVX-512 VV only),
	// which need dst aligned to 64 bytes.
	nt bool
	// expr is the Go expression of element i of the result, for the docs.
	expr string
}

var (
	vv       = variant{name: "VV", aVec: true, bVec: true, expr: "a[i] / b[i]"}
	vs       = variant{name: "VS", aVec: true, expr: "a[i] / b[0]"}
	sv       = variant{name: "SV", bVec: true, expr: "a[0] / b[i]"}
	rw       = variant{name: "RW", aVec: true, bVec: true, rows: true, expr: "a[i] / b[i%len(b)]"}
	variants = []variant{vv, vs, sv, rw}
	vvNT     = variant{name: "VVNT", aVec: true, bVec: true, nt: true, expr: "a[i] / b[i]"}
)

// regs are the constants a kernel loads into registers once, before its
// loop; a kind fills those it needs in setup.
type regs struct {
	two31                          reg.VecVirtual // U32's bias
	zero, lsb, round7fff, quietNaN reg.VecVirtual // BF16 rounding
}

// kind describes how one element type goes through a float divide.
type kind struct {
	name   string // Go name part: F32, I8...
	goType string
	size   int  // bytes per source element
	lanes  int  // elements per group
	double bool // divide in f64 (VDIVPD), else f32
	signed bool
	float  bool
	unroll int
	// bf16 kernels widen, divide and round two halves per group
	// (groupBF16) instead of going through widen, toFloat and store.
	bf16 bool
	// vectorBroadcast: broadcast already gives the divided lanes (f32,
	// f64), so a broadcast operand is not widened again.
	vectorBroadcast bool
	// setup loads the constants the kind's loops use.
	setup func(r *regs)
	// widen loads one group from src (memory, or an xmm register holding
	// a broadcast element) into integer lanes (or float lanes for floats).
	widen func(src Op) reg.VecVirtual
	// toFloat converts widened lanes to float lanes (nil for floats).
	toFloat func(r *regs, v reg.VecVirtual) reg.VecVirtual
	// store converts a quotient vector back and writes one group to dst.
	store func(r *regs, q reg.VecVirtual, dst Mem, nt bool)
	// broadcast loads the element at m into every lane of an xmm (or ymm
	// for f32/f64) register, for the vs and sv variants.
	broadcast func(m Mem) Op
}

// Constants shared by the kernels.
var (
	shuf16                       Mem
	min16, min32, lsb, round7fff Mem
	quiet, two31, rcpScale       Mem
)

func constants() {
	// VPSHUFB control: per 128-bit lane, the low two bytes of each dword;
	// 0x80 zeroes a byte.
	shuf16 = GLOBL("shuf16", RODATA|NOPTR)
	for i := range 32 {
		b := U8(0x80)
		if i%16 < 8 {
			b = U8(4*(i%16/2) + i%2)
		}
		DATA(i, b)
	}
	// avo emits DATA for the most recent GLOBL, so each table is written
	// right after its GLOBL.
	scalar := func(name string, v uint32) Mem {
		m := GLOBL(name, RODATA|NOPTR)
		DATA(0, U32(v))
		return m
	}
	min16 = scalar("min16", 0xffff8000)
	min32 = scalar("min32", 0x80000000)
	lsb = scalar("lsb", 1)
	round7fff = scalar("round7fff", 0x7fff)
	quiet = scalar("quiet", 0x00400000)
	rcpScale = scalar("rcpscale", 0x3f7ffff0) // 1 - 2^-20 as f32
	two31 = GLOBL("two31", RODATA|NOPTR)
	DATA(0, U64(0x41e0000000000000)) // 2^31 as f64
}

var tablesOut = flag.String("tables", "", "write the dispatch tables (Go) to `file`")

func main() {
	flag.Parse()
	ConstraintExpr("!purego")
	constants()
	constantsBytesAVX2()
	for _, k := range kinds() {
		for _, v := range variants {
			for _, floor := range modes(k.signed) {
				if k.size == 1 {
					bytesAVX2(k.signed, floor, v)
				} else {
					kernel(k, v, floor)
				}
			}
		}
		vecs{table: "AVX2", names: "AVX2", typ: k.name, goType: k.goType, lanes: k.lanes, signed: k.signed, float: k.float}.add()
	}
	for _, v := range variants {
		i32Kernel(v, false)
		i32Kernel(v, true)
	}
	vecs{table: "AVX2", names: "AVX2", typ: "I32", goType: "int32", lanes: 8, signed: true}.add()
	constants512()
	constants64()
	for _, t := range []struct {
		name, goType string
		size         int
		signed       bool
	}{{"I8", "int8", 1, true}, {"U8", "uint8", 1, false}, {"I16", "int16", 2, true}, {"U16", "uint16", 2, false}, {"I32", "int32", 4, true}, {"U32", "uint32", 4, false}} {
		for _, floor := range modes(t.signed) {
			if t.size == 1 {
				magic8(t.signed, floor, false)
				magic8(t.signed, floor, true)
				for _, l := range []struct {
					level string
					lanes int
				}{{"AVX2", 32}, {"AVX512", 64}} {
					table(l.level, phaseBroadcast, "%s.vs = magicBytes(%d, %s, %s.vs)", entry(t.name, floor), l.lanes, magic8Name(t.signed, floor, l.level), entry(t.name, floor))
					if !t.signed {
						table(l.level, phaseBroadcast, "t.%s[1] = t.%s[0]", field(t.name), field(t.name))
					}
				}
				continue
			}
			for _, add := range []bool{false, true} {
				magicSmallAVX2(t.name, t.goType, t.size, t.signed, floor, add)
				magicSmall512(t.name, t.goType, t.size, t.signed, floor, add)
			}
			// 16-bit elements divide in 16-bit lanes, 32-bit ones in
			// 32-bit lanes: 32 bytes of lanes per ymm, 64 per zmm.
			laneBits := 8 * t.size
			for _, l := range []struct {
				level string
				bytes int
			}{{"AVX2", 32}, {"AVX512", 64}} {
				level, bytes := l.level, l.bytes
				table(level, phaseBroadcast, "%s.vs = magicSmall(%d, %d, %s, %s, %s.vs)", entry(t.name, floor),
					8*bytes/laneBits, laneBits, magicName(t.name, t.signed, floor, false, level), magicName(t.name, t.signed, floor, true, level), entry(t.name, floor))
				if !t.signed {
					table(level, phaseBroadcast, "t.%s[1] = t.%s[0]", field(t.name), field(t.name))
				}
			}
		}
	}
	for _, v := range []variant{vv, sv, rw, vvNT} {
		div64Kernel512(true, false, v)
		div64Kernel512(true, true, v)
		div64Kernel512(false, false, v)
	}
	for _, signed := range []bool{true, false} {
		typ := map[bool]string{true: "I64", false: "U64"}[signed]
		for _, floor := range modes(signed) {
			e := entry(typ, floor)
			table("AVX512", phase64, "%s = exact64(8, %s, %s, %s, %s)", e,
				levelName("AVX512", typ, signed, false, floor, vv), levelName("AVX512", typ, signed, false, floor, sv), levelName("AVX512", typ, signed, false, floor, rw), e)
			table("AVX512", phaseStream, "%s.stream = streamed(8, %s, %s.vv, g.%s.vv)", e, levelName("AVX512", typ, signed, false, floor, vvNT), e, e[2:])
			if !signed {
				table("AVX512", phase64, "t.u64[1] = t.u64[0]")
				table("AVX512", phaseStream, "t.u64[1] = t.u64[0]")
			}
		}
	}
	constantsBytes()
	for _, v := range []variant{vv, vs, rw, vvNT} {
		byteKernel512(true, false, v)
		byteKernel512(true, true, v)
		byteKernel512(false, false, v)
	}
	for _, t := range []struct {
		name, goType string
		signed       bool
	}{{"I8", "int8", true}, {"U8", "uint8", false}} {
		// 8-bit division looks its magic numbers up (VPERMI2B) instead of
		// dividing in f32, and needs no widening to 16-bit lanes for a
		// broadcast divisor: 1.6-2.2x faster than the magic-number kernels.
		vecs{table: "AVX512", names: "VBMI", svNames: "AVX512", phase: phaseCPU, cond: "hasVBMI",
			typ: t.name, goType: t.goType, lanes: 16, signed: t.signed}.add()
		for _, floor := range modes(t.signed) {
			e := entry(t.name, floor)
			tableIf("AVX512", phaseStream, "hasVBMI", "", "%s.stream = streamed(16, %s, %s.vv, fault)", e, levelName("VBMI", t.name, t.signed, false, floor, vvNT), e)
			if !t.signed {
				tableIf("AVX512", phaseStream, "hasVBMI", "", "t.u8[1] = t.u8[0]")
			}
		}
	}
	for _, k := range kinds512() {
		for _, v := range append(variants, vvNT) {
			kernel512(k, v, false)
			if k.signed {
				kernel512(k, v, true)
			}
		}
		vecs{table: "AVX512", names: "AVX512", typ: k.name, goType: k.goType, lanes: k.lanes, signed: k.signed, float: k.float}.add()
		orElse := "" // the VBMI byte kernels have streams of their own
		if k.size == 1 {
			orElse = "hasVBMI"
		}
		for _, floor := range modes(k.signed) {
			nt := levelName("AVX512", k.name, k.signed, k.float, floor, vvNT)
			if k.float {
				table("AVX512", phaseStream, "t.%s.stream = streamed(%d, floatKernel(%s), t.%s.vv, fault)", field(k.name), k.lanes, nt, field(k.name))
				continue
			}
			e := entry(k.name, floor)
			tableIf("AVX512", phaseStream, "", orElse, "%s.stream = streamed(%d, %s, %s.vv, fault)", e, k.lanes, nt, e)
			if !k.signed {
				tableIf("AVX512", phaseStream, "", orElse, "t.%s[1] = t.%s[0]", field(k.name), field(k.name))
			}
		}
	}
	for _, signed := range []bool{true, false} {
		for _, add := range []bool{false, true} {
			for _, floor := range []bool{false, true} {
				if !signed && floor {
					continue
				}
				magic64(signed, add, floor)
				magic64AVX512(signed, add, floor)
			}
		}
	}
	// 64-bit elements by a broadcast divisor: magic numbers in 4 or 8
	// lanes, over the scalar magic-number loops of div64.go, which also
	// take the divisors the vector kernels leave (powers of two, -1).
	table("AVX2", phaseVectors, "t.i64 = fast64Variants(g.i64)")
	table("AVX2", phaseVectors, "t.u64 = fastU64Variants(g.u64[0])")
	for _, l := range []struct {
		level string
		lanes int
	}{{"AVX2", 4}, {"AVX512", 8}} {
		level, lanes := l.level, l.lanes
		for _, floor := range []bool{false, true} {
			table(level, phaseBroadcast, "%s.vs = magicI64(%d, %s, %s, %s.vs)", entry("I64", floor), lanes,
				magicName("I64", true, floor, false, level), magicName("I64", true, floor, true, level), entry("I64", floor))
		}
		table(level, phaseBroadcast, "t.u64[0].vs = magicU64(%d, %s, %s, t.u64[0].vs)", lanes, magicName("U64", false, false, false, level), magicName("U64", false, false, true, level))
		table(level, phaseBroadcast, "t.u64[1] = t.u64[0]")
	}
	// Same-shape kernels with non-temporal stores, for outputs of
	// StreamMin bytes or more.
	for _, k := range kinds() {
		for _, floor := range modes(k.signed) {
			if k.size == 1 {
				bytesAVX2(k.signed, floor, vvNT)
			} else {
				kernel(k, vvNT, floor)
			}
			nt := levelName("AVX2", k.name, k.signed, k.float, floor, vvNT)
			if k.float {
				table("AVX2", phaseStream, "t.%s.stream = streamed(%d, floatKernel(%s), t.%s.vv, fault)", field(k.name), k.lanes, nt, field(k.name))
				continue
			}
			e := entry(k.name, floor)
			table("AVX2", phaseStream, "%s.stream = streamed(%d, %s, %s.vv, fault)", e, k.lanes, nt, e)
			if !k.signed {
				table("AVX2", phaseStream, "t.%s[1] = t.%s[0]", field(k.name), field(k.name))
			}
		}
	}
	for _, floor := range []bool{false, true} {
		i32Kernel(vvNT, floor)
		e := entry("I32", floor)
		table("AVX2", phaseStream, "%s.stream = streamed(8, %s, %s.vv, fault)", e, levelName("AVX2", "I32", true, false, floor, vvNT), e)
	}
	constants64AVX2()
	for _, v := range []variant{vv, sv, rw, vvNT} {
		div64KernelAVX2(true, false, v)
		div64KernelAVX2(true, true, v)
		div64KernelAVX2(false, false, v)
	}
	for _, signed := range []bool{true, false} {
		typ := map[bool]string{true: "I64", false: "U64"}[signed]
		for _, floor := range modes(signed) {
			e := entry(typ, floor)
			table("AVX2", phase64, "%s = exact64(4, %s, %s, %s, %s)", e,
				levelName("AVX2", typ, signed, false, floor, vv), levelName("AVX2", typ, signed, false, floor, sv), levelName("AVX2", typ, signed, false, floor, rw), e)
			table("AVX2", phaseStream, "%s.stream = streamed(4, %s, %s.vv, g.%s.vv)", e, levelName("AVX2", typ, signed, false, floor, vvNT), e, e[2:])
			if !signed {
				table("AVX2", phase64, "t.u64[1] = t.u64[0]")
				table("AVX2", phaseStream, "t.u64[1] = t.u64[0]")
			}
		}
	}
	Generate()
	if *tablesOut != "" {
		if err := writeTables(*tablesOut); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

// intKernelText declares an integer kernel of the given bits (8 or 64),
// func(dst, a, b []T) bool, named by kernelName with level in place of
// AVX2, documents it (lanes per group, then note), and returns its name
// and parameters.
func intKernelText(bits int, signed, floor bool, v variant, lanes int, level, note string) (string, params) {
	typ, goType := fmt.Sprintf("U%d", bits), fmt.Sprintf("uint%d", bits)
	if signed {
		typ, goType = fmt.Sprintf("I%d", bits), fmt.Sprintf("int%d", bits)
	}
	name := strings.TrimSuffix(kernelName(typ, signed, false, floor, v), "AVX2") + level
	TEXT(name, NOSPLIT, "func(dst, a, b []"+goType+") bool")
	Pragma("noescape")
	kernelDoc(name, lanes, v, true, floor)
	Doc(note)
	return name, loadParams(v)
}

// magicName names a magic-number kernel: div<typ>Magic[Trunc|Floor][Add]<level>.
func magicName(typ string, signed, floor, add bool, level string) string {
	name := "div" + typ + "Magic"
	if signed && floor {
		name += "Floor"
	} else if signed {
		name += "Trunc"
	}
	if add {
		name += "Add"
	}
	return name + level
}

// magicText declares a magic-number kernel, func(dst, a []T, magic,
// shift, absD, negD uint64), named by magicName after the element type T,
// and returns its name.
func magicText(typ, goType string, signed, floor, add bool, level string) string {
	name := magicName(typ, signed, floor, add, level)
	TEXT(name, NOSPLIT, "func(dst, a []"+goType+", magic, shift, absD, negD uint64)")
	Pragma("noescape")
	return name
}

// magic64Text is magicText for i64 (signed) or u64.
func magic64Text(signed, floor, add bool, level string) string {
	if signed {
		return magicText("I64", "int64", true, floor, add, level)
	}
	return magicText("U64", "uint64", false, floor, add, level)
}

// magicSmallText declares a kernel of magicSmallAVX2 or magicSmall512,
// documents it and returns its name.
func magicSmallText(typ, goType string, signed, floor, add bool, level string, lanes, laneBits int) string {
	name := magicText(typ, goType, signed, floor, add, level)
	mode := "truncating division"
	if floor {
		mode = "floor division"
	}
	Doc(name+" divides groups of "+fmt.Sprint(lanes)+" elements by one divisor d, "+mode+",",
		"with libdivide's unsigned magic number for |d| in "+fmt.Sprint(laneBits)+"-bit lanes (magic,",
		"shift), |d| itself and negD all ones when d < 0:",
		"",
		"\tfor i := range n { // n = len(dst) rounded down to a multiple of "+fmt.Sprint(lanes),
		"\t\tdst[i] = a[i] / d",
		"\t}",
		"",
		"d is neither 0, 1 nor -1: the caller keeps those.")
	return name
}

// magic64 divides 64-bit integers by one divisor with libdivide's
// unsigned magic number for |d|, four lanes at a time: |n| times magic,
// high half built from four 32x32 multiplies, shifts, then the sign of
// the quotient restored. Floor divides |n|+|d|-1 where the signs differ,
// as magicSmall512 does (below 2^64, where the magic number holds), so
// that the sign is the only fix. Powers of two and -1 are left to the
// scalar code.
func magic64(signed, add, floor bool) {
	name := magic64Text(signed, floor, add, "AVX2")
	mode := "truncating division"
	if floor {
		mode = "floor division"
	}
	Doc(name+" divides groups of 4 elements by one divisor d, "+mode+", with",
		"libdivide's magic number for |d| (magic, shift; the add variant adds",
		"back the numerator), |d| itself and negD all ones when d < 0:",
		"",
		"\tfor i := range n { // n = len(dst) rounded down to a multiple of 4",
		"\t\tdst[i] = a[i] / d",
		"\t}",
		"",
		"d is neither 0, -1 nor a power of two: the caller keeps those.")
	n := Load(Param("dst").Len(), GP64())
	dst := Mem{Base: Load(Param("dst").Base(), GP64())}
	a := Mem{Base: Load(Param("a").Base(), GP64())}
	bcast := func(p string) reg.VecVirtual {
		g := Load(Param(p), GP64())
		x, y := XMM(), YMM()
		MOVQ(g, x)
		VPBROADCASTQ(x, y)
		return y
	}
	mLo, shift, negD := bcast("magic"), XMM(), bcast("negD")
	MOVQ(Load(Param("shift"), GP64()), shift)
	mHi, lo32, zero := YMM(), YMM(), YMM()
	VPSRLQ(Imm(32), mLo, mHi)
	VPCMPEQQ(lo32, lo32, lo32)
	VPSRLQ(Imm(32), lo32, lo32)
	VPXOR(zero, zero, zero)
	var absDLess1 reg.VecVirtual
	if floor {
		absDLess1 = bcast("absD")
		ones := YMM()
		VPCMPEQQ(ones, ones, ones)
		VPADDQ(ones, absDLess1, absDLess1)
	}

	group := func(off int) {
		v, sign, u := YMM(), YMM(), YMM()
		VMOVDQU(a.Offset(off), v)
		var differ reg.VecVirtual
		if signed {
			VPCMPGTQ(v, zero, sign) // -1 where v < 0
			VPXOR(sign, v, u)
			VPSUBQ(sign, u, u) // |v|
			differ = YMM()
			VPXOR(negD, sign, differ) // -1 where the signs differ
			if floor {
				step := YMM()
				VPAND(absDLess1, differ, step)
				VPADDQ(step, u, u) // |v|+|d|-1 where the signs differ
			}
		} else {
			u = v
		}
		hh := mulhi64(u, mLo, mHi, lo32, YMM, func(x, y, z Op) { VPAND(x, y, z) })
		q := YMM()
		if add {
			VPSUBQ(hh, u, q)
			VPSRLQ(Imm(1), q, q)
			VPADDQ(hh, q, q)
			VPSRLQ(shift, q, q)
		} else {
			VPSRLQ(shift, hh, q)
		}
		if signed {
			VPXOR(differ, q, q)
			VPSUBQ(differ, q, q)
		}
		VMOVDQU(q, dst.Offset(off))
	}
	groupLoops(name, n, a, dst, 4, 8, group)
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// mulhi64 returns the high 64 bits of u*magic in every lane, from four
// 32x32 multiplies (mLo = magic, mHi = magic >> 32, lo32 the low 32 bits
// of every lane set); vec makes a register of u's width and and is that
// width's bitwise and.
func mulhi64(u, mLo, mHi, lo32 reg.VecVirtual, vec func() reg.VecVirtual, and func(x, y, z Op)) reg.VecVirtual {
	uHi, ll, lh, hl, hh, t, w := vec(), vec(), vec(), vec(), vec(), vec(), vec()
	VPSRLQ(Imm(32), u, uHi)
	VPMULUDQ(mLo, u, ll)
	VPMULUDQ(mHi, u, lh)
	VPMULUDQ(mLo, uHi, hl)
	VPMULUDQ(mHi, uHi, hh)
	VPSRLQ(Imm(32), ll, t)
	VPADDQ(hl, t, t)
	and(lo32, t, w)
	VPADDQ(lh, w, w)
	VPSRLQ(Imm(32), t, t)
	VPADDQ(t, hh, hh)
	VPSRLQ(Imm(32), w, w)
	VPADDQ(w, hh, hh)
	return hh
}

// groupLoops emits the loops of the one-operand kernels: blocks of two
// groups while they fit, then single groups of lanes elements of size
// bytes, advancing a and dst; group(off) divides the group at byte off.
// The label name_done follows.
func groupLoops(name string, n reg.Register, a, dst Mem, lanes, size int, group func(off int)) {
	Comment(fmt.Sprintf("Blocks of %d elements, then groups of %d.", 2*lanes, lanes))
	Label(name + "_block")
	CMPQ(n, U32(2*lanes))
	JB(LabelRef(name + "_single"))
	group(0)
	group(lanes * size)
	ADDQ(U32(2*lanes*size), a.Base)
	ADDQ(U32(2*lanes*size), dst.Base)
	SUBQ(U32(2*lanes), n)
	JMP(LabelRef(name + "_block"))
	Label(name + "_single")
	CMPQ(n, U32(lanes))
	JB(LabelRef(name + "_done"))
	group(0)
	ADDQ(U32(lanes*size), a.Base)
	ADDQ(U32(lanes*size), dst.Base)
	SUBQ(U32(lanes), n)
	JMP(LabelRef(name + "_single"))
}

func kinds() []kind {
	f32 := kind{name: "F32", goType: "float32", size: 4, lanes: 8, float: true, unroll: 4, vectorBroadcast: true,
		widen: func(src Op) reg.VecVirtual {
			y := YMM()
			VMOVUPS(src, y)
			return y
		},
		store: func(_ *regs, q reg.VecVirtual, dst Mem, nt bool) {
			if nt {
				VMOVNTPS(q, dst)
			} else {
				VMOVUPS(q, dst)
			}
		},
		broadcast: func(m Mem) Op { y := YMM(); VBROADCASTSS(m, y); return y },
	}
	f64 := kind{name: "F64", goType: "float64", size: 8, lanes: 4, double: true, float: true, unroll: 4, vectorBroadcast: true,
		widen: func(src Op) reg.VecVirtual {
			y := YMM()
			VMOVUPD(src, y)
			return y
		},
		store: func(_ *regs, q reg.VecVirtual, dst Mem, nt bool) {
			if nt {
				VMOVNTPD(q, dst)
			} else {
				VMOVUPD(q, dst)
			}
		},
		broadcast: func(m Mem) Op { y := YMM(); VBROADCASTSD(m, y); return y },
	}
	bcastW := func(m Mem) Op { x := XMM(); VPBROADCASTW(m, x); return x }
	bcastD := func(m Mem) Op { x := XMM(); VPBROADCASTD(m, x); return x }
	f16 := kind{name: "F16", goType: "uint16", size: 2, lanes: 8, float: true, unroll: 4,
		widen: func(src Op) reg.VecVirtual {
			y := YMM()
			VCVTPH2PS(src, y)
			return y
		},
		store: func(_ *regs, q reg.VecVirtual, dst Mem, nt bool) {
			if nt {
				x := XMM()
				VCVTPS2PH(Imm(0), q, x)
				VMOVNTDQ(x, dst)
			} else {
				VCVTPS2PH(Imm(0), q, dst)
			}
		},
		broadcast: bcastW,
	}
	bf16 := kind{name: "BF16", goType: "uint16", size: 2, lanes: 16, float: true, unroll: 2, bf16: true,
		setup: func(r *regs) {
			r.zero, r.lsb, r.round7fff, r.quietNaN = YMM(), YMM(), YMM(), YMM()
			VPXOR(r.zero, r.zero, r.zero)
			VPBROADCASTD(lsb, r.lsb)
			VPBROADCASTD(round7fff, r.round7fff)
			VPBROADCASTD(quiet, r.quietNaN)
		},
		widen: func(src Op) reg.VecVirtual {
			y := YMM()
			VPMOVZXWD(src, y)
			VPSLLD(Imm(16), y, y)
			return y
		},
		broadcast: bcastW,
	}
	// 16-bit integers go through f32, exact by the 1/|b| argument.
	small := func(name, goType string, size int, signed bool, widenOp func(Op, Op), bcast func(Mem) Op) kind {
		k := kind{name: name, goType: goType, size: size, lanes: 8, signed: signed, unroll: 2, broadcast: bcast}
		k.widen = func(src Op) reg.VecVirtual {
			y := YMM()
			widenOp(src, y)
			return y
		}
		k.toFloat = func(_ *regs, v reg.VecVirtual) reg.VecVirtual {
			f := YMM()
			VCVTDQ2PS(v, f)
			return f
		}
		k.store = func(r *regs, q reg.VecVirtual, dst Mem, nt bool) {
			i := YMM()
			VCVTTPS2DQ(q, i)
			VPSHUFB(shuf16, i, i)
			VPERMQ(Imm(0x08), i, i)
			if nt {
				VMOVNTDQ(i.AsX(), dst)
			} else {
				VMOVDQU(i.AsX(), dst)
			}
		}
		return k
	}
	// Bytes have kernels of their own (bytesAVX2, 32 per group); these
	// kinds name them.
	i8 := kind{name: "I8", goType: "int8", size: 1, lanes: 32, signed: true}
	u8 := kind{name: "U8", goType: "uint8", size: 1, lanes: 32}
	i16 := small("I16", "int16", 2, true, func(s, d Op) { VPMOVSXWD(s, d) }, bcastW)
	u16 := small("U16", "uint16", 2, false, func(s, d Op) { VPMOVZXWD(s, d) }, bcastW)
	// u32 goes through f64, four per group (i32 has kernels of its own:
	// i32.go). AVX2 has no unsigned conversion: bias into the signed range
	// and back.
	u32 := kind{name: "U32", goType: "uint32", size: 4, lanes: 4, double: true, unroll: 4, broadcast: bcastD,
		setup: func(r *regs) {
			r.two31 = YMM()
			VBROADCASTSD(two31, r.two31)
		},
		widen: func(src Op) reg.VecVirtual {
			x := XMM()
			VMOVDQU(src, x)
			return x
		},
		toFloat: func(r *regs, v reg.VecVirtual) reg.VecVirtual {
			x, y, bias := XMM(), YMM(), XMM()
			VPBROADCASTD(min32, bias)
			VPXOR(bias, v, x)
			VCVTDQ2PD(x, y)
			VADDPD(r.two31, y, y)
			return y
		},
		store: func(r *regs, q reg.VecVirtual, dst Mem, nt bool) {
			// Truncate before re-biasing: truncating the biased (negative)
			// value would round it up.
			y, x, bias := YMM(), XMM(), XMM()
			VROUNDPD(Imm(11), q, y)
			VSUBPD(r.two31, y, y)
			VCVTTPD2DQY(y, x)
			VPBROADCASTD(min32, bias)
			VPXOR(bias, x, x)
			if nt {
				VMOVNTDQ(x, dst)
			} else {
				VMOVDQU(x, dst)
			}
		},
	}
	return []kind{f32, f64, f16, bf16, i8, u8, i16, u16, u32}
}

// roundBF16 rounds f32 lanes to bfloat16, to nearest even with a NaN kept
// a quiet NaN, leaving each result in the low half of its dword.
func roundBF16(c *regs, q reg.VecVirtual) reg.VecVirtual {
	t, r, nan, qn := YMM(), YMM(), YMM(), YMM()
	VPSRLD(Imm(16), q, t)
	VPAND(c.lsb, t, t)
	VPADDD(c.round7fff, t, t)
	VPADDD(q, t, r)
	VCMPPS(Imm(3), q, q, nan) // unordered: NaN lanes
	VPOR(c.quietNaN, q, qn)
	VPBLENDVB(nan, qn, r, r)
	VPSRLD(Imm(16), r, r)
	return r
}

// groupBF16 divides 16 bfloat16 values. Interleaving with zero widens the
// low and high four words of each 128-bit lane to f32 (word << 16); the
// in-lane pack restores the original order, so nothing crosses lanes.
func groupBF16(c *regs, a, b Op, aFixed, bFixed reg.VecVirtual, dst Mem, nt bool) {
	zero := c.zero
	half := func(src Op, fixed reg.VecVirtual, high bool) reg.VecVirtual {
		if fixed != nil {
			return fixed
		}
		r := YMM()
		if high {
			VPUNPCKHWD(src, zero, r)
		} else {
			VPUNPCKLWD(src, zero, r)
		}
		return r
	}
	var out [2]reg.VecVirtual
	for i, high := range []bool{false, true} {
		q := YMM()
		VDIVPS(half(b, bFixed, high), half(a, aFixed, high), q)
		out[i] = roundBF16(c, q)
	}
	VPACKUSDW(out[1], out[0], out[0])
	if nt {
		VMOVNTDQ(out[0], dst)
	} else {
		VMOVDQU(out[0], dst)
	}
}

// kernelName is "div" + type + mode + variant + "AVX2": divF32VVAVX2,
// divI8FloorRWAVX2...
func kernelName(typ string, signed, float, floor bool, v variant) string {
	name := "div" + typ
	switch {
	case float:
	case floor:
		name += "Floor"
	case signed:
		name += "Trunc"
	}
	return name + v.name + "AVX2"
}

// kernelDoc documents a kernel by the Go loop it computes, as gonum's
// stubs do.
func kernelDoc(name string, lanes int, v variant, integer bool, floor bool) {
	op := "rounded to the element type"
	switch {
	case integer && floor:
		op = "floor division"
	case integer:
		op = "truncating division"
	}
	n := fmt.Sprintf("len(dst) rounded down to a multiple of %d", lanes)
	if v.rows {
		n = fmt.Sprintf("len(dst), whole rows of len(b), a multiple of %d", lanes)
	}
	lines := []string{
		fmt.Sprintf("%s divides groups of %d elements, %s:", name, lanes, op),
		"",
		fmt.Sprintf("\tfor i := range n { // n = %s", n),
		fmt.Sprintf("\t\tdst[i] = %s", v.expr),
		"\t}",
	}
	if integer {
		check := "a zero divisor"
		if v.aVec && v.bVec {
			check += " or MIN / -1"
		}
		if !v.bVec {
			check = "nothing (the caller checks b[0])"
		}
		lines = append(lines, "", "It reports whether some lane met "+check+"; dst is then unspecified.")
	}
	if v.nt {
		lines = append(lines, "",
			"It writes dst with non-temporal stores, which bypass the caches: dst must be",
			"aligned to 64 bytes. An SFENCE orders them before the kernel returns.")
	}
	Doc(lines...)
}

func kernel(k kind, v variant, floor bool) {
	name := kernelName(k.name, k.signed, k.float, floor, v)
	sig := fmt.Sprintf("func(dst, a, b []%s)", k.goType)
	if !k.float {
		sig += " bool"
	}
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	kernelDoc(name, k.lanes, v, !k.float, floor)
	args := loadParams(v)
	dst, a, b := args.dst, args.a, args.b

	Comment("Constants and the broadcast operand, loaded once.")
	var c regs
	if k.setup != nil {
		k.setup(&c)
	}
	checks := !k.float && v.bVec             // the wrapper checks a scalar divisor
	overflow := k.signed && v.aVec && v.bVec // SV's wrapper checks a[0] for MIN
	var acc, zero, ones, minv reg.VecVirtual
	if checks {
		mk := func() reg.VecVirtual {
			if k.lanes == 8 {
				return YMM()
			}
			return XMM()
		}
		acc, zero = mk(), mk()
		VPXOR(acc, acc, acc)
		VPXOR(zero, zero, zero)
		if overflow {
			ones, minv = mk(), mk()
			VPCMPEQD(ones, ones, ones)
			VPBROADCASTD(min16, minv) // i16, the one signed kind here
		}
	}
	toFloat := func(r reg.VecVirtual) reg.VecVirtual {
		if k.toFloat == nil {
			return r
		}
		return k.toFloat(&c, r)
	}
	var fixed reg.VecVirtual
	switch {
	case !v.bVec:
		fixed = toFloat(widenOp(k, k.broadcast(b)))
	case !v.aVec:
		fixed = toFloat(widenOp(k, k.broadcast(a)))
	}

	group := func(i int) {
		aOff, bOff, dOff := a.Offset(i*k.lanes*k.size), b.Offset(i*k.lanes*k.size), dst.Offset(i*k.lanes*k.size)
		if k.bf16 {
			var aFixed, bFixed reg.VecVirtual
			if !v.aVec {
				aFixed = fixed
			}
			if !v.bVec {
				bFixed = fixed
			}
			groupBF16(&c, aOff, bOff, aFixed, bFixed, dOff, v.nt)
			return
		}
		var fa, fb, aMin reg.VecVirtual
		if v.aVec {
			wa := k.widen(aOff)
			if overflow {
				aMin = cloneReg(wa)
				VPCMPEQD(minv, wa, aMin)
			}
			fa = toFloat(wa)
		} else {
			fa = fixed
		}
		if v.bVec {
			wb := k.widen(bOff)
			if checks {
				t := cloneReg(wb)
				VPCMPEQD(zero, wb, t)
				VPOR(t, acc, acc)
				if overflow {
					VPCMPEQD(ones, wb, t)
					VPAND(aMin, t, t)
					VPOR(t, acc, acc)
				}
			}
			fb = toFloat(wb)
		} else {
			fb = fixed
		}
		q := YMM()
		if k.double {
			VDIVPD(fb, fa, q)
		} else {
			VDIVPS(fb, fa, q)
		}
		if floor {
			if k.double {
				VROUNDPD(Imm(9), q, q)
			} else {
				VROUNDPS(Imm(9), q, q)
			}
		}
		k.store(&c, q, dOff, v.nt)
	}

	args.loops(name, v, k.unroll*k.lanes, k.lanes, func() {
		for i := range k.unroll {
			group(i)
		}
	}, func() { group(0) }, k.size)
	if !k.float {
		var test func()
		if checks {
			test = func() { VPTEST(acc, acc) }
		}
		returnFault(test)
	}
	if v.nt {
		SFENCE()
	}
	VZEROUPPER()
	RET()
}

// returnFault stores an integer kernel's result: whether the flags left by
// test say that some lane failed, or false where test is nil.
func returnFault(test func()) {
	Comment("Report whether some lane failed a check.")
	ret := GP8()
	if test != nil {
		test()
		SETNE(ret)
	} else {
		XORB(ret, ret)
	}
	Store(ret, ReturnIndex(0))
}

// widenOp widens a broadcast register the way k.widen widens memory.
func widenOp(k kind, src Op) reg.VecVirtual {
	if r, ok := src.(reg.VecVirtual); ok && k.vectorBroadcast {
		return r
	}
	return k.widen(src)
}

func cloneReg(r reg.VecVirtual) reg.VecVirtual {
	if r.Size() == 32 {
		return YMM()
	}
	return XMM()
}

// params are a kernel's arguments: dst's length n, the three slices'
// bases, and for RW the row length run and the start of b, bRow. cnt
// counts down the elements left (of the row, for RW). prefetch, where
// set, is how far ahead of a and b each block prefetches, in bytes.
type params struct {
	n, cnt, run, bRow reg.Register
	dst, a, b         Mem
	prefetch          int
}

// streamPrefetch is params.prefetch for the AVX-512 VVNT kernels whose
// divisions cost most of what streaming their operands does (32-bit
// integers in f64 lanes, 64-bit integers). Their loops keep too few blocks
// in flight for the hardware prefetcher to hide memory; at 16Mi on the
// Zen 5 host, medians of 8 interleaved runs, 4 KiB ahead took i32 floor
// from 0.39 to 0.33 ns/elem and i64 floor from 0.74 to 0.65, while f32,
// u16 and the byte kernels, which wait on memory already, gained nothing
// or lost up to 5%. The AVX2 kernels, slower per element, lost with it
// (i32 floor 0.50 -> 0.61, i64 floor 1.05 -> 1.27 ns/elem, 3 interleaved
// rounds on the same host, shared), so they do not prefetch.
const streamPrefetch = 4096

func loadParams(v variant) params {
	p := params{n: Load(Param("dst").Len(), GP64())}
	p.dst = Mem{Base: Load(Param("dst").Base(), GP64())}
	p.a = Mem{Base: Load(Param("a").Base(), GP64())}
	p.b = Mem{Base: Load(Param("b").Base(), GP64())}
	p.cnt = p.n
	if v.rows {
		// RW divides rows of dst and a by the one row b: the loops count
		// cnt down over a row, and an outer loop restarts b for every row.
		p.cnt, p.run, p.bRow = GP64(), Load(Param("b").Len(), GP64()), GP64()
		MOVQ(p.b.Base, p.bRow)
	}
	return p
}

// loops emits a kernel's loops: blockBody divides block elements per
// round while that many are left, then singleBody single elements; for
// RW both run once per row. The label name_done follows them.
func (p params) loops(name string, v variant, block, single int, blockBody, singleBody func(), size int) {
	advance := func(elems int) {
		if v.aVec {
			ADDQ(U32(elems*size), p.a.Base)
		}
		if v.bVec {
			ADDQ(U32(elems*size), p.b.Base)
		}
		ADDQ(U32(elems*size), p.dst.Base)
		SUBQ(U32(elems), p.cnt)
	}
	if v.rows {
		Comment("One row of dst and a per round, b from its start.")
		Label(name + "_row")
		CMPQ(p.n, U32(0))
		JE(LabelRef(name + "_done"))
		MOVQ(p.run, p.cnt)
		MOVQ(p.bRow, p.b.Base)
		SUBQ(p.run, p.n)
	}
	Comment(fmt.Sprintf("Blocks of %d elements.", block))
	Label(name + "_block")
	CMPQ(p.cnt, U32(block))
	JB(LabelRef(name + "_single"))
	for off := 0; p.prefetch > 0 && off < block*size; off += 64 {
		PREFETCHT0(p.a.Offset(p.prefetch + off))
		PREFETCHT0(p.b.Offset(p.prefetch + off))
	}
	blockBody()
	advance(block)
	JMP(LabelRef(name + "_block"))
	Comment(fmt.Sprintf("Groups of %d elements.", single))
	Label(name + "_single")
	CMPQ(p.cnt, U32(single))
	JB(LabelRef(name + "_end"))
	singleBody()
	advance(single)
	JMP(LabelRef(name + "_single"))
	Label(name + "_end")
	if v.rows {
		JMP(LabelRef(name + "_row"))
	}
	Label(name + "_done")
}
