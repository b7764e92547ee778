package admincheck

import (
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestRemoveGroupMembers: a static member (franz-go, group.instance.id)
// that closed stays in the group until its session times out;
// RemoveGroupMembers removes it by instance ID at once (the observer's
// DescribeGroups then shows no member), and an unknown instance ID gets
// UNKNOWN_MEMBER_ID.
func TestRemoveGroupMembers(t *testing.T) {
	b := newBed(t)
	topic := b.observedTopic(1, nil)
	group := b.name("static")
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.boot...), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.InstanceID("inst-1"), kgo.SessionTimeout(60*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	members := func() int {
		gs, err := b.obs.DescribeGroups(ctxFor(t, 10*time.Second), group)
		if err != nil {
			t.Fatal(err)
		}
		return len(gs[group].Members)
	}
	eventually(t, 30*time.Second, func() error {
		cl.PollFetches(ctxFor(t, 200*time.Millisecond)) // drives the join
		if members() != 1 {
			return errors.New("the static member has not joined")
		}
		return nil
	})
	cl.Close()
	if n := members(); n != 1 {
		t.Fatalf("%d members after the static member closed, want 1 (it does not leave)", n)
	}
	rs, err := b.adm.RemoveGroupMembers(ctxFor(t, 30*time.Second), group, []string{"inst-1", "nope"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].InstanceID != "inst-1" || rs[0].Err != nil || !errors.Is(rs[1].Err, wire.ErrUnknownMemberID) {
		t.Fatalf("results %+v, want inst-1 removed and nope UNKNOWN_MEMBER_ID", rs)
	}
	if n := members(); n != 0 {
		t.Fatalf("%d members after removal, want 0", n)
	}
}
