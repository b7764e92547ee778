package client

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gregor-kafka/gregor/wire"
	"github.com/xdg-go/scram"
)

// roundTripper sends one connection-setup request on a connection and waits
// for its response: conn.roundTrip, or conn.lockedRoundTrip for a
// re-authentication, whose caller already holds the writer path.
type roundTripper func(ctx context.Context, req wire.Request, info wire.APIInfo, v int16) (wire.Response, error)

// authenticate runs SASL on a freshly negotiated connection, or again on an
// open one (KIP-368): SaslHandshake v1 naming the mechanism, then
// SaslAuthenticate rounds (KIP-152) carrying PLAIN (RFC 4616) or
// SCRAM-SHA-256/512 (RFC 5802, KIP-84) messages, each sent with rt.
// Credentials go only into the SaslAuthenticate bytes; errors and logs never
// hold them. A refusal is ErrAuthentication. When the broker's last
// SaslAuthenticate response (v1+) gives the session a lifetime, cn.reauthAt
// is set to re-authenticate before it ends (see reauthTime).
func (c *Client) authenticate(ctx context.Context, cn *conn, rt roundTripper) error {
	s := c.cfg.SASL
	mech := string(s.Mechanism)
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
			if ar.ErrorMessage != nil {
				detail = ": " + *ar.ErrorMessage
			}
			return nil, fmt.Errorf("%w: %s with %s%s: %w", ErrAuthentication, mech, cn.addr, detail, kerr)
		}
		return ar.AuthBytes, nil
	}

	switch s.Mechanism {
	case SASLPlain:
		msg := make([]byte, 0, 2+len(s.Username)+len(s.Password))
		msg = append(msg, 0)
		msg = append(msg, s.Username...)
		msg = append(msg, 0)
		msg = append(msg, s.Password...)
		_, err := round(msg)
		return err
	case SASLScramSHA256, SASLScramSHA512:
		hash := scram.SHA256
		if s.Mechanism == SASLScramSHA512 {
			hash = scram.SHA512
		}
		sc, err := hash.NewClient(s.Username, s.Password, "")
		if err != nil {
			// Only stringprep failures land here; they do not quote the input.
			return fmt.Errorf("%w: %s: preparing credentials: %w", ErrAuthentication, mech, err)
		}
		conv := sc.NewConversation()
		out, err := conv.Step("")
		for err == nil && !conv.Done() {
			var in []byte
			if in, err = round([]byte(out)); err != nil {
				return err
			}
			out, err = conv.Step(string(in))
		}
		if err != nil {
			return fmt.Errorf("%w: %s with %s: %w", ErrAuthentication, mech, cn.addr, err)
		}
		if !conv.Valid() {
			return fmt.Errorf("%w: %s with %s: server signature not verified", ErrAuthentication, mech, cn.addr)
		}
		return nil
	}
	return errors.New("unreachable: mechanism validated by New")
}
