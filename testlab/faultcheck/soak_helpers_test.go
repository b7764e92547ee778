package faultcheck

import (
	"context"
	"fmt"
	"time"

	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
	"github.com/gregor-kafka/gregor/testlab/invariant"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// readCommitted reads topic's partition p with franz-go read_committed from
// its log start to its last stable offset, as a Read of reader (values are
// the record IDs) that read to the end (the load is over). Bounded by 60s.
func readCommitted(ctx context.Context, bed *labtest.Bed, reader, topic string, p int32) (invariant.Read, error) {
	r := invariant.Read{Reader: reader, Committed: true, TP: invariant.TP{Topic: topic, Partition: p}, ToEnd: true}
	starts, err := bed.Adm.ListStartOffsets(ctx, topic)
	if err != nil {
		return r, err
	}
	ends, err := bed.Adm.ListCommittedOffsets(ctx, topic)
	if err != nil {
		return r, err
	}
	s, _ := starts.Lookup(topic, p)
	en, _ := ends.Lookup(topic, p)
	if s.Err != nil || en.Err != nil {
		return r, fmt.Errorf("listing offsets of %s[%d]: %v %v", topic, p, s.Err, en.Err)
	}
	r.From, r.To = s.Offset, en.Offset
	if r.To <= r.From {
		return r, nil
	}
	kcl, err := kgo.NewClient(kgo.SeedBrokers(bed.Boot...), kgo.KeepControlRecords(),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {p: kgo.NewOffset().At(r.From)}}),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	if err != nil {
		return r, err
	}
	defer kcl.Close()
	rctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	// Below the last stable offset every transaction is decided, so the
	// last offset is a data or a control record, both delivered.
	for next := r.From; next < r.To; {
		fs := kcl.PollFetches(rctx)
		if rctx.Err() != nil {
			return r, fmt.Errorf("reading %s[%d] [%d, %d) read_committed: stopped at %d: %v", topic, p, r.From, r.To, next, rctx.Err())
		}
		for _, fe := range fs.Errors() {
			return r, fmt.Errorf("reading %s[%d]: %v", topic, p, fe.Err)
		}
		fs.EachRecord(func(rec *kgo.Record) {
			next = rec.Offset + 1
			if !rec.Attrs.IsControl() && rec.Offset < r.To {
				r.Records = append(r.Records, invariant.LogRecord{Offset: rec.Offset, ID: string(rec.Value)})
			}
		})
	}
	return r, nil
}

// fetchGroupOffsets is group's committed offsets as the observer (kadm)
// reads them; a transport failure (a connection to a broker the chaos
// killed) is retried a few times.
func fetchGroupOffsets(ctx context.Context, bed *labtest.Bed, group string) (kadm.OffsetResponses, error) {
	for try := 0; ; try++ {
		offs, err := bed.Adm.FetchOffsets(ctx, group)
		if err == nil {
			err = offs.Error()
		}
		if err == nil || try == 5 || ctx.Err() != nil {
			return offs, err
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}
