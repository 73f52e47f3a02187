// Package fakemailbox is a fake Raspberry Pi firmware behind the property
// mailbox (/dev/vcio) for tests: it answers general commands
// (vcmailbox.TagGetGencmdResult) from a table, in the message, as the
// firmware does, and counts how often its device was opened and closed.
package fakemailbox

import (
	"encoding/binary"
	"errors"
	"sync"

	"boardbench/internal/vcmailbox"
)

// Firmware answers general commands. The zero value answers none (each
// is a firmware error 1, "Command not registered").
type Firmware struct {
	// Answers maps a command ("get_throttled") to its answer's text.
	Answers map[string]string
	// Old leaves the tag unanswered: a firmware without general commands
	// over the mailbox.
	Old bool

	mu             sync.Mutex
	opened, closed int
	asked          []string
}

// Open is a vcmailbox.Opener of the firmware's device.
func (f *Firmware) Open() (vcmailbox.Device, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opened++
	return f, nil
}

// Close closes the device.
func (f *Firmware) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed++
	return nil
}

// Counts returns how often the device was opened and closed.
func (f *Firmware) Counts() (opened, closed int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.opened, f.closed
}

// Asked returns the commands asked so far.
func (f *Firmware) Asked() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.asked...)
}

// Property answers a message holding one general command.
func (f *Firmware) Property(msg []byte) error {
	tags, err := vcmailbox.RequestTags(msg)
	if err != nil || len(tags) != 1 || tags[0].Tag != vcmailbox.TagGetGencmdResult {
		return errors.New("fakemailbox: not one general command")
	}
	le := binary.LittleEndian
	le.PutUint32(msg[4:], vcmailbox.CodeSuccess)
	if f.Old {
		return nil
	}
	cmd := vcmailbox.GencmdText(tags[0].Value)
	f.mu.Lock()
	f.asked = append(f.asked, cmd)
	f.mu.Unlock()
	text, ok := f.Answers[cmd]
	code := uint32(0)
	if !ok {
		code, text = 1, `error=1 error_msg="Command not registered"`
	}
	val := tags[0].Value
	clear(val)
	le.PutUint32(val, code)
	copy(val[4:len(val)-1], text)
	// The tag's code: answered, with the answer's length.
	le.PutUint32(msg[16:], 0x80000000|uint32(min(4+len(text)+1, len(val))))
	return nil
}
