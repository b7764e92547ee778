package bench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// startDelayProxies puts a kafkatest.DelayProxy of one-way delay in front of every
// broker's Proxied listener of the shared test bed and returns the Proxied
// bootstrap addresses; the proxies stop when b ends. They run in a child
// process (this test binary again, see TestMain), so the CPU they spend
// copying bytes is not counted in the benchmark's getrusage figures.
func startDelayProxies(b *testing.B, delay time.Duration) []string {
	b.Helper()
	cl := kafkatest.Shared(b)
	spec := []string{delay.String()}
	for _, id := range cl.BrokerIDs() {
		front, back := cl.ProxyFront(id), cl.ProxyBackend(id)
		if front == "" || back == "" {
			b.Fatalf("broker %d has no Proxied listener", id)
		}
		spec = append(spec, front+">"+back)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), delayProxyEnv+"="+strings.Join(spec, ";"))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatalf("delay proxy process: %v", err)
	}
	b.Cleanup(func() {
		stdin.Close() // the child stops at end of input
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "ready\n" {
		b.Fatalf("delay proxy process: %q, %v", line, err)
	}
	return cl.Bootstrap(kafkatest.Proxied)
}

// delayProxyEnv, when set, makes the test binary a delay proxy process
// (runDelayProxies) instead of running tests: "delay;front>back;...".
const delayProxyEnv = "GREGOR_BENCH_DELAY_PROXY"

// TestMain runs the tests, or the delay proxies of a parent's
// startDelayProxies when delayProxyEnv is set.
func TestMain(m *testing.M) {
	if spec := os.Getenv(delayProxyEnv); spec != "" {
		os.Exit(runDelayProxies(spec))
	}
	os.Exit(m.Run())
}

// runDelayProxies listens on every front of spec, says "ready" on stdout
// and forwards until stdin ends; it returns the exit code.
func runDelayProxies(spec string) int {
	raisePriority()
	fields := strings.Split(spec, ";")
	delay, err := time.ParseDuration(fields[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, "delay proxy:", err)
		return 2
	}
	var ps []*kafkatest.DelayProxy
	for _, f := range fields[1:] {
		front, back, _ := strings.Cut(f, ">")
		p, err := kafkatest.StartDelayProxy(front, back, delay)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		ps = append(ps, p)
	}
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
	for _, p := range ps {
		p.Close()
	}
	return 0
}

// raisePriority gives every thread of this process nice -10 when allowed
// (root), so that threads made later inherit it: the proxy is the link,
// and on a loaded machine its timers would fire late and the link be
// longer than its delay. The clients' process is left as it is.
func raisePriority() {
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, t := range tasks {
		if tid, err := strconv.Atoi(t.Name()); err == nil {
			_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, -10)
		}
	}
}
