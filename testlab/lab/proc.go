package lab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// runCommand runs args in dir in a process group of its own, with env added
// to the lab's environment and stdout to out, stderr to errOut. When ctx ends
// the group gets SIGTERM, then SIGKILL after grace. It returns the
// Command record (exit status -1 when the process did not start or died by
// a signal).
func runCommand(ctx context.Context, grace time.Duration, dir string, env []string, out, errOut io.Writer, args ...string) Command {
	c := Command{Args: args, Dir: dir, StartedAt: time.Now().UTC(), ExitStatus: -1}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = out, errOut
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		c.Error = err.Error()
		return c
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		pg := cmd.Process.Pid
		_ = syscall.Kill(-pg, syscall.SIGTERM)
		select {
		case err = <-done:
		case <-time.After(grace):
			_ = syscall.Kill(-pg, syscall.SIGKILL)
			err = <-done
		}
		c.Error = "deadline: " + ctx.Err().Error()
	}
	c.Millis = time.Since(c.StartedAt).Milliseconds()
	var ee *exec.ExitError
	switch {
	case err == nil:
		c.ExitStatus = 0
	case errors.As(err, &ee):
		c.ExitStatus = ee.ExitCode()
		if c.Error == "" {
			c.Error = err.Error()
		}
	default:
		c.Error = err.Error()
	}
	return c
}

// leftovers returns the pids of processes whose command line mentions dir
// (the run directory every JVM of the lab has in its java.io.tmpdir).
func leftovers(dir string) []int {
	ents, _ := os.ReadDir("/proc")
	self := os.Getpid()
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), dir+string(filepath.Separator)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// cleanup kills any process still in dir after 2s (they are the lab's own:
// their command lines name its run directory), then removes dir. It reports what
// it had to do; ok is false when anything was left behind.
func cleanup(dir string) Cleanup {
	var problems []string
	// A process the group's SIGKILL just hit may take a moment to die.
	left := leftovers(dir)
	for deadline := time.Now().Add(2 * time.Second); len(left) > 0 && time.Now().Before(deadline); left = leftovers(dir) {
		time.Sleep(100 * time.Millisecond) // polling /proc; there is nothing to wait on
	}
	if len(left) > 0 {
		problems = append(problems, fmt.Sprintf("processes left in %s: %v (killed)", dir, left))
		for _, pid := range left {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		problems = append(problems, "removing the run directory: "+err.Error())
	}
	if len(problems) > 0 {
		return Cleanup{OK: false, Detail: strings.Join(problems, "; ")}
	}
	return Cleanup{OK: true, Detail: "no process of the run left; run directory removed"}
}
