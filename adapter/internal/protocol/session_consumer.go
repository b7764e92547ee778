package protocol

import (
	"context"
	"errors"
	"unicode/utf8"
)

// consumerCommands are the assigned-consumer rows of the command table (§4.4).
var consumerCommands = []command{
	handledBy("create_assigned_consumer", (*Session).doCreateConsumer),
	handledBy("assign_beginning", (*Session).doAssignBeginning),
	handledBy("assign_beginning_batch", (*Session).doAssignBeginningBatch),
	handledBy("control_assigned_consumer", (*Session).doControl),
	handledBy("receive", (*Session).doReceive),
	handledBy("close_assigned_consumer", (*Session).doCloseConsumer),
}

// assignTimeout bounds assign_beginning, which carries no timeout.
const assignTimeoutMs = 30000

func (s *Session) doCreateConsumer(p *CreateAssignedConsumer) error {
	c, err := s.clientOf(p.ClientID)
	if err != nil {
		return err
	}
	if _, dup := s.consumers[p.ConsumerID]; dup {
		return stateErr("duplicate consumer %q", p.ConsumerID)
	}
	cons, err := c.client.NewAssignedConsumer()
	if err != nil {
		return failed(err, familyConsumer)
	}
	s.consumers[p.ConsumerID] = &consumerEntry{clientID: p.ClientID, consumer: cons}
	return s.emit(AssignedConsumerCreated{ConsumerID: p.ConsumerID})
}

func (s *Session) doAssignBeginning(p *AssignBeginning) error {
	ce, err := s.consumerOf(p.ConsumerID)
	if err != nil {
		return err
	}
	ctx, cancel := timeout(assignTimeoutMs)
	defer cancel()
	pos := []PartitionPosition{{Topic: p.Topic, Partition: p.Partition, Position: StartPosition{Kind: PositionBeginning}}}
	if err := ce.consumer.Add(ctx, pos); err != nil {
		return failed(err, familyConsumer)
	}
	return s.emit(AssignmentCompleted{ConsumerID: p.ConsumerID})
}

func (s *Session) doAssignBeginningBatch(p *AssignBeginningBatch) error {
	ce, err := s.consumerOf(p.ConsumerID)
	if err != nil {
		return err
	}
	ctx, cancel := timeout(p.TimeoutMs)
	defer cancel()
	pos := make([]PartitionPosition, len(p.Partitions))
	for i, tp := range p.Partitions {
		pos[i] = PartitionPosition{Topic: tp.Topic, Partition: tp.Partition, Position: StartPosition{Kind: PositionBeginning}}
	}
	if err := ce.consumer.Assign(ctx, pos); err != nil {
		return failed(err, familyConsumer)
	}
	return s.emit(AssignmentCompleted{ConsumerID: p.ConsumerID})
}

func (s *Session) doControl(p *ControlAssignedConsumer) error {
	ce, err := s.consumerOf(p.ConsumerID)
	if err != nil {
		return err
	}
	ctx, cancel := timeout(p.TimeoutMs)
	defer cancel()
	c := &p.Control
	switch c.Kind {
	case ControlReplace:
		err = ce.consumer.Assign(ctx, c.Positions)
	case ControlAdd:
		err = ce.consumer.Add(ctx, c.Positions)
	case ControlRemove:
		err = ce.consumer.Remove(ctx, c.Partitions)
	case ControlSeek:
		err = ce.consumer.Seek(ctx, c.Partition, c.Position)
	case ControlPause:
		err = ce.consumer.Pause(ctx, c.Partition)
	case ControlResume:
		err = ce.consumer.Resume(ctx, c.Partition)
	}
	if err != nil {
		return failed(err, familyConsumer)
	}
	return s.emit(AssignedConsumerControlCompleted{OperationID: p.OperationID, ConsumerID: p.ConsumerID, Control: c.Kind})
}

func (s *Session) doReceive(p *Receive) error {
	ce, err := s.consumerOf(p.ConsumerID)
	if err != nil {
		return err
	}
	recs, err := receiveFirst(ce.consumer, p.TimeoutMs)
	if err != nil {
		return err
	}
	return s.emit(ReceiveCompleted{ReceiveID: p.ReceiveID, Records: recs})
}

// receiveFirst waits for the first public batch until the deadline; no
// batch by then is an empty result, not a failure (§4.4).
func receiveFirst(c interface {
	Receive(ctx context.Context) ([]ReceivedRecord, error)
}, ms uint64) ([]ConsumedRecord, error) {
	ctx, cancel := timeout(ms)
	defer cancel()
	batch, err := c.Receive(ctx)
	if err != nil {
		if ctx.Err() != nil && (errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ctx.Err()) || isTimeout(err)) {
			return []ConsumedRecord{}, nil
		}
		return nil, failed(err, familyConsumer)
	}
	return consumedRecords(batch)
}

func isTimeout(err error) bool { return normalize(err, familyConsumer) == KindTimeout }

// consumedRecords converts a batch to ConsumedRecords with hex bytes.
func consumedRecords(batch []ReceivedRecord) ([]ConsumedRecord, error) {
	out := make([]ConsumedRecord, len(batch))
	for i, r := range batch {
		hs := make([]HeaderSpec, len(r.Headers))
		for j, h := range r.Headers {
			if !utf8.ValidString(h.Name) {
				return nil, fatalf("adapter_consumer_record", "consumed header name is not UTF-8 (%s/%d@%d)", r.Topic, r.Partition, r.Offset)
			}
			hs[j] = HeaderSpec{Name: h.Name, Value: HexBytes(h.Value)}
		}
		out[i] = ConsumedRecord{Topic: r.Topic, Partition: r.Partition, Offset: r.Offset,
			TimestampMillis: r.TimestampMillis, Key: HexBytes(r.Key), Value: HexBytes(r.Value), Headers: hs}
	}
	return out, nil
}

func (s *Session) doCloseConsumer(p *CloseAssignedConsumer) error {
	ce, err := s.consumerOf(p.ConsumerID)
	if err != nil {
		return err
	}
	delete(s.consumers, p.ConsumerID)
	if err := ce.consumer.Close(); err != nil {
		return failed(err, familyConsumer)
	}
	return s.emit(AssignedConsumerClosed{ConsumerID: p.ConsumerID})
}
