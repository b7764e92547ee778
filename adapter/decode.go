package adapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ProtocolVersion is the control protocol version this adapter speaks.
const ProtocolVersion = 34

// Command is one decoded command line: the envelope and the typed payload
// (one of the structs of commands.go / commands_admin.go, by Kind; nil for
// a kind this adapter knows but does not implement).
type Command struct {
	ProtocolVersion uint16
	CommandID       ID
	Kind            string
	Payload         any
}

// commandPayloads maps every implemented command kind to a constructor of
// its payload.
var commandPayloads = map[string]func() any{
	"hello":                             func() any { return new(Hello) },
	"create_client":                     func() any { return new(CreateClient) },
	"create_configured_client":          func() any { return new(CreateConfiguredClient) },
	"await_client_ready":                func() any { return new(AwaitClientReady) },
	"observe_client_metrics":            func() any { return new(ObserveClientMetrics) },
	"create_producer":                   func() any { return new(CreateProducer) },
	"send":                              func() any { return new(Send) },
	"cancel_producer_send":              func() any { return new(CancelProducerSend) },
	"send_batch":                        func() any { return new(SendBatch) },
	"flush":                             func() any { return new(Flush) },
	"close_producer":                    func() any { return new(CloseProducer) },
	"start_concurrent_actors":           func() any { return new(StartConcurrentActors) },
	"join_concurrent_actors":            func() any { return new(JoinConcurrentActors) },
	"create_assigned_consumer":          func() any { return new(CreateAssignedConsumer) },
	"assign_beginning":                  func() any { return new(AssignBeginning) },
	"assign_beginning_batch":            func() any { return new(AssignBeginningBatch) },
	"control_assigned_consumer":         func() any { return new(ControlAssignedConsumer) },
	"receive":                           func() any { return new(Receive) },
	"close_assigned_consumer":           func() any { return new(CloseAssignedConsumer) },
	"create_group_consumer":             func() any { return new(CreateGroupConsumer) },
	"group_receive":                     func() any { return new(GroupReceive) },
	"observe_group_assignments":         func() any { return new(ObserveGroupAssignments) },
	"group_receive_set":                 func() any { return new(GroupReceiveSet) },
	"control_group_consumer":            func() any { return new(ControlGroupConsumer) },
	"shutdown_group_consumer":           func() any { return new(ShutdownGroupConsumer) },
	"close_group_consumer":              func() any { return new(CloseGroupConsumer) },
	"create_topic":                      func() any { return new(CreateTopic) },
	"create_topics_batch":               func() any { return new(CreateTopicsBatch) },
	"create_partitions":                 func() any { return new(CreatePartitions) },
	"delete_topic":                      func() any { return new(DeleteTopic) },
	"describe_topic":                    func() any { return new(DescribeTopic) },
	"list_topics":                       func() any { return new(ListTopics) },
	"list_offsets":                      func() any { return new(ListOffsets) },
	"delete_records":                    func() any { return new(DeleteRecords) },
	"describe_topic_config":             func() any { return new(DescribeTopicConfig) },
	"alter_topic_config":                func() any { return new(AlterTopicConfig) },
	"describe_cluster":                  func() any { return new(AdminSimple) },
	"list_consumer_groups":              func() any { return new(AdminSimple) },
	"describe_consumer_group":           func() any { return new(GroupCommand) },
	"list_consumer_group_offsets":       func() any { return new(ListConsumerGroupOffsets) },
	"list_consumer_group_offsets_batch": func() any { return new(ListConsumerGroupOffsetsBatch) },
	"list_consumer_groups_offsets":      func() any { return new(ListConsumerGroupsOffsets) },
	"alter_consumer_group_offset":       func() any { return new(AlterConsumerGroupOffset) },
	"alter_consumer_group_offsets":      func() any { return new(AlterConsumerGroupOffsets) },
	"delete_consumer_group_offset":      func() any { return new(DeleteConsumerGroupOffset) },
	"delete_consumer_group_offsets":     func() any { return new(DeleteConsumerGroupOffsets) },
	"delete_consumer_group":             func() any { return new(GroupCommand) },
	"describe_classic_groups":           func() any { return new(DescribeClassicGroups) },
	"shutdown_client":                   func() any { return new(ShutdownClient) },
	"create_transactional_producer":     func() any { return new(CreateTransactionalProducer) },
	"execute_transaction":               func() any { return new(ExecuteTransaction) },
	"execute_transactional_transform":   func() any { return new(ExecuteTransactionalTransform) },
	"fence_transaction":                 func() any { return new(FenceTransaction) },
	"close_transactional_producer":      func() any { return new(CloseTransactionalProducer) },
	"finish":                            func() any { return new(Finish) },
	"abort":                             func() any { return new(Abort) },
}

// unimplementedKinds are v34 commands without a payload in
// commandPayloads, answered with fatal adapter_unsupported. Only the
// share-group commands are listed, and they are served by their own
// registry (*_share.go) before this map is consulted.
var unimplementedKinds = map[string]bool{
	"create_share_consumer": true, "share_receive": true,
	"share_acknowledge": true, "drop_share_batch": true, "close_share_consumer": true,
}

// DecodeError is a line that cannot be turned into a command. When
// Envelope is true the envelope (version, id, kind) was readable and
// CommandID names the command, so the failure can be reported with a fatal
// event; otherwise nothing is emitted (§9.3).
type DecodeError struct {
	Code      string // adapter_json, adapter_identity or protocol_version
	CommandID ID
	Envelope  bool
	Err       error
}

// Error returns Code, a colon and the underlying error's text.
func (e *DecodeError) Error() string { return e.Code + ": " + e.Err.Error() }

// Unwrap returns Err, the JSON or validation error behind the failure, for
// errors.Is and errors.As.
func (e *DecodeError) Unwrap() error { return e.Err }

type envelope struct {
	ProtocolVersion json.RawMessage `json:"protocol_version"`
	CommandID       json.RawMessage `json:"command_id"`
	Kind            json.RawMessage `json:"kind"`
}

// DecodeCommand decodes one command line (without its newline). It reads the
// envelope first, then the payload for its kind with unknown keys rejected
// at every level.
//
// A protocol_version other than 34 yields a DecodeError with Code
// "protocol_version" and Envelope true (the caller emits fatal). Anything
// else malformed yields Envelope false: adapter_identity for a bad
// identifier, adapter_json otherwise.
func DecodeCommand(line []byte) (*Command, error) {
	var env envelope
	if err := json.Unmarshal(line, &env); err != nil {
		return nil, &DecodeError{Code: "adapter_json", Err: err}
	}
	if env.ProtocolVersion == nil || env.CommandID == nil || env.Kind == nil {
		return nil, &DecodeError{Code: "adapter_json", Err: errors.New("missing protocol_version, command_id or kind")}
	}
	var version uint16
	if err := json.Unmarshal(env.ProtocolVersion, &version); err != nil || isNull(env.ProtocolVersion) {
		return nil, &DecodeError{Code: "adapter_json", Err: fmt.Errorf("protocol_version is not a u16: %s", clip(env.ProtocolVersion))}
	}
	var id ID
	if err := json.Unmarshal(env.CommandID, &id); err != nil || isNull(env.CommandID) {
		code := "adapter_json"
		var bad *badIDError
		if errors.As(err, &bad) {
			code = "adapter_identity"
		}
		return nil, &DecodeError{Code: code, Err: fmt.Errorf("command_id: %v", err)}
	}
	var kind string
	if err := json.Unmarshal(env.Kind, &kind); err != nil || isNull(env.Kind) {
		return nil, &DecodeError{Code: "adapter_json", Err: errors.New("kind is not a string")}
	}
	if version != ProtocolVersion {
		return nil, &DecodeError{Code: "protocol_version", CommandID: id, Envelope: true,
			Err: fmt.Errorf("unsupported protocol version %d", version)}
	}
	cmd := &Command{ProtocolVersion: version, CommandID: id, Kind: kind}
	if unimplementedKinds[kind] {
		return cmd, nil
	}
	mk, ok := commandPayloads[kind]
	if !ok {
		return nil, &DecodeError{Code: "adapter_json", Err: fmt.Errorf("unknown command kind %q", clipString(kind))}
	}
	payload := mk()
	if err := decodePayload(line, payload); err != nil {
		code := "adapter_json"
		var bad *badIDError
		if errors.As(err, &bad) {
			code = "adapter_identity"
		}
		return nil, &DecodeError{Code: code, Err: fmt.Errorf("%s: %w", kind, err)}
	}
	cmd.Payload = payload
	return cmd, nil
}

// decodePayload decodes the line's payload keys (everything but the
// envelope) strictly into payload.
func decodePayload(line []byte, payload any) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil {
		return err
	}
	delete(obj, "protocol_version")
	delete(obj, "command_id")
	delete(obj, "kind")
	rest, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	return strictUnmarshal(rest, payload)
}

func isNull(b json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(b), []byte("null")) }

func clip(b []byte) string { return clipString(string(b)) }

func clipString(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
