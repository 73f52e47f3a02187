package vcmailbox

import (
	"fmt"
	"sync"
)

// Device carries one property message to the firmware and back, in place
// (host.FirmwareMailbox on a live Raspberry Pi; a fake in tests).
type Device interface {
	// Property sends msg and leaves the firmware's answer in it.
	Property(msg []byte) error
	// Close releases the device.
	Close() error
}

// Opener opens a Device.
type Opener func() (Device, error)

// Client asks the firmware general commands through a Device that it opens
// on the first question and keeps open until Close (a later question opens
// it again). It reuses one message buffer for every question. A Client is safe for concurrent use; questions are
// asked one at a time.
type Client struct {
	open Opener

	mu  sync.Mutex
	dev Device
	buf []byte
}

// NewClient returns a Client that opens its device with open.
func NewClient(open Opener) *Client { return &Client{open: open} }

// Gencmd runs cmd (e.g. "get_throttled") and returns the firmware's text
// answer, the text `vcgencmd cmd` prints without its newline.
func (c *Client) Gencmd(cmd string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	msg, err := gencmdInto(c.buf, cmd)
	if err != nil {
		return "", err
	}
	c.buf = msg
	if c.dev == nil {
		dev, err := c.open()
		if err != nil {
			return "", err
		}
		c.dev = dev
	}
	if err := c.dev.Property(msg); err != nil {
		return "", fmt.Errorf("mailbox gencmd %q: %w", cmd, err)
	}
	out, err := GencmdResult(msg)
	if err != nil {
		return "", fmt.Errorf("mailbox gencmd %q: %w", cmd, err)
	}
	return out, nil
}

// Close closes the device if it is open.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dev == nil {
		return nil
	}
	err := c.dev.Close()
	c.dev = nil
	return err
}
