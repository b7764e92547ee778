package client

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
)

// longPollFetch starts a Fetch of the empty partition topic/0 on leader
// that waits 30s for data and returns once it is in flight on the fetch
// lane; the returned stop cancels it and waits for Request to return.
func longPollFetch(ctx context.Context, t *testing.T, c *Client, topic string, leader, epoch int32) (stop func()) {
	t.Helper()
	md, err := c.Metadata(ctx, []string{topic})
	if err != nil {
		t.Fatal(err)
	}
	req := &wire.FetchRequest{ReplicaID: -1, MaxWaitMs: 30000, MinBytes: 1, MaxBytes: 1 << 20, SessionEpoch: -1,
		Topics: []wire.FetchTopic{{Topic: topic, TopicID: md.Topics[topic].ID, Partitions: []wire.FetchPartition{
			{Partition: 0, CurrentLeaderEpoch: epoch, FetchOffset: 0, LastFetchedEpoch: -1, LogStartOffset: -1, PartitionMaxBytes: 1 << 20}}}}}
	fctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = c.Request(fctx, leader, req)
	}()
	waitFor(t, "the Fetch to be in flight", 30*time.Second, func() bool { return c.Metrics().Lanes[LaneFetch].InFlight == 1 })
	return func() {
		cancel()
		<-done
	}
}

// checkKillLog stops the long-polling Fetch and checks the log of a client
// whose partition leader was killed under it: Warn "gregor: connection
// lost" for the leader's fetch connection with the Fetch outstanding, Info
// "gregor: retrying" for the Fetch, Info "gregor: leader moved" for the
// partition, every line starting "gregor: ", and no password in any line.
func checkKillLog(t *testing.T, logs *lockedBuffer, stopFetch func(), topic string, leader int32) {
	t.Helper()
	stopFetch()
	type line struct {
		Level, Msg       string
		Broker, From     *float64
		Lane, API, Topic string
		Outstanding      float64
		Cause, Reason    string
	}
	var lost, retried, moved bool
	text := logs.String()
	for _, raw := range strings.Split(strings.TrimSpace(text), "\n") {
		var l line
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatalf("log line %q: %v", raw, err)
		}
		if !strings.HasPrefix(l.Msg, "gregor: ") {
			t.Errorf("log line without the gregor prefix: %s", raw)
		}
		switch {
		case l.Msg == "gregor: connection lost" && l.Level == "WARN" && l.Broker != nil && int32(*l.Broker) == leader && l.Lane == "fetch" && l.Outstanding >= 1 && l.Cause != "":
			lost = true
		case l.Msg == "gregor: retrying" && l.Level == "INFO" && l.API == "Fetch" && l.Reason != "":
			retried = true
		case l.Msg == "gregor: leader moved" && l.Level == "INFO" && l.Topic == topic && l.From != nil && int32(*l.From) == leader:
			moved = true
		}
	}
	if !lost || !retried || !moved {
		t.Errorf("log after killing broker %d: connection lost %v, retrying %v, leader moved %v:\n%s", leader, lost, retried, moved, text)
	}
	for _, secret := range []string{kafkatest.AdminPassword, kafkatest.AlicePassword} {
		if strings.Contains(text, secret) {
			t.Errorf("the log carries a password (%q)", secret)
		}
	}
}
