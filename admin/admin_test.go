package admin

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

func newTestAdmin(t *testing.T) *Admin {
	t.Helper()
	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:1"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close(context.Background()) })
	return New(cl, Config{RetryBackoff: time.Millisecond, RetryBackoffMax: 4 * time.Millisecond})
}

func TestTimeoutMs(t *testing.T) {
	if got := timeoutMs(context.Background(), 30*time.Second); got != 30000 {
		t.Fatalf("no deadline: %d", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if got := timeoutMs(ctx, 30*time.Second); got < 8500 || got > 9000 {
		t.Fatalf("10s deadline: %d, want about 9000", got)
	}
	ctx2, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	if got := timeoutMs(ctx2, 30*time.Second); got != 1 {
		t.Fatalf("past deadline: %d", got)
	}
}

func TestCodeErr(t *testing.T) {
	if codeErr(0, nil) != nil || codeErr(0, ptr("x")) != nil {
		t.Fatal("code 0 is not an error")
	}
	err := codeErr(36, ptr("Topic 't' already exists."))
	var be *BrokerError
	var ke *wire.KafkaError
	if !errors.Is(err, wire.ErrTopicAlreadyExists) || !errors.As(err, &be) || !errors.As(err, &ke) || ke.Code != 36 || be.Message == "" {
		t.Fatalf("%v", err)
	}
	if err := codeErr(3, nil); err != wire.ErrUnknownTopicOrPartition {
		t.Fatalf("no message: %#v", err)
	}
}

func TestInRounds(t *testing.T) {
	keys := []gregor.TopicPartition{{Topic: "a", Partition: 0}, {Topic: "a", Partition: 0}, {Topic: "b", Partition: 1}, {Topic: "a", Partition: 0}, {Topic: "b", Partition: 1}}
	var calls [][]int
	send := inRounds(func(i int) gregor.TopicPartition { return keys[i] }, func(_ context.Context, _ int32, idx []int) (map[int]error, error) {
		calls = append(calls, append([]int(nil), idx...))
		return map[int]error{idx[0]: errors.New("again")}, nil
	})
	retry, err := send(context.Background(), 1, []int{0, 1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{0, 2}, {1, 4}, {3}}; !reflect.DeepEqual(calls, want) {
		t.Fatalf("rounds %v, want %v", calls, want)
	}
	if len(retry) != 3 || retry[0] == nil || retry[1] == nil || retry[3] == nil {
		t.Fatalf("retry %v", retry)
	}
}

// TestBatchesRetryThenGiveUp: a resource that keeps failing retriably ends
// with exactly one failure matching client.ErrTimeout and the last cause;
// the others succeed after one retry.
func TestBatchesRetryThenGiveUp(t *testing.T) {
	a := newTestAdmin(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	tries := map[int]int{}
	fails := map[int][]error{}
	done := map[int]bool{}
	a.runPlan(ctx, resourcePlan{
		resources:  3,
		idempotent: true,
		route:      func(_ context.Context, i int) (int32, error) { return int32(i % 2), nil },
		send: func(_ context.Context, _ int32, idx []int) (map[int]error, error) {
			retry := map[int]error{}
			for _, i := range idx {
				tries[i]++
				if i == 2 || tries[i] == 1 {
					retry[i] = wire.ErrNotCoordinator
					continue
				}
				done[i] = true
			}
			return retry, nil
		},
		fail: func(i int, err error) { fails[i] = append(fails[i], err) },
	})
	if !done[0] || !done[1] || done[2] {
		t.Fatalf("done %v", done)
	}
	if len(fails) != 1 || len(fails[2]) != 1 || !errors.Is(fails[2][0], client.ErrTimeout) || !errors.Is(fails[2][0], wire.ErrNotCoordinator) {
		t.Fatalf("fails %v", fails)
	}
	if tries[2] < 3 {
		t.Fatalf("resource 2 tried %d times", tries[2])
	}
}

// TestBatchesNonIdempotent: a possibly-sent transport failure of a
// non-idempotent request is final, not resent.
func TestBatchesNonIdempotent(t *testing.T) {
	a := newTestAdmin(t)
	sends := 0
	var got error
	possiblySent := &client.RequestError{Broker: 1, API: "DeleteGroups", Certainty: client.PossiblySent, Err: client.ErrTransport}
	a.runPlan(context.Background(), resourcePlan{
		resources: 1,
		route:     func(context.Context, int) (int32, error) { return 1, nil },
		send:      func(context.Context, int32, []int) (map[int]error, error) { sends++; return nil, possiblySent },
		fail:      func(_ int, err error) { got = err },
	})
	if sends != 1 || !errors.Is(got, client.ErrTransport) {
		t.Fatalf("sends %d, err %v", sends, got)
	}
}

func TestApplyFetched(t *testing.T) {
	a := newTestAdmin(t)
	topics := []wire.OffsetFetchTopicResult{
		{Name: "b", Partitions: []wire.OffsetFetchPartitionResult{{PartitionIndex: 1, CommittedOffset: 0, CommittedLeaderEpoch: 2, Metadata: ptr("m")}}},
		{Name: "a", Partitions: []wire.OffsetFetchPartitionResult{{PartitionIndex: 3, CommittedOffset: -1, CommittedLeaderEpoch: -1}, {PartitionIndex: 0, CommittedOffset: 9, CommittedLeaderEpoch: -1}}},
	}
	var res GroupOffsets
	if err := a.applyFetched(&res, GroupOffsetsQuery{GroupID: "g"}, 0, topics); err != nil {
		t.Fatal(err)
	}
	want := []CommittedOffset{
		{TopicPartition: gregor.TopicPartition{Topic: "a", Partition: 0}, Committed: true, Offset: 9, LeaderEpoch: -1},
		{TopicPartition: gregor.TopicPartition{Topic: "a", Partition: 3}, Committed: false, Offset: -1, LeaderEpoch: -1},
		{TopicPartition: gregor.TopicPartition{Topic: "b", Partition: 1}, Committed: true, Offset: 0, LeaderEpoch: 2, Metadata: "m"},
	}
	if !reflect.DeepEqual(res.Offsets, want) {
		t.Fatalf("all partitions:\n got %+v\nwant %+v", res.Offsets, want)
	}
	// Requested partitions keep request order; an unanswered one is absent.
	res = GroupOffsets{}
	q := GroupOffsetsQuery{GroupID: "g", Partitions: []gregor.TopicPartition{{Topic: "b", Partition: 1}, {Topic: "c", Partition: 0}}}
	if err := a.applyFetched(&res, q, 0, topics); err != nil {
		t.Fatal(err)
	}
	if len(res.Offsets) != 2 || res.Offsets[0].Offset != 0 || !res.Offsets[0].Committed || res.Offsets[1].Committed || res.Offsets[1].Offset != -1 {
		t.Fatalf("requested: %+v", res.Offsets)
	}
	// Unstable offsets and coordinator moves ask for a retry; a group error is final.
	unstable := []wire.OffsetFetchTopicResult{{Name: "a", Partitions: []wire.OffsetFetchPartitionResult{{PartitionIndex: 0, CommittedOffset: -1, ErrorCode: 88}}}}
	if err := a.applyFetched(&GroupOffsets{}, q, 0, unstable); !errors.Is(err, wire.ErrUnstableOffsetCommit) {
		t.Fatalf("unstable: %v", err)
	}
	if err := a.applyFetched(&GroupOffsets{}, q, 16, nil); !errors.Is(err, wire.ErrNotCoordinator) {
		t.Fatalf("not coordinator: %v", err)
	}
	res = GroupOffsets{}
	if err := a.applyFetched(&res, q, 30, nil); err != nil || !errors.Is(res.Err, wire.ErrGroupAuthorizationFailed) {
		t.Fatalf("group error: %v / %v", err, res.Err)
	}
}

func TestFetchTopicsNullVersusEmpty(t *testing.T) {
	if fetchTopics(nil) != nil {
		t.Fatal("nil partitions must ask for all (null)")
	}
	got := fetchTopics([]gregor.TopicPartition{{Topic: "a", Partition: 1}, {Topic: "b", Partition: 0}, {Topic: "a", Partition: 2}})
	if len(got) != 2 || got[0].Name != "a" || !reflect.DeepEqual(got[0].PartitionIndexes, []int32{1, 2}) || got[1].Name != "b" {
		t.Fatalf("%+v", got)
	}
}

func TestConfigRoute(t *testing.T) {
	if configRoute(ResourceBroker, "3") != 3 || configRoute(ResourceBroker, "") != client.AnyBroker || configRoute(ResourceTopic, "7") != client.AnyBroker {
		t.Fatal("config routing")
	}
}

func ptr[T any](v T) *T { return &v }

func TestConfigDefaults(t *testing.T) {
	cases := []struct {
		cfg        Config
		first, max time.Duration
	}{
		{Config{}, 100 * time.Millisecond, time.Second},
		{Config{RetryBackoff: -1, RetryBackoffMax: -1}, 100 * time.Millisecond, time.Second},
		{Config{RetryBackoff: 5 * time.Second}, 5 * time.Second, 5 * time.Second},
		{Config{RetryBackoff: time.Millisecond, RetryBackoffMax: 4 * time.Millisecond}, time.Millisecond, 4 * time.Millisecond},
	}
	for _, c := range cases {
		if a := New(nil, c.cfg); a.backoff != c.first || a.backoffMax != c.max {
			t.Errorf("%+v: backoff %v max %v, want %v %v", c.cfg, a.backoff, a.backoffMax, c.first, c.max)
		}
	}
}
