package bench

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// delayProxy is a TCP proxy that delays every byte by a fixed one-way
// latency in each direction, as a long link does: bytes are forwarded in
// arrival order once they are delay old, with no bandwidth limit and no
// head-of-line wait (several requests may be on the wire at once).
// (testlab/faultproxy's Delay holds each frame in turn, which serializes a
// connection's frames, and testlab is a module bench does not require.)
type delayProxy struct {
	ln    net.Listener
	delay time.Duration
	back  string
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns []net.Conn
}

// startDelayProxies puts a delayProxy of one-way delay in front of every
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
	var ps []*delayProxy
	for _, f := range fields[1:] {
		front, back, _ := strings.Cut(f, ">")
		ln, err := net.Listen("tcp", front)
		if err != nil {
			fmt.Fprintln(os.Stderr, "delay proxy:", err)
			return 1
		}
		p := &delayProxy{ln: ln, delay: delay, back: back}
		p.wg.Add(1)
		go p.accept()
		ps = append(ps, p)
	}
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
	for _, p := range ps {
		p.close()
	}
	return 0
}

func (p *delayProxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.back)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		p.wg.Add(4)
		go p.pipe(c, s)
		go p.pipe(s, c)
	}
}

// delayed is a run of bytes and when it may be forwarded.
type delayed struct {
	due time.Time
	b   []byte
}

// pipe forwards src to dst, each read delay later; it ends both
// connections when either side ends.
func (p *delayProxy) pipe(src, dst net.Conn) {
	q := make(chan delayed, 4096)
	go func() {
		defer p.wg.Done()
		defer close(q)
		for {
			buf := make([]byte, 256<<10)
			n, err := src.Read(buf)
			if n > 0 {
				q <- delayed{time.Now().Add(p.delay), buf[:n]}
			}
			if err != nil {
				return
			}
		}
	}()
	defer p.wg.Done()
	defer src.Close()
	defer dst.Close()
	broken := false
	for d := range q { // drained to the end, so the reader never blocks
		if broken {
			continue
		}
		time.Sleep(time.Until(d.due)) // the link's latency, not synchronization
		if _, err := dst.Write(d.b); err != nil {
			broken = true
			src.Close()
		}
	}
}

func (p *delayProxy) close() {
	p.ln.Close()
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
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
