//go:build armbe || arm64be || m68k || mips || mips64 || mips64p32 || ppc || ppc64 || s390 || s390x || shbe || sparc || sparc64

package ir

// Tensor views reinterpret little-endian IR data in place, so irdiv does not
// build on big-endian hosts. This constant is deliberately undefined.
const _ = irdivSupportsLittleEndianHostsOnly
