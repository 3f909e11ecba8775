//go:build unix

package safefile

import "syscall"

// nonblock makes open return at once for a FIFO without a writer, where a
// blocking open would wait for one; on a regular file it changes nothing.
const nonblock = syscall.O_NONBLOCK

// dirOnly makes open fail on anything but a folder, a FIFO included,
// without waiting.
const dirOnly = syscall.O_DIRECTORY | syscall.O_NONBLOCK
