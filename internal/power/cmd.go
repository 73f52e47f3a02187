package power

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

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
		Description: "the program `" + spec.Arg + "`",
		Notes:       []string{"what a program's readings measure (wall, board, SoC) depends on its meter: boardbench cannot tell"}}
	return &cmdSource{command: spec.Arg, info: inf}, nil
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
		h, err := proc.Start(ctx, proc.Spec{Argv: []string{"sh", "-c", s.command}, Stdout: lw, Stderr: &limitedBuffer{buf: &stderr, n: 512}})
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
