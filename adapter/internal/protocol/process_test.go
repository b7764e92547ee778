package protocol

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// adapterBinary builds adapter/cmd/gregor-adapter once per test run, with the go
// command that runs the tests (go test puts its GOROOT/bin first in PATH).
func adapterBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gregor-adapter-bin")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "gregor-adapter")
		out, err := exec.Command("go", "build", "-o", binPath, "../../cmd/gregor-adapter").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// proc is a running adapter process driven like testctl drives it: one
// command at a time, events read until the command completes.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Reader
	stderr *syncBuffer
	n      int
}

// syncBuffer is a bytes.Buffer safe to read while the process writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}

func startAdapter(t *testing.T, env []string) *proc {
	t.Helper()
	cmd := exec.Command(adapterBinary(t))
	cmd.Env = env // testctl clears the environment
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, cmd: cmd, stdin: stdin, out: bufio.NewReaderSize(stdout, 1<<20), stderr: stderr}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return p
}

// send writes one command line and returns its id.
func (p *proc) send(kind, fields string) string {
	p.t.Helper()
	p.n++
	id := fmt.Sprintf("command-%08d", p.n)
	line := fmt.Sprintf(`{"protocol_version":34,"command_id":%q,"kind":%q`, id, kind)
	if fields != "" {
		line += "," + fields
	}
	if _, err := io.WriteString(p.stdin, line+"}\n"); err != nil {
		p.t.Fatalf("write %s: %v", kind, err)
	}
	return id
}

// sendRaw writes raw bytes to stdin.
func (p *proc) sendRaw(s string) {
	if _, err := io.WriteString(p.stdin, s); err != nil {
		p.t.Fatalf("write: %v", err)
	}
}

// next reads one event line (bounded by the protocol's line limit).
func (p *proc) next() (event, error) {
	line, err := p.out.ReadString('\n')
	if err != nil {
		if line != "" {
			p.t.Fatalf("partial stdout line %q", line)
		}
		return event{}, err
	}
	if len(line) > MaxLine {
		p.t.Fatalf("stdout line over 4 MiB")
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		p.t.Fatalf("stdout line is not JSON: %q", line)
	}
	if m["protocol_version"] != float64(34) {
		p.t.Fatalf("event protocol_version: %s", line)
	}
	kind, _ := m["kind"].(string)
	id, _ := m["command_id"].(string)
	return event{raw: strings.TrimSuffix(line, "\n"), kind: kind, id: id, m: m}, nil
}

// until reads events of command id until one of the completing kinds (or
// command_failed / fatal) arrives, and returns them all.
func (p *proc) until(id string, complete ...string) []event {
	p.t.Helper()
	var evs []event
	for len(evs) < 64 {
		ev, err := p.next()
		if err != nil {
			p.t.Fatalf("stdout ended waiting for %s (%v); stderr: %s", id, err, p.stderr.String())
		}
		if ev.id != id {
			p.t.Fatalf("event for %s while %s is active: %s", ev.id, id, ev.raw)
		}
		evs = append(evs, ev)
		if ev.kind == "command_failed" || ev.kind == "fatal" {
			return evs
		}
		for _, c := range complete {
			if ev.kind == c {
				return evs
			}
		}
	}
	p.t.Fatalf("more than 64 events for %s", id)
	return nil
}

// one sends a command and requires exactly one event of kind want.
func (p *proc) one(kind, fields, want string) event {
	p.t.Helper()
	id := p.send(kind, fields)
	evs := p.until(id, want)
	if len(evs) != 1 || evs[0].kind != want {
		p.t.Fatalf("%s: got %v, want one %s; stderr: %s", kind, kindList(evs), want, p.stderr.String())
	}
	return evs[0]
}

func kindList(evs []event) []string {
	var ks []string
	for _, e := range evs {
		ks = append(ks, e.kind)
	}
	return ks
}

// finishExit closes stdin, drains stdout and returns the exit status.
func (p *proc) finishExit() (int, []event) {
	p.t.Helper()
	_ = p.stdin.Close()
	var late []event
	for {
		ev, err := p.next()
		if err != nil {
			break
		}
		late = append(late, ev)
	}
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), late
		}
		if err != nil {
			p.t.Fatal(err)
		}
		return 0, late
	case <-time.After(30 * time.Second):
		p.t.Fatal("adapter did not exit within 30s of stdin EOF")
	}
	return -1, nil
}

const procHello = `"run_id":"run-1","scenario_id":"s1","broker_endpoints":["127.0.0.1:1"],"security":{"kind":"plaintext"}`

// TestProcessMisuse runs the built binary through protocol misuse cases
// and judges each by its events and exit status (§9).
func TestProcessMisuse(t *testing.T) {
	type step func(p *proc) []event
	hello := func(p *proc) []event { return []event{p.one("hello", procHello, "ready")} }
	cases := []struct {
		name  string
		steps []step
		exit  int
		last  string
		code  string
	}{
		{"command before hello", []step{func(p *proc) []event {
			return p.until(p.send("create_client", `"client_id":"c"`))
		}}, ExitFatal, "fatal", "adapter_state"},
		{"second hello", []step{hello, func(p *proc) []event { return p.until(p.send("hello", procHello)) }}, ExitFatal, "fatal", "adapter_state"},
		{"wrong protocol version", []step{func(p *proc) []event {
			p.sendRaw(`{"protocol_version":35,"command_id":"command-00000001","kind":"hello"}` + "\n")
			return p.until("command-00000001")
		}}, ExitFatal, "fatal", "protocol_version"},
		{"malformed json", []step{hello, func(p *proc) []event { p.sendRaw("{not json}\n"); return nil }}, ExitInput, "ready", ""},
		{"oversize line", []step{hello, func(p *proc) []event {
			p.sendRaw(`{"x":"` + strings.Repeat("a", MaxLine) + "\"}\n")
			return nil
		}}, ExitInput, "ready", ""},
		{"incomplete last line", []step{hello, func(p *proc) []event { p.sendRaw(`{"protocol_version":34`); return nil }}, ExitInput, "ready", ""},
		{"eof before finish", []step{hello}, ExitInput, "ready", ""},
		{"finish with open handles", []step{hello,
			func(p *proc) []event { return []event{p.one("create_client", `"client_id":"c1"`, "client_created")} },
			func(p *proc) []event {
				return []event{p.one("create_producer", `"client_id":"c1","producer_id":"p1"`, "producer_created")}
			},
			func(p *proc) []event { return p.until(p.send("finish", "")) },
		}, ExitFatal, "fatal", "adapter_state"},
		{"shutdown client with open producer", []step{hello,
			func(p *proc) []event { return []event{p.one("create_client", `"client_id":"c1"`, "client_created")} },
			func(p *proc) []event {
				return []event{p.one("create_producer", `"client_id":"c1","producer_id":"p1"`, "producer_created")}
			},
			func(p *proc) []event { return p.until(p.send("shutdown_client", `"client_id":"c1"`)) },
		}, ExitFatal, "fatal", "adapter_state"},
		{"clean finish", []step{hello,
			func(p *proc) []event { return []event{p.one("create_client", `"client_id":"c1"`, "client_created")} },
			func(p *proc) []event { return []event{p.one("shutdown_client", `"client_id":"c1"`, "client_shutdown")} },
			func(p *proc) []event { return []event{p.one("finish", "", "finished")} },
		}, ExitOK, "finished", ""},
		{"abort", []step{hello,
			func(p *proc) []event { return []event{p.one("create_client", `"client_id":"c1"`, "client_created")} },
			func(p *proc) []event { return []event{p.one("abort", "", "aborted")} },
		}, ExitOK, "aborted", ""},
		{"eof after command_failed", []step{hello,
			func(p *proc) []event { return []event{p.one("create_client", `"client_id":"c1"`, "client_created")} },
			// nothing listens on port 1: readiness fails as a client failure
			func(p *proc) []event {
				return p.until(p.send("await_client_ready", `"client_id":"c1"`), "client_ready")
			},
		}, ExitOK, "command_failed", ""},
		{"transactional transform of an unknown producer", []step{hello, func(p *proc) []event {
			return p.until(p.send("execute_transactional_transform", `"producer_id":"p","consumer_id":"k","transaction_id":"t","operations":[],"disposition":"commit","timeout_ms":1000`))
		}}, ExitFatal, "fatal", "adapter_state"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := startAdapter(t, []string{})
			var evs []event
			for _, s := range tc.steps {
				evs = append(evs, s(p)...)
			}
			code, late := p.finishExit()
			evs = append(evs, late...)
			if code != tc.exit {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.exit, p.stderr.String())
			}
			if len(evs) == 0 || evs[len(evs)-1].kind != tc.last {
				t.Fatalf("events %v, want last %s", kindList(evs), tc.last)
			}
			if last := evs[len(evs)-1]; tc.code != "" && last.m["code"] != tc.code {
				t.Errorf("last event %s, want code %s", last.raw, tc.code)
			}
			if p.stderr.Len() > 4096 {
				t.Errorf("stderr is %d bytes", p.stderr.Len())
			}
		})
	}
}
