package consumer

import (
	"context"
	"time"

	"github.com/gregor-kafka/gregor"
)

// jobPart is one partition of a reset or validation job as the fetch loop
// saw it when it started the job: the job's result applies only while the
// partition is still at gen.
type jobPart struct {
	tp        gregor.TopicPartition
	gen       uint64
	offset    int64 // the position (resetSeen for a reset)
	lastEpoch int32
	hint      *leaderHint
}

// collectJobLocked adds st to the fetch loop's next reset or validation job
// when it is in that phase, has none running and its backoff has passed.
func (fs *fetchState) collectJobLocked(st *partState, now time.Time) {
	if st.job || now.Before(st.backoff) {
		return
	}
	jp := jobPart{tp: st.tp, gen: st.gen, offset: st.offset, lastEpoch: st.lastEpoch, hint: st.hint}
	switch st.phase {
	case phaseResetting:
		jp.offset = st.resetSeen
		fs.resets = append(fs.resets, jp)
	case phaseValidating:
		fs.validations = append(fs.validations, jp)
	default:
		return
	}
	st.job = true
}

// startJobs starts the reset and validation jobs collected this round, each
// on a goroutine of its own bounded by Config.RequestTimeout: their
// ListOffsets and OffsetForLeaderEpoch round trips never hold the fetch
// loop, which keeps fetching the other partitions and applies each job's
// result when it comes back (fetchState.jobs).
func (c *Consumer) startJobs(fs *fetchState) {
	if len(fs.resets) > 0 {
		parts := append([]jobPart(nil), fs.resets...)
		c.goJob(fs, func(ctx context.Context) func() { return c.resetJob(ctx, parts) })
	}
	if len(fs.validations) > 0 {
		parts := append([]jobPart(nil), fs.validations...)
		c.goJob(fs, func(ctx context.Context) func() { return c.validationJob(ctx, parts) })
	}
	clear(fs.resets)
	clear(fs.validations)
	fs.resets, fs.validations = fs.resets[:0], fs.validations[:0]
}

// goJob runs run within Config.RequestTimeout (and the consumer's life) and
// hands the function applying its result to the fetch loop. A consumer
// closing meanwhile drops the result.
func (c *Consumer) goJob(fs *fetchState, run func(ctx context.Context) (apply func())) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		ctx, cancel := context.WithTimeout(c.ctx, c.cfg.RequestTimeout)
		apply := run(ctx)
		cancel()
		select {
		case fs.jobs <- apply:
		case <-c.ctx.Done():
		}
	}()
}

// jobPartLocked returns the partition a job result is for when it is still
// at the job's gen (clearing its job mark), else nil: a seek, reassignment
// or recreation since made the result stale.
func (c *Consumer) jobPartLocked(jp jobPart) *partState {
	st := c.parts[jp.tp]
	if st == nil || st.gen != jp.gen {
		return nil
	}
	st.job = false
	return st
}
