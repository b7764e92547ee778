package judge

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
)

// The shared value types of §1.4 and §3, as events carry them.

// ID is an identifier (§1.4): 1..=128 bytes, an ASCII letter or digit
// first, then letters, digits, '-', '_', '.' or ':'.
type ID string

func (id *ID) validate() error {
	if !ValidID(string(*id)) {
		return fmt.Errorf("%q is not an identifier", string(*id))
	}
	return nil
}

// enum checks that s is one of values.
func enum(name, s string, values ...string) error {
	if !slices.Contains(values, s) {
		return fmt.Errorf("%q is not a %s (%v)", s, name, values)
	}
	return nil
}

// TerminalStatus is an operation's terminal status (§3.10).
type TerminalStatus string

func (s *TerminalStatus) validate() error {
	return enum("TerminalStatus", string(*s), terminalStatuses...)
}

var terminalStatuses = []string{"acknowledged", "definitely_not_sent", "possibly_sent", "transaction_staged"}

// CancellationOutcome is a ProducerCancellationOutcome (§3.10).
type CancellationOutcome string

func (o *CancellationOutcome) validate() error {
	return enum("ProducerCancellationOutcome", string(*o), "cancelled_not_sent", "too_late", "already_terminal")
}

// AssignedControlKind is an AssignedConsumerControlKind (§3.10).
type AssignedControlKind string

func (k *AssignedControlKind) validate() error {
	return enum("AssignedConsumerControlKind", string(*k), "replace", "add", "remove", "seek", "pause", "resume")
}

// GroupControlKind is a GroupConsumerControlKind (§3.10).
type GroupControlKind string

func (k *GroupControlKind) validate() error {
	return enum("GroupConsumerControlKind", string(*k), "pause", "resume", "seek")
}

// ShareDisposition is accept, release or reject (§3.10).
type ShareDisposition string

func (d *ShareDisposition) validate() error {
	return enum("ShareDisposition", string(*d), "accept", "release", "reject")
}

// TransactionDisposition is commit or abort (§3.10).
type TransactionDisposition string

func (d *TransactionDisposition) validate() error {
	return enum("TransactionDisposition", string(*d), "commit", "abort")
}

// TransitionKind is a GroupAssignmentTransitionKind (§3.10).
type TransitionKind string

func (k *TransitionKind) validate() error {
	return enum("GroupAssignmentTransitionKind", string(*k), "assigned", "revoking", "lost")
}

// ByteString is bytes on the wire (§3.1). A nullable byte string is a
// *ByteString (nil = JSON null); Bytes tells null from empty.
type ByteString struct {
	Encoding string `json:"encoding"`
	Data     string `json:"data"`
	bytes    []byte // decoded by validate
}

func (b *ByteString) validate() error {
	switch b.Encoding {
	case "utf8":
		b.bytes = []byte(b.Data)
	case "hex":
		out, err := hex.DecodeString(b.Data)
		if err != nil {
			return fmt.Errorf("data: bad hex: %v", err)
		}
		b.bytes = out
	default:
		return fmt.Errorf("encoding: %q is not utf8 or hex", b.Encoding)
	}
	if b.bytes == nil {
		b.bytes = []byte{}
	}
	return nil
}

// Bytes returns the bytes: nil for a nil ByteString (JSON null), a non-nil
// empty slice for an empty one.
func (b *ByteString) Bytes() []byte {
	if b == nil {
		return nil
	}
	return b.bytes
}

// DecodeByteString decodes a ByteString (§3.1) strictly; JSON null (or no
// value) gives (nil, nil) and an empty ByteString a non-nil empty slice.
func DecodeByteString(raw json.RawMessage) ([]byte, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var b *ByteString
	if err := decodeStrict(raw, &b, "ByteString"); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Header is a HeaderSpec (§3.2); a nil Value is a null header value.
type Header struct {
	Name  string      `json:"name"`
	Value *ByteString `json:"value"`
}

// ConsumedRecord is a record the adapter reports as received (§3.4).
type ConsumedRecord struct {
	Topic           string      `json:"topic"`
	Partition       int32       `json:"partition"`
	Offset          int64       `json:"offset"`
	TimestampMillis *int64      `json:"timestamp_millis"`
	Key             *ByteString `json:"key"`
	Value           *ByteString `json:"value"`
	Headers         []Header    `json:"headers"`
}

func (r *ConsumedRecord) validate() error {
	if r.Partition < 0 || r.Offset < 0 {
		return fmt.Errorf("partition %d offset %d: want both >= 0", r.Partition, r.Offset)
	}
	return nil
}

// TopicPartition is a TopicPartitionIdentity (§3.6).
type TopicPartition struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
}

// GroupEpoch is a GroupMembershipEpoch (§3.9), tagged by kind:
// {"kind":"classic","generation_id":i32} or
// {"kind":"consumer","member_epoch":i32}. Exactly one of GenerationID and
// MemberEpoch is set, as Kind says.
type GroupEpoch struct {
	Kind         string
	GenerationID *int32
	MemberEpoch  *int32
}

func (g *GroupEpoch) decodeStrict(raw json.RawMessage, path string) error {
	obj, err := objectFields(raw, path)
	if err != nil {
		return err
	}
	rawKind, ok := obj["kind"]
	if !ok {
		return fmt.Errorf("%s: missing keys [kind]", path)
	}
	var kind string
	if err := decodeStrict(rawKind, &kind, path+".kind"); err != nil {
		return err
	}
	switch kind {
	case "classic":
		var v struct {
			Kind         string `json:"kind"`
			GenerationID int32  `json:"generation_id"`
		}
		if err := decodeStrict(raw, &v, path); err != nil {
			return err
		}
		*g = GroupEpoch{Kind: kind, GenerationID: &v.GenerationID}
	case "consumer":
		var v struct {
			Kind        string `json:"kind"`
			MemberEpoch int32  `json:"member_epoch"`
		}
		if err := decodeStrict(raw, &v, path); err != nil {
			return err
		}
		*g = GroupEpoch{Kind: kind, MemberEpoch: &v.MemberEpoch}
	default:
		return fmt.Errorf("%s.kind: %q is not classic or consumer", path, kind)
	}
	return nil
}

// Value returns the generation id (classic) or member epoch (consumer).
func (g *GroupEpoch) Value() int32 {
	if g.GenerationID != nil {
		return *g.GenerationID
	}
	if g.MemberEpoch != nil {
		return *g.MemberEpoch
	}
	return 0
}
