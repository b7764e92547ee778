package admincheck

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// commit has the observer commit offsets for group (topic partition -> offset).
func (b *bed) commit(group, topic string, offsets map[int32]int64) {
	b.t.Helper()
	var os kadm.Offsets
	for p, o := range offsets {
		os.Add(kadm.Offset{Topic: topic, Partition: p, At: o, LeaderEpoch: -1})
	}
	resp, err := b.obs.CommitOffsets(ctxFor(b.t, 30*time.Second), group, os)
	if err != nil || resp.Error() != nil {
		b.t.Fatalf("observer commit: %v %v", err, resp.Error())
	}
}

// observedCommitted returns the observer's committed offsets of group for topic.
func (b *bed) observedCommitted(group, topic string) map[int32]int64 {
	b.t.Helper()
	resp, err := b.obs.FetchOffsets(ctxFor(b.t, 30*time.Second), group)
	if err != nil {
		b.t.Fatalf("observer fetch offsets: %v", err)
	}
	out := map[int32]int64{}
	for p, r := range resp[topic] {
		if r.Err == nil && r.At >= 0 {
			out[p] = r.At
		}
	}
	return out
}

func tp(topic string, p int32) gregor.TopicPartition {
	return gregor.TopicPartition{Topic: topic, Partition: p}
}

// TestGroupOffsets: after an independent commit, list (single partition,
// batch, all partitions, multi-group, RequireStable) returns exactly the
// committed offsets and absence for uncommitted partitions; alter and
// delete are seen by the independent reader; deleting an empty group
// succeeds and the group is then not found.
func TestGroupOffsets(t *testing.T) {
	b := newBed(t)
	topic := b.observedTopic(3, nil)
	g1, g2 := b.name("g1"), b.name("g2")
	b.commit(g1, topic, map[int32]int64{0: 5, 1: 7})
	b.commit(g2, topic, map[int32]int64{0: 1})

	for _, stable := range []bool{false, true} {
		opts := admin.FetchOffsetsOptions{RequireStable: stable}
		// One group, explicit partitions (one never committed).
		res, err := b.adm.FetchOffsets(ctxFor(t, 30*time.Second), []admin.GroupOffsetsQuery{{GroupID: g1, Partitions: []gregor.TopicPartition{tp(topic, 1), tp(topic, 2), tp(topic, 0)}}}, opts)
		if err != nil || res[0].Err != nil {
			t.Fatalf("fetch: %v / %+v", err, res)
		}
		got := res[0].Offsets
		if len(got) != 3 || got[0].Partition != 1 || !got[0].Committed || got[0].Offset != 7 ||
			got[1].Partition != 2 || got[1].Committed || got[1].Offset != -1 || got[1].Err != nil ||
			got[2].Partition != 0 || !got[2].Committed || got[2].Offset != 5 {
			t.Fatalf("single group: %+v", got)
		}
		// All partitions: only the committed ones, sorted.
		res, err = b.adm.FetchOffsets(ctxFor(t, 30*time.Second), []admin.GroupOffsetsQuery{{GroupID: g1}}, opts)
		if err != nil || res[0].Err != nil || len(res[0].Offsets) != 2 || res[0].Offsets[0].Offset != 5 || res[0].Offsets[1].Offset != 7 {
			t.Fatalf("all partitions: %v / %+v", err, res)
		}
		// Several groups in one call, in request order.
		missing := b.name("nog")
		res, err = b.adm.FetchOffsets(ctxFor(t, 30*time.Second), []admin.GroupOffsetsQuery{
			{GroupID: g2, Partitions: []gregor.TopicPartition{tp(topic, 0), tp(topic, 1)}},
			{GroupID: g1, Partitions: []gregor.TopicPartition{tp(topic, 1)}},
			{GroupID: missing, Partitions: []gregor.TopicPartition{tp(topic, 0)}},
		}, opts)
		if err != nil || len(res) != 3 || res[0].GroupID != g2 || res[1].GroupID != g1 || res[2].GroupID != missing {
			t.Fatalf("multi-group: %v / %+v", err, res)
		}
		if o := res[0].Offsets; res[0].Err != nil || o[0].Offset != 1 || !o[0].Committed || o[1].Committed {
			t.Fatalf("multi-group g2: %+v", res[0])
		}
		if o := res[1].Offsets; res[1].Err != nil || o[0].Offset != 7 {
			t.Fatalf("multi-group g1: %+v", res[1])
		}
		if o := res[2].Offsets; res[2].Err != nil && !errors.Is(res[2].Err, wire.ErrGroupIDNotFound) || res[2].Err == nil && o[0].Committed {
			t.Fatalf("multi-group missing group: %+v", res[2])
		}
	}

	// Alter: the observer reads the new offsets; untouched partitions keep theirs.
	ar, err := b.adm.AlterOffsets(ctxFor(t, 30*time.Second), g1, []admin.OffsetToCommit{{TopicPartition: tp(topic, 2), Offset: 9, LeaderEpoch: -1}, {TopicPartition: tp(topic, 0), Offset: 6, LeaderEpoch: -1}})
	if err != nil || len(ar) != 2 || ar[0].Err != nil || ar[1].Err != nil || ar[0].Partition != 2 {
		t.Fatalf("alter: %v / %+v", err, ar)
	}
	if got := b.observedCommitted(g1, topic); fmt.Sprint(got) != fmt.Sprint(map[int32]int64{0: 6, 1: 7, 2: 9}) {
		t.Fatalf("observer after alter: %v", got)
	}
	// Delete one partition's offset: the observer sees it absent.
	dr, err := b.adm.DeleteOffsets(ctxFor(t, 30*time.Second), g1, []gregor.TopicPartition{tp(topic, 1)})
	if err != nil || len(dr) != 1 || dr[0].Err != nil {
		t.Fatalf("delete offsets: %v / %+v", err, dr)
	}
	if got := b.observedCommitted(g1, topic); fmt.Sprint(got) != fmt.Sprint(map[int32]int64{0: 6, 2: 9}) {
		t.Fatalf("observer after delete: %v", got)
	}
	// Delete the (empty) group: success, then not found for us and the observer.
	gr, err := b.adm.DeleteGroups(ctxFor(t, 30*time.Second), []string{g2})
	if err != nil || gr[0].Err != nil {
		t.Fatalf("delete group: %v / %+v", err, gr)
	}
	dg, err := b.adm.DescribeGroups(ctxFor(t, 30*time.Second), []string{g2})
	if err != nil || !(errors.Is(dg[0].Err, wire.ErrGroupIDNotFound) || dg[0].Err == nil && dg[0].State == "Dead") {
		t.Fatalf("describe deleted group: %v / %+v", err, dg)
	}
	od, err := b.obs.DescribeGroups(ctxFor(t, 30*time.Second), g2)
	if err != nil {
		t.Fatal(err)
	}
	if d := od[g2]; d.Err == nil && d.State != "Dead" {
		t.Fatalf("observer still sees group %s: %+v", g2, d)
	}
	gr, err = b.adm.DeleteGroups(ctxFor(t, 30*time.Second), []string{g2})
	if err != nil || !errors.Is(gr[0].Err, wire.ErrGroupIDNotFound) {
		t.Fatalf("delete deleted group: %v / %+v", err, gr)
	}
}

// TestGroupWithMembers: with an independent consumer in the group, list and
// describe show it with one member (as the observer does), and deleting the
// group fails with NON_EMPTY_GROUP while the group stays.
func TestGroupWithMembers(t *testing.T) {
	b := newBed(t)
	topic := b.observedTopic(2, nil)
	group := b.name("live")
	b.produce(topic, 0, 1)
	cons, err := kgo.NewClient(kgo.SeedBrokers(b.boot...), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cons.Close()
	// Wait until the independent consumer holds the group (it fetched a record).
	for got := 0; got == 0; {
		fs := cons.PollFetches(ctxFor(t, 30*time.Second))
		if err := fs.Err0(); err != nil {
			t.Fatalf("consumer poll: %v", err)
		}
		got = fs.NumRecords()
	}
	var obsMembers int
	eventually(t, 20*time.Second, func() error {
		od, err := b.obs.DescribeGroups(ctxFor(t, 10*time.Second), group)
		if err != nil {
			return err
		}
		d := od[group]
		if d.State != "Stable" {
			return fmt.Errorf("observer state %q", d.State)
		}
		obsMembers = len(d.Members)
		return nil
	})
	list, err := b.adm.ListGroups(ctxFor(t, 30*time.Second), admin.ListGroupsOptions{ConsumerOnly: true})
	if err != nil || len(list.Failed()) != 0 || len(list.Brokers) != len(b.kc.BrokerIDs()) {
		t.Fatalf("list groups: %v / %+v", err, list)
	}
	found := false
	for i, g := range list.Groups {
		if i > 0 && list.Groups[i-1].GroupID >= g.GroupID {
			t.Fatalf("groups not sorted")
		}
		found = found || g.GroupID == group
	}
	if !found {
		t.Fatalf("list lacks %s", group)
	}
	for _, describe := range []func() ([]admin.GroupDescription, error){
		func() ([]admin.GroupDescription, error) {
			return b.adm.DescribeGroups(ctxFor(t, 30*time.Second), []string{group})
		},
		func() ([]admin.GroupDescription, error) {
			return b.adm.DescribeConsumerGroups(ctxFor(t, 30*time.Second), []string{group})
		},
	} {
		d, err := describe()
		if err != nil || d[0].Err != nil || len(d[0].Members) != obsMembers || obsMembers != 1 || d[0].Type != "classic" || d[0].State != "Stable" {
			t.Fatalf("describe: %v / %+v (observer members %d)", err, d, obsMembers)
		}
	}
	gr, err := b.adm.DeleteGroups(ctxFor(t, 30*time.Second), []string{group})
	if err != nil || !errors.Is(gr[0].Err, wire.ErrNonEmptyGroup) {
		t.Fatalf("delete live group: %v / %+v", err, gr)
	}
	od, err := b.obs.DescribeGroups(ctxFor(t, 10*time.Second), group)
	if err != nil || od[group].Err != nil || od[group].State == "Dead" {
		t.Fatalf("observer after refused delete: %v %+v", err, od[group])
	}
	// An admin offset commit on a live classic group is refused per partition.
	ar, err := b.adm.AlterOffsets(ctxFor(t, 30*time.Second), group, []admin.OffsetToCommit{{TopicPartition: tp(topic, 1), Offset: 3, LeaderEpoch: -1}})
	if err != nil || ar[0].Err == nil {
		t.Fatalf("alter offsets of a live group: %v / %+v", err, ar)
	}
	// Describe of a group that never existed.
	dd, err := b.adm.DescribeConsumerGroups(ctxFor(t, 30*time.Second), []string{b.name("never"), group})
	if err != nil || !(errors.Is(dd[0].Err, wire.ErrGroupIDNotFound) || dd[0].State == "Dead") || dd[1].GroupID != group || dd[1].Err != nil {
		t.Fatalf("describe missing + live: %v / %+v", err, dd)
	}
}
