package consumer_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// assignHook keeps assignment events and signals each.
type assignHook struct {
	mu  sync.Mutex
	evs []client.AssignmentChange
	ch  chan struct{}
}

func (h *assignHook) OnAssignment(ev client.AssignmentChange) {
	h.mu.Lock()
	h.evs = append(h.evs, ev)
	h.mu.Unlock()
	select {
	case h.ch <- struct{}{}:
	default:
	}
}

// syncBuffer is a strings.Builder safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
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

// TestIntegrationGroupAssignmentHookAndLog: a classic group member on the
// real broker reports its assignment to AssignmentHooks (the topic's two
// partitions, with the group, member ID and generation) and logs an Info
// "gregor: assignment changed"; Close reports them revoked.
func TestIntegrationGroupAssignmentHookAndLog(t *testing.T) {
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := &assignHook{ch: make(chan struct{}, 8)}
	var logs syncBuffer
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext), Hooks: []client.Hook{h},
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	topic := kafkatest.UniqueName(t, "group-hooks")
	res, err := admin.New(cl, admin.Config{}).CreateTopics(ctx, []admin.NewTopic{{Name: topic, Partitions: 2, ReplicationFactor: 1}}, admin.TopicOptions{WaitVisible: true})
	if err == nil {
		err = res[0].Err
	}
	if err != nil {
		t.Fatal(err)
	}
	group := topic + "-g"
	g, err := consumer.NewGroup(cl, consumer.GroupConfig{GroupID: group, Topics: []string{topic}, Assignors: []assign.Assignor{assign.Range()}})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-h.ch:
	case <-ctx.Done():
		t.Fatal("no assignment event")
	}
	if err := g.Close(ctx); err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.evs) < 2 {
		t.Fatalf("events %+v: want assigned then revoked", h.evs)
	}
	a, r := h.evs[0], h.evs[len(h.evs)-1]
	if !a.Assigned || a.Group != group || a.MemberID == "" || a.Generation < 1 || len(a.Partitions[topic]) != 2 {
		t.Errorf("assigned event %+v", a)
	}
	if r.Assigned || r.Lost || len(r.Partitions[topic]) != 2 {
		t.Errorf("revoked event %+v", r)
	}
	if out := logs.String(); !strings.Contains(out, `msg="gregor: assignment changed" group=`+group+" change=assigned partitions=2") {
		t.Errorf("log lacks the assignment line:\n%s", out)
	}
}
