package producer

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// TestChaosKeepsPromises drives random faults (lost responses with and
// without the batch written, REQUEST_TIMED_OUT after append, definite
// rejections, forced OUT_OF_ORDER_SEQUENCE_NUMBER) over pipelined batches of
// three partitions and checks every promise against the broker's logs:
// acknowledged records are present exactly once at their offset and in
// admission order; NotSent records are absent; PossiblySent at most once;
// no record appears twice. With lz4 the records are 24 KiB, so batches
// stream (compress as they fill, a chunk or more each), and about one
// record in eight is cancelled right after Send (a cancelled record never
// appears; one already compressed brings its batch's stream back). The
// borrow/ cases run the same with Config.BorrowSlices (batches built when
// first sent; resends and re-sequenced batches reuse the built bytes).
func TestChaosKeepsPromises(t *testing.T) {
	for _, borrow := range []bool{false, true} {
		for _, codec := range []wire.Compression{wire.CompressionNone, wire.CompressionLZ4} {
			for seed := uint64(1); seed <= 12; seed++ {
				name := fmt.Sprintf("%s/%d", codec, seed)
				if borrow {
					name = "borrow/" + name
				}
				t.Run(name, func(t *testing.T) { chaos(t, codec, seed, borrow) })
			}
		}
	}
}

func chaos(t *testing.T, codec wire.Compression, seed uint64, borrow bool) {
	rng := rand.New(rand.NewPCG(seed, 7))     // the fake broker's faults
	cancels := rand.New(rand.NewPCG(seed, 8)) // records cancelled after Send
	f := newFakeCluster(t, map[string]int{"t": 3}, 1)
	f.script = func(broker int32, topic string, partition int32, b *wire.RecordBatch) fault {
		switch rng.IntN(12) {
		case 0:
			return fault{drop: true}
		case 1:
			return fault{lose: true}
		case 2:
			return fault{code: wire.ErrRequestTimedOut.Code, appendFirst: true}
		case 3:
			return fault{code: wire.ErrNotEnoughReplicas.Code}
		case 4:
			return fault{code: wire.ErrOutOfOrderSequenceNumber.Code}
		}
		return fault{}
	}
	p := newTestProducer(t, f, Config{BatchMaxRecords: 3, MaxRetries: new(int(seed % 4)), RetryBackoff: -1, Linger: -1, Compression: codec, BorrowSlices: borrow})
	var ds []*Delivery
	var vals []string
	for i := 0; i < 90; i++ {
		v := fmt.Sprintf("s%d-r%d", seed, i)
		if codec == wire.CompressionLZ4 {
			v += strings.Repeat("|"+v, 24<<10/(len(v)+1))
		}
		d := mustSend(t, p, &Record{Topic: "t", Partition: ToPartition(int32(i % 3)), Value: []byte(v)})
		if codec == wire.CompressionLZ4 && cancels.IntN(8) == 0 {
			d.Cancel()
		}
		ds = append(ds, d)
		vals = append(vals, v)
	}
	count := map[string]int{}
	where := map[string][2]int64{}
	for part := int32(0); part < 3; part++ {
		for off, r := range f.logAfter(t, ds, "t", part) {
			count[string(r.value)]++
			where[string(r.value)] = [2]int64{int64(part), int64(off)}
		}
	}
	lastOff := map[int32]int64{0: -1, 1: -1, 2: -1}
	acked := 0
	for i, d := range ds {
		r := waitResult(t, d)
		v := vals[i]
		if count[v] > 1 {
			t.Fatalf("record %s written %d times", v, count[v])
		}
		switch {
		case r.Err == nil:
			acked++
			if count[v] != 1 || where[v] != [2]int64{int64(r.Partition), r.Offset} {
				t.Fatalf("record %s acknowledged at %d@%d but log has it %d times at %v", v, r.Partition, r.Offset, count[v], where[v])
			}
			if r.Offset <= lastOff[r.Partition] {
				t.Fatalf("record %s acknowledged at %d, not after %d (order)", v, r.Offset, lastOff[r.Partition])
			}
			lastOff[r.Partition] = r.Offset
		case r.Certainty == client.NotSent:
			if count[v] != 0 {
				t.Fatalf("record %s reported NotSent (%v) but written", v, r.Err)
			}
		case r.Certainty != client.PossiblySent:
			t.Fatalf("record %s failed with certainty %v", v, r.Certainty)
		}
	}
	if acked == 0 {
		t.Fatal("nothing acknowledged; the script is too harsh to test anything")
	}
}

// logAfter waits for every delivery, then returns the partition's log.
func (f *fakeCluster) logAfter(t *testing.T, ds []*Delivery, topic string, partition int32) []fakeRecord {
	for _, d := range ds {
		waitResult(t, d)
	}
	return f.log(topic, partition)
}
