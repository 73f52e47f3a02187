package tools

import (
	"context"
	"fmt"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/note"
)

// toolSpec says how to find and identify one benchmark tool: the command
// name, and how it says its version. Specs are built where they are used
// (composite literals), never at start-up.
type toolSpec struct {
	// name is the command looked up on PATH; it names the Tool and its
	// notes.
	name string
	// version reads the output of `name --version`; ok is false without
	// a version line.
	version func(out string) (t Tool, ok bool)
	// fixed describes a command that says no version of its own before a
	// run (version nil): it is found, never run.
	fixed Tool
}

// find returns the command of s with its version, or nil with a note
// saying why there is none (not installed, running it failed, no version
// line).
func (s toolSpec) find(ctx context.Context, h *host.Host) (*Tool, note.List) {
	var notes note.List
	if !h.HasCommand(s.name) {
		notes.Add(s.name, note.NotInstalled)
		return nil, notes
	}
	if s.version == nil {
		p := commandPath(h, s.name)
		t := s.fixed
		t.Name, t.Path = s.name, p
		t.RealPath, t.Wrapper, t.Notes = resolveWrappers(h, p)
		return &t, notes
	}
	t, err := s.identify(ctx, h, s.name)
	if err != nil {
		notes.Add(s.name, err.Error())
		return nil, notes
	}
	return &t, notes
}

// identify runs `cmd --version` (cmd: a command name looked up on PATH,
// or an absolute path) and reads it with s.version; the error says why
// there is no version (running it failed, or no version line).
func (s toolSpec) identify(ctx context.Context, h *host.Host, cmd string) (Tool, error) {
	p := cmd
	if !strings.HasPrefix(cmd, "/") {
		p = commandPath(h, cmd)
	}
	realPath, wrapper, notes := resolveWrappers(h, p)
	runPath := p
	if runPath == "" {
		runPath = cmd
	}
	out, err := h.Run(ctx, runPath, "--version")
	t, ok := s.version(string(out))
	if !ok {
		if err != nil {
			return Tool{Name: s.name, Path: p}, fmt.Errorf("running it failed: %v", err)
		}
		return Tool{Name: s.name, Path: p}, fmt.Errorf("%s: no version line in `%s --version`", note.Malformed, s.name)
	}
	t.Name, t.Path, t.RealPath, t.Wrapper, t.Notes = s.name, p, realPath, wrapper, notes
	return t, nil
}
