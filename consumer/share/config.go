package share

import (
	"errors"
	"fmt"
	"time"
)

// AckMode is share.acknowledgement.mode.
type AckMode int8

const (
	// AckImplicit accepts every delivered record not acknowledged otherwise
	// at the next Receive, Commit or Close. Default.
	AckImplicit AckMode = iota
	// AckExplicit leaves acknowledging to Acknowledge; records never
	// acknowledged stay acquired until their lock expires or Close releases
	// them.
	AckExplicit
)

// AcknowledgeType is how a record is acknowledged (the AcknowledgeTypes of
// ShareFetch and ShareAcknowledge).
type AcknowledgeType int8

const (
	// Accept marks the record processed; it is not delivered again.
	Accept AcknowledgeType = 1
	// Release hands the record back; it is delivered again (to any member)
	// with a higher delivery count.
	Release AcknowledgeType = 2
	// Reject marks the record unprocessable; it is never delivered again.
	Reject AcknowledgeType = 3
	// Renew extends the record's acquisition lock (KIP-1222, ShareAcknowledge
	// v2+); the record stays held for a later acknowledgement.
	Renew AcknowledgeType = 4
)

// String returns "accept", "release", "reject" or "renew".
func (t AcknowledgeType) String() string {
	switch t {
	case Accept:
		return "accept"
	case Release:
		return "release"
	case Reject:
		return "reject"
	case Renew:
		return "renew"
	}
	return fmt.Sprintf("AcknowledgeType(%d)", int8(t))
}

// Defaults applied by New to zero fields of Config.
const (
	// DefaultMaxAckResults is the default Config.MaxAckResults: 100,000
	// outcomes (about 6 MB).
	DefaultMaxAckResults = 100_000
	// DefaultMaxRecords is max.poll.records (500).
	DefaultMaxRecords = 500
	// DefaultMaxWait is fetch.max.wait.ms (500).
	DefaultMaxWait = 500 * time.Millisecond
	// DefaultMaxBufferedBytes bounds undelivered records: 64 MiB.
	DefaultMaxBufferedBytes = 64 << 20
	// DefaultHeartbeatInterval is used until the coordinator sets one.
	DefaultHeartbeatInterval = 3 * time.Second
)

// Config configures a share Consumer. Zero values take the defaults.
type Config struct {
	// GroupID is the share group (group.id). Required.
	GroupID string
	// Topics are the subscribed topics. Required, non-empty.
	Topics []string
	// AckMode is share.acknowledgement.mode. Default AckImplicit.
	AckMode AckMode
	// MaxRecords is the most records one Receive returns (max.poll.records,
	// strict as KIP-1206's record_limit acquire mode). Default 500.
	MaxRecords int
	// BatchSize is the preferred number of records per acquired batch
	// (ShareFetch BatchSize). Default: MaxRecords.
	BatchSize int
	// MaxWait is how long a ShareFetch long-polls (fetch.max.wait.ms).
	// Default 500ms.
	MaxWait time.Duration
	// MaxBufferedBytes bounds the key, value and header bytes of records
	// fetched but not yet delivered. Default 64 MiB.
	MaxBufferedBytes int
	// MaxAckResults bounds the acknowledgement outcomes kept until
	// TakeAckResults, AppendAckResults, Commit or Close takes them (with
	// AckImplicit every delivered record yields one, read or not). Past
	// it a success is not kept and a failure takes the place of the oldest
	// kept success (of the oldest failure when none is left); each outcome
	// not kept is counted in AckResultsDropped. Default
	// DefaultMaxAckResults.
	MaxAckResults int
	// RackID is the member's rack (client.rack), or "", sent in the
	// ShareGroupHeartbeat. Share partitions are always fetched from their
	// leaders: ShareFetch (KIP-932) has no rack and no preferred read
	// replica, since the leader alone tracks the acquired records.
	RackID string
}

// ErrInvalidConfig: New rejected the Config; the wrapping error names the
// field.
var ErrInvalidConfig = errors.New("share: invalid config")

func (c *Config) setDefaults() error {
	if c.GroupID == "" {
		return fmt.Errorf("%w: GroupID is required", ErrInvalidConfig)
	}
	if len(c.Topics) == 0 {
		return fmt.Errorf("%w: Topics is required", ErrInvalidConfig)
	}
	if c.MaxRecords < 0 || c.BatchSize < 0 || c.MaxWait < 0 || c.MaxBufferedBytes < 0 || c.MaxAckResults < 0 {
		return fmt.Errorf("%w: negative MaxRecords, BatchSize, MaxWait, MaxBufferedBytes or MaxAckResults", ErrInvalidConfig)
	}
	if c.AckMode != AckImplicit && c.AckMode != AckExplicit {
		return fmt.Errorf("%w: AckMode %d", ErrInvalidConfig, c.AckMode)
	}
	if c.MaxRecords == 0 {
		c.MaxRecords = DefaultMaxRecords
	}
	if c.BatchSize == 0 {
		c.BatchSize = c.MaxRecords
	}
	if c.MaxWait == 0 {
		c.MaxWait = DefaultMaxWait
	}
	if c.MaxAckResults == 0 {
		c.MaxAckResults = DefaultMaxAckResults
	}
	if c.MaxBufferedBytes == 0 {
		c.MaxBufferedBytes = DefaultMaxBufferedBytes
	}
	c.Topics = append([]string(nil), c.Topics...)
	return nil
}
