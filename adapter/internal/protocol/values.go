package protocol

import (
	"encoding/json"
	"fmt"
	"slices"
)

// HeaderSpec is one record header (§3.2). Value nil means a null header value.
type HeaderSpec struct {
	Name  string      `json:"name"`
	Value *ByteString `json:"value"`
}

// RecordSpec is a record offered by testctl (§3.3). Headers defaults to
// empty; TimestampMillis (Unix ms) is tolerated when present (a later
// protocol revision added it).
type RecordSpec struct {
	Topic           string       `json:"topic"`
	Partition       int32        `json:"partition"`
	Sequence        uint64       `json:"sequence"`
	Key             *ByteString  `json:"key"`
	Value           *ByteString  `json:"value"`
	Headers         []HeaderSpec `json:"headers" adapter:"optional"`
	TimestampMillis *int64       `json:"timestamp_millis" adapter:"optional"`
}

// ConsumedRecord is a record reported by the adapter (§3.4). Key, value and
// header values are hex; Headers is never nil.
type ConsumedRecord struct {
	Topic           string       `json:"topic"`
	Partition       int32        `json:"partition"`
	Offset          int64        `json:"offset"`
	TimestampMillis *int64       `json:"timestamp_millis"`
	Key             *ByteString  `json:"key"`
	Value           *ByteString  `json:"value"`
	Headers         []HeaderSpec `json:"headers"`
}

// BatchRecord is one operation of a batch (§3.5).
type BatchRecord struct {
	OperationID ID         `json:"operation_id"`
	Record      RecordSpec `json:"record"`
}

// TopicPartition is a TopicPartitionIdentity (§3.6).
type TopicPartition struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
}

// Position kinds of AssignedStartPosition (§3.7).
const (
	PositionBeginning = "beginning"
	PositionEnd       = "end"
	PositionOffset    = "offset"
)

// StartPosition is an AssignedStartPosition (§3.7): Kind is beginning, end
// or offset; Offset is meaningful only for offset.
type StartPosition struct {
	Kind   string
	Offset int64
}

// UnmarshalJSON decodes the tagged union strictly.
func (p *StartPosition) UnmarshalJSON(data []byte) error {
	kind, err := tagOf(data)
	if err != nil {
		return err
	}
	switch kind {
	case PositionBeginning, PositionEnd:
		var v struct {
			Kind string `json:"kind"`
		}
		if err := strictUnmarshal(data, &v); err != nil {
			return err
		}
		*p = StartPosition{Kind: kind}
	case PositionOffset:
		var v struct {
			Kind   string `json:"kind"`
			Offset int64  `json:"offset"`
		}
		if err := strictUnmarshal(data, &v); err != nil {
			return err
		}
		*p = StartPosition{Kind: kind, Offset: v.Offset}
	default:
		return fmt.Errorf("unknown position kind %q", kind)
	}
	return nil
}

// MarshalJSON encodes the tagged union.
func (p StartPosition) MarshalJSON() ([]byte, error) {
	if p.Kind == PositionOffset {
		return json.Marshal(struct {
			Kind   string `json:"kind"`
			Offset int64  `json:"offset"`
		}{p.Kind, p.Offset})
	}
	return json.Marshal(struct {
		Kind string `json:"kind"`
	}{p.Kind})
}

// PartitionPosition is an AssignedPartitionPosition (§3.8).
type PartitionPosition struct {
	Topic     string        `json:"topic"`
	Partition int32         `json:"partition"`
	Position  StartPosition `json:"position"`
}

// enum is a string restricted to a fixed set of snake_case values.
type enumSpec struct {
	name   string
	values []string
}

func decodeEnum(data []byte, spec enumSpec) (string, error) {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return "", err
	}
	if !slices.Contains(spec.values, s) {
		return "", fmt.Errorf("unknown %s %q", spec.name, s)
	}
	return s, nil
}

// Compression is a ProducerCompression selection (§3.10).
type Compression string

var compressionSpec = enumSpec{"compression", []string{"none", "gzip", "snappy", "lz4", "zstd"}}

// UnmarshalJSON accepts only the five selections.
func (c *Compression) UnmarshalJSON(b []byte) error {
	s, err := decodeEnum(b, compressionSpec)
	*c = Compression(s)
	return err
}

// OffsetPosition is an AdminOffsetPosition: earliest or latest (§3.10).
type OffsetPosition string

var offsetPositionSpec = enumSpec{"offset position", []string{"earliest", "latest"}}

// UnmarshalJSON accepts earliest or latest.
func (o *OffsetPosition) UnmarshalJSON(b []byte) error {
	s, err := decodeEnum(b, offsetPositionSpec)
	*o = OffsetPosition(s)
	return err
}

// SASLMechanism is an AdapterSaslMechanism (§3.10).
type SASLMechanism string

var saslSpec = enumSpec{"sasl mechanism", []string{"plain", "scram_sha256", "scram_sha512"}}

// UnmarshalJSON accepts plain, scram_sha256 or scram_sha512.
func (m *SASLMechanism) UnmarshalJSON(b []byte) error {
	s, err := decodeEnum(b, saslSpec)
	*m = SASLMechanism(s)
	return err
}

// Security kinds (§2.1).
const (
	SecurityPlaintext     = "plaintext"
	SecurityTLSCustom     = "tls_custom"
	SecuritySASLPlaintext = "sasl_plaintext"
	SecuritySASLTLS       = "sasl_tls"
)

// Security is the AdapterSecurity union of hello (§2.1). The *Environment
// fields name environment variables; they never hold secrets.
type Security struct {
	Kind                string
	CAPEMEnvironment    string
	Mechanism           SASLMechanism
	UsernameEnvironment string
	PasswordEnvironment string
}

// UnmarshalJSON decodes the union strictly, by kind.
func (s *Security) UnmarshalJSON(data []byte) error {
	kind, err := tagOf(data)
	if err != nil {
		return err
	}
	out := Security{Kind: kind}
	switch kind {
	case SecurityPlaintext:
		var v struct {
			Kind string `json:"kind"`
		}
		err = strictUnmarshal(data, &v)
	case SecurityTLSCustom:
		var v struct {
			Kind string `json:"kind"`
			CA   string `json:"ca_pem_environment"`
		}
		err = strictUnmarshal(data, &v)
		out.CAPEMEnvironment = v.CA
	case SecuritySASLPlaintext:
		var v struct {
			Kind      string        `json:"kind"`
			Mechanism SASLMechanism `json:"mechanism"`
			User      string        `json:"username_environment"`
			Pass      string        `json:"password_environment"`
		}
		err = strictUnmarshal(data, &v)
		out.Mechanism, out.UsernameEnvironment, out.PasswordEnvironment = v.Mechanism, v.User, v.Pass
	case SecuritySASLTLS:
		var v struct {
			Kind      string        `json:"kind"`
			CA        string        `json:"ca_pem_environment"`
			Mechanism SASLMechanism `json:"mechanism"`
			User      string        `json:"username_environment"`
			Pass      string        `json:"password_environment"`
		}
		err = strictUnmarshal(data, &v)
		out.CAPEMEnvironment = v.CA
		out.Mechanism, out.UsernameEnvironment, out.PasswordEnvironment = v.Mechanism, v.User, v.Pass
	default:
		return fmt.Errorf("unknown security kind %q", kind)
	}
	if err != nil {
		return err
	}
	*s = out
	return nil
}
