package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// envRunMain makes the test binary act as the gregor command: TestMain
// calls main, which exits with the command's status. Tests run the real
// binary this way (its os.Args, stdin, stdout, stderr and exit status)
// without a separate build.
const envRunMain = "GREGOR_CLI_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(envRunMain) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// gregorExec runs the gregor command as a process with args; env is its
// whole GREGOR_* environment (the test's own GREGOR_ variables are
// removed), stdin its input.
func gregorExec(t *testing.T, stdin string, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GREGOR_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, envRunMain+"=1")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("gregor %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errb.String(), code
}

// TestBinaryHelpAndFailures runs the command as a process: --help exits 0
// with the usage on stdout; a bad flag and an unreachable broker print one
// line on stderr and exit with status 1.
func TestBinaryHelpAndFailures(t *testing.T) {
	out, errOut, code := gregorExec(t, "", nil, "--help")
	if code != 0 || errOut != "" || !strings.Contains(out, "usage: gregor COMMAND") {
		t.Fatalf("gregor --help: status %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, errOut, code = gregorExec(t, "", nil, "consume", "--help")
	if code != 0 || errOut != "" || !strings.Contains(out, "usage: gregor consume [flags] TOPIC") || !strings.Contains(out, "--group group") {
		t.Fatalf("gregor consume --help: status %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, errOut, code = gregorExec(t, "", nil, "topic", "list", "--bogus")
	if out != "" {
		t.Fatalf("a bad flag printed on stdout: %q", out)
	}
	wantOneLineFailure(t, errOut, code, "gregor topic list: flag provided but not defined: -bogus (see gregor topic list --help)")
	_, errOut, code = gregorExec(t, "", map[string]string{"GREGOR_BOOTSTRAP": "127.0.0.1:1"}, "cluster", "describe", "--timeout", "1s")
	wantOneLineFailure(t, errOut, code, "gregor cluster describe: cannot connect to 127.0.0.1:1:")
}
