package kafkatest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// node is one Kafka JVM (broker, controller or both) and its directory:
// server.properties, data/, logs/ (server.log, stdout.log), tmp/.
type node struct {
	id     int32
	roles  string // "broker", "controller" or "broker,controller"
	dir    string
	config string
	ports  map[Listener]int
	// proxyPort is the port advertised for the Proxied listener (a fault
	// proxy's front); ports[Proxied] is the one the broker binds.
	proxyPort int

	proc *nodeProc // running process started by this Cluster, or nil
	pid  int       // pid (= pgid) of the running process, also when attached
}

// nodeProc is a JVM started by this process.
type nodeProc struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited and been reaped
	err  error         // Wait's result, valid after done
}

func (n *node) isBroker() bool { return strings.Contains(n.roles, "broker") }

func (n *node) logFile() string    { return filepath.Join(n.dir, "logs", "server.log") }
func (n *node) stdoutFile() string { return filepath.Join(n.dir, "logs", "stdout.log") }

// start launches the node's JVM in its own process group. Unless detached,
// the JVM gets SIGKILL when this process dies (Pdeathsig), so an interrupted
// test binary leaves no broker behind.
func (c *Cluster) startNode(n *node) error {
	for _, d := range []string{"data", "logs", "tmp"} {
		if err := os.MkdirAll(filepath.Join(n.dir, d), 0o755); err != nil {
			return err
		}
	}
	out, err := os.OpenFile(n.stdoutFile(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer out.Close()
	js, err := c.jarSet()
	if err != nil {
		return err
	}
	args := append(c.java.commonFlags(),
		"-Xms256m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError")
	if c.shape == ThreeBrokers {
		// C1 only: four JVMs on two cores start much faster; failure tests
		// need no peak throughput.
		args = append(args, "-XX:TieredStopAtLevel=1")
	}
	args = append(args,
		"-Djava.io.tmpdir="+filepath.Join(n.dir, "tmp"),
		"-Dkafka.logs.dir="+filepath.Join(n.dir, "logs"),
		"-Dlog4j2.configurationFile="+c.serverLog4j,
		"-cp", c.nodeClasspath(js),
		"kafka.Kafka", n.config)
	cmd := exec.Command(c.java.Path, args...)
	cmd.Dir = n.dir
	cmd.Stdout = out
	cmd.Stderr = out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if !c.detached {
		cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("kafkatest: start node %d: %w", n.id, err)
	}
	p := &nodeProc{cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	n.proc = p
	n.pid = cmd.Process.Pid
	return nil
}

// exited reports whether the node's process is known to have ended.
func (n *node) exited() bool {
	if n.proc != nil {
		select {
		case <-n.proc.done:
			return true
		default:
			return false
		}
	}
	return n.pid == 0 || !pidAlive(n.pid)
}

// running reports whether the node has a live process.
func (n *node) running() bool { return n.pid != 0 && !n.exited() }

// pidAlive reports whether pid exists (signal 0).
func pidAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// ownsPID reports whether pid is still this node's JVM (guards against pid
// reuse for clusters attached from a state file).
func (n *node) ownsPID() bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", n.pid))
	if err != nil {
		return false
	}
	return bytes.Contains(b, []byte("kafka.Kafka")) && bytes.Contains(b, []byte(n.config))
}

// signal sends sig to the node's process group (its pgid is its pid).
func (n *node) signal(sig syscall.Signal) error {
	if n.pid == 0 {
		return nil
	}
	if n.proc == nil && !n.ownsPID() {
		return nil // not ours (any more)
	}
	err := syscall.Kill(-n.pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// waitExit waits until the node's process has exited or ctx ends.
func (n *node) waitExit(ctx context.Context) error {
	if n.proc != nil {
		select {
		case <-n.proc.done:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for n.running() && n.ownsPID() {
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// stop sends SIGTERM, waits up to grace, then SIGKILLs the process group and
// waits for the exit. It returns once the process is gone.
func (n *node) stop(ctx context.Context, grace time.Duration) error {
	if !n.running() {
		n.pid = 0
		return nil
	}
	_ = n.signal(syscall.SIGCONT) // a paused JVM cannot run its shutdown hook
	if err := n.signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("kafkatest: SIGTERM node %d: %w", n.id, err)
	}
	gctx, cancel := context.WithTimeout(ctx, grace)
	err := n.waitExit(gctx)
	cancel()
	if err != nil {
		return n.kill(ctx)
	}
	n.pid = 0
	return nil
}

// kill sends SIGKILL to the process group and waits for the exit.
func (n *node) kill(ctx context.Context) error {
	if !n.running() {
		n.pid = 0
		return nil
	}
	if err := n.signal(syscall.SIGKILL); err != nil {
		return fmt.Errorf("kafkatest: SIGKILL node %d: %w", n.id, err)
	}
	kctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := n.waitExit(kctx); err != nil {
		return fmt.Errorf("kafkatest: node %d did not exit after SIGKILL: %w", n.id, err)
	}
	n.pid = 0
	return nil
}

// logTail returns the last lines of the node's server.log and stdout.log, for
// error messages.
func (n *node) logTail() string {
	var b strings.Builder
	for _, f := range []string{n.stdoutFile(), n.logFile()} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "\n--- %s (tail) ---\n%s", f, tail(data, 3000))
	}
	return b.String()
}

// errBind marks a start that failed because a port was taken; Start retries
// with fresh ports.
var errBind = errors.New("kafkatest: port already in use")

// bindFailed reports whether the node's logs show a bind failure.
func (n *node) bindFailed() bool {
	for _, f := range []string{n.stdoutFile(), n.logFile()} {
		data, _ := os.ReadFile(f)
		if bytes.Contains(data, []byte("Address already in use")) || bytes.Contains(data, []byte("failed to bind")) {
			return true
		}
	}
	return false
}
