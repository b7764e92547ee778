package consumer

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/gregor-kafka/gregor/consumer/assign"
)

// GroupProtocol selects the group membership protocol (group.protocol).
type GroupProtocol string

const (
	// ProtocolClassic is the classic protocol: JoinGroup, SyncGroup and
	// Heartbeat, with client-side assignors run by the group leader.
	ProtocolClassic GroupProtocol = "classic"
	// ProtocolConsumer is the KIP-848 consumer group protocol:
	// ConsumerGroupHeartbeat only, with the assignment computed by the
	// coordinator (GroupConfig.ServerAssignor) and member epochs in
	// place of generations.
	ProtocolConsumer GroupProtocol = "consumer"
)

// ErrProtocolUnsupported is returned by NewGroup for a GroupProtocol this
// version does not implement.
var ErrProtocolUnsupported = errors.New("consumer: group protocol not supported")

// Defaults applied by NewGroup to zero fields of GroupConfig (Java names
// and values).
const (
	DefaultSessionTimeout     = 45 * time.Second // session.timeout.ms
	DefaultRebalanceTimeout   = 5 * time.Minute  // max.poll.interval.ms, sent as the rebalance timeout
	DefaultHeartbeatInterval  = 3 * time.Second  // heartbeat.interval.ms
	DefaultAutoCommitInterval = 5 * time.Second  // auto.commit.interval.ms
)

// GroupConfig configures a Group. Zero values take the documented defaults.
type GroupConfig struct {
	// Config holds the fetch settings of the group's fetch engine (an
	// assigned Consumer): Isolation (isolation.level), OffsetReset
	// (auto.offset.reset: where a partition without a committed offset
	// starts, and what happens out of range; default ResetEarliest, where
	// Java's default is latest), MaxWait, MinBytes, MaxBytes,
	// PartitionMaxBytes, MaxBufferedBytes, and Rack (client.rack: follower
	// fetching, KIP-392, and rack-aware assignment, KIP-881).
	Config

	// GroupID is the group (group.id). Required.
	GroupID string
	// Topics are the subscribed topics. Exactly one of Topics and
	// TopicRegex is set.
	Topics []string
	// TopicRegex subscribes to every non-internal topic whose whole name
	// matches this RE2 expression (Java's subscribe(Pattern)); topics
	// created later that match are picked up at the next metadata check.
	TopicRegex string
	// Protocol is the membership protocol (group.protocol). Default ""
	// picks it when the member starts: ProtocolConsumer when the cluster's
	// finalized group.version feature is 1 or more (ApiVersions of the
	// group coordinator; Kafka 4.0+ enables it by default), else
	// ProtocolClassic. Java's default is classic; set ProtocolClassic to
	// join a classic group of Java members with client-side assignors.
	// ProtocolConsumer on a coordinator without KIP-848 (no
	// ConsumerGroupHeartbeat, or UNSUPPORTED_VERSION) stops the group at
	// its first heartbeat: Receive returns an error matching
	// gregor.ErrUnsupportedFeature.
	Protocol GroupProtocol
	// ServerAssignor names the coordinator's assignor for ProtocolConsumer
	// (group.remote.assignor): "uniform" or "range" on Apache Kafka; ""
	// lets the broker choose (its group.consumer.assignors' first,
	// uniform by default). Ignored by ProtocolClassic.
	ServerAssignor string
	// SessionTimeout is how long the coordinator keeps a member without
	// heartbeats (session.timeout.ms). Default 45s; the broker bounds it by
	// group.min/max.session.timeout.ms. ProtocolClassic only: the consumer
	// protocol's session timeout is the broker's
	// group.consumer.session.timeout.ms.
	SessionTimeout time.Duration
	// RebalanceTimeout is how long the coordinator waits for members to
	// rejoin in a rebalance, and bounds the revoking event's chance to
	// commit (max.poll.interval.ms). Default 5m.
	RebalanceTimeout time.Duration
	// HeartbeatInterval is the time between heartbeats
	// (heartbeat.interval.ms). Default 3s; must be below SessionTimeout.
	// ProtocolConsumer uses it only until the coordinator gives its own
	// (group.consumer.heartbeat.interval.ms).
	HeartbeatInterval time.Duration
	// InstanceID makes the member static (group.instance.id, KIP-345): it
	// keeps its assignment across restarts within SessionTimeout and does
	// not leave the group on Close.
	InstanceID string
	// Assignors are the partition assignors in order of preference
	// (partition.assignment.strategy); the group uses the first one every
	// member lists. The rebalance is cooperative (KIP-429) when every
	// listed assignor is cooperative, otherwise eager. Default Java's:
	// range, then cooperative-sticky (an eager group that can be moved to
	// cooperative-sticky by a rolling restart). Classic protocol only.
	Assignors []assign.Assignor
	// DisableAutoCommit turns off automatic commits (the inverse of
	// enable.auto.commit, which defaults to true). With auto-commit, the
	// group commits every AutoCommitInterval, before partitions are
	// revoked and on Close: the delivered positions, or with
	// CommitProcessed the processed prefixes.
	DisableAutoCommit bool
	// AutoCommitInterval is the auto-commit period
	// (auto.commit.interval.ms). Default 5s.
	AutoCommitInterval time.Duration
	// CommitProcessed selects the gap-safe commit mode: Receive tracks
	// delivered records, MarkProcessed marks them in any order, and
	// auto-commit commits only each partition's contiguous processed
	// prefix (CommitMarked commits it on demand).
	CommitProcessed bool
	// OnAssignment, if set, receives the assignment events in order, each
	// once, from the membership goroutine (see AssignmentEvent). It must
	// not call Close.
	OnAssignment func(ctx context.Context, ev AssignmentEvent)
}

// withDefaults returns cfg with zero fields defaulted and validated.
func (cfg GroupConfig) withDefaults() (GroupConfig, *regexp.Regexp, error) {
	var err error
	if cfg.Config, err = cfg.Config.withDefaults(); err != nil {
		return cfg, nil, err
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&cfg.SessionTimeout, DefaultSessionTimeout)
	def(&cfg.RebalanceTimeout, DefaultRebalanceTimeout)
	def(&cfg.HeartbeatInterval, DefaultHeartbeatInterval)
	def(&cfg.AutoCommitInterval, DefaultAutoCommitInterval)
	if len(cfg.Assignors) == 0 {
		cfg.Assignors = []assign.Assignor{assign.Range(), assign.CooperativeSticky()}
	}
	switch {
	case cfg.Protocol != "" && cfg.Protocol != ProtocolClassic && cfg.Protocol != ProtocolConsumer:
		return cfg, nil, fmt.Errorf("%w: %q", ErrProtocolUnsupported, cfg.Protocol)
	case cfg.GroupID == "":
		return cfg, nil, errors.New("consumer: empty GroupID")
	case (len(cfg.Topics) == 0) == (cfg.TopicRegex == ""):
		return cfg, nil, errors.New("consumer: set exactly one of Topics and TopicRegex")
	case cfg.SessionTimeout < time.Millisecond || cfg.RebalanceTimeout < time.Millisecond || cfg.HeartbeatInterval < time.Millisecond:
		return cfg, nil, errors.New("consumer: SessionTimeout, RebalanceTimeout and HeartbeatInterval must be at least 1ms")
	case cfg.HeartbeatInterval >= cfg.SessionTimeout:
		return cfg, nil, fmt.Errorf("consumer: HeartbeatInterval %v not below SessionTimeout %v", cfg.HeartbeatInterval, cfg.SessionTimeout)
	case cfg.AutoCommitInterval < 0:
		return cfg, nil, errors.New("consumer: negative AutoCommitInterval")
	}
	seen := map[string]bool{}
	for _, a := range cfg.Assignors {
		if a == nil || a.Name() == "" || seen[a.Name()] {
			return cfg, nil, errors.New("consumer: nil, unnamed or duplicate assignor")
		}
		seen[a.Name()] = true
	}
	for _, t := range cfg.Topics {
		if t == "" {
			return cfg, nil, errors.New("consumer: empty topic name")
		}
	}
	var re *regexp.Regexp
	if cfg.TopicRegex != "" {
		if re, err = regexp.Compile("^(?:" + cfg.TopicRegex + ")$"); err != nil {
			return cfg, nil, fmt.Errorf("consumer: TopicRegex: %w", err)
		}
	}
	cfg.Topics = append([]string(nil), cfg.Topics...)
	cfg.Assignors = append([]assign.Assignor(nil), cfg.Assignors...)
	return cfg, re, nil
}

// cooperative reports whether every assignor is cooperative (KIP-429), as
// Java picks the rebalance protocol all configured assignors support.
func (cfg *GroupConfig) cooperative() bool {
	for _, a := range cfg.Assignors {
		if a.Protocol() != assign.Cooperative {
			return false
		}
	}
	return true
}

// instanceID is InstanceID as a request's optional group instance ID: nil
// for a dynamic member.
func (cfg *GroupConfig) instanceID() *string {
	if cfg.InstanceID == "" {
		return nil
	}
	return &cfg.InstanceID
}
