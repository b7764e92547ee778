package faultcheck

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/faultproxy"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
	"github.com/gregor-kafka/gregor/testlab/invariant"
)

// fx is one test's fixture: proxies in front of the shared cluster's
// brokers, a franz-go observer on its PLAINTEXT listener, a topic with one
// partition, and the evidence collected so far.
type fx struct {
	t     *testing.T
	ctx   context.Context
	set   *faultproxy.Set
	bed   *labtest.Bed
	topic string
	tp    invariant.TP
	hist  invariant.History
	ev    evidence
}

type evidence struct {
	Test    string              `json:"test"`
	Started time.Time           `json:"started"`
	Faults  []faultproxy.Record `json:"faults"`
	Claims  []Claim             `json:"claims"`
	Verdict string              `json:"verdict"`
}

func setup(t *testing.T) *fx {
	t.Helper()
	ctx := labtest.Ctx(t, 90*time.Second)
	c := kafkatest.Shared(t)
	set, err := faultproxy.StartSet(c, faultproxy.Options{ListenWait: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	f := &fx{t: t, ctx: ctx, set: set, bed: labtest.On(t, c.Bootstrap(kafkatest.Plaintext))}
	f.ev = evidence{Test: t.Name(), Started: time.Now().UTC()}
	t.Cleanup(func() {
		if err := set.Close(); err != nil {
			t.Errorf("proxies: %v", err)
		}
		f.ev.Faults = set.Records()
		f.ev.Verdict = "passed"
		if t.Failed() {
			f.ev.Verdict = "failed"
		}
		f.writeEvidence()
	})
	f.topic = f.bed.Topic(ctx, "fault", 1, 1, nil)
	f.tp = invariant.TP{Topic: f.topic, Partition: 0}
	return f
}

// writeEvidence writes testlab/evidence/faultcheck-<test>.json.
func (f *fx) writeEvidence() {
	data, err := json.MarshalIndent(f.ev, "", "  ")
	if err != nil {
		f.t.Error(err)
		return
	}
	dir := filepath.Join("..", "evidence")
	_ = os.MkdirAll(dir, 0o755)
	name := "faultcheck-" + strings.ReplaceAll(f.t.Name(), "/", "-") + ".json"
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		f.t.Error(err)
	}
}

// client returns a gregor client bootstrapped through the proxies.
func (f *fx) client(cfg client.Config) *client.Client {
	f.t.Helper()
	cfg.Bootstrap = f.set.Bootstrap()
	cl, err := client.New(cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { cl.Close(context.Background()) })
	if err := cl.Ready(f.ctx); err != nil {
		f.t.Fatalf("client ready through the proxy: %v", err)
	}
	return cl
}

// producer returns a producer on its own client that takes the first
// failure as final (MaxRetries 0), so every fault shows in a Result.
func (f *fx) producer(timeout time.Duration) (*client.Client, *producer.Producer) {
	f.t.Helper()
	cl := f.client(client.Config{RequestTimeout: timeout, RetryBackoff: 20 * time.Millisecond})
	zero := 0
	p, err := producer.New(cl, producer.Config{MaxRetries: &zero, Linger: -1, RequestTimeout: timeout, DeliveryTimeout: 3 * timeout})
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { p.Close(context.Background()) })
	return cl, p
}

// send hands id to p, waits for its Result and records the claim and the
// history entry; fw says whether the proxies forwarded Produce bytes between
// hand-over and outcome.
func (f *fx) send(p *producer.Producer, name, id string) (producer.Result, Claim) {
	f.t.Helper()
	before := f.set.Forwarded(0)
	d, err := p.Send(f.ctx, &producer.Record{Topic: f.topic, Partition: producer.ToPartition(0), Value: []byte(id)})
	if err != nil {
		f.t.Fatalf("send %s: %v", id, err)
	}
	r, err := d.Wait(f.ctx)
	if err != nil && r.Err == nil { // ctx ended (a record failure fills r)
		f.t.Fatalf("wait %s: %v", id, err)
	}
	c := Claim{ID: id, Acked: r.Err == nil, Offset: -1, Certainty: r.Certainty, Forwarded: f.set.Forwarded(0) > before}
	s := invariant.Send{Producer: name, Idempotent: true, TP: f.tp, ID: id, Offset: -1}
	if r.Err == nil {
		c.Offset, s.Acked, s.Offset = r.Offset, true, r.Offset
	}
	f.hist.Sends = append(f.hist.Sends, s)
	f.ev.Claims = append(f.ev.Claims, c)
	f.t.Logf("%s: offset %d err %v certainty %v (proxy forwarded Produce bytes: %v)", id, r.Offset, r.Err, r.Certainty, c.Forwarded)
	return r, c
}

func (f *fx) mustAck(p *producer.Producer, name, id string) Claim {
	f.t.Helper()
	r, c := f.send(p, name, id)
	if r.Err != nil {
		f.t.Fatalf("%s not acknowledged: %v", id, r.Err)
	}
	return c
}

func (f *fx) apply(flt faultproxy.Fault) *faultproxy.Group {
	f.t.Helper()
	g, err := f.set.Apply(flt)
	if err != nil {
		f.t.Fatal(err)
	}
	return g
}

func (f *fx) remove(g *faultproxy.Group) []faultproxy.Record {
	f.t.Helper()
	recs, err := g.Remove()
	if err != nil {
		f.t.Fatal(err)
	}
	return recs
}

func fired(recs []faultproxy.Record) int {
	n := 0
	for _, r := range recs {
		n += r.Fired
	}
	return n
}

// finish reads the final log, judges every claim, runs the invariant checker
// over the history and returns the log for lie self-tests.
func (f *fx) finish() invariant.Log {
	f.t.Helper()
	l, err := f.bed.ReadLog(f.ctx, f.topic, 0)
	if err != nil {
		f.t.Fatal(err)
	}
	f.hist.Logs = append(f.hist.Logs, l)
	for _, c := range f.ev.Claims {
		if err := Judge(c, l); err != nil {
			f.t.Errorf("verdict: %v", err)
		}
	}
	if vs := invariant.Check(&f.hist); len(vs) > 0 {
		f.t.Errorf("invariant violations: %v", vs)
	}
	return l
}

// mustCatch asserts that Judge fails the lie.
func (f *fx) mustCatch(lie Claim, l invariant.Log) {
	f.t.Helper()
	err := Judge(lie, l)
	if err == nil {
		f.t.Errorf("verdict self-test: the lie %+v was judged honest", lie)
		return
	}
	f.t.Logf("verdict self-test: lie caught: %v", err)
}

// waitClosed waits until cl has seen at least n connections closed.
func (f *fx) waitClosed(cl *client.Client, n uint64) {
	f.t.Helper()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for cl.Metrics().Conns.Closed < n {
		select {
		case <-tick.C:
		case <-f.ctx.Done():
			f.t.Fatalf("client saw %d closed connections, want %d", cl.Metrics().Conns.Closed, n)
		}
	}
}
