package cases

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/invariant"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kadm"
)

func init() { register(Case{Name: "minIsr", Order: 1, Run: minIsr}) }

// minIsr (case 1): one partition, RF 3, min.insync.replicas=2. v1 is
// acknowledged with the full ISR, v2 after one follower stopped (controlled
// shutdown: ISR 2); with both followers stopped (ISR 1) v3 is rejected with
// NOT_ENOUGH_REPLICAS (or _AFTER_APPEND), never acknowledged. After both
// brokers return and rejoin the ISR, the log holds exactly v1 and v2, and the
// invariant checker finds no violation in the history (the sends, the final
// log and the leader epochs gregor's client saw in metadata at each step).
func minIsr(ctx context.Context, e *Env) error {
	minISR := "2"
	topic := e.Bed.Topic(ctx, "lab-minisr", 1, 3, map[string]*string{"min.insync.replicas": &minISR})
	d, err := waitPartition(ctx, e, topic, 0, "full ISR", func(d kadm.PartitionDetail) bool { return len(d.ISR) == 3 && d.Leader >= 0 })
	if err != nil {
		return err
	}
	leader := d.Leader
	var followers []int32
	for _, r := range d.Replicas {
		if r != leader {
			followers = append(followers, r)
		}
	}
	ccfg := client.Config{RetryBackoff: 50 * time.Millisecond, RetryBackoffMax: 500 * time.Millisecond, RequestTimeout: 10 * time.Second}
	gcl := e.Bed.Client(ctx, ccfg)
	p, err := producer.New(gcl, producer.Config{DeliveryTimeout: 60 * time.Second, RequestTimeout: 10 * time.Second})
	if err != nil {
		return err
	}
	defer p.Close(context.Background())
	zero := 0
	// p0 takes the broker's first answer as final, so v3's rejection is seen
	// rather than retried until its delivery timeout.
	p0, err := producer.New(e.Bed.Client(ctx, ccfg), producer.Config{MaxRetries: &zero, RequestTimeout: 10 * time.Second})
	if err != nil {
		return err
	}
	defer p0.Close(context.Background())

	h := &invariant.History{}
	tp := invariant.TP{Topic: topic, Partition: 0}
	send := func(pr *producer.Producer, name, v string) (producer.Result, error) {
		dl, err := pr.Send(ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte(v)})
		if err != nil {
			return producer.Result{}, err
		}
		r, err := dl.Wait(ctx)
		if err != nil && r.Err == nil { // ctx ended (a record failure fills r)
			return r, err
		}
		s := invariant.Send{Producer: name, Idempotent: true, TP: tp, ID: v, Offset: -1}
		if r.Err == nil {
			s.Acked, s.Offset = true, r.Offset
		}
		h.Sends = append(h.Sends, s)
		return r, nil
	}
	// observe records the leader epoch gregor's client sees in fresh metadata
	// (the checker requires it never to decrease).
	observe := func() {
		if md, err := gcl.Metadata(ctx, []string{topic}); err == nil && md.Topics[topic] != nil && len(md.Topics[topic].Partitions) > 0 {
			h.Epochs = append(h.Epochs, invariant.EpochEvent{Client: "p", TP: tp, Epoch: md.Topics[topic].Partitions[0].LeaderEpoch, At: time.Now()})
		}
	}
	observe()
	if r, err := send(p, "p", "v1"); err != nil || r.Err != nil {
		return fmt.Errorf("v1 with ISR %v: %v %v", d.ISR, err, r.Err)
	}
	if err := e.Cluster.StopBroker(ctx, followers[0]); err != nil {
		return err
	}
	if d, err = waitPartition(ctx, e, topic, 0, fmt.Sprintf("ISR shrinking to {%d %d}", leader, followers[1]), isrIs(leader, followers[1])); err != nil {
		return err
	}
	observe()
	if r, err := send(p, "p", "v2"); err != nil || r.Err != nil {
		return fmt.Errorf("v2 with ISR %v: %v %v", d.ISR, err, r.Err)
	}
	if err := e.Cluster.StopBroker(ctx, followers[1]); err != nil {
		return err
	}
	if d, err = waitPartition(ctx, e, topic, 0, fmt.Sprintf("ISR shrinking to {%d}", leader), isrIs(leader)); err != nil {
		return err
	}
	observe()
	r3, err := send(p0, "p0", "v3")
	if err != nil {
		return fmt.Errorf("v3: %v", err)
	}
	if d, err = partition(ctx, e, topic, 0); err != nil || !slices.Equal(d.ISR, []int32{leader}) {
		return fmt.Errorf("ISR after v3 is %v (%v), want {%d}: v3 was not tested with ISR 1", d.ISR, err, leader)
	}
	if !errors.Is(r3.Err, wire.ErrNotEnoughReplicas) && !errors.Is(r3.Err, wire.ErrNotEnoughReplicasAfterAppend) {
		return fmt.Errorf("v3 with ISR {%d}: result offset %d, error %v; want NOT_ENOUGH_REPLICAS(_AFTER_APPEND)", leader, r3.Offset, r3.Err)
	}
	e.T.Logf("v3 with ISR {%d}: %v (certainty %v)", leader, r3.Err, r3.Certainty)
	for _, f := range followers {
		if err := e.Cluster.RestartBroker(ctx, f); err != nil {
			return err
		}
	}
	if _, err := waitPartition(ctx, e, topic, 0, "full ISR after the restarts", func(d kadm.PartitionDetail) bool { return len(d.ISR) == 3 }); err != nil {
		return err
	}
	observe()
	l, err := readLog(ctx, e, topic, 0)
	if err != nil {
		return err
	}
	h.Logs = append(h.Logs, l)
	var epochs []int32
	for _, ev := range h.Epochs {
		epochs = append(epochs, ev.Epoch)
	}
	e.T.Logf("leader epochs gregor's client observed: %v", epochs)
	if len(h.Epochs) < 4 {
		return fmt.Errorf("gregor's client listed %s[0] in only %d of 4 metadata refreshes", topic, len(h.Epochs))
	}
	var got []string
	for _, r := range l.Records {
		got = append(got, fmt.Sprintf("%s@%d", r.ID, r.Offset))
	}
	if want := []string{"v1@0", "v2@1"}; !slices.Equal(got, want) || l.Start != 0 {
		return fmt.Errorf("after the brokers returned the log holds %v from %d, want %v", got, l.Start, want)
	}
	return checkHistory(h)
}
