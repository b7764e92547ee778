package producer

import (
	"errors"
	"testing"

	"github.com/gregor-kafka/gregor/client"
)

// terminalDelivery is a Delivery whose terminal is err (nil: delivered).
func terminalDelivery(err error) *Delivery {
	d := &Delivery{o: &outcome{err: err}}
	d.state.Store(stateTerminal)
	return d
}

// A Flush whose records were all delivered returns nil even when the
// client closed before Flush looked again (it used to return the
// client-closed error: it read p.gone after the waits).
func TestFlushResultIgnoresCloseAfterEveryRecordDelivered(t *testing.T) {
	delivered := []*Delivery{terminalDelivery(nil), terminalDelivery(nil)}
	if err := flushResult(false, delivered); err != nil {
		t.Fatalf("all delivered, client closed afterwards: %v, want nil", err)
	}
	failed := append(delivered, terminalDelivery(errClientClosed))
	if err := flushResult(false, failed); !errors.Is(err, ErrProducerClosed) {
		t.Fatalf("a record failed by the close: %v, want ErrProducerClosed", err)
	}
	inRequest := append(delivered, terminalDelivery(client.ErrClosed))
	if err := flushResult(false, inRequest); !errors.Is(err, ErrProducerClosed) {
		t.Fatalf("a record failed in its request by the close: %v, want ErrProducerClosed", err)
	}
	if err := flushResult(true, nil); !errors.Is(err, ErrProducerClosed) || !errors.Is(err, client.ErrClosed) {
		t.Fatalf("client closed before Flush: %v, want ErrProducerClosed and client.ErrClosed", err)
	}
}
