package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ProtocolVersion is the control protocol version this adapter speaks.
const ProtocolVersion = 34

// Command is one decoded command line: the envelope and the typed payload
// (the payload type of Kind's row in the command table, commands_table.go;
// nil for a kind this adapter knows but does not implement).
type Command struct {
	ProtocolVersion uint16
	CommandID       ID
	Kind            string
	Payload         any
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
	row, ok := commandTable[kind]
	if !ok {
		return nil, &DecodeError{Code: "adapter_json", Err: fmt.Errorf("unknown command kind %q", clipString(kind))}
	}
	cmd := &Command{ProtocolVersion: version, CommandID: id, Kind: kind}
	if row.payload == nil {
		return cmd, nil
	}
	payload := row.payload()
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
