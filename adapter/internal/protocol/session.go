package protocol

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// Exit statuses of the adapter process (§9).
const (
	ExitOK    = 0 // finish, abort, or EOF right after command_failed
	ExitFatal = 1 // a fatal event was emitted, or output failed
	ExitInput = 2 // the input could not be read as a command (no event)
)

// Capabilities is the ready.descriptor.capabilities list: the v34
// capabilities this adapter implements end to end.
var Capabilities = []string{
	"producer", "producer_cancellation", "producer_configuration", "producer_batch",
	"concurrent_actors", "lifecycle", "client_readiness", "client_metrics",
	"assigned_consumer", "assigned_consumer_controls", "admin", "tls", "scram", "transactions",
	"consumer_groups", "group_consumer_controls", "group_consumer_configuration", "group_consumer_shutdown",
	"consumer_protocol_groups", "share_consumer", "share_consumer_configuration",
}

// Descriptor values of ready (§2.2).
const (
	AdapterID             = "gregor-go"
	AdapterImplementation = "gregor Go Kafka client adapter"
	AdapterVersion        = "0.1.0"
)

// Session runs one protocol session: it reads commands, dispatches each to
// the backend, and writes events. It holds the handle registry.
type Session struct {
	backend Backend
	out     *Writer
	diag    *diagWriter
	// LookupEnv and ReadFile read hello's environment variables and CA
	// file; they default to os.LookupEnv and os.ReadFile.
	LookupEnv func(string) (string, bool)
	ReadFile  func(string) ([]byte, error)

	cmd        ID // the command being handled
	hello      *helloState
	clients    map[ID]*clientEntry
	producers  map[ID]*producerEntry
	consumers  map[ID]*consumerEntry
	groups     map[ID]*groupEntry
	shares     map[ID]*shareConsumerEntry // share consumers (share_session.go), made on first use
	txns       map[ID]*txnEntry           // transactional producers (made on first use)
	group      *actorGroup
	lastFailed bool
	seen       map[ID]struct{} // command ids already received
}

// NewSession returns a session writing events to out and diagnostics to diag.
func NewSession(b Backend, out, diag io.Writer) *Session {
	return &Session{
		backend:   b,
		out:       NewWriter(out),
		diag:      &diagWriter{w: diag, left: 16 << 10},
		LookupEnv: os.LookupEnv,
		ReadFile:  os.ReadFile,
		clients:   map[ID]*clientEntry{},
		producers: map[ID]*producerEntry{},
		consumers: map[ID]*consumerEntry{},
		groups:    map[ID]*groupEntry{},
		seen:      map[ID]struct{}{},
	}
}

// fatalError ends the session with a fatal event (§9.1).
type fatalError struct {
	code string
	msg  string
}

func (e *fatalError) Error() string { return e.code + ": " + e.msg }

func fatalf(code, format string, args ...any) error {
	return &fatalError{code: code, msg: fmt.Sprintf(format, args...)}
}

func stateErr(format string, args ...any) error { return fatalf("adapter_state", format, args...) }

// failedError ends the command with command_failed; the session goes on.
type failedError struct {
	code string
	err  error
}

func (e *failedError) Error() string { return e.code + ": " + e.err.Error() }

func failed(err error, fam family) error {
	return &failedError{code: normalize(err, fam), err: err}
}

// errSessionEnd is returned by finish and abort after their event.
var errSessionEnd = errors.New("session ended")

// Run reads commands from in until the session ends and returns the process
// exit status (§9).
func (s *Session) Run(in io.Reader) int {
	defer s.closeAll()
	lr := NewLineReader(in)
	for {
		line, err := lr.ReadLine()
		if err != nil {
			if errors.Is(err, io.EOF) {
				if s.lastFailed {
					return ExitOK
				}
				s.diag.printf("unexpected_eof: stdin ended before finish or abort")
				return ExitInput
			}
			s.diag.printf("%v", err)
			return ExitInput
		}
		cmd, err := DecodeCommand(line)
		if err != nil {
			var de *DecodeError
			if errors.As(err, &de) && de.Envelope {
				if s.emitFatal(de.CommandID, de.Code, de.Err.Error()) != nil {
					return ExitFatal
				}
				return ExitFatal
			}
			s.diag.printf("%v", err)
			return ExitInput
		}
		s.cmd = cmd.CommandID
		if _, dup := s.seen[cmd.CommandID]; dup {
			s.emitFatal(cmd.CommandID, "adapter_state", "duplicate command_id "+string(cmd.CommandID))
			return ExitFatal
		}
		s.seen[cmd.CommandID] = struct{}{}
		err = s.dispatch(cmd)
		var fe *fatalError
		var cf *failedError
		switch {
		case err == nil:
			s.lastFailed = false
		case errors.Is(err, errSessionEnd):
			return ExitOK
		case errors.As(err, &cf):
			if s.emit(CommandFailed{Code: cf.code, Diagnostic: bound(cf.err.Error())}) != nil {
				return ExitFatal
			}
			s.lastFailed = true
		case errors.As(err, &fe):
			s.emitFatal(cmd.CommandID, fe.code, fe.msg)
			return ExitFatal
		default:
			s.emitFatal(cmd.CommandID, "adapter_io", err.Error())
			return ExitFatal
		}
	}
}

func (s *Session) emitFatal(id ID, code, msg string) error {
	s.diag.printf("fatal %s: %s", code, msg)
	return s.out.Emit(id, Fatal{Code: code, Diagnostic: bound(msg)})
}

// emit writes ev for the current command; an output failure is returned
// as is (it ends the session).
func (s *Session) emit(ev Event) error { return s.out.Emit(s.cmd, ev) }

// bound clips a diagnostic to a small size.
func bound(msg string) string {
	const max = 1024
	if len(msg) > max {
		return msg[:max] + "..."
	}
	return msg
}

// closeAll releases whatever handles remain (after fatal or abort).
func (s *Session) closeAll() {
	if s.group != nil {
		s.group.wait(0)
	}
	for _, c := range s.consumers {
		_ = c.consumer.Close()
	}
	s.closeShares()
	for _, p := range s.producers {
		_ = closeProducerQuietly(p.producer)
	}
	for _, p := range s.txns {
		_ = closeTxnQuietly(p.producer)
	}
	for _, c := range s.clients {
		_ = c.client.Close()
	}
}

// diagWriter writes diagnostics to stderr and stops after a byte budget, so
// testctl's 64 KiB capture never fills.
type diagWriter struct {
	mu   sync.Mutex
	w    io.Writer
	left int
}

func (d *diagWriter) printf(format string, args ...any) {
	if d == nil || d.w == nil {
		return
	}
	msg := "gregor-adapter: " + bound(fmt.Sprintf(format, args...)) + "\n"
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(msg) > d.left {
		return
	}
	d.left -= len(msg)
	_, _ = io.WriteString(d.w, msg)
}
