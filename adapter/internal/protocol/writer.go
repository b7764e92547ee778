package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// MaxLine is the protocol's line bound in bytes, newline included (§1.1).
const MaxLine = 4 << 20

// Writer is the single event writer. Each Emit writes one whole compact
// JSON line (envelope keys first, then the event's keys) with one Write
// call, so stdout never holds a partial line. It is safe for concurrent use.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter returns a Writer onto w (unbuffered: each line is one Write).
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// EncodeEvent returns the event line for commandID, newline included.
func EncodeEvent(commandID ID, ev Event) ([]byte, error) {
	body, err := json.Marshal(ev)
	if err != nil {
		return nil, err
	}
	if len(body) < 2 || body[0] != '{' {
		return nil, fmt.Errorf("event %s does not encode to an object", ev.EventKind())
	}
	var b bytes.Buffer
	b.WriteString(`{"protocol_version":`)
	b.WriteString(strconv.Itoa(ProtocolVersion))
	b.WriteString(`,"command_id":`)
	id, _ := json.Marshal(string(commandID))
	b.Write(id)
	b.WriteString(`,"kind":`)
	kind, _ := json.Marshal(ev.EventKind())
	b.Write(kind)
	if len(body) > 2 {
		b.WriteByte(',')
		b.Write(body[1:])
	} else {
		b.WriteByte('}')
	}
	b.WriteByte('\n')
	if b.Len() > MaxLine {
		return nil, fmt.Errorf("event %s is %d bytes, over the %d-byte line bound", ev.EventKind(), b.Len(), MaxLine)
	}
	return b.Bytes(), nil
}

// Emit writes one event line for commandID.
func (w *Writer) Emit(commandID ID, ev Event) error {
	line, err := EncodeEvent(commandID, ev)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err = w.w.Write(line)
	return err
}
