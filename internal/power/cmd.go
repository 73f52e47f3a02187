package power

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"boardbench/internal/proc"
)

// CmdSilence is how long a cmd: program may stay silent before each further
// silence counts as a missing reading.
const CmdSilence = 10 * time.Second

// cmdRestart is the pause before a cmd: program that exited is run again.
const cmdRestart = time.Second

// maxCmdLine bounds one line of a cmd: program's output.
const maxCmdLine = 4096

// cmdSource runs a program that prints watts, one reading per line ("2.31",
// "2.31 W" or "2310 mW"). A program that prints once and exits is run again
// every second; one that streams is read as it prints.
type cmdSource struct {
	command string
	info    Info
}

func openCmd(spec Spec) (Source, error) {
	inf := Info{Kind: KindCmd, Spec: spec.String(), Measures: MeasuresComponent,
		Description: "the program " + CmdProgram(spec.Arg) + " (its command line is not recorded: it may hold credentials)",
		Notes:       []string{"what a program's readings measure (wall, board, SoC) depends on its meter: boardbench cannot tell"}}
	return &cmdSource{command: spec.Arg, info: inf}, nil
}

// CmdProgram returns the name of the program a cmd: command line runs:
// the base name of its first word after any VAR=value assignments
// ("curl" for `TOKEN=x /usr/bin/curl -u admin:pw …`), "sh" when there is
// none. It is all of a cmd: source that results keep: the rest of the
// line may hold credentials.
func CmdProgram(command string) string {
	for _, w := range cmdWords(command) {
		if i := strings.IndexByte(w, '='); i > 0 && isShellName(w[:i]) {
			continue
		}
		if name := path.Base(w); name != "." && name != "/" {
			return name
		}
		break
	}
	return "sh"
}

func isShellName(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// cmdWords splits a command line into words at spaces, quotes and shell
// operators.
func cmdWords(command string) []string {
	return strings.FieldsFunc(command, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(`'"`+"`"+`;|&<>()`, r)
	})
}

// minScrubbed is the shortest word of a cmd: command line that is masked
// in the messages a source records.
const minScrubbed = 4

// scrub masks, in a message recorded from the program (its standard error,
// a line that is not a reading), every word of its command line but the
// program's name: a program that echoes its arguments must not put the
// credentials they hold into results.
func (s *cmdSource) scrub(msg string) string {
	prog := CmdProgram(s.command)
	for _, w := range cmdWords(s.command) {
		for _, part := range strings.FieldsFunc(w, func(r rune) bool { return r == '=' || r == ':' || r == ',' || r == '@' }) {
			if len(part) >= minScrubbed && part != prog {
				msg = strings.ReplaceAll(msg, part, "xxxxx")
			}
		}
		if len(w) >= minScrubbed && w != prog {
			msg = strings.ReplaceAll(msg, w, "xxxxx")
		}
	}
	return msg
}

func (s *cmdSource) Info() Info { return s.info }

// Run runs the program until ctx is done, again when it exits.
func (s *cmdSource) Run(ctx context.Context, emit func(Reading)) {
	var mu sync.Mutex
	last := time.Now()
	safeEmit := func(r Reading) {
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() != nil {
			return
		}
		last = r.Time
		r.Err = s.scrub(r.Err)
		emit(r)
	}
	go func() {
		t := time.NewTicker(CmdSilence / 2)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				mu.Lock()
				quiet := now.Sub(last) >= CmdSilence
				mu.Unlock()
				if quiet {
					safeEmit(Reading{Time: now, Err: fmt.Sprintf("cmd: no reading for %s", CmdSilence)})
				}
			}
		}
	}()
	for ctx.Err() == nil {
		lw := &lineWriter{emit: safeEmit}
		var stderr bytes.Buffer
		h, err := proc.Start(ctx, proc.Spec{Argv: []string{"sh", "-c", s.command}, UserCommand: true, Stdout: lw, Stderr: &limitedBuffer{buf: &stderr, n: 512}})
		if err == nil {
			ex, werr := h.Wait()
			lw.flush()
			if ctx.Err() != nil {
				return
			}
			if werr != nil || ex.Code != 0 {
				msg := strings.TrimSpace(stderr.String())
				if i := strings.IndexByte(msg, '\n'); i >= 0 {
					msg = msg[:i]
				}
				safeEmit(Reading{Time: time.Now(), Err: fmt.Sprintf("cmd: the program exited with status %d %s", ex.Code, msg)})
			}
		} else {
			safeEmit(Reading{Time: time.Now(), Err: "cmd: " + err.Error()})
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(cmdRestart):
		}
	}
}

// ParseWatts reads one line of a cmd: program: a number of watts, with an
// optional "W" or "mW" unit.
func ParseWatts(line string) (float64, error) {
	s := strings.TrimSpace(line)
	scale := 1.0
	switch {
	case strings.HasSuffix(s, "mW"):
		s, scale = strings.TrimSuffix(s, "mW"), 1e-3
	case strings.HasSuffix(s, "W"):
		s = strings.TrimSuffix(s, "W")
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err == nil {
		err = checkWatts(KindCmd, v*scale)
	}
	if err != nil {
		q := line
		if len(q) > 40 {
			q = q[:40] + "…"
		}
		return 0, fmt.Errorf("cmd: not a reading in watts: %q", q)
	}
	return v * scale, nil
}

// lineWriter turns a program's output into readings, one per line.
type lineWriter struct {
	emit func(Reading)
	buf  []byte
	long bool
}

func (w *lineWriter) Write(p []byte) (int, error) {
	for _, b := range p {
		if b == '\n' {
			w.line()
			continue
		}
		if len(w.buf) >= maxCmdLine {
			w.long = true
			continue
		}
		w.buf = append(w.buf, b)
	}
	return len(p), nil
}

func (w *lineWriter) line() {
	defer func() { w.buf, w.long = w.buf[:0], false }()
	if w.long {
		w.emit(Reading{Time: time.Now(), Err: "cmd: a line longer than 4096 bytes"})
		return
	}
	if strings.TrimSpace(string(w.buf)) == "" {
		return
	}
	v, err := ParseWatts(string(w.buf))
	if err != nil {
		w.emit(Reading{Time: time.Now(), Err: err.Error()})
		return
	}
	w.emit(Reading{Time: time.Now(), W: ptr(v)})
}

func (w *lineWriter) flush() {
	if len(w.buf) > 0 || w.long {
		w.line()
	}
}

// limitedBuffer keeps the first n bytes written to it.
type limitedBuffer struct {
	buf *bytes.Buffer
	n   int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.n - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
