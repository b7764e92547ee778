package txn

import (
	"context"
	"errors"
	"testing"

	"github.com/gregor-kafka/gregor/client"
)

// TestAbortCauseAfterClientClose: records an abort fails say ErrAborted,
// and also client.ErrClosed once the client is closed, so that closing the
// client and then the producer reports the client's close whichever of the
// two reaches a record first (internal/lifecycle's txn/client-then-object
// case failed 4 runs in 30 when the abort came first).
func TestAbortCauseAfterClientClose(t *testing.T) {
	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:1"}}) // never dialled
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(cl, Config{TransactionalID: "abort-cause"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(context.Background())
	if err := p.abortCause(); !errors.Is(err, ErrAborted) || errors.Is(err, client.ErrClosed) {
		t.Fatalf("client open: abortCause = %v, want ErrAborted alone", err)
	}
	cl.Close(context.Background())
	if err := p.abortCause(); !errors.Is(err, ErrAborted) || !errors.Is(err, client.ErrClosed) {
		t.Fatalf("client closed: abortCause = %v, want ErrAborted and client.ErrClosed", err)
	}
}
