package protocol

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// producerCommands are the producer rows of the command table (§4.3).
var producerCommands = []command{
	handledBy("create_producer", (*Session).doCreateProducer),
	handledBy("send", (*Session).doSend),
	handledBy("cancel_producer_send", (*Session).doCancelSend),
	handledBy("send_batch", (*Session).doSendBatch),
	handledBy("flush", (*Session).doFlush),
	handledBy("close_producer", (*Session).doCloseProducer),
}

// toProducerRecord converts a RecordSpec; bad bytes are fatal
// adapter_record_bytes (§9.3).
func toProducerRecord(spec *RecordSpec) (*ProducerRecord, error) {
	key, err := spec.Key.Bytes()
	if err != nil {
		return nil, fatalf("adapter_record_bytes", "record key: %v", err)
	}
	value, err := spec.Value.Bytes()
	if err != nil {
		return nil, fatalf("adapter_record_bytes", "record value: %v", err)
	}
	rec := &ProducerRecord{Topic: spec.Topic, Partition: spec.Partition, Key: key, Value: value,
		TimestampMillis: spec.TimestampMillis}
	for i := range spec.Headers {
		h := &spec.Headers[i]
		v, err := h.Value.Bytes()
		if err != nil {
			return nil, fatalf("adapter_record_bytes", "header %q: %v", h.Name, err)
		}
		rec.Headers = append(rec.Headers, RecordHeader{Name: h.Name, Value: v})
	}
	return rec, nil
}

// terminalEvent is the operation_terminal of an outcome (§5.1).
func terminalEvent(op ID, o DeliveryOutcome) OperationTerminal {
	if o.Err == nil {
		off := o.Offset
		return OperationTerminal{OperationID: op, Status: StatusAcknowledged, Offset: &off}
	}
	code := normalize(o.Err, familyProducer)
	status := StatusPossiblySent
	if o.NotSent {
		status = StatusDefinitelyNotSent
	}
	return OperationTerminal{OperationID: op, Status: status, Code: &code}
}

func (s *Session) doCreateProducer(p *CreateProducer) error {
	c, err := s.clientOf(p.ClientID)
	if err != nil {
		return err
	}
	if s.producerIDTaken(p.ProducerID) {
		return stateErr("duplicate producer %q", p.ProducerID)
	}
	prod, err := c.client.NewProducer()
	if err != nil {
		return failed(err, familyProducer)
	}
	s.producers[p.ProducerID] = &producerEntry{clientID: p.ClientID, producer: prod}
	return s.emit(ProducerCreated{ProducerID: p.ProducerID})
}

// producerRecord is the prologue of a one-record command: the producer it
// names and its record converted (toProducerRecord).
func (s *Session) producerRecord(id ID, spec *RecordSpec) (*producerEntry, *ProducerRecord, error) {
	pe, err := s.producerOf(id)
	if err != nil {
		return nil, nil, err
	}
	rec, err := toProducerRecord(spec)
	if err != nil {
		return nil, nil, err
	}
	return pe, rec, nil
}

func (s *Session) doSend(p *Send) error {
	pe, rec, err := s.producerRecord(p.ProducerID, &p.Record)
	if err != nil {
		return err
	}
	d, err := pe.producer.TrySend(rec)
	if err != nil {
		return s.emit(OperationRejected{OperationID: p.OperationID, Code: normalize(err, familyProducer)})
	}
	if err := s.emit(OperationAccepted{OperationID: p.OperationID}); err != nil {
		return err
	}
	<-d.Done()
	return s.emit(terminalEvent(p.OperationID, d.Outcome()))
}

func (s *Session) doSendBatch(p *SendBatch) error {
	pe, err := s.producerOf(p.ProducerID)
	if err != nil {
		return err
	}
	if len(p.Operations) == 0 {
		return fatalf("adapter_state", "send_batch with no operations")
	}
	if len(p.Operations) > 31 {
		return fatalf("adapter_state", "send_batch with %d operations (at most 31)", len(p.Operations))
	}
	recs := make([]*ProducerRecord, len(p.Operations))
	for i := range p.Operations {
		if recs[i], err = toProducerRecord(&p.Operations[i].Record); err != nil {
			return err
		}
	}
	// Admissions first: the accepted prefix, then the rejected suffix.
	deliveries := make([]Delivery, 0, len(recs))
	rejectCode := ""
	for i, rec := range recs {
		op := p.Operations[i].OperationID
		if rejectCode == "" {
			d, err := pe.producer.TrySend(rec)
			if err == nil {
				deliveries = append(deliveries, d)
				if err := s.emit(OperationAccepted{OperationID: op}); err != nil {
					return err
				}
				continue
			}
			rejectCode = normalize(err, familyProducer)
		}
		if err := s.emit(OperationRejected{OperationID: op, Code: rejectCode}); err != nil {
			return err
		}
	}
	// Then the terminals of the accepted operations, in input order.
	for i, d := range deliveries {
		<-d.Done()
		if err := s.emit(terminalEvent(p.Operations[i].OperationID, d.Outcome())); err != nil {
			return err
		}
	}
	return s.emit(BatchCompleted{ProducerID: p.ProducerID})
}

func (s *Session) doCancelSend(p *CancelProducerSend) error {
	pe, rec, err := s.producerRecord(p.ProducerID, &p.Record)
	if err != nil {
		return err
	}
	ctx, cancel := timeout(p.TimeoutMs)
	defer cancel()
	d, err := pe.producer.TrySend(rec)
	if err != nil {
		if err := s.emit(OperationRejected{OperationID: p.OperationID, Code: normalize(err, familyProducer)}); err != nil {
			return err
		}
		return failed(err, familyProducer)
	}
	if err := s.emit(OperationAccepted{OperationID: p.OperationID}); err != nil {
		return err
	}
	outcomes := make([]string, 0, 2)
	for range 2 {
		o, err := cancelWithin(ctx, d)
		if err != nil {
			return failed(err, familyProducer)
		}
		outcomes = append(outcomes, o)
	}
	select {
	case <-d.Done():
	case <-ctx.Done():
		return failed(fmt.Errorf("no terminal outcome within %dms after cancellation: %w", p.TimeoutMs, ctx.Err()), familyProducer)
	}
	if err := s.emit(terminalEvent(p.OperationID, d.Outcome())); err != nil {
		return err
	}
	return s.emit(ProducerCancellationCompleted{OperationID: p.OperationID, Outcomes: outcomes})
}

// cancelWithin calls the public Cancel, retrying a refusal (backpressure)
// with a short backoff until ctx ends.
func cancelWithin(ctx context.Context, d Delivery) (string, error) {
	backoff := time.Millisecond
	for {
		o, err := d.Cancel()
		if err == nil {
			return o, nil
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return "", errors.Join(err, ctx.Err())
		case <-d.Done():
			t.Stop()
		case <-t.C:
		}
		backoff = min(backoff*2, 50*time.Millisecond)
	}
}

func (s *Session) doFlush(p *Flush) error {
	pe, err := s.producerOf(p.ProducerID)
	if err != nil {
		return err
	}
	if err := pe.producer.Flush(context.Background()); err != nil {
		return failed(err, familyProducer)
	}
	return s.emit(FlushCompleted{ProducerID: p.ProducerID})
}

func (s *Session) doCloseProducer(p *CloseProducer) error {
	pe, err := s.producerOf(p.ProducerID)
	if err != nil {
		return err
	}
	if s.group != nil && s.group.usesProducer(p.ProducerID) {
		return stateErr("producer %q is used by unjoined concurrent actors", p.ProducerID)
	}
	delete(s.producers, p.ProducerID)
	if err := pe.producer.Close(context.Background()); err != nil {
		return failed(err, familyProducer)
	}
	return s.emit(ProducerClosed{ProducerID: p.ProducerID})
}
