package protocol

import (
	"encoding/json"
	"fmt"
)

// GroupOffsetReset is a GroupOffsetReset (§3.10): earliest or latest.
type GroupOffsetReset string

var groupOffsetResetSpec = enumSpec{"group offset reset", []string{"earliest", "latest"}}

// UnmarshalJSON accepts earliest or latest.
func (o *GroupOffsetReset) UnmarshalJSON(b []byte) error {
	s, err := decodeEnum(b, groupOffsetResetSpec)
	*o = GroupOffsetReset(s)
	return err
}

// GroupReadIsolation is a GroupReadIsolation (§3.10).
type GroupReadIsolation string

var groupIsolationSpec = enumSpec{"group read isolation", []string{"read_uncommitted", "read_committed"}}

// UnmarshalJSON accepts read_uncommitted or read_committed.
func (o *GroupReadIsolation) UnmarshalJSON(b []byte) error {
	s, err := decodeEnum(b, groupIsolationSpec)
	*o = GroupReadIsolation(s)
	return err
}

// GroupProtocolName is a GroupProtocol (§3.10): classic or consumer.
type GroupProtocolName string

var groupProtocolSpec = enumSpec{"group protocol", []string{"classic", "consumer"}}

// UnmarshalJSON accepts classic or consumer.
func (o *GroupProtocolName) UnmarshalJSON(b []byte) error {
	s, err := decodeEnum(b, groupProtocolSpec)
	*o = GroupProtocolName(s)
	return err
}

// GroupConsumerConfiguration is create_group_consumer's optional
// configuration; both keys are required when present.
type GroupConsumerConfiguration struct {
	OffsetReset   GroupOffsetReset   `json:"offset_reset"`
	ReadIsolation GroupReadIsolation `json:"read_isolation"`
}

// UnmarshalJSON requires both keys.
func (c *GroupConsumerConfiguration) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if raw["offset_reset"] == nil || raw["read_isolation"] == nil {
		return fmt.Errorf("configuration needs offset_reset and read_isolation")
	}
	type plain GroupConsumerConfiguration
	var v plain
	if err := strictUnmarshal(b, &v); err != nil {
		return err
	}
	*c = GroupConsumerConfiguration(v)
	return nil
}

// CreateGroupConsumer starts a group member (§4.5).
type CreateGroupConsumer struct {
	ClientID      ID                          `json:"client_id"`
	ConsumerID    ID                          `json:"consumer_id"`
	GroupID       string                      `json:"group_id"`
	Topic         string                      `json:"topic"`
	Protocol      GroupProtocolName           `json:"protocol"`
	Configuration *GroupConsumerConfiguration `json:"configuration" adapter:"optional"`
}

// GroupReceive takes one batch and commits its checkpoint.
type GroupReceive struct {
	ConsumerID ID     `json:"consumer_id"`
	ReceiveID  ID     `json:"receive_id"`
	TimeoutMs  uint64 `json:"timeout_ms"`
}

// ObserveGroupAssignments drains transitions and reports settled snapshots.
type ObserveGroupAssignments struct {
	OperationID ID     `json:"operation_id"`
	ConsumerIDs []ID   `json:"consumer_ids"`
	TimeoutMs   uint64 `json:"timeout_ms"`
}

// GroupReceiveSet receives round-robin across members.
type GroupReceiveSet struct {
	ReceiveID   ID     `json:"receive_id"`
	ConsumerIDs []ID   `json:"consumer_ids"`
	RecordCount uint64 `json:"record_count"`
	TimeoutMs   uint64 `json:"timeout_ms"`
}

// Control kinds of control_group_consumer (§4.5).
const (
	GroupControlPause  = "pause"
	GroupControlResume = "resume"
	GroupControlSeek   = "seek"
)

// GroupControl is the control union of control_group_consumer.
type GroupControl struct {
	Kind       string
	Partitions []TopicPartition // pause, resume
	Partition  TopicPartition   // seek
	Position   StartPosition    // seek
}

// UnmarshalJSON decodes the control union strictly.
func (c *GroupControl) UnmarshalJSON(data []byte) error {
	kind, err := tagOf(data)
	if err != nil {
		return err
	}
	out := GroupControl{Kind: kind}
	switch kind {
	case GroupControlPause, GroupControlResume:
		var v struct {
			Kind       string           `json:"kind"`
			Partitions []TopicPartition `json:"partitions"`
		}
		err = strictUnmarshal(data, &v)
		out.Partitions = v.Partitions
		if err == nil && (len(v.Partitions) < 1 || len(v.Partitions) > 32) {
			err = fmt.Errorf("%s needs 1..=32 partitions", kind)
		}
	case GroupControlSeek:
		out.Partition, out.Position, err = seekOf(data)
	default:
		return fmt.Errorf("unknown group control kind %q", kind)
	}
	if err != nil {
		return err
	}
	*c = out
	return nil
}

// ControlGroupConsumer pauses, resumes or seeks a group member's partitions.
type ControlGroupConsumer struct {
	OperationID ID           `json:"operation_id"`
	ConsumerID  ID           `json:"consumer_id"`
	Control     GroupControl `json:"control"`
	TimeoutMs   uint64       `json:"timeout_ms"`
}

// ShutdownGroupConsumer issues request_count shutdown requests.
type ShutdownGroupConsumer struct {
	OperationID  ID     `json:"operation_id"`
	ConsumerID   ID     `json:"consumer_id"`
	RequestCount uint8  `json:"request_count"`
	TimeoutMs    uint64 `json:"timeout_ms"`
}

// CloseGroupConsumer closes a group member.
type CloseGroupConsumer struct {
	ConsumerID ID `json:"consumer_id"`
}
