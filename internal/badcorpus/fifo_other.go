//go:build !unix

package badcorpus

import "errors"

func mkfifo(string) error { return errors.New("named pipes need a Unix system") }
