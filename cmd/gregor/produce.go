package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

var produceCmd = &command{
	name:    "produce",
	usage:   "TOPIC",
	summary: "write records from stdin or a file, one per line",
	help: `
Each input line is one record. Text input (the default): the line is the
value, or, with --key-separator SEP, the key and value split at the first SEP
(a line without SEP is an error). JSON input (--format json): each line is an
object {"key": "k", "value": "v", "headers": [{"key": "h", "value": "x"}],
"partition": 0, "timestamp": 1700000000000}; every field is optional, null is
a null key or value, key_base64 / value_base64 carry bytes that are not UTF-8,
headers may also be an object {"h": "x"}: consume --format json output is
valid input. Records go to the partitioner (murmur2 of the key, as the Java
client) unless --partition or a JSON "partition" names one.

The producer is idempotent with acks=all; producer properties (linger.ms,
compression.type, batch.size, ...) come from -F or -X. The command ends when
every record is acknowledged; a record that fails ends it with the line
number, the error and whether the record may have been written. --progress
(on by default when stderr is a terminal) prints records/s to stderr every
second and a summary at the end.`,
	flags: func(fs *flag.FlagSet) func(*ioctx, []string) error {
		conn := addConnFlags(fs)
		o := &produceOpts{}
		fs.StringVar(&o.file, "file", "", "read records from `path` instead of stdin")
		fs.StringVar(&o.format, "format", "text", "input format: text or json")
		fs.StringVar(&o.keySep, "key-separator", "", "text input: split each line into key and value at the first `SEP`")
		fs.Var(&o.headers, "H", "add header `key=value` to every record (repeatable)")
		fs.IntVar(&o.partition, "partition", -1, "write every record to this `partition` (-1: the partitioner)")
		fs.Float64Var(&o.rate, "rate", 0, "at most this many `records/s` (0: as fast as possible)")
		fs.BoolVar(&o.progress, "progress", false, "print progress (records/s) to stderr every second, and a summary")
		fs.DurationVar(&o.interval, "progress-interval", time.Second, "time between progress lines")
		fs.IntVar(&o.maxLine, "max-line-bytes", 16<<20, "longest input line accepted")
		return func(io *ioctx, args []string) error {
			if len(args) != 1 {
				return usagef("want exactly one TOPIC, got %d arguments", len(args))
			}
			o.topic = args[0]
			return produce(io, conn, o)
		}
	},
}

type produceOpts struct {
	topic, file, format, keySep string
	headers                     multiFlag
	partition, maxLine          int
	rate                        float64
	progress                    bool
	interval                    time.Duration
}

// progressCounts are the counters the progress reporter reads.
type progressCounts struct {
	sent, acked atomic.Int64
}

func produce(io *ioctx, conn *connFlags, o *produceOpts) error {
	if o.format != "text" && o.format != "json" {
		return usagef("--format %q: want text or json", o.format)
	}
	if o.format == "json" && o.keySep != "" {
		return usagef("--key-separator applies to text input only")
	}
	if o.partition < -1 {
		return usagef("--partition %d: want -1 or a partition", o.partition)
	}
	if o.rate < 0 {
		return usagef("--rate must not be negative")
	}
	var headers []wire.Header
	for _, h := range o.headers {
		k, v, err := parseKV("-H", h)
		if err != nil {
			return err
		}
		headers = append(headers, wire.Header{Key: k, Value: []byte(v)})
	}
	in := io.stdin
	if o.file != "" {
		f, err := os.Open(o.file)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	s := &session{conn: conn, io: io}
	defer s.close()
	if err := s.connect(); err != nil {
		return err
	}
	// A missing topic would hold every record until delivery.timeout.ms.
	parts, err := topicPartitions(s, o.topic, "")
	if err != nil {
		return err
	}
	if o.partition >= len(parts) {
		return fmt.Errorf("topic %s has %d partitions: no partition %d", o.topic, len(parts), o.partition)
	}
	p, err := producer.New(s.cl, s.cfg.Producer)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(io.ctx)
	defer cancel()

	counts := &progressCounts{}
	start := time.Now()
	showProgress := o.progress || isTerminal(io.stderr)
	stopProgress := func() {}
	if showProgress {
		stopProgress = startProgress(io.stderr, start, o.interval, func(d time.Duration, last int64) (string, int64) {
			n := counts.acked.Load()
			return fmt.Sprintf("%s sent, %s acknowledged, %s", group(counts.sent.Load()), group(n), rate(n-last, d)), n
		})
	}

	// The checker reads terminals in admission order; the first failure
	// stops the input.
	type pending struct {
		d    *producer.Delivery
		line int
	}
	ch := make(chan pending, 4096)
	var failure error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for pd := range ch {
			r, err := pd.d.Wait(context.Background())
			if r.Err != nil && failure == nil {
				failure = fmt.Errorf("line %d: record failed (%s): %w", pd.line, r.Certainty, r.Err)
				cancel()
			}
			if err == nil && r.Err == nil {
				counts.acked.Add(1)
			}
		}
	}()

	readErr := readRecords(ctx, in, o, headers, func(line int, m *producer.Record) error {
		d, err := p.Send(ctx, m)
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		counts.sent.Add(1)
		ch <- pending{d, line}
		return nil
	})
	closeCtx, closeCancel := context.WithTimeout(context.Background(), s.cfg.Producer.DeliveryTimeout+conn.timeout)
	closeErr := p.Close(closeCtx)
	closeCancel()
	close(ch)
	wg.Wait()
	stopProgress()
	elapsed := time.Since(start)
	switch {
	case failure != nil:
		return failure
	case readErr != nil && io.ctx.Err() != nil:
		return fmt.Errorf("interrupted after %d records acknowledged", counts.acked.Load())
	case readErr != nil:
		return readErr
	case closeErr != nil:
		return closeErr
	}
	if showProgress {
		fmt.Fprintf(io.stderr, "produced %s records to %s in %.1fs (%s)\n", group(counts.acked.Load()), o.topic,
			elapsed.Seconds(), rate(counts.acked.Load(), elapsed))
	}
	return nil
}

// readRecords reads the input line by line, paced by --rate, and hands
// each record to send.
func readRecords(ctx context.Context, in io.Reader, o *produceOpts, headers []wire.Header, send func(int, *producer.Record) error) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), o.maxLine)
	var interval time.Duration
	if o.rate > 0 {
		interval = time.Duration(float64(time.Second) / o.rate)
	}
	start := time.Now()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	n := 0
	for sc.Scan() {
		n++
		if err := ctx.Err(); err != nil {
			return err
		}
		if interval > 0 {
			if wait := time.Until(start.Add(time.Duration(n-1) * interval)); wait > time.Millisecond {
				timer.Reset(wait)
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-timer.C:
				}
			}
		}
		m := &producer.Record{Topic: o.topic}
		if o.partition >= 0 {
			m.Partition = producer.ToPartition(int32(o.partition))
		}
		line := sc.Bytes()
		if o.format == "json" {
			key, value, hs, part, ts, err := decodeJSONRecord(line)
			if err != nil {
				return fmt.Errorf("line %d: %v", n, err)
			}
			m.Key, m.Value, m.Headers = key, value, hs
			if part != nil && *part != -1 && o.partition == -1 {
				m.Partition = producer.ToPartition(*part) // -1: the partitioner
			}
			if ts != nil {
				m.Timestamp = time.UnixMilli(*ts)
			}
		} else if o.keySep != "" {
			k, v, ok := strings.Cut(string(line), o.keySep)
			if !ok {
				return fmt.Errorf("line %d: no key separator %q", n, o.keySep)
			}
			m.Key, m.Value = []byte(k), []byte(v)
		} else {
			m.Value = line
		}
		if len(headers) > 0 {
			m.Headers = append(append([]wire.Header(nil), headers...), m.Headers...)
		}
		if err := send(n, m); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("line %d: longer than --max-line-bytes %d", n+1, o.maxLine)
		}
		return err
	}
	return nil
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
