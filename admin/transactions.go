package admin

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// ProducerState is one active producer of a partition (KIP-664).
type ProducerState struct {
	// ProducerID and ProducerEpoch identify the producer.
	ProducerID int64
	// ProducerEpoch is the producer's epoch.
	ProducerEpoch int32
	// LastSequence is the last sequence number written, -1 when unknown.
	LastSequence int32
	// LastTimestamp is the time of its last write (millisecond precision),
	// the zero time when unknown.
	LastTimestamp time.Time
	// CoordinatorEpoch is the epoch of the transaction coordinator that
	// last wrote a marker for it, -1 when none.
	CoordinatorEpoch int32
	// TxnStartOffset is the first offset of its open transaction in the
	// partition, -1 when it has none (an open one holds the last stable
	// offset back).
	TxnStartOffset int64
}

// PartitionProducers is the answer for one partition of DescribeProducers.
type PartitionProducers struct {
	gregor.TopicPartition
	// Producers are the partition's active producers.
	Producers []ProducerState
	// Err is nil, or the Kafka error or the failure that ended the retries.
	Err error
}

// DescribeProducers describes the active producers of partitions
// (DescribeProducers v0, one request per partition leader) and returns one
// answer per partition in request order. The batch is rejected with a
// *BatchError before sending for an invalid or repeated partition.
func (a *Admin) DescribeProducers(ctx context.Context, parts []gregor.TopicPartition) ([]PartitionProducers, error) {
	if err := checkPartitions(len(parts), func(i int) gregor.TopicPartition { return parts[i] }, true); err != nil {
		return nil, err
	}
	out := make([]PartitionProducers, len(parts))
	for i, p := range parts {
		out[i].TopicPartition = p
	}
	tp := func(i int) gregor.TopicPartition { return parts[i] }
	send := func(ctx context.Context, broker int32, idx []int) (map[int]error, error) {
		req := &wire.DescribeProducersRequest{}
		pos := map[gregor.TopicPartition]int{}
		for _, i := range idx {
			pos[parts[i]] = i
			t := topicEntry(&req.Topics, parts[i].Topic, func(t *wire.DescribeProducersTopicRequest) *string { return &t.Name })
			t.PartitionIndexes = append(t.PartitionIndexes, parts[i].Partition)
		}
		resp, err := a.cl.Request(ctx, broker, req)
		if err != nil {
			return nil, err
		}
		answers := a.newLeaderAnswers(pos, func(i int, err error) { out[i].Err = err })
		for _, t := range resp.(*wire.DescribeProducersResponse).Topics {
			for _, p := range t.Partitions {
				if i, ok := answers.answer(gregor.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}, p.ErrorCode); ok {
					out[i].Producers = out[i].Producers[:0]
					for _, s := range p.ActiveProducers {
						out[i].Producers = append(out[i].Producers, ProducerState{s.ProducerID, s.ProducerEpoch, s.LastSequence,
							wire.TimeOfMillis(s.LastTimestamp), s.CoordinatorEpoch, s.CurrentTxnStartOffset})
					}
				}
			}
		}
		return answers.done(idx, "producers", tp), nil
	}
	a.runPlan(ctx, a.leaderPlan(len(parts), tp, send, func(i int, err error) { out[i].Err = err }))
	return out, nil
}

// TransactionDescription describes one transactional ID.
type TransactionDescription struct {
	// TransactionalID is the transactional ID.
	TransactionalID string
	// State is the coordinator's state name: "Empty", "Ongoing",
	// "PrepareCommit", "PrepareAbort", "CompleteCommit", "CompleteAbort",
	// "Dead", "PrepareEpochFence".
	State string
	// Timeout is the transaction timeout (transaction.timeout.ms).
	Timeout time.Duration
	// StartTime is when the ongoing transaction started (millisecond
	// precision), the zero time when none is ongoing.
	StartTime time.Time
	// ProducerID and ProducerEpoch are the current producer's.
	ProducerID int64
	// ProducerEpoch is the current producer epoch.
	ProducerEpoch int16
	// Partitions are the partitions in the ongoing transaction.
	Partitions []gregor.TopicPartition
	// Coordinator is the broker that answered.
	Coordinator int32
	// Err is nil, wire.ErrTransactionalIDNotFound, or another Kafka error
	// or the failure that ended the retries.
	Err error
}

// DescribeTransactions describes transactional IDs (DescribeTransactions
// v0, one request per transaction coordinator) and returns one description
// per ID in request order. The batch is rejected with a *BatchError before
// sending for an empty or repeated ID.
func (a *Admin) DescribeTransactions(ctx context.Context, ids []string) ([]TransactionDescription, error) {
	if err := checkTxnIDs(ids); err != nil {
		return nil, err
	}
	out := make([]TransactionDescription, len(ids))
	for i, id := range ids {
		out[i] = TransactionDescription{TransactionalID: id, ProducerID: -1, ProducerEpoch: -1, Coordinator: -1}
	}
	txn := func(i int) string { return ids[i] }
	send := func(ctx context.Context, broker int32, idx []int) (map[int]error, error) {
		req := &wire.DescribeTransactionsRequest{}
		for _, i := range idx {
			req.TransactionalIDs = append(req.TransactionalIDs, ids[i])
		}
		resp, err := a.cl.Request(ctx, broker, req)
		if err != nil {
			return nil, err
		}
		states := resp.(*wire.DescribeTransactionsResponse).TransactionStates
		retry := map[int]error{}
		for _, i := range idx {
			s := answerFor(states, func(s *wire.DescribeTransactionsTransactionState) bool { return s.TransactionalID == ids[i] })
			if s == nil {
				out[i].Err = errors.New("admin: broker returned no state for transactional ID " + ids[i])
				continue
			}
			if err := codeErr(s.ErrorCode, nil); err != nil {
				if a.txnCoordRetry(ids[i], err) {
					retry[i] = err
				} else {
					out[i].Err = err
				}
				continue
			}
			d := &out[i]
			d.State, d.Timeout, d.StartTime = s.TransactionState, time.Duration(s.TransactionTimeoutMs)*time.Millisecond, wire.TimeOfMillis(s.TransactionStartTimeMs)
			d.ProducerID, d.ProducerEpoch, d.Coordinator, d.Partitions = s.ProducerID, s.ProducerEpoch, broker, nil
			for _, t := range s.Topics {
				for _, p := range t.Partitions {
					d.Partitions = append(d.Partitions, gregor.TopicPartition{Topic: t.Topic, Partition: p})
				}
			}
		}
		return retry, nil
	}
	a.runPlan(ctx, a.txnCoordPlan(ids, txn, send, func(i int, err error) { out[i].Err = err }))
	return out, nil
}

// checkTxnIDs rejects empty and repeated transactional IDs.
func checkTxnIDs(ids []string) error {
	for i, id := range ids {
		if id == "" {
			return invalid(i, "empty transactional ID")
		}
	}
	return checkUnique(len(ids), func(i int) string { return ids[i] })
}

// txnCoordPlan is the plan of a call on transactional ids, each sent to
// its transaction coordinator: a routing failure the coordinator lookup
// can cure (txnCoordRetry) or a transient one is retried, and a failed
// request forgets the coordinators it went to.
func (a *Admin) txnCoordPlan(ids []string, txn func(i int) string, send sendFunc, fail func(i int, err error)) resourcePlan {
	return resourcePlan{
		resources:  len(ids),
		idempotent: true,
		route:      a.txnCoordRoute(txn),
		send:       send,
		retryRoute: func(ctx context.Context, i int, err error) bool {
			return a.txnCoordRetry(ids[i], err) || transient(ctx, err, true)
		},
		onSendFailure: a.forgetTxnCoordinators(txn),
		fail:          fail,
	}
}

// txnCoordRoute routes resource i to the transaction coordinator of id(i).
func (a *Admin) txnCoordRoute(id func(i int) string) routeFunc {
	return func(ctx context.Context, i int) (int32, error) {
		return a.cl.Coordinator(ctx, client.CoordinatorTransaction, id(i))
	}
}

// txnCoordRetry is coordRetry for transaction coordinators, plus
// CONCURRENT_TRANSACTIONS (a transition in progress).
func (a *Admin) txnCoordRetry(id string, err error) bool {
	switch {
	case client.StaleCoordinator(err):
		a.cl.InvalidateCoordinator(client.CoordinatorTransaction, id)
		return true
	case errors.Is(err, wire.ErrCoordinatorLoadInProgress), errors.Is(err, wire.ErrConcurrentTransactions):
		return true
	}
	return false
}

// forgetTxnCoordinators forgets the coordinators of resources whose request
// failed.
func (a *Admin) forgetTxnCoordinators(id func(i int) string) func(int32, []int) {
	return func(_ int32, idx []int) {
		for _, i := range idx {
			a.cl.InvalidateCoordinator(client.CoordinatorTransaction, id(i))
		}
	}
}

// ListTransactionsOptions filters ListTransactions; zero values match all.
type ListTransactionsOptions struct {
	// States keeps transactions in these states (e.g. "Ongoing").
	States []string
	// ProducerIDs keeps transactions of these producers.
	ProducerIDs []int64
	// MinDuration keeps transactions running longer than this (KIP-994,
	// ListTransactions v1+, Kafka 3.8+). A broker without v1 is not asked:
	// its outcome is gregor.ErrUnsupportedFeature (it would list every
	// transaction).
	MinDuration time.Duration
	// IDPattern keeps transactional IDs matching this Java regular
	// expression (KIP-1152, ListTransactions v2+, Kafka 4.1+). A broker
	// without v2 is not asked: its outcome is gregor.ErrUnsupportedFeature.
	IDPattern string
}

// ListedTransaction is one transaction of ListTransactions.
type ListedTransaction struct {
	// TransactionalID is the transactional ID.
	TransactionalID string
	// ProducerID is the current producer ID.
	ProducerID int64
	// State is the coordinator's state name (see TransactionDescription).
	State string
	// Coordinator is the broker that listed it.
	Coordinator int32
}

// TransactionListing is the result of ListTransactions.
type TransactionListing struct {
	// Transactions are sorted by transactional ID.
	Transactions []ListedTransaction
	// Brokers holds one outcome per broker asked, sorted by broker ID.
	Brokers []BrokerOutcome
}

// ListTransactions asks every broker for the transactions it coordinates
// (ListTransactions v0-2) and returns them sorted, with one outcome per
// broker; a broker that fails does not fail the listing. The error is
// non-nil when the broker list cannot be read, or a *BatchError for a
// negative duration, a negative producer ID (nothing sent).
func (a *Admin) ListTransactions(ctx context.Context, opts ListTransactionsOptions) (*TransactionListing, error) {
	if opts.MinDuration < 0 {
		return nil, invalid(0, "negative MinDuration %v", opts.MinDuration)
	}
	for i, p := range opts.ProducerIDs {
		if p < 0 {
			return nil, invalid(i, "negative producer ID %d", p)
		}
	}
	ids, err := a.brokerIDs(ctx)
	if err != nil {
		return nil, err
	}
	req := &wire.ListTransactionsRequest{StateFilters: opts.States, ProducerIDFilters: opts.ProducerIDs, DurationFilter: -1}
	if opts.MinDuration > 0 {
		req.DurationFilter = opts.MinDuration.Milliseconds()
	}
	if opts.IDPattern != "" {
		req.TransactionalIDPattern = &opts.IDPattern
	}
	out := &TransactionListing{Brokers: make([]BrokerOutcome, len(ids))}
	for i, id := range ids {
		out.Brokers[i].Broker = id
	}
	a.runPlan(ctx, resourcePlan{
		resources:  len(ids),
		idempotent: true,
		route:      func(_ context.Context, i int) (int32, error) { return ids[i], nil },
		send: func(ctx context.Context, broker int32, idx []int) (map[int]error, error) {
			resp, err := a.cl.Request(ctx, broker, req)
			if err != nil {
				return nil, err
			}
			r := resp.(*wire.ListTransactionsResponse)
			if err := codeErr(r.ErrorCode, nil); err != nil {
				if errors.Is(err, wire.ErrCoordinatorLoadInProgress) || errors.Is(err, wire.ErrCoordinatorNotAvailable) {
					return map[int]error{idx[0]: err}, nil
				}
				out.Brokers[idx[0]].Err = err
				return nil, nil
			}
			for _, s := range r.TransactionStates {
				out.Transactions = append(out.Transactions, ListedTransaction{s.TransactionalID, s.ProducerID, s.TransactionState, broker})
			}
			return nil, nil
		},
		fail: func(i int, err error) { out.Brokers[i].Err = err },
	})
	slices.SortFunc(out.Transactions, func(x, y ListedTransaction) int { return compareStrings(x.TransactionalID, y.TransactionalID) })
	return out, nil
}

// AbortSpec names a hanging transaction's producer on one partition, as
// DescribeProducers reports it (ProducerState).
type AbortSpec struct {
	gregor.TopicPartition
	// ProducerID is the producer whose open transaction to abort.
	ProducerID int64
	// ProducerEpoch is the producer's epoch.
	ProducerEpoch int16
	// CoordinatorEpoch is ProducerState.CoordinatorEpoch (may be -1).
	CoordinatorEpoch int32
}

// AbortTransactions aborts hanging transactions, one partition each, by
// writing an ABORT marker to the partition leader as a transaction
// coordinator would (WriteTxnMarkers v1-2, as Java's Admin.abortTransaction
// does), and returns one result per spec in request order. Use it for a
// transaction the coordinator no longer tracks (a producer gone mid-
// transaction after its coordinator forgot it); a live transaction is
// better ended with FenceProducers. Afterwards the partition's last stable
// offset advances and read_committed consumers move past the aborted
// records. The batch is rejected with a *BatchError before sending for an
// invalid partition, a negative producer ID or epoch, or a partition twice.
func (a *Admin) AbortTransactions(ctx context.Context, specs []AbortSpec) ([]PartitionResult, error) {
	if err := checkPartitions(len(specs), func(i int) gregor.TopicPartition { return specs[i].TopicPartition }, true); err != nil {
		return nil, err
	}
	for i, s := range specs {
		if s.ProducerID < 0 || s.ProducerEpoch < 0 {
			return nil, invalid(i, "negative producer ID %d or epoch %d", s.ProducerID, s.ProducerEpoch)
		}
	}
	out := make([]PartitionResult, len(specs))
	for i, s := range specs {
		out[i].TopicPartition = s.TopicPartition
	}
	tp := func(i int) gregor.TopicPartition { return specs[i].TopicPartition }
	send := func(ctx context.Context, broker int32, idx []int) (map[int]error, error) {
		req := &wire.WriteTxnMarkersRequest{}
		pos := map[gregor.TopicPartition]int{}
		for _, i := range idx {
			s := specs[i]
			pos[s.TopicPartition] = i
			req.Markers = append(req.Markers, wire.WriteTxnMarkersWritableTxnMarker{ProducerID: s.ProducerID, ProducerEpoch: s.ProducerEpoch,
				TransactionResult: false, CoordinatorEpoch: s.CoordinatorEpoch,
				Topics: []wire.WriteTxnMarkersWritableTxnMarkerTopic{{Name: s.Topic, PartitionIndexes: []int32{s.Partition}}}})
		}
		resp, err := a.cl.Request(ctx, broker, req)
		if err != nil {
			return nil, err
		}
		answers := a.newLeaderAnswers(pos, func(i int, err error) { out[i].Err = err })
		for _, m := range resp.(*wire.WriteTxnMarkersResponse).Markers {
			for _, t := range m.Topics {
				for _, p := range t.Partitions {
					answers.answer(gregor.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}, p.ErrorCode)
				}
			}
		}
		return answers.done(idx, "marker result", tp), nil
	}
	a.runPlan(ctx, a.leaderPlan(len(specs), tp, send, func(i int, err error) { out[i].Err = err }))
	return out, nil
}

// FencedProducer is the outcome of fencing one transactional ID.
type FencedProducer struct {
	// TransactionalID is the transactional ID.
	TransactionalID string
	// ProducerID and ProducerEpoch are the new (bumped) producer
	// identity; the fenced producer's next request fails with
	// PRODUCER_FENCED or INVALID_PRODUCER_EPOCH.
	ProducerID int64
	// ProducerEpoch is the bumped epoch.
	ProducerEpoch int16
	// Err is nil, or the Kafka error or the failure that ended the retries.
	Err error
}

// FenceProducers fences the producers of transactional IDs (InitProducerId
// to each ID's transaction coordinator, as Java's Admin.fenceProducers
// does): the epoch is bumped, an ongoing transaction is aborted, and the
// old producer can no longer write. One result per ID in request order.
// The batch is rejected with a *BatchError before sending for an empty or
// repeated ID.
func (a *Admin) FenceProducers(ctx context.Context, ids []string) ([]FencedProducer, error) {
	if err := checkTxnIDs(ids); err != nil {
		return nil, err
	}
	out := make([]FencedProducer, len(ids))
	for i, id := range ids {
		out[i] = FencedProducer{TransactionalID: id, ProducerID: -1, ProducerEpoch: -1}
	}
	txn := func(i int) string { return ids[i] }
	send := func(ctx context.Context, broker int32, idx []int) (map[int]error, error) {
		retry := map[int]error{}
		for _, i := range idx {
			req := &wire.InitProducerIdRequest{TransactionalID: &ids[i], TransactionTimeoutMs: 60000, ProducerID: -1, ProducerEpoch: -1}
			resp, err := a.cl.Request(ctx, broker, req)
			if err != nil {
				return nil, err
			}
			r := resp.(*wire.InitProducerIdResponse)
			if err := codeErr(r.ErrorCode, nil); err != nil {
				if a.txnCoordRetry(ids[i], err) {
					retry[i] = err
				} else {
					out[i].Err = err
				}
				continue
			}
			out[i].ProducerID, out[i].ProducerEpoch = r.ProducerID, r.ProducerEpoch
		}
		return retry, nil
	}
	a.runPlan(ctx, a.txnCoordPlan(ids, txn, send, func(i int, err error) { out[i].Err = err }))
	return out, nil
}
