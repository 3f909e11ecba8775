//go:build !race

package kernel

// raceBuild reports whether the race detector is on.
const raceBuild = false

func raceAccess[T any](dst, a, b []T) {}
