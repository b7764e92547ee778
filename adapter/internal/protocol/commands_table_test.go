package protocol

import (
	"errors"
	"io"
	"testing"
)

// commandPayloads and unimplementedKinds are the command table's
// implemented kinds (with their payload constructors) and its recognised but
// unimplemented kinds, as the decode and PROTOCOL.md tests read them.
var commandPayloads, unimplementedKinds = splitCommandTable()

func splitCommandTable() (map[string]func() any, map[string]bool) {
	implemented, unimplemented := map[string]func() any{}, map[string]bool{}
	for kind, row := range commandTable {
		if row.payload == nil {
			unimplemented[kind] = true
		} else {
			implemented[kind] = row.payload
		}
	}
	return implemented, unimplemented
}

// TestCommandTableRows keeps the command table whole: every family's row
// has a distinct kind and a handler, the admin payloads are exactly the
// admin family's rows, and each handler rejects a payload of another type
// than its row's (adapter_internal; handledBy builds the row's payload and
// handler from one type, so the handler accepts the payload its row
// decodes to).
func TestCommandTableRows(t *testing.T) {
	rows := 0
	for _, family := range commandFamilies {
		rows += len(family)
	}
	if rows != len(commandTable) {
		t.Errorf("%d rows over the families, %d distinct kinds: a kind is listed twice", rows, len(commandTable))
	}
	admin := map[string]bool{}
	for _, row := range adminCommands {
		admin[row.kind] = true
	}
	for kind, row := range commandTable {
		if row.run == nil || row.payload == nil {
			t.Errorf("%s: handler %v, payload %v", kind, row.run != nil, row.payload != nil)
			continue
		}
		if _, ok := row.payload().(adminPayload); ok != admin[kind] {
			t.Errorf("%s: admin payload %v, admin row %v", kind, ok, admin[kind])
		}
		s := NewSession(nil, io.Discard, io.Discard)
		if code := fatalCode(row.run(s, struct{}{})); code != "adapter_internal" {
			t.Errorf("%s: a payload of the wrong type gives %q, want adapter_internal", kind, code)
		}
	}
}

func fatalCode(err error) string {
	var fe *fatalError
	if errors.As(err, &fe) {
		return fe.code
	}
	return ""
}
