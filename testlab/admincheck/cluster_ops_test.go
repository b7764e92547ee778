package admincheck

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestDescribeQuorumAndFeatures compares DescribeQuorum and
// DescribeFeatures with franz-go's own DescribeQuorum and ApiVersions
// requests, and checks validate-only UpdateFeatures: a no-op level for a
// known feature succeeds; a batch that also names an unknown feature fails
// for every feature with INVALID_UPDATE_VERSION (Kafka applies a feature
// batch all or nothing); neither changes a finalized level.
func TestDescribeQuorumAndFeatures(t *testing.T) {
	b := newBed(t)
	q, err := b.adm.DescribeQuorum(ctxFor(t, 20*time.Second))
	if err != nil {
		t.Fatalf("DescribeQuorum: %v", err)
	}
	req := kmsg.NewPtrDescribeQuorumRequest()
	rt := kmsg.NewDescribeQuorumRequestTopic()
	rt.Topic = "__cluster_metadata"
	rt.Partitions = []kmsg.DescribeQuorumRequestTopicPartition{kmsg.NewDescribeQuorumRequestTopicPartition()}
	req.Topics = append(req.Topics, rt)
	oq, err := req.RequestWith(ctxFor(t, 20*time.Second), b.kcl)
	if err != nil || oq.ErrorCode != 0 {
		t.Fatalf("observer DescribeQuorum: %v %+v", err, oq)
	}
	op := oq.Topics[0].Partitions[0]
	var voters []int32
	for _, v := range q.Voters {
		voters = append(voters, v.ID)
	}
	var ovoters []int32
	for _, v := range op.CurrentVoters {
		ovoters = append(ovoters, v.ReplicaID)
	}
	if q.LeaderID != op.LeaderID || fmt.Sprint(voters) != fmt.Sprint(ovoters) || q.HighWatermark <= 0 || q.HighWatermark > op.HighWatermark ||
		len(q.Nodes) != len(oq.Nodes) || q.Voters[0].Lag < 0 {
		t.Fatalf("ours %+v, observer %+v", q, oq)
	}

	fm, err := b.adm.DescribeFeatures(ctxFor(t, 20*time.Second), client.AnyBroker)
	if err != nil {
		t.Fatalf("DescribeFeatures: %v", err)
	}
	av, err := kmsg.NewPtrApiVersionsRequest().RequestWith(ctxFor(t, 20*time.Second), b.kcl)
	if err != nil {
		t.Fatal(err)
	}
	if len(av.FinalizedFeatures) == 0 || len(fm.Finalized) != len(av.FinalizedFeatures) || fm.FinalizedEpoch < 0 || fm.FinalizedEpoch > av.FinalizedFeaturesEpoch { // asked first; the epoch only grows
		t.Fatalf("ours %+v, observer %+v", fm, av.FinalizedFeatures)
	}
	for _, f := range av.FinalizedFeatures {
		if fm.Finalized[f.Name].Max != f.MaxVersionLevel {
			t.Fatalf("%s: ours %+v, observer %d", f.Name, fm.Finalized[f.Name], f.MaxVersionLevel)
		}
	}
	tv := fm.Finalized["transaction.version"].Max
	res, err := b.adm.UpdateFeatures(ctxFor(t, 20*time.Second), []admin.FeatureUpdate{{Feature: "transaction.version", Level: tv}}, true)
	if err != nil || len(res) != 1 || res[0].Err != nil {
		t.Fatalf("validate-only no-op UpdateFeatures: %v %+v", err, res)
	}
	res, err = b.adm.UpdateFeatures(ctxFor(t, 20*time.Second), []admin.FeatureUpdate{
		{Feature: "transaction.version", Level: tv}, {Feature: "no.such.feature", Level: 1}}, true)
	// Kafka 4.0+ fails the whole batch; 3.x answers each update alone.
	if err != nil || len(res) != 2 || errors.Is(res[0].Err, wire.ErrInvalidUpdateVersion) != b.kc.AtLeast(4, 0) || !errors.Is(res[1].Err, wire.ErrInvalidUpdateVersion) {
		t.Fatalf("validate-only UpdateFeatures with an unknown feature on Kafka %s: %v %+v", b.kc.Version(), err, res)
	}
	// (The finalized epoch is the metadata offset in KRaft: any metadata
	// change moves it, so the levels are compared.)
	if after, err := b.adm.DescribeFeatures(ctxFor(t, 20*time.Second), client.AnyBroker); err != nil || fmt.Sprint(after.Finalized) != fmt.Sprint(fm.Finalized) {
		t.Fatalf("validate-only changed the features: %v %+v, before %+v", err, after, fm)
	}
}

// TestDescribeTopicPartitionsPages reads a 5-partition topic two
// partitions per page and checks every partition against the observer's
// metadata; a missing topic in the same batch fails alone.
func TestDescribeTopicPartitionsPages(t *testing.T) {
	b := newBed(t)
	topic := b.observedTopic(5, nil)
	missing := b.name("missing")
	got, err := b.adm.DescribeTopicPartitions(ctxFor(t, 20*time.Second), []string{topic, missing}, admin.DescribeTopicPartitionsOptions{PageSize: 2})
	if !b.kc.AtLeast(3, 8) { // KIP-966 is Kafka 3.8
		if !errors.Is(err, gregor.ErrUnsupportedFeature) {
			t.Fatalf("DescribeTopicPartitions on Kafka %s: %v %+v, want gregor.ErrUnsupportedFeature", b.kc.Version(), err, got)
		}
		return
	}
	if err != nil || len(got) != 2 || got[0].Err != nil || !errors.Is(got[1].Err, wire.ErrUnknownTopicOrPartition) {
		t.Fatalf("DescribeTopicPartitions: %v %+v", err, got)
	}
	md, err := b.obs.Metadata(ctxFor(t, 10*time.Second), topic)
	if err != nil {
		t.Fatal(err)
	}
	want := md.Topics[topic]
	if len(got[0].Partitions) != 5 || got[0].ID != wire.UUID(want.ID) {
		t.Fatalf("ours %+v, observer %+v", got[0], want)
	}
	for i, p := range got[0].Partitions {
		w := want.Partitions[int32(i)]
		if p.Partition != int32(i) || p.Leader != w.Leader || fmt.Sprint(p.Replicas) != fmt.Sprint(w.Replicas) || fmt.Sprint(p.ISR) != fmt.Sprint(w.ISR) {
			t.Fatalf("partition %d: ours %+v, observer %+v", i, p, w)
		}
	}
}

// TestLogDirs compares DescribeLogDirs with kadm's, and sends an
// AlterReplicaLogDirs batch whose move to the replica's own directory
// succeeds while a move to a directory the broker lacks fails alone with
// LOG_DIR_NOT_FOUND.
func TestLogDirs(t *testing.T) {
	b := newBed(t)
	topic := b.observedTopic(1, nil)
	tp := gregor.TopicPartition{Topic: topic, Partition: 0}
	var broker int32
	var dir string
	// The broker creates the replica's log a little after the metadata
	// shows the topic.
	until(t, 20*time.Second, "replica in a log dir", func() error {
		got, err := b.adm.DescribeLogDirs(ctxFor(t, 20*time.Second), nil, []gregor.TopicPartition{tp})
		if err != nil || len(got) != 1 || got[0].Err != nil {
			t.Fatalf("DescribeLogDirs: %v %+v", err, got)
		}
		broker = got[0].Broker
		for _, d := range got[0].Dirs {
			if slices.ContainsFunc(d.Replicas, func(r admin.LogDirReplica) bool { return r.TopicPartition == tp }) {
				dir = d.Path
				return nil
			}
		}
		return fmt.Errorf("no log dir lists %s: %+v", topic, got)
	})
	obs, err := b.obs.DescribeBrokerLogDirs(ctxFor(t, 20*time.Second), broker, kadm.TopicsSet{topic: {0: {}}})
	if err != nil {
		t.Fatal(err)
	}
	var odir string
	obs.Each(func(d kadm.DescribedLogDir) {
		if _, ok := d.Topics[topic][0]; ok {
			odir = d.Dir
		}
	})
	if dir != odir {
		t.Fatalf("replica in %q, observer says %q", dir, odir)
	}
	mv, err := b.adm.AlterReplicaLogDirs(ctxFor(t, 20*time.Second), []admin.ReplicaMove{
		{Broker: broker, TopicPartition: tp, Dir: dir},
		{Broker: broker, TopicPartition: gregor.TopicPartition{Topic: topic, Partition: 1}, Dir: "/no/such/dir"}})
	if err != nil || mv[0].Err != nil || !errors.Is(mv[1].Err, wire.ErrLogDirNotFound) {
		t.Fatalf("AlterReplicaLogDirs: %v %+v", err, mv)
	}
}

// TestElectAllAndUnclean: ElectLeaders with nil partitions asks for an
// election across the whole cluster; on the single-node cluster every
// partition already has its only replica as leader, and the controller
// leaves ELECTION_NOT_NEEDED out of such an answer: no results. Naming the
// partitions, preferred and unclean elections answer ELECTION_NOT_NEEDED
// per partition.
func TestElectAllAndUnclean(t *testing.T) {
	b := newBed(t)
	topic := b.observedTopic(2, nil)
	all, err := b.adm.ElectLeaders(ctxFor(t, 30*time.Second), admin.ElectPreferred, nil)
	if err != nil || len(all) != 0 {
		t.Fatalf("ElectLeaders(all): %v %+v", err, all)
	}
	for _, typ := range []admin.ElectionType{admin.ElectPreferred, admin.ElectUnclean} {
		res, err := b.adm.ElectLeaders(ctxFor(t, 30*time.Second), typ, []gregor.TopicPartition{{Topic: topic, Partition: 1}, {Topic: topic, Partition: 0}})
		if err != nil || len(res) != 2 || res[0].Partition != 1 || !errors.Is(res[0].Err, wire.ErrElectionNotNeeded) || !errors.Is(res[1].Err, wire.ErrElectionNotNeeded) {
			t.Fatalf("election type %d: %v %+v", typ, err, res)
		}
	}
}
