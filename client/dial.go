package client

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// Client software name and version sent in ApiVersions v3+ (KIP-511).
const (
	softwareName    = "gregor"
	softwareVersion = "0.1.0"
)

// dial opens, secures and negotiates a connection to addr: TCP connect and
// TLS handshake bounded by DialTimeout (and ctx), then ApiVersions and SASL
// bounded by ctx. broker is the node ID the connection is for (-1 for a
// bootstrap address); lane is the workload lane it serves.
func (c *Client) dial(ctx context.Context, addr string, broker int32, lane Lane) (*conn, error) {
	cn, err := c.dialOnce(ctx, addr, broker, lane)
	var h *apiVersionsHangup
	if errors.As(err, &h) && ctx.Err() == nil {
		c.cfg.Logger.Debug("gregor: ApiVersions fallback after a hang-up", "addr", addr, "from", h.version, "to", apiVersionsHangupFallback)
		c.apiVersionsCap.Store(apiVersionsHangupFallback + 1)
		return c.dialOnce(ctx, addr, broker, lane)
	}
	return cn, err
}

// dialOnce is one connection attempt of dial.
func (c *Client) dialOnce(ctx context.Context, addr string, broker int32, lane Lane) (*conn, error) {
	dctx, cancel := context.WithTimeout(ctx, c.cfg.DialTimeout)
	defer cancel()
	nc, err := c.dialer(dctx, "tcp", addr)
	if err != nil {
		return nil, dialError(ctx, dctx, addr, err)
	}
	if c.cfg.TLS != nil {
		tcfg := c.cfg.TLS.Clone()
		if tcfg.ServerName == "" {
			if host, _, err := net.SplitHostPort(addr); err == nil {
				tcfg.ServerName = host
			}
		}
		tc := tls.Client(nc, tcfg)
		if err := tc.HandshakeContext(dctx); err != nil {
			_ = nc.Close()
			return nil, tlsError(ctx, dctx, addr, err)
		}
		nc = tc
	}
	cn := newConn(c, nc, addr, broker, lane)
	if err := c.negotiate(ctx, cn); err != nil {
		err = tlsRefusal(addr, err)
		cn.fail(err)
		// The reader may have failed the connection first (the broker
		// hangs up after refusing authentication); wait until it has
		// finished, so its closing (and its log) precede our answer.
		<-cn.readerDone
		return nil, err
	}
	// Counted opened only if the reader has not failed it meanwhile (then
	// fail, which saw it not opened, does not count it closed either).
	cn.mu.Lock()
	open := !cn.closed
	cn.opened = open
	cn.mu.Unlock()
	if open {
		c.m.connsOpened.Add(1)
		c.m.laneOpened[lane].Add(1)
		c.tel.wake()
	}
	if broker >= 0 {
		c.knownReachable()
	}
	c.cfg.Logger.Debug("gregor: connected", "addr", addr, "broker", broker, "lane", lane.String(), "tls", c.cfg.TLS != nil, "sasl", c.saslMechanism())
	return cn, nil
}

func (c *Client) saslMechanism() string {
	if c.cfg.Mechanism == nil {
		return ""
	}
	return c.cfg.Mechanism.Name()
}

// dialError classifies a failed TCP connect.
func dialError(ctx, dctx context.Context, addr string, err error) error {
	if ctx.Err() != nil {
		return ctxError(ctx.Err())
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return withClass(classDNS, fmt.Errorf("%w: %s: %w", ErrDNS, addr, err))
	}
	if dctx.Err() != nil {
		err = fmt.Errorf("DialTimeout: %w", err)
	}
	return withClass(classConnect, fmt.Errorf("%w: connect to %s: %w", ErrTransport, addr, err))
}

// tlsError classifies a failed TLS handshake: a certificate the client
// cannot verify, or an alert from the broker, is ErrAuthentication; anything
// else is ErrTransport.
func tlsError(ctx, dctx context.Context, addr string, err error) error {
	if ctx.Err() != nil {
		return ctxError(ctx.Err())
	}
	var (
		verr  *tls.CertificateVerificationError
		uaErr x509.UnknownAuthorityError
		hnErr x509.HostnameError
		ciErr x509.CertificateInvalidError
		alert tls.AlertError
		op    *net.OpError
	)
	if errors.As(err, &op) && op.Op == "remote error" { // an alert received (e.g. client certificate refused under TLS 1.2)
		return fmt.Errorf("%w: TLS handshake with %s: %w", ErrAuthentication, addr, err)
	}
	if errors.As(err, &verr) || errors.As(err, &uaErr) || errors.As(err, &hnErr) || errors.As(err, &ciErr) || errors.As(err, &alert) {
		return fmt.Errorf("%w: TLS handshake with %s: %w", ErrAuthentication, addr, err)
	}
	return withClass(classConnect, fmt.Errorf("%w: TLS handshake with %s: %w", ErrTransport, addr, err))
}

// tlsRefusal types a TLS alert the broker sends after the handshake as
// ErrAuthentication: with TLS 1.3 a broker requiring a client certificate
// (ssl.client.auth=required) that gets none, or one it does not trust,
// answers the client's first read with an alert ("bad certificate",
// "certificate required"), not the handshake. Only the alert is kept in
// the chain: the refusal is not a retriable transport failure.
func tlsRefusal(addr string, err error) error {
	// crypto/tls reports a received alert as a *net.OpError with Op
	// "remote error" (the alert type itself is unexported).
	var op *net.OpError
	if errors.Is(err, ErrAuthentication) || !errors.As(err, &op) || op.Op != "remote error" {
		return err
	}
	return fmt.Errorf("%w: %s refused the TLS client certificate (ssl.client.auth): %w", ErrAuthentication, addr, op)
}

// negotiate runs ApiVersions (falling back to the broker's advertised
// ApiVersions version, or v0, on UNSUPPORTED_VERSION) and then SASL.
func (c *Client) negotiate(ctx context.Context, cn *conn) error {
	info, ok := wire.LookupAPI(wire.KeyApiVersions)
	if !ok {
		return fmt.Errorf("%w: ApiVersions is not in the wire API table", ErrUnsupportedVersion)
	}
	req := &wire.ApiVersionsRequest{ClientSoftwareName: softwareName, ClientSoftwareVersion: softwareVersion, NodeID: -1}
	v := info.MaxVersion
	if capped := int16(c.apiVersionsCap.Load()) - 1; capped >= 0 {
		v = min(v, capped)
	}
	var resp *wire.ApiVersionsResponse
	for attempt := 0; ; attempt++ {
		sent := time.Now()
		r, err := cn.roundTrip(ctx, req, info, v)
		if err != nil {
			if attempt == 0 && v > apiVersionsHangupFallback && errors.Is(err, ErrTransport) && ctx.Err() == nil {
				return &apiVersionsHangup{version: v, err: err}
			}
			return err
		}
		c.rtts.note(cn.broker, time.Since(sent))
		resp = r.(*wire.ApiVersionsResponse)
		if resp.ErrorCode != wire.ErrUnsupportedVersion.Code || attempt > 0 || v == 0 {
			break
		}
		next := int16(0) // KIP-511: the broker lists the ApiVersions versions it speaks; else v0
		for _, k := range resp.ApiKeys {
			if k.ApiKey == wire.KeyApiVersions && k.MaxVersion < v {
				next = max(k.MaxVersion, info.MinVersion, 0)
			}
		}
		c.cfg.Logger.Debug("gregor: ApiVersions fallback", "addr", cn.addr, "from", v, "to", next)
		v = next
	}
	if err := wire.ErrorForCode(resp.ErrorCode); err != nil {
		return withClass(classNegotiation, fmt.Errorf("%w: ApiVersions v%d to %s: %w", ErrProtocol, v, cn.addr, err))
	}
	cn.versions.set(resp.ApiKeys)
	if c.cfg.Mechanism != nil {
		if err := c.authenticate(ctx, cn, cn.roundTrip); err != nil {
			return err
		}
	}
	return nil
}

// pickVersion returns the API info and the highest version of key that both
// gregor and the broker on cn support, or ErrUnsupportedVersion.
func (cn *conn) pickVersion(key wire.APIKey) (wire.APIInfo, int16, error) {
	info, ok := wire.LookupAPI(key)
	if !ok {
		return info, 0, fmt.Errorf("%w: gregor does not implement API key %d", ErrUnsupportedVersion, key)
	}
	br, ok := cn.versions.get(key)
	if !ok {
		return info, 0, unsupportedAPI(info, fmt.Errorf("%w: broker at %s does not support %s", ErrUnsupportedVersion, cn.addr, info.Name))
	}
	hi := min(info.MaxVersion, br[1])
	if hi < max(info.MinVersion, br[0]) {
		return info, 0, unsupportedAPI(info, fmt.Errorf("%w: %s: gregor speaks v%d-%d, broker at %s v%d-%d", ErrUnsupportedVersion, info.Name, info.MinVersion, info.MaxVersion, cn.addr, br[0], br[1]))
	}
	return info, hi, nil
}

// checkVersion checks that both sides support version v of key.
func (cn *conn) checkVersion(key wire.APIKey, v int16) (wire.APIInfo, error) {
	info, _, err := cn.pickVersion(key)
	if err != nil {
		return info, err
	}
	br, _ := cn.versions.get(key)
	if v < max(info.MinVersion, br[0]) || v > min(info.MaxVersion, br[1]) {
		return info, fmt.Errorf("%w: %s v%d: gregor speaks v%d-%d, broker at %s v%d-%d", ErrUnsupportedVersion, info.Name, v, info.MinVersion, info.MaxVersion, cn.addr, br[0], br[1])
	}
	return info, nil
}
