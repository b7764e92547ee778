package client

import (
	"context"
	"errors"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"
)

// closedPort returns a loopback address nothing listens on (a port just
// released).
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestBootstrapRefusedFailsFast (issue 36): when every bootstrap address
// refuses the connection, Ready fails after a few quick retries with a
// one-line error naming the refusal, not at its 30s deadline; a broker
// that starts listening meanwhile (a restart) is still reached.
func TestBootstrapRefusedFailsFast(t *testing.T) {
	cl, err := New(Config{Bootstrap: []string{closedPort(t), closedPort(t)}, RequestTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = cl.Ready(ctx)
	if !errors.Is(err, syscall.ECONNREFUSED) || !errors.Is(err, ErrTransport) || errors.Is(err, ErrTimeout) || ctx.Err() != nil {
		t.Fatalf("Ready: %v; want a refused-connection transport error before the deadline", err)
	}
	if CertaintyOf(err) != NotSent || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "every bootstrap address refused") {
		t.Fatalf("Ready: %q (%v): want one line, NotSent, saying every bootstrap address refused", err, CertaintyOf(err))
	}
}

// TestBootstrapRefusedThenListening: a bootstrap address that refuses
// once and then accepts (a broker restarting) is retried, not given up.
func TestBootstrapRefusedThenListening(t *testing.T) {
	fc := newFakeCluster(t, 1)
	cfg := fc.config()
	refusedOnce := make(chan struct{})
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		select {
		case <-refusedOnce:
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		default:
			close(refusedOnce)
			return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
		}
	}
	cfg.Dialer = dial
	cl := newTestClient(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := cl.Ready(ctx); err != nil {
		t.Fatalf("Ready after one refusal: %v", err)
	}
}
