package iostreams

import (
	"bytes"
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"testing"
)

type failAfter struct {
	ok  int
	err error
}

func (f *failAfter) Write(p []byte) (int, error) {
	if f.ok == 0 {
		return 0, f.err
	}
	f.ok--
	return len(p), nil
}

func TestErrWriterRemembersTheFirstError(t *testing.T) {
	pathErr := &fs.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
	s := &IOStreams{Out: NewErrWriter(&failAfter{ok: 1, err: pathErr})}
	if _, err := s.Out.Write([]byte("fits\n")); err != nil || s.OutErr() != nil {
		t.Fatalf("first write: %v, OutErr %v", err, s.OutErr())
	}
	s.Out.Write([]byte("lost\n"))
	s.Out.Write([]byte("lost too\n"))
	err := s.OutErr()
	if !errors.Is(err, syscall.ENOSPC) || err.Error() != "writing standard output: no space left on device" {
		t.Errorf("OutErr = %v", err)
	}
}

func TestOutErrOnPlainWriters(t *testing.T) {
	s, _, _ := Test()
	s.Out.Write([]byte(strings.Repeat("x", 100)))
	if err := s.OutErr(); err != nil {
		t.Errorf("a buffer never fails: %v", err)
	}
	s.Out = &bytes.Buffer{}
	if err := s.OutErr(); err != nil {
		t.Errorf("OutErr = %v", err)
	}
}
