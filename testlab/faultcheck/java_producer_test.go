package faultcheck

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gregor-kafka/gregor/testlab/invariant"
)

// javaProducerLoad is Apache's VerifiableProducer (idempotent, acks=all,
// retries unbounded within delivery.timeout.ms) sending "<prefix>.<i>"
// values to the soak topic through the proxies, beside gregor's producers;
// the default partitioner picks the partitions. Each producer_send_success
// is an acknowledged Send at its partition and offset; each
// producer_send_error a send with an unknown outcome (its partition is
// where the final log has its value, if anywhere). Sends are listed in the
// order given (i).
type javaProducerLoad struct {
	name       string
	prefix     int
	topic      string
	throughput int // records a second
	boot       []string
	tools      *javaTools
	logf       func(string, ...any)

	mu        sync.Mutex // guards everything below
	sends     map[int64]invariant.Send
	errs      int
	sentTotal int64 // from tool_data at shutdown; -1 if it never came
}

func (jp *javaProducerLoad) Run(ctx context.Context, drain time.Duration) error {
	jp.sends = map[int64]invariant.Send{}
	jp.sentTotal = -1
	cfg, err := jp.tools.writeProps(jp.name, map[string]string{
		"enable.idempotence": "true", "acks": "all", "retries": "2147483647",
		"delivery.timeout.ms": "90000", "request.timeout.ms": "5000", "linger.ms": "5",
		"max.in.flight.requests.per.connection": "5", "client.id": jp.name,
	})
	if err != nil {
		return err
	}
	p, err := jp.tools.start(jp.name, "org.apache.kafka.tools.VerifiableProducer", jp.onEvent,
		"--bootstrap-server", strings.Join(jp.boot, ","), "--topic", jp.topic, "--throughput", strconv.Itoa(jp.throughput),
		"--value-prefix", strconv.Itoa(jp.prefix), "--command-config", cfg)
	if err != nil {
		return err
	}
	select {
	case <-ctx.Done():
	case <-p.done:
	}
	// SIGTERM: the shutdown hook stops sending, closes (flushes) the
	// producer and prints tool_data.
	return p.stop(drain)
}

func (jp *javaProducerLoad) onEvent(e javaEvent) {
	jp.mu.Lock()
	defer jp.mu.Unlock()
	switch e.Name {
	case "producer_send_success", "producer_send_error":
		i, ok := jp.seq(e.Value)
		if !ok {
			return
		}
		s := invariant.Send{Producer: jp.name, Idempotent: true, TP: invariant.TP{Topic: jp.topic, Partition: -1}, ID: e.Value, Offset: -1, Completed: e.At()}
		if e.Name == "producer_send_success" {
			s.Acked, s.Partition, s.Offset = true, e.Partition, e.Offset
		} else {
			jp.errs++
			if jp.errs <= 5 {
				jp.logf("java producer %s: %s: %s %s", jp.name, e.Value, e.Exception, e.Message)
			}
		}
		jp.sends[i] = s
	case "tool_data":
		jp.sentTotal = e.Sent
	}
}

// seq parses "<prefix>.<i>".
func (jp *javaProducerLoad) seq(v string) (int64, bool) {
	pre, n, ok := strings.Cut(v, ".")
	if !ok || pre != strconv.Itoa(jp.prefix) {
		return 0, false
	}
	i, err := strconv.ParseInt(n, 10, 64)
	return i, err == nil
}

func (jp *javaProducerLoad) Record(h *invariant.History, f *Figures) {
	jp.mu.Lock()
	defer jp.mu.Unlock()
	keys := make([]int64, 0, len(jp.sends))
	for i := range jp.sends {
		keys = append(keys, i)
	}
	slices.Sort(keys)
	for _, i := range keys {
		s := jp.sends[i]
		h.Sends = append(h.Sends, s)
		if s.Acked {
			f.Acked++
		} else {
			f.PossiblySent++
		}
	}
	n := int64(len(jp.sends))
	f.Sent += len(jp.sends)
	f.JavaSent += len(jp.sends)
	f.JavaSendErrors += jp.errs
	switch {
	case jp.sentTotal < 0:
		f.Details = append(f.Details, "java producer "+jp.name+": no tool_data at shutdown")
		f.Unresolved++
	case jp.sentTotal > n:
		// Handed to the producer, never reported: no terminal.
		f.Unresolved += int(jp.sentTotal - n)
	}
}

// placeErrors puts each failed send at the partition where the final logs
// hold its value (a send whose outcome is unknown may have been written),
// or partition 0 when no log does. h.Logs must be filled.
func (jp *javaProducerLoad) placeErrors(h *invariant.History) {
	where := map[string]int32{}
	for _, l := range h.Logs {
		if l.Topic != jp.topic {
			continue
		}
		for _, r := range l.Records {
			if strings.HasPrefix(r.ID, strconv.Itoa(jp.prefix)+".") {
				where[r.ID] = l.Partition
			}
		}
	}
	for i := range h.Sends {
		s := &h.Sends[i]
		if s.Producer == jp.name && s.Partition < 0 {
			s.Partition = where[s.ID]
		}
	}
}
