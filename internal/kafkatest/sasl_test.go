package kafkatest

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// saslPlain performs SaslHandshake v1 + SaslAuthenticate v0 with mechanism
// PLAIN on conn (KIP-152). A rejected login returns an error naming the
// broker's error code.
func saslPlain(ctx context.Context, conn net.Conn, user, pass string) error {
	dl, ok := ctx.Deadline()
	if !ok {
		dl = time.Now().Add(10 * time.Second)
	}
	_ = conn.SetDeadline(dl)
	r, err := roundTrip(conn, 17, 1, 100, wire.AppendString(nil, "PLAIN", false))
	if err != nil {
		return fmt.Errorf("SaslHandshake: %w", err)
	}
	if code := r.Int16(); code != 0 {
		return fmt.Errorf("SaslHandshake: error code %d (mechanisms %v)", code, r.StringArray(false))
	}
	token := []byte("\x00" + user + "\x00" + pass)
	r, err = roundTrip(conn, 36, 0, 101, wire.AppendBytes(nil, token, false))
	if err != nil {
		return fmt.Errorf("SaslAuthenticate: %w", err)
	}
	code := r.Int16()
	msg := r.NullableString(false)
	if code != 0 {
		m := ""
		if msg != nil {
			m = *msg
		}
		return fmt.Errorf("SaslAuthenticate: error code %d: %s", code, m)
	}
	return r.Err()
}
