package cases

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/testlab/invariant"
)

func init() { register(Case{Name: "cooperativeRebalance", Order: 5, Run: cooperativeRebalance}) }

// cooperativeRebalance (case 5): two partitions, two classic members with
// the cooperative-sticky assignor (KIP-429). Once each owns one partition,
// one closes; the survivor then owns 0 and 1. Every assignment, with the
// start and end instants of the members' events, goes to the invariant
// checker (no partition owned by two members at once; all partitions owned
// at the stable instants).
func cooperativeRebalance(ctx context.Context, e *Env) error {
	topic := e.Bed.Topic(ctx, "lab-coop", 2, 3, nil)
	group := topic + "-g"
	// A client per member: the coordinator holds a member's JoinGroup for
	// the whole rebalance and a broker answers one connection's requests in
	// order, so members sharing a client would wait on each other.
	ccfg := client.Config{RetryBackoff: 50 * time.Millisecond}
	ms := newMembers(group, e.T.Logf)
	coop := []assign.Assignor{assign.CooperativeSticky()}
	h := &invariant.History{}
	both := []invariant.TP{{Topic: topic, Partition: 0}, {Topic: topic, Partition: 1}}
	stable := func() { h.Stable = append(h.Stable, invariant.Stable{Group: group, At: time.Now(), Partitions: both}) }
	a, err := newMember(e.Bed.Client(ctx, ccfg), ms, "a", group, topic, consumer.ProtocolClassic, coop)
	if err != nil {
		return err
	}
	defer a.Close(context.Background())
	if err := ms.wait(ctx, "member a owning 0 and 1", func() bool { return slices.Equal(ms.owned("a"), []int32{0, 1}) }); err != nil {
		return err
	}
	stable()
	b, err := newMember(e.Bed.Client(ctx, ccfg), ms, "b", group, topic, consumer.ProtocolClassic, coop)
	if err != nil {
		return err
	}
	defer b.Close(context.Background())
	if err := ms.wait(ctx, "one partition each", func() bool { return len(ms.owned("a")) == 1 && len(ms.owned("b")) == 1 }); err != nil {
		return fmt.Errorf("%w (a owns %v, b owns %v)", err, ms.owned("a"), ms.owned("b"))
	}
	stable()
	split := fmt.Sprintf("a %v, b %v", ms.owned("a"), ms.owned("b"))
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	err = b.Close(cctx)
	cancel()
	if err != nil {
		return fmt.Errorf("member b close: %w", err)
	}
	if err := ms.wait(ctx, "survivor a owning 0 and 1", func() bool { return slices.Equal(ms.owned("a"), []int32{0, 1}) }); err != nil {
		return fmt.Errorf("%w (a owns %v)", err, ms.owned("a"))
	}
	stable()
	var pos []int32
	for _, p := range a.Assignment() {
		pos = append(pos, p.Partition)
	}
	slices.Sort(pos)
	if !slices.Equal(pos, []int32{0, 1}) {
		return fmt.Errorf("survivor's Assignment() is %v; want [0 1]", pos)
	}
	e.T.Logf("split %s; after b closed a owns %v", split, pos)
	h.Assignments = ms.assignments()
	return checkHistory(h)
}
