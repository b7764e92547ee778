package protocol

import (
	"context"
	"errors"
	"strconv"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/txn"
	"github.com/gregor-kafka/gregor/wire"
)

// NewTransactionalProducer builds a txn.Producer with the client's producer
// policy.
func (g *gregorClient) NewTransactionalProducer(cfg TransactionalConfig) (TransactionalProducer, error) {
	p, err := txn.New(g.c, txn.Config{TransactionalID: cfg.TransactionalID, TransactionTimeout: cfg.TransactionTimeout, Producer: g.pcfg})
	if err != nil {
		return nil, err
	}
	return gregorTxn{p}, nil
}

type gregorTxn struct{ p *txn.Producer }

func (g gregorTxn) Init(ctx context.Context) error   { return g.p.InitTransactions(ctx) }
func (g gregorTxn) Begin() error                     { return g.p.Begin() }
func (g gregorTxn) Commit(ctx context.Context) error { return g.p.Commit(ctx) }
func (g gregorTxn) Abort(ctx context.Context) error  { return g.p.Abort(ctx) }
func (g gregorTxn) Close(ctx context.Context) error  { return g.p.Close(ctx) }
func (g gregorTxn) SendOffsets(ctx context.Context, offsets map[TopicPartition]int64, gm consumer.GroupMetadata) error {
	offs := make([]txn.Offset, 0, len(offsets))
	for tp, o := range offsets {
		offs = append(offs, txn.Offset{Topic: tp.Topic, Partition: tp.Partition, Offset: o})
	}
	return g.p.SendOffsets(ctx, offs, gm)
}
func (g gregorTxn) TrySend(r *ProducerRecord) (Delivery, error) { return trySend(g.p.TrySend, r) }

// normalizeTxn is normalize for the transaction commands: fencing (also
// when it reaches a record) is the fenced family, other broker codes are
// broker:broker_<n> (a transactional ID denied by ACL is broker:broker_53,
// §6), and txn's own classes map to their kinds.
func normalizeTxn(err error) string {
	var kerr *wire.KafkaError
	switch {
	case errors.As(err, &kerr):
		switch kerr.Code {
		case wire.ErrProducerFenced.Code, wire.ErrInvalidProducerEpoch.Code, wire.ErrTransactionCoordinatorFenced.Code:
			return KindFenced + ":broker_" + strconv.Itoa(int(kerr.Code))
		}
		return KindBroker + ":broker_" + strconv.Itoa(int(kerr.Code))
	case errors.Is(err, txn.ErrFenced):
		return KindFenced
	case errors.Is(err, txn.ErrState), errors.Is(err, txn.ErrNeedsInit), errors.Is(err, txn.ErrClosed):
		return KindState
	case errors.Is(err, txn.ErrConfig):
		return KindConfiguration
	case errors.Is(err, txn.ErrUnsupported):
		return KindCompatibility
	case errors.Is(err, txn.ErrAborted):
		return KindCancelled
	case errors.Is(err, client.ErrTimeout):
		return KindTimeout
	}
	return normalize(err, familyProducer)
}
