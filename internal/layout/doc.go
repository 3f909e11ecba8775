// Package layout holds no code: its test checks the claims of the
// project's design (../shared/design/architecture.md) that code can
// check: which package may import which, that ops owns the one walk of
// a model, and that the abstract interpreter's rule files mirror ops'
// files, one op family each.
package layout
