package javarecords

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
)

// xerialMagic starts snappy-java's stream framing.
var xerialMagic = []byte{0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0}

// TestJavaProducerBatchesDecode has the Java producer (Kafka's
// ProducerPerformance tool) write records with each compression codec, then
// fetches the partition and decodes it with wire.BatchReader: every record
// must come back, with a value from the payload file, in batches carrying the
// codec; snappy batches must use the xerial framing. One run is
// transactional, so commit markers (control batches) must decode too.
func TestJavaProducerBatchesDecode(t *testing.T) {
	c := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cl, err := client.New(client.Config{Bootstrap: c.Bootstrap(kafkatest.Plaintext), ClientID: "gregor-javarecords"})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	if err := cl.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	payloads := map[string]bool{}
	var lines []string
	for i := range 25 {
		l := fmt.Sprintf("payload-%02d-%s", i, strings.Repeat(string(rune('a'+i)), 40+i))
		payloads[l] = true
		lines = append(lines, l)
	}
	payloadFile := filepath.Join(t.TempDir(), "payloads.txt")
	if err := os.WriteFile(payloadFile, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		codec     wire.Compression
		txn       bool
		n         int
		batchSize int // batch.size; 512 KiB makes snappy-java write several 32 KiB xerial chunks per batch
	}{
		{wire.CompressionNone, false, 400, 8192},
		{wire.CompressionGzip, false, 400, 8192},
		{wire.CompressionSnappy, false, 400, 8192},
		{wire.CompressionSnappy, false, 3000, 512 << 10},
		{wire.CompressionLZ4, false, 400, 8192},
		{wire.CompressionZstd, false, 400, 8192},
		{wire.CompressionSnappy, true, 400, 8192},
	}
	for _, tc := range cases {
		name := fmt.Sprintf("%v-%dB", tc.codec, tc.batchSize)
		if tc.txn {
			name += "-txn"
		}
		n := tc.n
		t.Run(name, func(t *testing.T) {
			topic := kafkatest.UniqueName(t, "javarec")
			if err := c.CreateTopic(ctx, topic, 1, 1); err != nil {
				t.Fatal(err)
			}
			// --record-key-range and --key-distribution are Kafka 4.4's,
			// --bootstrap-server 4.x's; --producer-props (with
			// bootstrap.servers) is in every release (4.2+ also call it
			// --command-property).
			args := []string{"--topic", topic, "--num-records", fmt.Sprint(n), "--throughput", "-1",
				"--payload-file", payloadFile}
			if c.AtLeast(4, 4) {
				args = append(args, "--record-key-range", "10", "--key-distribution", "random")
			}
			args = append(args, "--producer-props", "bootstrap.servers="+strings.Join(c.Bootstrap(kafkatest.Plaintext), ","),
				"compression.type="+tc.codec.String(), "linger.ms=200", fmt.Sprintf("batch.size=%d", tc.batchSize), "acks=all")
			if tc.txn {
				args = append(args, "--transactional-id", topic, "--transaction-duration-ms", "100")
			}
			if out, err := c.RunTool(ctx, "org.apache.kafka.tools.ProducerPerformance", args...); err != nil {
				t.Fatalf("producer: %v\n%s", err, out)
			}
			md, err := cl.Metadata(ctx, []string{topic})
			if err != nil {
				t.Fatal(err)
			}
			tm := md.Topics[topic]
			if tm == nil || len(tm.Partitions) != 1 {
				t.Fatalf("metadata for %s: %+v", topic, tm)
			}
			leader, epoch, err := cl.Leader(ctx, topic, 0)
			if err != nil {
				t.Fatal(err)
			}
			var (
				next, values, batches, controls, xerial int
				commits, maxChunks                      int
			)
			deadline := time.Now().Add(time.Minute)
			for values < n {
				if time.Now().After(deadline) {
					t.Fatalf("only %d of %d records fetched", values, n)
				}
				var fp wire.FetchPartition
				fp.Default()
				fp.CurrentLeaderEpoch, fp.FetchOffset, fp.PartitionMaxBytes = epoch, int64(next), 64<<10
				var req wire.FetchRequest
				req.Default()
				req.MaxWaitMs, req.MinBytes, req.MaxBytes = 500, 1, 1<<20
				req.Topics = []wire.FetchTopic{{Topic: topic, TopicID: tm.ID, Partitions: []wire.FetchPartition{fp}}}
				resp, err := cl.Request(ctx, leader, &req)
				if err != nil {
					t.Fatal(err)
				}
				fr := resp.(*wire.FetchResponse)
				if fr.ErrorCode != 0 || len(fr.Responses) != 1 || len(fr.Responses[0].Partitions) != 1 {
					t.Fatalf("fetch: %+v", fr)
				}
				p := fr.Responses[0].Partitions[0]
				if p.ErrorCode != 0 {
					t.Fatalf("fetch partition error %v", wire.ErrorForCode(p.ErrorCode))
				}
				raw := p.Records
				br := wire.NewBatchReader(raw, wire.DecodeOptions{})
				var b wire.RecordBatch
				pos := 0
				for br.Next(&b) {
					batch := raw[pos : pos+12+int(b.BatchLength)]
					pos += len(batch)
					batches++
					if b.Magic != 2 {
						t.Fatalf("magic %d", b.Magic)
					}
					if b.IsControl() {
						controls++
						for _, r := range b.Records {
							typ, err := wire.ParseControlRecordKey(r.Key)
							if err != nil {
								t.Fatal(err)
							}
							if typ == wire.ControlCommit {
								commits++
							}
							if _, err := wire.ParseEndTxnMarker(r.Value); err != nil {
								t.Fatal(err)
							}
						}
					} else {
						if b.Compression() != tc.codec || b.IsTransactional() != tc.txn {
							t.Fatalf("batch attributes %#x, want codec %v transactional %v", b.Attributes, tc.codec, tc.txn)
						}
						if tc.codec == wire.CompressionSnappy && bytes.HasPrefix(batch[61:], xerialMagic) {
							xerial++
							maxChunks = max(maxChunks, xerialChunks(t, batch[61:]))
						}
						for _, r := range b.Records {
							if int64(next) > r.Offset {
								continue
							}
							if !payloads[string(r.Value)] {
								t.Fatalf("offset %d: value %q not from the payload file", r.Offset, r.Value)
							}
							values++
						}
					}
					next = int(b.NextOffset())
				}
				if br.Err() != nil {
					t.Fatalf("decode at offset %d: %v", next, br.Err())
				}
				if pos+br.Remaining() != len(raw) || (br.Remaining() > 0 && !br.Truncated()) {
					t.Fatalf("accounting: pos %d remaining %d of %d", pos, br.Remaining(), len(raw))
				}
			}
			if values != n {
				t.Fatalf("%d records, want %d", values, n)
			}
			if tc.codec == wire.CompressionSnappy && xerial == 0 {
				t.Fatal("no snappy batch used the xerial framing")
			}
			if tc.txn && commits == 0 {
				t.Fatal("transactional run produced no commit marker")
			}
			if tc.codec == wire.CompressionSnappy && tc.batchSize > 64<<10 && maxChunks < 2 {
				t.Fatalf("no multi-chunk xerial batch (max %d chunks)", maxChunks)
			}
			t.Logf("%d batches (%d control, %d commits, %d xerial, up to %d chunks) for %d records", batches, controls, commits, xerial, maxChunks, values)
		})
	}
}

// xerialChunks counts the chunks of a xerial-framed snappy stream.
func xerialChunks(t *testing.T, b []byte) int {
	t.Helper()
	b = b[16:]
	n := 0
	for len(b) >= 4 {
		l := int(binary.BigEndian.Uint32(b))
		if l > len(b)-4 {
			t.Fatalf("xerial chunk of %d bytes with %d left", l, len(b)-4)
		}
		b = b[4+l:]
		n++
	}
	return n
}
