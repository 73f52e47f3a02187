package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"boardbench/internal/regfile"
	"boardbench/internal/result"
)

// The one rule of result ids, for every command and the web server. A
// result id is 8 to 64 lowercase hexadecimal digits (boardbench makes 32:
// result.NewID, DeriveID); ValidID is what a URL may name (serve), which
// names one result exactly. A command line may give an id or its start,
// in either case (ValidIDRef, 1 to 64 digits; NormalID lowers it): it
// names the results whose ids start with it (Lookup, ResolveID). Anything
// else is only ever a file name (LoadArg) or a bad request (serve).
const (
	// MinIDDigits and MaxIDDigits bound the length of a full id.
	MinIDDigits = 8
	MaxIDDigits = 64
)

// ValidID reports whether id is a full result id as the store keeps it:
// MinIDDigits to MaxIDDigits lowercase hexadecimal digits.
func ValidID(id string) bool {
	return len(id) >= MinIDDigits && id == NormalID(id) && ValidIDRef(id)
}

// ValidIDRef reports whether ref can name results by id on a command
// line: 1 to MaxIDDigits hexadecimal digits, either case (a full id or
// its start).
func ValidIDRef(ref string) bool {
	if ref == "" || len(ref) > MaxIDDigits {
		return false
	}
	for _, c := range ref {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// NormalID returns an id (or its start) as the store keeps it: lowercase.
func NormalID(id string) string { return strings.ToLower(id) }

// ErrBadArg marks an error of LoadArg that comes from the argument itself
// (a missing or unreadable file, a document that is not a result, an
// unknown or ambiguous id, no store to look an id up in): the command's
// bad input (exit status 2), not a failure of the store.
const ErrBadArg = sentinel("bad result argument")

// argError is one line about an argument; it matches ErrBadArg.
type argError struct{ msg string }

func (e *argError) Error() string        { return e.msg }
func (e *argError) Is(target error) bool { return target == ErrBadArg }

func badArg(format string, a ...any) error { return &argError{msg: fmt.Sprintf(format, a...)} }

// Loaded is a result LoadArg found.
type Loaded struct {
	Result *result.Result
	// Doc is the document as read (the file's bytes or the stored JSON).
	Doc []byte
	// Path is the file it came from; "" for a stored result.
	Path string
	// ID is the full id in the store; "" for a file.
	ID string
	// Tags are a stored result's tags (none for a file).
	Tags []string
}

// Args loads the results a command line names (report, compare): each a
// result file or, when no file of that name exists and the argument can
// name an id (ValidIDRef), a result id or its start in the results store
// Spec names.
// The store is opened read-only (OpenReadOnly), only when an id is given,
// and once for all arguments: it is never created, and nothing is written
// next to it. Close releases it.
type Args struct {
	// Spec is --store ("" means $BOARDBENCH_STORE, else the default file).
	Spec string
	// NoStore is --no-store: ids cannot be looked up.
	NoStore bool
	st      Store
}

// LoadArg returns the result arg names. Every failure that comes from the
// argument is one line matching ErrBadArg; a store that exists but fails
// is returned as it is.
func (a *Args) LoadArg(ctx context.Context, arg string) (*Loaded, error) {
	if _, err := os.Lstat(arg); err == nil || !errors.Is(err, fs.ErrNotExist) || !ValidIDRef(arg) {
		return loadFile(arg)
	}
	if a.st == nil {
		if a.NoStore {
			return nil, badArg("%s: no such file (and --no-store: no results store to look the id up in)", arg)
		}
		st, err := OpenReadOnly(ctx, a.Spec)
		if errors.Is(err, ErrNoSuchStore) {
			return nil, badArg("%s: no such file, nor a results store to look the id up in (%v)", arg, err)
		} else if err != nil {
			return nil, fmt.Errorf("%s is not a file, and the results store cannot be opened: %w", arg, err)
		}
		a.st = st
	}
	id, err := ResolveID(ctx, a.st, arg)
	switch {
	case errors.Is(err, ErrAmbiguous):
		return nil, badArg("%s: no such file, and %v", arg, err)
	case errors.Is(err, ErrBadArg):
		return nil, badArg("%s: no such file, nor a result id in the store %s", arg, whereOr(a.st))
	case err != nil:
		return nil, err
	}
	r, doc, err := LoadResult(ctx, a.st, id)
	if err != nil {
		return nil, err
	}
	l := &Loaded{Result: r, Doc: doc, ID: id}
	if rec, err := a.st.Record(ctx, id); err == nil {
		l.Tags = rec.Tags
	}
	return l, nil
}

// Close releases the store, if one was opened.
func (a *Args) Close() error {
	if a.st == nil {
		return nil
	}
	err := a.st.Close()
	a.st = nil
	return err
}

// ResolveID returns the full id of the result ref names in st (the id or
// the start of one, either case): an unknown or ambiguous ref is one line
// that names the store and matches ErrBadArg, and ErrNotFound or
// ErrAmbiguous too.
func ResolveID(ctx context.Context, st Store, ref string) (string, error) {
	if !ValidIDRef(ref) {
		return "", &idError{argError{fmt.Sprintf("%q is not a result id (1 to %d hexadecimal digits)", ref, MaxIDDigits)}, ErrNotFound}
	}
	id, err := Lookup(ctx, st, NormalID(ref))
	switch {
	case errors.Is(err, ErrNotFound):
		return "", &idError{argError{fmt.Sprintf("no result %s in the store %s", ref, whereOr(st))}, ErrNotFound}
	case errors.Is(err, ErrAmbiguous):
		return "", &idError{argError{fmt.Sprintf("%v (in the store %s)", err, whereOr(st))}, ErrAmbiguous}
	}
	return id, err
}

// idError is ResolveID's error: a bad argument that is also ErrNotFound
// or ErrAmbiguous.
type idError struct {
	argError
	kind error
}

func (e *idError) Is(target error) bool { return target == ErrBadArg || target == e.kind }

// whereOr names st for a message, "(unnamed)" when Where cannot.
func whereOr(st Store) string {
	if w := Where(st); w != "" {
		return w
	}
	return "(unnamed)"
}

// loadFile reads the result file path (regfile: a regular file, bounded,
// following a symbolic link the user named).
func loadFile(path string) (*Loaded, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, badArg("%s: no such file", path)
	case err != nil:
		return nil, badArg("%s: cannot read: %v", path, unwrapPath(err))
	case st.IsDir():
		return nil, badArg("%s: is a directory, not a result file", path)
	}
	doc, err := regfile.Read(path, result.MaxFileBytes, regfile.Follow)
	if err != nil {
		return nil, badArg("%s: cannot read: %v", path, unwrapPath(err))
	}
	r, err := result.Parse(doc)
	if err != nil {
		return nil, badArg("%s: %v", path, err)
	}
	return &Loaded{Result: r, Doc: doc, Path: path}, nil
}

// unwrapPath returns a path error's cause, so the path is not named twice.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
