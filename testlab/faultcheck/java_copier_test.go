package faultcheck

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
	"github.com/gregor-kafka/gregor/testlab/invariant"
)

// javaCopierTxnSize is the Java copier's records per transaction (it is
// also its max.poll.records). Larger is faster without faults and much
// slower under the chaos: copying 150,000 records on the shared
// single-node Kafka, 500 took 144 s wall (11.8 s CPU, load average 23),
// 2000 took 68 s (8.7 s CPU, load 27); but in the 1-hour soak of
// 2026-12-02 06:20 (seed 1796192432480474191) 2000 committed 69,601 of
// 465,804 input records in the first 24 minutes (~50/s) and nothing from
// 06:41 to 06:50: a transaction's many 512-byte batches (the tool's
// batch.size) meet a proxy fault before the commit, retry
// OUT_OF_ORDER_SEQUENCE_NUMBER until commitTransaction's 60 s max.block.ms
// expires, and the tool exits. 500 copied ~415/s in the 1-hour soak
// before (1,736,500 records).
const javaCopierTxnSize = 500

// javaCopierLoad is Apache's TransactionalMessageCopier (--group-mode
// --use-group-metadata, javaCopierTxnSize records per transaction: a classic group member, read_committed, copying
// each poll's records to the same partition of out in one transaction with
// the consumed positions, KIP-447) on the soak topic through the proxies.
// The tool copies up to the input's end offset as of its start and exits,
// and dies on ProducerFenced or OutOfOrderSequence, so the load runs it
// again and again (each run's initTransactions fences the one before)
// while the chaos lasts; after the producers finished, until its group's
// committed offsets reach the input's end offsets. Its verdict is
// judgeCopy's (exactly once below the committed offsets, nothing beyond);
// its output, holding the input's values, stays out of the history (the
// duplicate rule would count each value twice).
type javaCopierLoad struct {
	in, out, group, tid string
	partitions          int32
	boot                []string
	tools               *javaTools
	inputDone           <-chan struct{}
	bed                 *labtest.Bed
	logf                func(string, ...any)

	mu         sync.Mutex
	runs, fail int
}

func (jc *javaCopierLoad) Run(ctx context.Context, drain time.Duration) error {
	for ctx.Err() == nil {
		jc.once(ctx)
	}
	dctx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	select {
	case <-jc.inputDone:
	case <-dctx.Done():
		return errors.New("java copier drain: the producers did not finish")
	}
	for {
		behind, err := jc.behind(dctx)
		if err == nil && behind == "" {
			return nil
		}
		if dctx.Err() != nil {
			return fmt.Errorf("java copier drain: committed offsets behind the end offsets:%s (%v)", behind, err)
		}
		jc.once(dctx)
	}
}

// once runs the tool until it exits or ctx ends (then SIGTERM).
func (jc *javaCopierLoad) once(ctx context.Context) {
	jc.mu.Lock()
	jc.runs++
	name := fmt.Sprintf("java-copier-%d", jc.runs)
	jc.mu.Unlock()
	p, err := jc.tools.start(name, "org.apache.kafka.tools.TransactionalMessageCopier", func(javaEvent) {},
		"--broker-list", strings.Join(jc.boot, ","), "--input-topic", jc.in, "--input-partition", "0", "--output-topic", jc.out,
		"--consumer-group", jc.group, "--transactional-id", jc.tid, "--transaction-size", strconv.Itoa(javaCopierTxnSize), "--group-mode", "--use-group-metadata")
	if err != nil {
		jc.logf("java copier: %v", err)
		jc.count(err)
		t := time.NewTimer(time.Second)
		defer t.Stop()
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		return
	}
	select {
	case <-p.done:
		jc.count(p.err)
	case <-ctx.Done():
		jc.count(p.stop(60 * time.Second))
	}
}

func (jc *javaCopierLoad) count(err error) {
	jc.mu.Lock()
	defer jc.mu.Unlock()
	if err != nil {
		jc.fail++
	}
}

// behind lists the partitions whose committed offset is below the input's
// end offset ("" when none).
func (jc *javaCopierLoad) behind(ctx context.Context) (string, error) {
	ends, err := jc.bed.Adm.ListEndOffsets(ctx, jc.in)
	if err != nil {
		return "?", err
	}
	offs, err := fetchGroupOffsets(ctx, jc.bed, jc.group)
	if err != nil {
		return "?", err
	}
	behind := ""
	for p := range jc.partitions {
		e, _ := ends.Lookup(jc.in, p)
		o, ok := offs.Lookup(jc.in, p)
		if !ok || o.At < e.Offset {
			behind += fmt.Sprintf(" %d: %d<%d", p, o.At, e.Offset)
		}
	}
	return behind, nil
}

func (jc *javaCopierLoad) Record(h *invariant.History, f *Figures) {
	jc.mu.Lock()
	defer jc.mu.Unlock()
	f.JavaCopierRuns, f.JavaCopierFailedRuns = jc.runs, jc.fail
}

// judge is judgeCopy's verdict on the output (h's input logs filled).
func (jc *javaCopierLoad) judge(ctx context.Context, h *invariant.History, f *Figures) error {
	c, err := judgeCopy(ctx, jc.bed, h, jc.in, jc.out, jc.group, "", jc.partitions)
	if err != nil {
		return err
	}
	f.JavaCopied, f.JavaCopierLost, f.JavaCopierDuplicates, f.JavaCopierBeyondCommit = c.copied, c.lost, c.dup, c.beyond
	f.Details = append(f.Details, c.details...)
	return nil
}
