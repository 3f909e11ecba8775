// Package pkgerr is how irdiv's packages name themselves in their errors:
// an error that starts in package p reads "p: ..." once, however much
// context p adds to it, and a wrapper in p can put its context after the
// name ("ir: model.xml: ...", "ops: layer "d" (id 2): ..."). It imports
// nothing of the project, so every package may use it.
package pkgerr

import "fmt"

// Error is an error that starts in package Pkg.
type Error struct {
	Pkg string
	Err error
}

func (e *Error) Error() string { return e.Pkg + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Errorf makes an error of package pkg.
func Errorf(pkg, format string, args ...any) error {
	return &Error{pkg, fmt.Errorf(format, args...)}
}

// Wrap marks err as package pkg's, unless it already is.
func Wrap(pkg string, err error) error {
	if e, ok := err.(*Error); ok && e.Pkg == pkg {
		return err
	}
	return &Error{pkg, err}
}

// Detail returns an error of package pkg without the package's name, to
// put context before it ("pkg: context: detail"); ok is false, and err is
// returned, for an error that did not start in pkg.
func Detail(pkg string, err error) (detail error, ok bool) {
	if e, isErr := err.(*Error); isErr && e.Pkg == pkg {
		return e.Err, true
	}
	return err, false
}
