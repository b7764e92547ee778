package client

import (
	"context"
	"fmt"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// roundTripper sends one connection-setup request on a connection and waits
// for its response: conn.roundTrip, or conn.lockedRoundTrip for a
// re-authentication, whose caller already holds the writer path.
type roundTripper func(ctx context.Context, req wire.Request, info wire.APIInfo, v int16) (wire.Response, error)

// authenticate runs SASL on a freshly negotiated connection, or again on an
// open one (KIP-368): SaslHandshake v1 naming the mechanism, then
// SaslAuthenticate rounds (KIP-152) carrying the messages of the configured
// Mechanism (PLAIN, SCRAM, OAUTHBEARER or the caller's), each sent with rt.
// Credentials go only into the SaslAuthenticate bytes; errors and logs never
// hold them. A refusal is ErrAuthentication. When the broker's last
// SaslAuthenticate response (v1+) gives the session a lifetime, cn.reauthAt
// is set to re-authenticate before it ends (see reauthTime).
func (c *Client) authenticate(ctx context.Context, cn *conn, rt roundTripper) error {
	m := c.cfg.Mechanism
	mech := m.Name()
	hinfo, err := cn.checkVersion(wire.KeySaslHandshake, 1)
	if err != nil {
		return withClass(classNegotiation, fmt.Errorf("SASL needs SaslHandshake v1: %w", err))
	}
	r, err := rt(ctx, &wire.SaslHandshakeRequest{Mechanism: mech}, hinfo, 1)
	if err != nil {
		return err
	}
	hs := r.(*wire.SaslHandshakeResponse)
	if kerr := wire.ErrorForCode(hs.ErrorCode); kerr != nil {
		return fmt.Errorf("%w: SaslHandshake %s with %s (broker enables %v): %w", ErrAuthentication, mech, cn.addr, hs.Mechanisms, kerr)
	}
	ainfo, av, err := cn.pickVersion(wire.KeySaslAuthenticate)
	if err != nil {
		return withClass(classNegotiation, err)
	}
	cn.reauthAt = 0
	round := func(msg []byte) ([]byte, error) {
		sent := time.Now()
		r, err := rt(ctx, &wire.SaslAuthenticateRequest{AuthBytes: msg}, ainfo, av)
		if err != nil {
			return nil, err
		}
		ar := r.(*wire.SaslAuthenticateResponse)
		cn.reauthAt = reauthTime(sent, ar.SessionLifetimeMs)
		if kerr := wire.ErrorForCode(ar.ErrorCode); kerr != nil {
			detail := ""
			if ar.ErrorMessage != nil && *ar.ErrorMessage != "" {
				detail = ": " + *ar.ErrorMessage
			}
			return nil, fmt.Errorf("%w: %s with %s%s: %w", ErrAuthentication, mech, cn.addr, detail, kerr)
		}
		return ar.AuthBytes, nil
	}

	sess, out, err := m.Start(ctx)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrAuthentication, mech, err)
	}
	for {
		in, err := round(out)
		if err != nil {
			return err
		}
		var done bool
		if out, done, err = sess.Step(in); err != nil {
			return fmt.Errorf("%w: %s with %s: %w", ErrAuthentication, mech, cn.addr, err)
		}
		if done {
			break
		}
	}
	if se, ok := sess.(SessionExpirer); ok {
		if exp := se.Expiry(); !exp.IsZero() {
			// The credentials end the session too: re-authenticate at
			// 85-95% of their remaining life if that comes first.
			at := reauthTime(time.Now(), max(1, time.Until(exp).Milliseconds()))
			if cn.reauthAt == 0 || at < cn.reauthAt {
				cn.reauthAt = at
			}
		}
	}
	return nil
}
