package kafkatest

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// topicReadyPoll is how often waitTopicLed asks each broker again.
const topicReadyPoll = 50 * time.Millisecond

// waitTopicLed waits until every broker's Metadata (v4, through the
// probe's minimal client) lists topic with partitions partitions, each
// with a leader: TopicCommand returns once the controller accepted the
// topic, and a client that asks a broker whose metadata has not caught up
// yet (on a loaded machine, seconds) is told UNKNOWN_TOPIC_OR_PARTITION.
func (c *Cluster) waitTopicLed(ctx context.Context, topic string, partitions int) error {
	tick := time.NewTicker(topicReadyPoll)
	defer tick.Stop()
	for {
		var notYet error
		for _, addr := range c.Bootstrap(Plaintext) {
			if err := topicLedAt(ctx, addr, topic, partitions); err != nil {
				notYet = fmt.Errorf("%s: %w", addr, err)
				break
			}
		}
		if notYet == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("kafkatest: topic %s not led on every broker: %v (%w)", topic, notYet, ctx.Err())
		case <-tick.C:
		}
	}
}

// topicLedAt asks the broker at addr for topic's metadata and reports why
// it is not yet fully led there, or nil.
func topicLedAt(ctx context.Context, addr, topic string, partitions int) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second) // one attempt; waitTopicLed asks again
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	setProbeDeadline(ctx, conn)
	name := topic
	req := &wire.MetadataRequest{Topics: []wire.MetadataRequestTopic{{Name: &name}}}
	r, err := roundTrip(conn, int16(wire.KeyMetadata), 4, 1, req.AppendTo(nil, 4))
	if err != nil {
		return err
	}
	var resp wire.MetadataResponse
	if err := resp.DecodeFrom(r, 4); err != nil {
		return err
	}
	for _, t := range resp.Topics {
		if t.Name == nil || *t.Name != topic {
			continue
		}
		if t.ErrorCode != 0 {
			return wire.ErrorForCode(t.ErrorCode)
		}
		if len(t.Partitions) != partitions {
			return fmt.Errorf("%d of %d partitions", len(t.Partitions), partitions)
		}
		for _, p := range t.Partitions {
			if p.ErrorCode != 0 || p.LeaderID < 0 {
				return fmt.Errorf("partition %d has no leader yet", p.PartitionIndex)
			}
		}
		return nil
	}
	return fmt.Errorf("not listed")
}
