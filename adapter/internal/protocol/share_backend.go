package protocol

import (
	"context"
	"time"
)

// ShareConsumerConfig is what a share consumer is built from.
type ShareConsumerConfig struct {
	GroupID string
	Topic   string
	// MaxRecords and BatchSize are 0 for the client's defaults.
	MaxRecords, BatchSize int
}

// ShareRecord is one acquired record and its delivery count.
type ShareRecord struct {
	ReceivedRecord
	DeliveryCount int16
}

// ShareOutcome is the outcome of acknowledging a batch, or of closing: Err
// nil on success; otherwise NotSent tells whether the client knows no
// request reached the broker.
type ShareOutcome struct {
	Err     error
	NotSent bool
}

// ShareConsumer is the share-group consumer surface the adapter uses. It
// acknowledges explicitly: records never acknowledged stay acquired until
// their lock expires or Close releases them.
type ShareConsumer interface {
	// AwaitMembership waits until the member has joined its group.
	AwaitMembership(ctx context.Context) error
	// Receive returns the next batch of acquired records; a context error
	// (or one wrapping it) when ctx ends first.
	Receive(ctx context.Context) ([]ShareRecord, error)
	// MemberEpoch is the member epoch last seen, 0 before joining.
	MemberEpoch() int32
	// Acknowledge sends one disposition per record of recs and waits.
	Acknowledge(ctx context.Context, recs []ShareRecord, dispositions []string) ShareOutcome
	// Close releases what is held, leaves the group and reports the outcome.
	Close(ctx context.Context) ShareOutcome
}

// ShareClient is implemented by clients that make share consumers.
type ShareClient interface {
	NewShareConsumer(cfg ShareConsumerConfig) (ShareConsumer, error)
}

// shareConsumerEntry is an open share consumer and its retained batches.
type shareConsumerEntry struct {
	clientID     ID
	consumer     ShareConsumer
	closeTimeout time.Duration
	// batches are the retained receives by receive_id (§4.6).
	batches map[ID][]ShareRecord
}
