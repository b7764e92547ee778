package faultcheck

import (
	"syscall"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
	"github.com/gregor-kafka/gregor/testlab/invariant"
)

// TestJavaMemberReportsLost runs the soak's Java member
// (java/LostReportingConsumer.java) alone in a group on the shared
// cluster, SIGSTOPs its JVM for 16 s, past the group's session timeout
// (kafkatest sets group.consumer.session.timeout.ms to 10 s), and
// continues it. The coordinator has expired it meanwhile, so it must print
// partitions_lost (the stock VerifiableConsumer prints partitions_revoked
// here: its onPartitionsLost is the interface default), then be assigned
// again; the parser ends the first intervals as Lost.
func TestJavaMemberReportsLost(t *testing.T) {
	c := kafkatest.Shared(t)
	bed := labtest.On(t, c.Bootstrap(kafkatest.Plaintext))
	ctx := labtest.Ctx(t, 3*time.Minute)
	topic := bed.Topic(ctx, "jlost", 2, 1, nil)
	tools, err := newJavaTools(c.Dir(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gl := &groupLoad{group: topic + "-g", topic: topic, boot: bed.Boot, tools: tools, open: map[string]map[invariant.TP]int{},
		delivered: map[invariant.TP]map[int64]int{}, hw: map[invariant.TP]int64{}, events: map[consumer.AssignmentEventKind]int{}}
	jm, err := gl.startJava("j0")
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			gl.stopJava(jm)
		}
	}()
	wait := func(what string, cond func() bool) {
		t.Helper()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			gl.mu.Lock()
			ok := cond()
			gl.mu.Unlock()
			if ok {
				return
			}
			select {
			case <-ctx.Done():
				t.Fatalf("waiting for %s: %v (events %v)", what, ctx.Err(), gl.events)
			case <-tick.C:
			}
		}
	}
	// (The Java consumer also reports empty assignments: count owned partitions.)
	wait("both partitions owned", func() bool { return len(gl.open["j0"]) == 2 })
	pid := jm.proc.cmd.Process.Pid
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	// The fault itself: frozen past the 10 s session timeout.
	pause := time.NewTimer(16 * time.Second)
	select {
	case <-pause.C:
	case <-ctx.Done():
	}
	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	wait("partitions_lost, then both partitions owned again", func() bool {
		return gl.events[consumer.Lost] == 1 && len(gl.open["j0"]) == 2
	})
	gl.stopJava(jm)
	stopped = true
	gl.mu.Lock()
	defer gl.mu.Unlock()
	if gl.events[consumer.Revoking] > 1 {
		t.Errorf("events %v: more than the revocation at shutdown", gl.events)
	}
	for i, iv := range gl.ivs {
		if first := i < 2; iv.lost != first || iv.end.IsZero() {
			t.Errorf("interval %d %+v: want lost=%v and ended", i, iv, first)
		}
	}
	if len(gl.ivs) != 4 {
		t.Errorf("intervals %+v, want 2 ended Lost, 2 by the revocation at shutdown", gl.ivs)
	}
}
