package protocol

import (
	"time"
)

// shareCommands are the share-group rows of the command table (§4.6, KIP-932).
var shareCommands = []command{
	handledBy("create_share_consumer", (*Session).doCreateShare),
	handledBy("share_receive", (*Session).doShareReceive),
	handledBy("share_acknowledge", (*Session).doShareAcknowledge),
	handledBy("drop_share_batch", (*Session).doDropShareBatch),
	handledBy("close_share_consumer", (*Session).doCloseShare),
}

func (s *Session) shareOf(id ID) (*shareConsumerEntry, error) {
	if err := s.needHello(); err != nil {
		return nil, err
	}
	c, ok := s.shares[id]
	if !ok {
		return nil, stateErr("unknown share consumer %q", id)
	}
	return c, nil
}

func (s *Session) doCreateShare(p *CreateShareConsumer) error {
	c, err := s.clientOf(p.ClientID)
	if err != nil {
		return err
	}
	if _, dup := s.shares[p.ConsumerID]; dup {
		return stateErr("duplicate share consumer %q", p.ConsumerID)
	}
	if _, dup := s.consumers[p.ConsumerID]; dup {
		return stateErr("duplicate consumer %q", p.ConsumerID)
	}
	sc, ok := c.client.(ShareClient)
	if !ok {
		return fatalf("adapter_unsupported", "this client makes no share consumers")
	}
	cfg := ShareConsumerConfig{GroupID: p.GroupID, Topic: p.Topic}
	if c := p.Configuration; c != nil && (c.MaxRecords < 1 || c.MaxRecords > 31 || c.BatchSize < 1 || c.BatchSize > 31) {
		return fatalf("adapter_state", "share configuration max_records %d, batch_size %d (each 1..=31)", c.MaxRecords, c.BatchSize)
	}
	if p.Configuration != nil {
		cfg.MaxRecords, cfg.BatchSize = int(p.Configuration.MaxRecords), int(p.Configuration.BatchSize)
	}
	cons, err := sc.NewShareConsumer(cfg)
	if err != nil {
		return failed(err, familyConsumer)
	}
	ctx, cancel := timeout(p.MembershipTimeoutMs)
	defer cancel()
	if err := cons.AwaitMembership(ctx); err != nil {
		cctx, ccancel := timeout(p.CloseTimeoutMs)
		defer ccancel()
		cons.Close(cctx)
		return failed(err, familyConsumer)
	}
	if s.shares == nil {
		s.shares = map[ID]*shareConsumerEntry{}
	}
	s.shares[p.ConsumerID] = &shareConsumerEntry{clientID: p.ClientID, consumer: cons,
		closeTimeout: time.Duration(p.CloseTimeoutMs) * time.Millisecond, batches: map[ID][]ShareRecord{}}
	return s.emit(ShareConsumerCreated{ConsumerID: p.ConsumerID})
}

func (s *Session) doShareReceive(p *ShareReceive) error {
	e, err := s.shareOf(p.ConsumerID)
	if err != nil {
		return err
	}
	if _, dup := e.batches[p.ReceiveID]; dup {
		return stateErr("duplicate share receive %q", p.ReceiveID)
	}
	ctx, cancel := timeout(p.TimeoutMs)
	defer cancel()
	recs, err := e.consumer.Receive(ctx)
	if err != nil {
		if ctx.Err() == nil || !isTimeout(err) {
			return failed(err, familyConsumer)
		}
		recs = nil // no record by the deadline: an empty batch (§4.6)
	}
	plain := make([]ReceivedRecord, len(recs))
	for i := range recs {
		plain[i] = recs[i].ReceivedRecord
	}
	consumed, err := consumedRecords(plain)
	if err != nil {
		return err
	}
	ev := ShareReceiveCompleted{ConsumerID: p.ConsumerID, ReceiveID: p.ReceiveID, Records: make([]ShareRecordEvent, len(recs)),
		AcquisitionCount: uint64(len(recs))}
	for i := range recs {
		ev.Records[i] = ShareRecordEvent{Record: consumed[i], DeliveryCount: recs[i].DeliveryCount}
	}
	if epoch := e.consumer.MemberEpoch(); epoch > 0 {
		ev.MemberEpoch = &epoch
	}
	e.batches[p.ReceiveID] = recs
	return s.emit(ev)
}

func (s *Session) doShareAcknowledge(p *ShareAcknowledge) error {
	e, err := s.shareOf(p.ConsumerID)
	if err != nil {
		return err
	}
	recs, ok := e.batches[p.ReceiveID]
	if !ok {
		return stateErr("no retained share batch %q", p.ReceiveID)
	}
	if len(p.Dispositions) != len(recs) {
		return stateErr("share batch %q holds %d records, %d dispositions given", p.ReceiveID, len(recs), len(p.Dispositions))
	}
	for _, d := range p.Dispositions {
		if d != DispositionAccept && d != DispositionRelease && d != DispositionReject {
			return fatalf("adapter_json", "unknown share disposition %q", d)
		}
	}
	delete(e.batches, p.ReceiveID)
	ev := ShareAcknowledgementCompleted{AcknowledgementID: p.AcknowledgementID, ReceiveID: p.ReceiveID,
		Dispositions: append([]string{}, p.Dispositions...), Success: true}
	if len(recs) > 0 {
		ctx, cancel := timeout(p.TimeoutMs)
		defer cancel()
		ev.Success, ev.Delivery, ev.Code = shareOutcomeFields(e.consumer.Acknowledge(ctx, recs, p.Dispositions))
	}
	return s.emit(ev)
}

// shareOutcomeFields maps an outcome to success, delivery and code (§5.5).
func shareOutcomeFields(o ShareOutcome) (bool, *string, *string) {
	if o.Err == nil {
		return true, nil, nil
	}
	delivery := StatusPossiblySent
	if o.NotSent {
		delivery = StatusDefinitelyNotSent
	}
	code := normalize(o.Err, familyConsumer)
	return false, &delivery, &code
}

func (s *Session) doDropShareBatch(p *DropShareBatch) error {
	e, err := s.shareOf(p.ConsumerID)
	if err != nil {
		return err
	}
	if _, ok := e.batches[p.ReceiveID]; !ok {
		return stateErr("no retained share batch %q", p.ReceiveID)
	}
	delete(e.batches, p.ReceiveID)
	return s.emit(ShareBatchDropped{ReceiveID: p.ReceiveID})
}

func (s *Session) doCloseShare(p *CloseShareConsumer) error {
	e, err := s.shareOf(p.ConsumerID)
	if err != nil {
		return err
	}
	delete(s.shares, p.ConsumerID)
	ctx, cancel := timeoutDur(e.closeTimeout)
	defer cancel()
	ev := ShareConsumerClosed{ConsumerID: p.ConsumerID}
	ev.Success, ev.Delivery, ev.Code = shareOutcomeFields(e.consumer.Close(ctx))
	return s.emit(ev)
}

// closeShares closes every open share consumer (session end).
func (s *Session) closeShares() {
	for _, e := range s.shares {
		ctx, cancel := timeoutDur(e.closeTimeout)
		e.consumer.Close(ctx)
		cancel()
	}
}

// shareChildrenOf counts the open share consumers of client id.
func (s *Session) shareChildrenOf(id ID) int {
	n := 0
	for _, e := range s.shares {
		if e.clientID == id {
			n++
		}
	}
	return n
}
