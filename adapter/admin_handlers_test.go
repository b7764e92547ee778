package adapter

import (
	"context"
	"errors"
	"testing"
)

// TestAdminHandlersCoverAdminKinds keeps the admin command table and the
// decoder's kind table in step: every kind whose payload is an admin
// payload has a handler, every handler's kind decodes to an admin payload,
// and each handler accepts the payload type its kind decodes to.
func TestAdminHandlersCoverAdminKinds(t *testing.T) {
	kinds := 0
	for kind, newPayload := range commandPayloads {
		p, ok := newPayload().(adminPayload)
		h, known := adminHandlers[kind]
		if ok != known {
			t.Errorf("%s: admin payload %v, handler %v", kind, ok, known)
			continue
		}
		if !ok {
			continue
		}
		kinds++
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := h(ctx, &fakeAdmin{topics: map[string]int32{}}, p); errors.Is(err, errWrongPayload) {
			t.Errorf("%s: the handler rejects the payload type %T", kind, p)
		}
	}
	if kinds != len(adminHandlers) {
		t.Errorf("%d admin kinds decode, %d handlers", kinds, len(adminHandlers))
	}
}
