package client

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

func TestReauthTime(t *testing.T) {
	sent := time.Unix(1000, 0)
	if got := reauthTime(sent, 0); got != 0 {
		t.Fatalf("no lifetime: reauthTime = %d, want 0 (never)", got)
	}
	lo, hi := sent.Add(time.Hour).UnixNano(), int64(0)
	for range 2000 {
		at := reauthTime(sent, 1000)
		if at < sent.Add(850*time.Millisecond).UnixNano() || at > sent.Add(950*time.Millisecond).UnixNano() {
			t.Fatalf("reauthTime %v after sent, want within 85-95%% of 1s", time.Duration(at-sent.UnixNano()))
		}
		lo, hi = min(lo, at), max(hi, at)
	}
	// The jitter spreads connections: 2000 draws cover most of the window.
	if spread := time.Duration(hi - lo); spread < 80*time.Millisecond {
		t.Fatalf("2000 draws spread over %v, want most of the 100ms window", spread)
	}
}

// saslBroker makes fc answer SASL PLAIN: SaslAuthenticate gives the session
// a lifetime (KIP-368) and refuses when refuse says so. It records, for
// every SaslHandshake after a connection's first, how many CreateTopics
// requests were unanswered on that connection when it arrived.
type saslBroker struct {
	lifetime time.Duration

	mu        sync.Mutex
	refuse    bool
	handshake map[int32]int // per connection
	open      map[int32]int // CreateTopics received and not answered, per connection
	atReauth  []int         // open count at each re-authentication's SaslHandshake
	held      []heldReq     // CreateTopics held by hold
	hold      func(name string) bool
}

func newSASLBroker(fc *fakeCluster, lifetime time.Duration) *saslBroker {
	sb := &saslBroker{lifetime: lifetime, handshake: map[int32]int{}, open: map[int32]int{}}
	fc.setHandle(func(c *fakeConn, r *fakeReq) bool {
		sb.mu.Lock()
		defer sb.mu.Unlock()
		switch r.hdr.Key {
		case wire.KeySaslHandshake:
			sb.handshake[r.conn]++
			if sb.handshake[r.conn] > 1 {
				sb.atReauth = append(sb.atReauth, sb.open[r.conn])
			}
			c.respond(r, &wire.SaslHandshakeResponse{Mechanisms: []string{"PLAIN"}})
		case wire.KeySaslAuthenticate:
			resp := &wire.SaslAuthenticateResponse{SessionLifetimeMs: sb.lifetime.Milliseconds()}
			if sb.refuse {
				msg := "refused by the test"
				resp = &wire.SaslAuthenticateResponse{ErrorCode: wire.ErrSASLAuthenticationFailed.Code, ErrorMessage: &msg}
			}
			c.respond(r, resp)
		case wire.KeyCreateTopics:
			req := r.req.(*wire.CreateTopicsRequest)
			if sb.hold != nil && sb.hold(req.Topics[0].Name) {
				sb.open[r.conn]++
				sb.held = append(sb.held, heldReq{c, r})
				return true
			}
			c.respond(r, echoCreateTopics(req))
		default:
			return false
		}
		return true
	})
	return sb
}

type heldReq struct {
	c *fakeConn
	r *fakeReq
}

// release answers the held requests.
func (sb *saslBroker) release() {
	sb.mu.Lock()
	held := sb.held
	sb.held = nil
	for _, h := range held {
		sb.open[h.r.conn]--
	}
	sb.mu.Unlock()
	for _, h := range held {
		h.c.respond(h.r, echoCreateTopics(h.r.req.(*wire.CreateTopicsRequest)))
	}
}

// keysOn lists the API keys fc received on connection conn of broker 1, in
// order, leaving out Metadata (the client's own bootstrap lookups).
func keysOn(fc *fakeCluster, conn int32) []wire.APIKey {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	var keys []wire.APIKey
	for _, r := range fc.log {
		if r.conn == conn && r.hdr.Key != wire.KeyMetadata {
			keys = append(keys, r.hdr.Key)
		}
	}
	return keys
}

func saslConfig(fc *fakeCluster) Config {
	cfg := fc.config()
	cfg.SASL = &SASL{Mechanism: SASLPlain, Username: "u", Password: "p"}
	return cfg
}

// heldInFlight connects a SASL client to a fake broker giving 1h sessions,
// sends request "a", then leaves request "held" unanswered at the broker
// (sb.release answers it).
func heldInFlight(t *testing.T) (*fakeCluster, *saslBroker, *Client, context.Context, Pending) {
	t.Helper()
	fc := newFakeCluster(t, 1)
	sb := newSASLBroker(fc, time.Hour)
	sb.hold = func(name string) bool { return name == "held" }
	c := newTestClient(t, saslConfig(fc))
	ctx := testCtx(t, 10*time.Second)
	if _, err := c.Request(ctx, 1, createTopics("a")); err != nil {
		t.Fatal(err)
	}
	held, err := c.Enqueue(ctx, 1, createTopics("held"))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the held request at the broker", 5*time.Second, func() bool { return len(fc.requests(wire.KeyCreateTopics)) == 2 })
	return fc, sb, c, ctx, held
}

// wantConns checks c's connection metrics.
func wantConns(t *testing.T, c *Client, want ConnMetrics) {
	t.Helper()
	if got := c.Metrics().Conns; got != want {
		t.Fatalf("connection metrics %+v, want %+v", got, want)
	}
}

// dueNow makes cn's re-authentication due at once, as if its session's
// 85-95% had passed (tests of the mechanics; timing is TestReauthTime's and
// the integration test's). It returns the time that was scheduled.
func dueNow(cn *conn) time.Time {
	cn.wlock <- struct{}{} // reauthAt belongs to the writer path
	defer func() { <-cn.wlock }()
	at := cn.reauthAt
	cn.reauthAt = time.Now().UnixNano()
	return time.Unix(0, at)
}

// TestReauthenticateBeforeSessionEnds: the connection schedules
// re-authentication within 85-95% of the session lifetime the broker gave;
// once due, the next request waits until the connection's written requests
// are answered, the connection re-authenticates in band, and the request
// follows on the same connection (KIP-368).
func TestReauthenticateBeforeSessionEnds(t *testing.T) {
	before := time.Now()
	fc, sb, c, ctx, held := heldInFlight(t)
	cn := c.pool.live()[0]
	at := dueNow(cn)
	if lo, hi := before.Add(51*time.Minute), time.Now().Add(57*time.Minute); at.Before(lo) || at.After(hi) {
		t.Fatalf("re-authentication scheduled at %v after connecting, want 85-95%% of the 1h session", at.Sub(before))
	}
	after := make(chan error, 1)
	go func() {
		_, err := c.Request(ctx, 1, createTopics("after"))
		after <- err
	}()
	waitFor(t, "the re-authentication to wait for the held request", 5*time.Second, func() bool {
		cn.mu.Lock()
		defer cn.mu.Unlock()
		return cn.idle != nil
	})
	if got := len(fc.requests(wire.KeySaslHandshake)); got != 1 {
		t.Fatalf("SaslHandshake sent %d times while a request was in flight, want 1 (at connect)", got)
	}
	sb.release()
	if err := <-after; err != nil {
		t.Fatalf("request after re-authentication: %v", err)
	}
	if _, err := held.Result(); err != nil {
		t.Fatalf("held request: %v", err)
	}

	want := []wire.APIKey{wire.KeyApiVersions, wire.KeySaslHandshake, wire.KeySaslAuthenticate,
		wire.KeyCreateTopics, wire.KeyCreateTopics,
		wire.KeySaslHandshake, wire.KeySaslAuthenticate, wire.KeyCreateTopics}
	if got := keysOn(fc, 1); !slices.Equal(got, want) {
		t.Fatalf("connection 1 carried %v, want %v", got, want)
	}
	sb.mu.Lock()
	atReauth := sb.atReauth
	sb.mu.Unlock()
	if len(atReauth) != 1 || atReauth[0] != 0 {
		t.Fatalf("requests in flight at each re-authentication: %v, want [0]", atReauth)
	}
	wantConns(t, c, ConnMetrics{Opened: 1, Reauthentications: 1})
}

// TestReauthenticationRefused: a refused re-authentication closes the
// connection (nothing is in flight then) and fails the request that was
// about to be written as NotSent; the next request connects afresh.
func TestReauthenticationRefused(t *testing.T) {
	fc := newFakeCluster(t, 1)
	sb := newSASLBroker(fc, time.Hour)
	c := newTestClient(t, saslConfig(fc))
	ctx := testCtx(t, 10*time.Second)
	if _, err := c.Request(ctx, 1, createTopics("a")); err != nil {
		t.Fatal(err)
	}
	sb.mu.Lock()
	sb.refuse = true
	sb.mu.Unlock()
	dueNow(c.pool.live()[0])
	_, err := c.Enqueue(ctx, 1, createTopics("b"))
	expectFailure(t, "request due after the session", err, ErrAuthentication, NotSent)
	for _, r := range fc.requests(wire.KeyCreateTopics) {
		if name := r.req.(*wire.CreateTopicsRequest).Topics[0].Name; name == "b" {
			t.Fatal("the broker received the request whose re-authentication failed")
		}
	}
	sb.mu.Lock()
	sb.refuse = false
	sb.mu.Unlock()
	recovers(t, c, fc, 1, 2)
	wantConns(t, c, ConnMetrics{Opened: 2, Closed: 1})
}

// TestReauthenticationRespectsDeadline: a request that comes due for
// re-authentication while another is in flight waits for it only within its
// own deadline: it then fails NotSent with ErrTimeout (a request is never
// held past its deadline by the exchange), the connection stays open, and
// the next request re-authenticates once the connection is idle.
func TestReauthenticationRespectsDeadline(t *testing.T) {
	_, sb, c, ctx, held := heldInFlight(t)
	dueNow(c.pool.live()[0])
	short, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	_, err := c.Request(short, 1, createTopics("short"))
	expectFailure(t, "request with a short deadline", err, ErrTimeout, NotSent)
	if d := time.Since(t0); d > 2500*time.Millisecond {
		t.Fatalf("the 100ms request returned after %v: held by the wait for in-flight requests (RequestTimeout 5s)", d)
	}
	select {
	case <-held.Done():
		t.Fatal("the held request was answered before: the short request's failure proves nothing")
	default:
	}
	sb.release()
	if _, err := held.Result(); err != nil {
		t.Fatalf("held request: %v", err)
	}
	if _, err := c.Request(ctx, 1, createTopics("after")); err != nil {
		t.Fatalf("request after the connection went idle: %v", err)
	}
	wantConns(t, c, ConnMetrics{Opened: 1, Reauthentications: 1})
}
