package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	gk "github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/consumer"
)

var consumeCmd = &command{
	name:    "consume",
	usage:   "TOPIC",
	summary: "read records to stdout, as text or JSON lines",
	help: `
Reads the topic's partitions (all, or --partitions 0,2,4-6) directly, from
--from (beginning, end, an offset, or @TIME: the first record at or after
TIME, Unix milliseconds or RFC 3339) up to --to (end: the end offset when
the command starts; an offset, exclusive; @TIME: the first record at or
after TIME, exclusive; absent: keep following until interrupted) or until
--count records.

With --group (or group.id in the -F file or -X) it consumes as a member of that
consumer group instead: the group assigns the partitions (other members
share them), each starts at the group's committed offset, or where --from
says (beginning or end) when the group has none, and the offsets of the
records written are committed (every 5s, at a rebalance and at exit), so
the next member goes on where this one stopped. --to then bounds each
partition the member is assigned, and the command stops when every one of
them is read up to it. --group-protocol (or group.protocol) picks classic
or consumer (KIP-848); default: consumer when the cluster supports it.

Text output is the value per line (with --print-key: key, separator, value).
JSON output (--format json) is one object per line: {"topic", "partition",
"offset", "timestamp" (Unix ms), "key", "value", "headers": [{"key",
"value"}]}; null is a null key or value; bytes that are not UTF-8 appear as
key_base64 / value_base64. Consumer properties (isolation.level,
fetch.max.wait.ms, ...) come from -F or -X; of a Java consumer's group
settings (-F or -X) only group.id and group.protocol are read, the others
are ignored.`,
	flags: func(fs *flag.FlagSet) func(*ioctx, []string) error {
		conn := addConnFlags(fs)
		o := &consumeOpts{}
		fs.StringVar(&o.partitions, "partitions", "", "partitions to read, e.g. `0,2,4-6` (default all; not with --group)")
		fs.StringVar(&o.from, "from", "beginning", "start `position`: beginning, end, OFFSET or @TIME (with --group: beginning or end, for partitions without a committed offset)")
		fs.StringVar(&o.to, "to", "", "stop `position`: end, OFFSET or @TIME (exclusive; default: follow)")
		fs.Int64Var(&o.count, "count", 0, "stop after `n` records (0: no limit)")
		fs.StringVar(&o.group, "group", "", "consume as a member of consumer `group`, committing the offsets of the records written")
		fs.StringVar(&o.groupProtocol, "group-protocol", "", "group membership `protocol`: classic or consumer (default: consumer if the cluster supports it)")
		fs.StringVar(&o.format, "format", "text", "output format: text or json")
		fs.BoolVar(&o.printKey, "print-key", false, "text output: print the key and --key-separator before the value")
		fs.StringVar(&o.keySep, "key-separator", "\t", "text output: the `SEP` between key and value")
		fs.BoolVar(&o.progress, "progress", false, "print progress (records/s) to stderr every second, and a summary")
		fs.DurationVar(&o.interval, "progress-interval", time.Second, "time between progress lines")
		return func(io *ioctx, args []string) error {
			if len(args) != 1 {
				return usagef("want exactly one TOPIC, got %d arguments", len(args))
			}
			o.topic = args[0]
			return consume(io, conn, o)
		}
	},
}

type consumeOpts struct {
	topic, partitions, from, to, group, groupProtocol, format, keySep string
	count                                                             int64
	printKey, progress                                                bool
	interval                                                          time.Duration
	written                                                           atomic.Int64 // records written, for --progress
}

func consume(io *ioctx, conn *connFlags, o *consumeOpts) error {
	gk, err := conn.groupKeys(io.getenv)
	if err != nil {
		return err
	}
	if o.group == "" {
		o.group = gk["group.id"]
	}
	if o.groupProtocol == "" {
		o.groupProtocol = gk["group.protocol"]
	}
	if o.format != "text" && o.format != "json" {
		return usagef("--format %q: want text or json", o.format)
	}
	if o.count < 0 {
		return usagef("--count must not be negative")
	}
	if o.group != "" {
		if err := checkGroupOpts(o); err != nil {
			return err
		}
	}
	s := &session{conn: conn, io: io}
	defer s.close()
	if err := s.connect(); err != nil {
		return err
	}
	parts, err := topicPartitions(s, o.topic, o.partitions)
	if err != nil {
		return err
	}
	readCommitted := s.cfg.Consumer.Isolation == consumer.ReadCommitted
	var ends map[int32]int64
	if o.to != "" {
		ends, err = resolveEnds(s, o.topic, parts, o.to, readCommitted)
		if err != nil {
			return fmt.Errorf("--to: %w", err)
		}
	}
	var src recordSource
	if o.group != "" {
		g, err := newGroupSource(s, o, ends)
		if err != nil {
			return err
		}
		src = g
	} else {
		a, err := newAssignedSource(s, o, parts, ends, readCommitted)
		if err != nil {
			return err
		}
		src = a
	}
	out := bufio.NewWriterSize(io.stdout, 64<<10)
	start := time.Now()
	var stop func()
	if o.progress {
		stop = startProgress(io.stderr, start, o.interval, func(d time.Duration, last int64) (string, int64) {
			n := o.written.Load()
			return fmt.Sprintf("%s received, %s", group(n), rate(n-last, d)), n
		})
	}
	err = consumeLoop(io.ctx, src, o, ends, out)
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if cerr := src.close(); err == nil {
		err = cerr
	}
	if o.progress {
		stop()
		n, elapsed := o.written.Load(), time.Since(start)
		fmt.Fprintf(io.stderr, "consumed %s records from %s in %.1fs (%s)\n", group(n), o.topic, elapsed.Seconds(), rate(n, elapsed))
	}
	return err
}

// checkGroupOpts refuses the flags that have no meaning for a group member.
func checkGroupOpts(o *consumeOpts) error {
	if o.partitions != "" {
		return usagef("--partitions: with --group the group assigns the partitions")
	}
	if o.from != "beginning" && o.from != "end" {
		return usagef("--from %q: with --group, beginning or end (where a partition without a committed offset starts); move a group's offsets with 'gregor group reset-offsets'", o.from)
	}
	if o.groupProtocol != "" && o.groupProtocol != "classic" && o.groupProtocol != "consumer" {
		return usagef("--group-protocol %q: want classic or consumer", o.groupProtocol)
	}
	return nil
}

// recordSource is what consume reads from: the assigned partitions, or a
// group membership.
type recordSource interface {
	// receive returns the next records; none and no error means "look
	// again" (finished may have become true).
	receive(ctx context.Context) ([]consumer.Record, error)
	// finished reports whether every partition read has reached its end.
	finished(ctx context.Context) bool
	// wrote is told the records written to the output.
	wrote(recs []consumer.Record) error
	// close releases the source; for a group it commits and leaves.
	close() error
}

// consumeLoop writes records until every bounded partition reached its end,
// --count records were written, or ctx ends.
func consumeLoop(ctx context.Context, src recordSource, o *consumeOpts, ends map[int32]int64, out *bufio.Writer) error {
	var written int64
	var buf []byte
	for {
		if ends != nil && src.finished(ctx) {
			return nil
		}
		recs, err := src.receive(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil // interrupted: a normal end when following
			}
			return err
		}
		kept := 0
		for i := range recs {
			r := &recs[i]
			if end, ok := ends[r.Partition]; ok && r.Offset >= end {
				continue
			}
			buf = buf[:0]
			if o.format == "json" {
				buf = appendJSONRecord(buf, r)
			} else {
				if o.printKey {
					buf = append(buf, r.Key...)
					buf = append(buf, o.keySep...)
				}
				buf = append(buf, r.Value...)
			}
			buf = append(buf, '\n')
			if _, err := out.Write(buf); err != nil {
				return err
			}
			recs[kept] = *r
			kept++
			written++
			o.written.Store(written)
			if o.count > 0 && written >= o.count {
				break
			}
		}
		// Flushed before the records count as written (and are committed).
		if err := out.Flush(); err != nil {
			return err
		}
		if err := src.wrote(recs[:kept]); err != nil {
			return err
		}
		if o.count > 0 && written >= o.count {
			return nil
		}
	}
}

// assignedSource reads partitions directly.
type assignedSource struct {
	c     *consumer.Consumer
	topic string
	ends  map[int32]int64
}

func newAssignedSource(s *session, o *consumeOpts, parts []int32, ends map[int32]int64, readCommitted bool) (*assignedSource, error) {
	starts, err := resolvePositions(s, o.topic, parts, o.from, readCommitted)
	if err != nil {
		return nil, fmt.Errorf("--from: %w", err)
	}
	c, err := consumer.New(s.cl, s.cfg.Consumer)
	if err != nil {
		return nil, err
	}
	actx, cancel, err := s.op()
	if err != nil {
		c.Close(context.Background())
		return nil, err
	}
	defer cancel()
	if err := c.Assign(actx, starts); err != nil {
		c.Close(context.Background())
		return nil, err
	}
	return &assignedSource{c: c, topic: o.topic, ends: ends}, nil
}

func (a *assignedSource) receive(ctx context.Context) ([]consumer.Record, error) {
	return a.c.Receive(ctx)
}

// finished unassigns the partitions whose position reached their end and
// reports whether none is left.
func (a *assignedSource) finished(ctx context.Context) bool {
	var done []gk.TopicPartition
	left := 0
	for _, pp := range a.c.Assignment() {
		if pp.Position.Offset >= a.ends[pp.Partition] {
			done = append(done, pp.TopicPartition)
		} else {
			left++
		}
	}
	if len(done) > 0 {
		_ = a.c.Remove(ctx, done)
	}
	return left == 0
}

func (a *assignedSource) wrote([]consumer.Record) error { return nil }

func (a *assignedSource) close() error { return a.c.Close(context.Background()) }

// topicPartitions returns the partitions to read: all of the topic's, or
// the listed ones (which must exist).
func topicPartitions(s *session, topic, list string) ([]int32, error) {
	ctx, cancel, err := s.op()
	if err != nil {
		return nil, err
	}
	defer cancel()
	ds, err := s.adm.DescribeTopics(ctx, []string{topic})
	if err != nil {
		return nil, err
	}
	if ds[0].Err != nil {
		return nil, fmt.Errorf("topic %s: %w", topic, ds[0].Err)
	}
	n := int32(len(ds[0].Partitions))
	if list == "" {
		out := make([]int32, n)
		for i := range out {
			out[i] = int32(i)
		}
		return out, nil
	}
	parts, err := parsePartitions(list)
	if err != nil {
		return nil, err
	}
	for _, p := range parts {
		if p >= n {
			return nil, fmt.Errorf("topic %s has %d partitions: no partition %d", topic, n, p)
		}
	}
	return parts, nil
}

// resolvePositions turns --from into exact start positions.
func resolvePositions(s *session, topic string, parts []int32, spec string, readCommitted bool) ([]consumer.PartitionPosition, error) {
	out := make([]consumer.PartitionPosition, len(parts))
	var pos consumer.Position
	switch {
	case spec == "beginning":
		pos = consumer.AtBeginning()
	case spec == "end":
		pos = consumer.AtEnd()
	case strings.HasPrefix(spec, "@"):
		ms, err := parseTime(spec[1:])
		if err != nil {
			return nil, err
		}
		offs, err := listOffsets(s, topic, parts, admin.AtTimestamp(time.UnixMilli(ms)), readCommitted)
		if err != nil {
			return nil, err
		}
		for i, p := range parts {
			out[i] = consumer.PartitionPosition{TopicPartition: gk.TopicPartition{Topic: topic, Partition: p}, Position: consumer.AtOffset(offs[i])}
		}
		return out, nil
	default:
		n, err := strconv.ParseInt(spec, 10, 64)
		if err != nil || n < 0 {
			return nil, usagef("%q: want beginning, end, an offset >= 0 or @TIME", spec)
		}
		pos = consumer.AtOffset(n)
	}
	for i, p := range parts {
		out[i] = consumer.PartitionPosition{TopicPartition: gk.TopicPartition{Topic: topic, Partition: p}, Position: pos}
	}
	return out, nil
}

// resolveEnds turns --to into an exclusive end offset per partition.
func resolveEnds(s *session, topic string, parts []int32, spec string, readCommitted bool) (map[int32]int64, error) {
	ends := map[int32]int64{}
	var offs []int64
	var err error
	switch {
	case spec == "end":
		offs, err = listOffsets(s, topic, parts, admin.OffsetLatest, readCommitted)
	case strings.HasPrefix(spec, "@"):
		var ms int64
		if ms, err = parseTime(spec[1:]); err == nil {
			offs, err = listOffsets(s, topic, parts, admin.AtTimestamp(time.UnixMilli(ms)), readCommitted)
		}
	default:
		n, perr := strconv.ParseInt(spec, 10, 64)
		if perr != nil || n < 0 {
			return nil, usagef("%q: want end, an offset >= 0 or @TIME", spec)
		}
		for _, p := range parts {
			ends[p] = n
		}
		return ends, nil
	}
	if err != nil {
		return nil, err
	}
	for i, p := range parts {
		ends[p] = offs[i]
	}
	return ends, nil
}

// listOffsets looks up one offset per partition; a timestamp after every
// record resolves to the end offset.
func listOffsets(s *session, topic string, parts []int32, spec admin.OffsetSpec, readCommitted bool) ([]int64, error) {
	ctx, cancel, err := s.op()
	if err != nil {
		return nil, err
	}
	defer cancel()
	qs := make([]admin.OffsetQuery, 0, 2*len(parts))
	for _, p := range parts {
		tp := gk.TopicPartition{Topic: topic, Partition: p}
		qs = append(qs, admin.OffsetQuery{TopicPartition: tp, Spec: spec}, admin.OffsetQuery{TopicPartition: tp, Spec: admin.OffsetLatest})
	}
	res, err := s.adm.ListOffsets(ctx, qs, admin.ListOffsetsOptions{ReadCommitted: readCommitted})
	if err != nil {
		return nil, err
	}
	out := make([]int64, len(parts))
	for i := range parts {
		r, latest := res[2*i], res[2*i+1]
		if r.Err != nil {
			return nil, fmt.Errorf("%s/%d: %w", topic, r.Partition, r.Err)
		}
		if latest.Err != nil {
			return nil, fmt.Errorf("%s/%d: %w", topic, latest.Partition, latest.Err)
		}
		out[i] = r.Offset
		if !r.Found {
			out[i] = latest.Offset
		}
	}
	return out, nil
}
