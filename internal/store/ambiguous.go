package store

import (
	"errors"
	"fmt"
)

// ambiguousError is Lookup's error for a short id that several result
// ids start with: its text is for the user, and it matches ErrAmbiguous.
type ambiguousError struct {
	prefix string
	count  int
}

func (e *ambiguousError) Error() string {
	return fmt.Sprintf("%s is the start of %d result ids: give more of the id", quoteID(e.prefix), e.count)
}

// Is makes errors.Is(err, ErrAmbiguous) true.
func (e *ambiguousError) Is(target error) bool { return target == ErrAmbiguous }

// IsUnknownID reports whether err is Lookup's answer for an id the user
// gave wrong (none or several results match it), as opposed to a failure
// of the store itself.
func IsUnknownID(err error) bool {
	return errors.Is(err, ErrNotFound) || errors.Is(err, ErrAmbiguous)
}
