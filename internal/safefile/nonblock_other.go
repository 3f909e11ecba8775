//go:build !unix

package safefile

// nonblock is 0 where opening a file cannot wait for another process.
const nonblock = 0

const dirOnly = 0
