package observer

import (
	"context"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// ShareDeliveries joins share group with franz-go's share consumer, reads
// topic for window, and returns the offsets (by partition) it was
// delivered; it releases every record it got. Use it after the members
// under test left: a record they accepted or rejected must not come back.
func (o *Observer) ShareDeliveries(ctx context.Context, group, topic string, window time.Duration) (map[int32][]int64, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(o.seeds...), kgo.ClientID("testlab-observer-share"),
		kgo.ShareGroup(group), kgo.ConsumeTopics(topic))
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	out := map[int32][]int64{}
	end := time.Now().Add(window)
	for time.Now().Before(end) {
		pctx, cancel := context.WithDeadline(ctx, end)
		fs := cl.PollRecords(pctx, 100)
		cancel()
		for _, r := range fs.Records() {
			out[r.Partition] = append(out[r.Partition], r.Offset)
			r.Ack(kgo.AckRelease)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	fctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_ = cl.FlushAcks(fctx)
	return out, nil
}
