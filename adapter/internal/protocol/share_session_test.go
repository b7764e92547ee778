package protocol

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

func init() {
	commandCases = append(commandCases,
		struct {
			line string
			want any
		}{pre + `"kind":"create_share_consumer","client_id":"c1","consumer_id":"s1","group_id":"g","topic":"t","membership_timeout_ms":5000,"close_timeout_ms":3000,"configuration":{"max_records":5,"batch_size":2}}`,
			&CreateShareConsumer{ClientID: "c1", ConsumerID: "s1", GroupID: "g", Topic: "t", MembershipTimeoutMs: 5000, CloseTimeoutMs: 3000, Configuration: &ShareConfiguration{MaxRecords: 5, BatchSize: 2}}},
		struct {
			line string
			want any
		}{pre + `"kind":"share_receive","consumer_id":"s1","receive_id":"r1","timeout_ms":1000}`, &ShareReceive{ConsumerID: "s1", ReceiveID: "r1", TimeoutMs: 1000}},
		struct {
			line string
			want any
		}{pre + `"kind":"share_acknowledge","consumer_id":"s1","receive_id":"r1","acknowledgement_id":"a1","dispositions":["accept","release","reject"],"timeout_ms":1000}`,
			&ShareAcknowledge{ConsumerID: "s1", ReceiveID: "r1", AcknowledgementID: "a1", Dispositions: []string{"accept", "release", "reject"}, TimeoutMs: 1000}},
		struct {
			line string
			want any
		}{pre + `"kind":"drop_share_batch","consumer_id":"s1","receive_id":"r1"}`, &DropShareBatch{ConsumerID: "s1", ReceiveID: "r1"}},
		struct {
			line string
			want any
		}{pre + `"kind":"close_share_consumer","consumer_id":"s1"}`, &CloseShareConsumer{ConsumerID: "s1"}},
	)
}

// shareBackend is the fake backend whose clients make fake share consumers.
type shareBackend struct {
	fakeBackend
	mu       sync.Mutex
	records  []ShareRecord
	ackErr   error // returned for every acknowledgement
	acked    [][]string
	cfgs     []ShareConsumerConfig
	closedSh int
}

type shareFakeClient struct {
	*fakeClient
	b *shareBackend
}

func (b *shareBackend) NewClient(cfg ClientConfig) (KafkaClient, error) {
	c, _ := b.fakeBackend.NewClient(cfg)
	return &shareFakeClient{fakeClient: c.(*fakeClient), b: b}, nil
}

func (c *shareFakeClient) NewShareConsumer(cfg ShareConsumerConfig) (ShareConsumer, error) {
	c.b.mu.Lock()
	defer c.b.mu.Unlock()
	c.b.cfgs = append(c.b.cfgs, cfg)
	return &fakeShare{b: c.b}, nil
}

type fakeShare struct {
	b     *shareBackend
	given bool
}

func (f *fakeShare) AwaitMembership(context.Context) error { return nil }
func (f *fakeShare) MemberEpoch() int32                    { return 3 }
func (f *fakeShare) Receive(ctx context.Context) ([]ShareRecord, error) {
	if !f.given {
		f.given = true
		return f.b.records, nil
	}
	<-ctx.Done()
	return nil, client.ErrTimeout
}
func (f *fakeShare) Acknowledge(ctx context.Context, recs []ShareRecord, ds []string) ShareOutcome {
	f.b.mu.Lock()
	defer f.b.mu.Unlock()
	f.b.acked = append(f.b.acked, ds)
	if f.b.ackErr != nil {
		return ShareOutcome{Err: f.b.ackErr}
	}
	return ShareOutcome{}
}
func (f *fakeShare) Close(context.Context) ShareOutcome {
	f.b.mu.Lock()
	defer f.b.mu.Unlock()
	f.b.closedSh++
	return ShareOutcome{}
}

func TestSessionShareWalk(t *testing.T) {
	b := &shareBackend{records: []ShareRecord{
		{ReceivedRecord: ReceivedRecord{Topic: "t", Partition: 0, Offset: 4, Value: []byte("a")}, DeliveryCount: 1},
		{ReceivedRecord: ReceivedRecord{Topic: "t", Partition: 0, Offset: 5, Key: []byte{}, Value: nil}, DeliveryCount: 2},
	}, ackErr: wire.ErrInvalidRecordState}
	var s script
	s.add("hello", helloPlain)
	s.add("create_client", `"client_id":"c1"`)
	create := s.add("create_share_consumer", `"client_id":"c1","consumer_id":"s1","group_id":"g","topic":"t","membership_timeout_ms":1000,"close_timeout_ms":1000,"configuration":{"max_records":5,"batch_size":2}`)
	r1 := s.add("share_receive", `"consumer_id":"s1","receive_id":"r1","timeout_ms":1000`)
	r2 := s.add("share_receive", `"consumer_id":"s1","receive_id":"r2","timeout_ms":100`)
	ack := s.add("share_acknowledge", `"consumer_id":"s1","receive_id":"r1","acknowledgement_id":"a1","dispositions":["accept","reject"],"timeout_ms":1000`)
	drop := s.add("drop_share_batch", `"consumer_id":"s1","receive_id":"r2"`)
	closeID := s.add("close_share_consumer", `"consumer_id":"s1"`)
	s.add("shutdown_client", `"client_id":"c1"`)
	s.add("finish", "")
	evs, code, _ := runScript(t, b, s.input())
	if code != ExitOK {
		t.Fatalf("exit %d: %v", code, evs)
	}
	for id, want := range map[string]string{
		create:  `"kind":"share_consumer_created","consumer_id":"s1"`,
		r1:      `"kind":"share_receive_completed","consumer_id":"s1","receive_id":"r1","records":[{"record":{"topic":"t","partition":0,"offset":4,"timestamp_millis":null,"key":null,"value":{"encoding":"hex","data":"61"},"headers":[]},"delivery_count":1},{"record":{"topic":"t","partition":0,"offset":5,"timestamp_millis":null,"key":{"encoding":"hex","data":""},"value":null,"headers":[]},"delivery_count":2}],"acquisition_count":2,"member_epoch":3,"assignment_epoch":null`,
		r2:      `"records":[],"acquisition_count":0`,
		ack:     `"kind":"share_acknowledgement_completed","acknowledgement_id":"a1","receive_id":"r1","dispositions":["accept","reject"],"success":false,"delivery":"possibly_sent","code":"`,
		drop:    `"kind":"share_batch_dropped","receive_id":"r2"`,
		closeID: `"kind":"share_consumer_closed","consumer_id":"s1","success":true,"delivery":null,"code":null`,
	} {
		var line string
		for _, e := range evs {
			if e.id == id {
				line = e.raw
			}
		}
		if !strings.Contains(line, want) {
			t.Errorf("%s: %s\nwant it to contain %s", id, line, want)
		}
	}
	if len(b.cfgs) != 1 || b.cfgs[0] != (ShareConsumerConfig{GroupID: "g", Topic: "t", MaxRecords: 5, BatchSize: 2}) {
		t.Fatalf("share consumer configs %+v", b.cfgs)
	}
	if len(b.acked) != 1 || strings.Join(b.acked[0], ",") != "accept,reject" || b.closedSh != 1 {
		t.Fatalf("acknowledged %v, closed %d", b.acked, b.closedSh)
	}
}

// TestSessionShareCountMismatch: dispositions that do not match the retained
// records are a structural error (fatal adapter_state), as is acknowledging
// a batch twice.
func TestSessionShareCountMismatch(t *testing.T) {
	b := &shareBackend{records: []ShareRecord{{ReceivedRecord: ReceivedRecord{Topic: "t", Offset: 1}, DeliveryCount: 1}}}
	var s script
	s.add("hello", helloPlain)
	s.add("create_client", `"client_id":"c1"`)
	s.add("create_share_consumer", `"client_id":"c1","consumer_id":"s1","group_id":"g","topic":"t","membership_timeout_ms":1000,"close_timeout_ms":1000`)
	s.add("share_receive", `"consumer_id":"s1","receive_id":"r1","timeout_ms":1000`)
	bad := s.add("share_acknowledge", `"consumer_id":"s1","receive_id":"r1","acknowledgement_id":"a1","dispositions":["accept","accept"],"timeout_ms":1000`)
	evs, code, _ := runScript(t, b, s.input())
	if code != ExitFatal || !strings.Contains(findLine(evs, bad, "fatal"), `"adapter_state"`) {
		t.Fatalf("exit %d, events %v", code, evs)
	}
	if b.closedSh != 1 {
		t.Fatalf("share consumer closed %d times at session end", b.closedSh)
	}
}

// TestSessionShareConfigurationBounds: max_records and batch_size outside
// 1..=31 are refused (fatal adapter_state) before any consumer is made.
func TestSessionShareConfigurationBounds(t *testing.T) {
	b := &shareBackend{}
	var s script
	s.add("hello", helloPlain)
	s.add("create_client", `"client_id":"c1"`)
	bad := s.add("create_share_consumer", `"client_id":"c1","consumer_id":"s1","group_id":"g","topic":"t","membership_timeout_ms":1000,"close_timeout_ms":1000,"configuration":{"max_records":32,"batch_size":2}`)
	evs, code, _ := runScript(t, b, s.input())
	if code != ExitFatal || !strings.Contains(findLine(evs, bad, "fatal"), `"adapter_state"`) || len(b.cfgs) != 0 {
		t.Fatalf("exit %d, events %v, consumers made %d", code, evs, len(b.cfgs))
	}
}
