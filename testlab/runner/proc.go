package runner

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/gregor-kafka/gregor/testlab/judge"
)

// StderrCap is how much of the adapter's stderr is kept (testctl: 64 KiB).
// The rest is read and discarded so the adapter never blocks on a full pipe.
const StderrCap = 64 << 10

// line is one stdout line, or the reason stdout ended.
type line struct {
	data []byte
	err  error // io.EOF: clean end; errLineTooLong, errNoNewline: invalid output
}

var (
	errLineTooLong = errors.New("adapter_output_invalid: event line longer than 4 MiB")
	errNoNewline   = errors.New("adapter_output_invalid: final stdout line without newline")
)

// adapterProc is a running adapter child process.
type adapterProc struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan line
	stderr  bytes.Buffer
	errMu   sync.Mutex
	errFull bool
	waited  chan struct{}
	waitErr error
	closed  bool
}

// startAdapter spawns path with exactly env as its environment.
func startAdapter(path string, env []string) (*adapterProc, error) {
	cmd := exec.Command(path)
	cmd.Env = env
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start adapter %s: %w", path, err)
	}
	p := &adapterProc{cmd: cmd, stdin: stdin, lines: make(chan line, 256), waited: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); p.readStdout(stdout) }()
	go func() { defer wg.Done(); p.readStderr(stderr) }()
	go func() {
		wg.Wait()
		p.waitErr = cmd.Wait()
		close(p.waited)
	}()
	return p, nil
}

func (p *adapterProc) readStdout(r io.Reader) {
	defer close(p.lines)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		var buf []byte
		for {
			chunk, err := br.ReadSlice('\n')
			buf = append(buf, chunk...)
			if len(buf) > judge.MaxLineBytes {
				p.lines <- line{err: errLineTooLong}
				_, _ = io.Copy(io.Discard, br)
				return
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err == io.EOF {
				if len(buf) > 0 {
					p.lines <- line{data: buf, err: errNoNewline}
				} else {
					p.lines <- line{err: io.EOF}
				}
				return
			}
			if err != nil {
				p.lines <- line{err: err}
				return
			}
			break
		}
		p.lines <- line{data: buf[:len(buf)-1]}
	}
}

func (p *adapterProc) readStderr(r io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			p.errMu.Lock()
			room := StderrCap - p.stderr.Len()
			if room > 0 {
				if n > room {
					p.stderr.Write(buf[:room])
					p.errFull = true
				} else {
					p.stderr.Write(buf[:n])
				}
			} else {
				p.errFull = true
			}
			p.errMu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// Stderr returns the captured stderr and whether it was truncated.
func (p *adapterProc) Stderr() (string, bool) {
	p.errMu.Lock()
	defer p.errMu.Unlock()
	return p.stderr.String(), p.errFull
}

// write sends b to the adapter's stdin.
func (p *adapterProc) write(b []byte) error {
	_, err := p.stdin.Write(b)
	return err
}

// closeStdin closes the adapter's stdin once.
func (p *adapterProc) closeStdin() {
	if !p.closed {
		p.closed = true
		_ = p.stdin.Close()
	}
}

// next returns the next stdout line or ctx's error.
func (p *adapterProc) next(ctx context.Context) (line, error) {
	select {
	case l, ok := <-p.lines:
		if !ok {
			return line{err: io.EOF}, nil
		}
		return l, nil
	case <-ctx.Done():
		return line{}, ctx.Err()
	}
}

// wait waits for the process to exit (killing it after ctx ends) and returns
// its exit status (-1 when killed by a signal).
func (p *adapterProc) wait(ctx context.Context) (int, bool) {
	select {
	case <-p.waited:
	case <-ctx.Done():
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.waited
		return -1, false
	}
	if p.cmd.ProcessState == nil {
		return -1, true
	}
	return p.cmd.ProcessState.ExitCode(), true
}

// kill ends the adapter's process group and waits.
func (p *adapterProc) kill() {
	p.closeStdin()
	select {
	case <-p.waited:
		return
	default:
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-p.waited:
	case <-time.After(10 * time.Second):
	}
}
