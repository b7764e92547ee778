package faultcheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/testlab/invariant"
)

// TestControllerPID finds a controller-only node's process by its
// server.properties among the node directories (a broker's is skipped) and
// stops and continues it as the chaos does.
func TestControllerPID(t *testing.T) {
	dir := t.TempDir()
	for id, roles := range map[string]string{"1": "broker", "100": "controller"} {
		nd := filepath.Join(dir, "node-"+id)
		if err := os.MkdirAll(nd, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(nd, "server.properties"), []byte("process.roles="+roles+"\nnode.id="+id+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A stand-in for the controller's JVM: its command line names the
	// config, in a process group of its own as kafkatest starts nodes.
	cmd := exec.Command("sh", "-c", "read x", "sh", filepath.Join(dir, "node-100", "server.properties"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); _ = cmd.Wait() }()
	id, pid, err := controllerPID(dir)
	if err != nil || id != 100 || pid != cmd.Process.Pid {
		t.Fatalf("controllerPID = %d, %d, %v; want 100, %d", id, pid, err, cmd.Process.Pid)
	}
	if _, err := signalController(dir, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	waitProcState(t, pid, "T")
	if _, err := signalController(dir, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	waitProcState(t, pid, "S")
	if _, _, err := controllerPID(t.TempDir()); err == nil {
		t.Error("controllerPID found a controller in an empty directory")
	}
}

// waitProcState polls /proc/<pid>/stat until the process state is want
// (the kernel applies a signal asynchronously; there is nothing to wait on).
func waitProcState(t *testing.T, pid int, want string) {
	t.Helper()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(10 * time.Second)
	for {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		// pid (comm) state ...
		if _, rest, ok := strings.Cut(string(b), ") "); ok && strings.HasPrefix(rest, want) {
			return
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("process %d state: %q, want %s", pid, b, want)
		}
	}
}

// TestRecoveries: a fault's recovery is the first acknowledgement after
// it, and the slowest partition's; the throughput counts only acknowledged
// non-transactional records, per second.
func TestRecoveries(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	tp := func(p int32) invariant.TP { return invariant.TP{Topic: "t", Partition: p} }
	sends := []invariant.Send{
		{TP: tp(0), Acked: true, Completed: ms(100)},
		{TP: tp(1), Acked: true, Completed: ms(900)},
		{TP: tp(0), Acked: true, Completed: ms(1500)},
		{TP: tp(1), Acked: true, Completed: ms(4000)},
		{TP: tp(0), Acked: false, Completed: ms(1100)},          // not acknowledged
		{TP: tp(1), Acked: true, Txn: "x", Completed: ms(1200)}, // transactional
		{TP: tp(2), Acked: true, Completed: time.Time{}},        // no instant
	}
	fs := recoveries([]FaultEvent{{Kind: "sigkill", At: ms(1000)}, {Kind: "net:stall", At: ms(5000)}}, sends)
	if fs[0].FirstAckMs != 500 || fs[0].AllPartitionsMs != 3000 {
		t.Errorf("fault at 1s: first ack %d ms, all partitions %d ms; want 500, 3000", fs[0].FirstAckMs, fs[0].AllPartitionsMs)
	}
	if fs[1].FirstAckMs != -1 || fs[1].AllPartitionsMs != -1 {
		t.Errorf("fault after the last ack: %d, %d; want -1, -1", fs[1].FirstAckMs, fs[1].AllPartitionsMs)
	}
	if got := throughput(sends, t0); len(got) != 5 || got[0] != 2 || got[1] != 1 || got[4] != 1 {
		t.Errorf("throughput %v, want [2 1 0 0 1]", got)
	}
}
