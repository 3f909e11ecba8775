//go:build race

package kernel

import (
	"runtime"
	"unsafe"
)

// raceBuild reports whether the race detector is on.
const raceBuild = true

// raceAccess tells the race detector what an assembly kernel reads and
// writes, which it cannot see.
func raceAccess[T any](dst, a, b []T) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(dst) > 0 {
		runtime.RaceWriteRange(unsafe.Pointer(&dst[0]), len(dst)*size)
	}
	if len(a) > 0 {
		runtime.RaceReadRange(unsafe.Pointer(&a[0]), len(a)*size)
	}
	if len(b) > 0 {
		runtime.RaceReadRange(unsafe.Pointer(&b[0]), len(b)*size)
	}
}
