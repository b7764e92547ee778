package featuretest

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/consumer/share"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/internal/leakcheck"
	"github.com/gregor-kafka/gregor/txn"
	"github.com/gregor-kafka/gregor/wire"
)

// failBound is how soon a missing feature must be reported.
const failBound = 5 * time.Second

// deciding are the requests gregor may send to decide that a feature is
// missing (ApiVersions, the metadata and coordinator lookups); a failing
// feature's own request is never among them.
var deciding = []wire.APIKey{wire.KeyApiVersions, wire.KeyMetadata, wire.KeyFindCoordinator}

// TestUnsupportedFeaturesOnOldestRelease: on Kafka 3.7, the oldest
// supported release, which lacks KIP-848 consumer groups (ConsumerGroupHeartbeat
// v0 advertised, group.version not finalized), share groups,
// transactions v2 (no transaction.version), DescribeTopicPartitions
// (KIP-966, Kafka 3.8) and ConsumerGroupDescribe, each feature fails
// within 5 s with gregor.ErrUnsupportedFeature naming the way out, having
// sent nothing but the requests that decide it (counted by a
// RequestWrittenHook), and leaves no goroutine once closed (leakcheck, per
// feature, each on a client of its own). What degrades instead of failing
// degrades: the default group protocol picks classic and joins,
// TransactionVersion 0 runs v1, DescribeConsumerGroups falls back to
// DescribeGroups, and the KIP-1102 rebootstrap client runs on Metadata v12
// (no REBOOTSTRAP_REQUIRED). Topic IDs are on every supported release; their
// absence (Azure Event Hubs) is emulated by client/quirks_test.go.
func TestUnsupportedFeaturesOnOldestRelease(t *testing.T) {
	version := kafkatest.SupportedVersions[0]
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bed, err := kafkatest.Start(ctx, kafkatest.Options{Version: version, Log: t.Logf})
	if err != nil {
		t.Fatalf("cannot start Kafka %s: %v", version, err)
	}
	defer bed.Close()
	topic := kafkatest.UniqueName(t, "t")
	if err := bed.CreateTopic(ctx, topic, 2, 1); err != nil {
		t.Fatal(err)
	}
	boot := bed.Bootstrap(kafkatest.Plaintext)

	missing := func(name string, run func(t *testing.T, cl *client.Client) error) {
		t.Run(name, func(t *testing.T) {
			onClient(t, boot, func(t *testing.T, cl *client.Client, sent *requests) {
				within(t, func() error { return run(t, cl) })
				sent.only(t, deciding...)
			})
		})
	}
	missing("KIP-848 group", func(t *testing.T, cl *client.Client) error {
		g, err := consumer.NewGroup(cl, consumer.GroupConfig{GroupID: kafkatest.UniqueName(t, "g"), Topics: []string{topic}, Protocol: consumer.ProtocolConsumer})
		if err != nil {
			return err
		}
		defer g.Close(context.Background())
		ctx, cancel := context.WithTimeout(context.Background(), failBound)
		defer cancel()
		_, err = g.Receive(ctx)
		return err
	})
	missing("share group", func(t *testing.T, cl *client.Client) error {
		c, err := share.New(cl, share.Config{GroupID: kafkatest.UniqueName(t, "s"), Topics: []string{topic}})
		if err != nil {
			return err
		}
		defer c.Close(context.Background())
		ctx, cancel := context.WithTimeout(context.Background(), failBound)
		defer cancel()
		return c.AwaitJoined(ctx)
	})
	missing("share group admin", func(t *testing.T, cl *client.Client) error {
		ctx, cancel := context.WithTimeout(context.Background(), failBound)
		defer cancel()
		d, err := admin.New(cl, admin.Config{}).DescribeShareGroups(ctx, []string{"s"})
		if err == nil && len(d) == 1 {
			err = d[0].Err // per group
		}
		return err
	})
	missing("DescribeTopicPartitions", func(t *testing.T, cl *client.Client) error {
		ctx, cancel := context.WithTimeout(context.Background(), failBound)
		defer cancel()
		_, err := admin.New(cl, admin.Config{}).DescribeTopicPartitions(ctx, []string{topic}, admin.DescribeTopicPartitionsOptions{})
		return err
	})
	// Filters the release's ListTransactions v0 lacks: the broker would
	// list every transaction, so nothing is sent (admin asks each broker,
	// whose outcome carries the error).
	listTxns := func(opts admin.ListTransactionsOptions) func(*testing.T, *client.Client) error {
		return func(t *testing.T, cl *client.Client) error {
			ctx, cancel := context.WithTimeout(context.Background(), failBound)
			defer cancel()
			l, err := admin.New(cl, admin.Config{}).ListTransactions(ctx, opts)
			if err == nil && len(l.Brokers) == 1 {
				err = l.Brokers[0].Err
			}
			return err
		}
	}
	missing("ListTransactions IDPattern (KIP-1152)", listTxns(admin.ListTransactionsOptions{IDPattern: "^tx-"}))
	missing("ListTransactions MinDuration (KIP-994)", listTxns(admin.ListTransactionsOptions{MinDuration: time.Hour}))
	missing("transactions v2", func(t *testing.T, cl *client.Client) error {
		p, err := txn.New(cl, txn.Config{TransactionalID: kafkatest.UniqueName(t, "tx"), TransactionVersion: 2})
		if err != nil {
			return err
		}
		defer p.Close(context.Background())
		ctx, cancel := context.WithTimeout(context.Background(), failBound)
		defer cancel()
		return p.InitTransactions(ctx)
	})

	t.Run("default protocol follows the cluster", func(t *testing.T) {
		onClient(t, boot, func(t *testing.T, cl *client.Client, sent *requests) {
			assigned := make(chan struct{}, 1)
			g, err := consumer.NewGroup(cl, consumer.GroupConfig{GroupID: kafkatest.UniqueName(t, "g"), Topics: []string{topic},
				OnAssignment: func(_ context.Context, ev consumer.AssignmentEvent) {
					if ev.Kind == consumer.Assigned {
						select {
						case assigned <- struct{}{}:
						default:
						}
					}
				}})
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close(context.Background())
			select {
			case <-assigned:
			case <-time.After(60 * time.Second):
				t.Fatal("the default-protocol group was not assigned within 60s")
			}
			if sent.count(wire.KeyConsumerGroupHeartbeat) != 0 || sent.count(wire.KeyJoinGroup) == 0 {
				t.Fatalf("requests %v: want JoinGroup and no ConsumerGroupHeartbeat", sent.keys())
			}
		})
	})
	t.Run("transactions fall back to v1", func(t *testing.T) {
		onClient(t, boot, func(t *testing.T, cl *client.Client, _ *requests) {
			p, err := txn.New(cl, txn.Config{TransactionalID: kafkatest.UniqueName(t, "tx")})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close(context.Background())
			ictx, icancel := context.WithTimeout(ctx, 30*time.Second)
			defer icancel()
			if err := p.InitTransactions(ictx); err != nil {
				t.Fatalf("InitTransactions (TransactionVersion 0) on %s: %v", version, err)
			}
		})
	})
	t.Run("ListGroups ConsumerOnly without group types", func(t *testing.T) {
		onClient(t, boot, func(t *testing.T, cl *client.Client, sent *requests) {
			lctx, lcancel := context.WithTimeout(ctx, 30*time.Second)
			defer lcancel()
			l, err := admin.New(cl, admin.Config{}).ListGroups(lctx, admin.ListGroupsOptions{ConsumerOnly: true})
			if err != nil || len(l.Failed()) != 0 {
				t.Fatalf("ListGroups ConsumerOnly on %s: %v %+v", version, err, l)
			}
			if v := sent.maxVersion(wire.KeyListGroups); v < 0 || v > 4 {
				t.Fatalf("ListGroups v%d on %s, want v4 or lower (no TypesFilter)", v, version)
			}
		})
	})
	t.Run("DescribeConsumerGroups falls back to DescribeGroups", func(t *testing.T) {
		onClient(t, boot, func(t *testing.T, cl *client.Client, sent *requests) {
			dctx, dcancel := context.WithTimeout(ctx, 30*time.Second)
			defer dcancel()
			d, err := admin.New(cl, admin.Config{}).DescribeConsumerGroups(dctx, []string{kafkatest.UniqueName(t, "g")})
			if err != nil || len(d) != 1 || d[0].Err != nil {
				t.Fatalf("DescribeConsumerGroups: %v %+v", err, d)
			}
			if sent.count(wire.KeyConsumerGroupDescribe) != 0 || sent.count(wire.KeyDescribeGroups) != 1 {
				t.Fatalf("requests %v: want one DescribeGroups, no ConsumerGroupDescribe", sent.keys())
			}
		})
	})
	t.Run("KIP-1102 rebootstrap client", func(t *testing.T) {
		onClient(t, boot, func(t *testing.T, cl *client.Client, sent *requests) {
			mctx, mcancel := context.WithTimeout(ctx, 30*time.Second)
			defer mcancel()
			if _, err := cl.Metadata(mctx, []string{topic}); err != nil {
				t.Fatalf("Metadata: %v", err)
			}
			if v := sent.maxVersion(wire.KeyMetadata); v < 0 || v > 12 {
				t.Fatalf("Metadata v%d on %s, want v12 or lower", v, version)
			}
		}, func(c *client.Config) { c.MetadataRecoveryStrategy = client.RecoveryRebootstrap })
	})
}

// onClient runs body with a client of its own on boot that counts the
// requests it writes, closes it, and checks that no goroutine started
// meanwhile is left.
func onClient(t *testing.T, boot []string, body func(*testing.T, *client.Client, *requests), tune ...func(*client.Config)) {
	t.Helper()
	snap := leakcheck.Take()
	sent := &requests{}
	cfg := client.Config{Bootstrap: boot, Hooks: []client.Hook{sent}}
	for _, f := range tune {
		f(&cfg)
	}
	cl, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	body(t, cl, sent)
	if err := cl.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	lctx, lcancel := context.WithTimeout(context.Background(), failBound)
	defer lcancel()
	snap.Check(lctx, t)
}

// within checks that call failed with gregor.ErrUnsupportedFeature, with
// a remedy, within failBound.
func within(t *testing.T, call func() error) {
	t.Helper()
	start := time.Now()
	err := call()
	took := time.Since(start)
	var ue *gregor.UnsupportedFeatureError
	if !errors.Is(err, gregor.ErrUnsupportedFeature) || !errors.As(err, &ue) {
		t.Fatalf("after %v: %v, want gregor.ErrUnsupportedFeature", took, err)
	}
	if ue.Remedy == "" {
		t.Errorf("%v: no remedy named", err)
	}
	if took >= failBound {
		t.Fatalf("took %v (bound %v): %v", took, failBound, err)
	}
	t.Logf("%v: %v", took.Round(time.Millisecond), err)
}

// requests is a client.RequestWrittenHook counting the requests written,
// by API key, with the highest version of each.
type requests struct {
	mu  sync.Mutex
	n   map[wire.APIKey]int
	max map[wire.APIKey]int16
}

// OnRequestWritten counts ev.
func (r *requests) OnRequestWritten(ev client.RequestEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == nil {
		r.n, r.max = map[wire.APIKey]int{}, map[wire.APIKey]int16{}
	}
	r.n[ev.Key]++
	if v, ok := r.max[ev.Key]; !ok || ev.Version > v {
		r.max[ev.Key] = ev.Version
	}
}

func (r *requests) count(k wire.APIKey) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n[k]
}

// maxVersion is the highest version of k written, -1 when none was.
func (r *requests) maxVersion(k wire.APIKey) int16 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.max[k]; ok {
		return v
	}
	return -1
}

// keys lists the APIs written with their counts.
func (r *requests) keys() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for k, n := range r.n {
		name := fmt.Sprint(int(k))
		if info, ok := wire.LookupAPI(k); ok {
			name = info.Name
		}
		out = append(out, fmt.Sprintf("%s×%d", name, n))
	}
	sort.Strings(out)
	return out
}

// only fails t when a request other than allowed was written.
func (r *requests) only(t *testing.T, allowed ...wire.APIKey) {
	t.Helper()
	r.mu.Lock()
	var bad bool
	for k := range r.n {
		ok := false
		for _, a := range allowed {
			ok = ok || a == k
		}
		bad = bad || !ok
	}
	r.mu.Unlock()
	if bad {
		t.Fatalf("requests written %v: more than ApiVersions, Metadata and FindCoordinator", r.keys())
	}
}
