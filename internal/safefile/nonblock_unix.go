//go:build unix

package safefile

import "syscall"

// nonblock makes open return at once for a FIFO without a writer, where a
// blocking open would wait for one; on a regular file it changes nothing.
const nonblock = syscall.O_NONBLOCK
