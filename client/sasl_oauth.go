package client

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// Token is an OAuth 2 bearer token for OAUTHBEARER (KIP-255).
type Token struct {
	// Value is the compact-serialized token (a JWS for most servers).
	// Secret: Token's String and Format never print it.
	Value string
	// Expiry is when the token expires; zero means unknown (never
	// refreshed, and no client-side re-authentication deadline).
	Expiry time.Time
	// Extensions are SASL extensions sent with the token (KIP-342), e.g.
	// a cloud provider's logical cluster; the names "auth" and
	// non-alphabetic names are invalid.
	Extensions map[string]string
}

// Format prints the token's expiry and extension names, never its value.
func (t Token) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "Token(expiry=%s, extensions=%d, value=<redacted>)", t.Expiry.Format(time.RFC3339), len(t.Extensions))
}

// TokenSource supplies OAUTHBEARER tokens. Token is called for every
// authentication (at connect and at every KIP-368 re-authentication) and
// must be safe for concurrent use.
type TokenSource interface {
	Token(ctx context.Context) (Token, error)
}

// StaticToken returns a TokenSource that always returns t.
func StaticToken(t Token) TokenSource { return staticToken{t} }

type staticToken struct{ t Token }

func (s staticToken) Token(context.Context) (Token, error) { return s.t, nil }

// Format never prints the token's value.
func (s staticToken) Format(f fmt.State, v rune) { s.t.Format(f, v) }

// RefreshingToken returns a TokenSource that caches the token fetch returns
// and calls fetch again once 80% of the cached token's lifetime (from when
// it was fetched to its Expiry) has passed, or when it has expired, as the
// Java client's login refresh does (sasl.login.refresh.window.factor 0.8).
// A token with no Expiry is kept for ever. A failed fetch is returned to
// that authentication and retried by the next one.
func RefreshingToken(fetch func(ctx context.Context) (Token, error)) TokenSource {
	return &refreshingToken{fetch: fetch, now: time.Now}
}

type refreshingToken struct {
	fetch func(ctx context.Context) (Token, error)
	now   func() time.Time

	mu      sync.Mutex // guards the fields below
	tok     Token
	have    bool
	refresh time.Time // when tok is refreshed
}

// Format never prints the token's value.
func (r *refreshingToken) Format(f fmt.State, _ rune) { fmt.Fprint(f, "RefreshingToken") }

func (r *refreshingToken) Token(ctx context.Context) (Token, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	if r.have && (r.tok.Expiry.IsZero() || now.Before(r.refresh)) {
		return r.tok, nil
	}
	t, err := r.fetch(ctx)
	if err != nil {
		return Token{}, fmt.Errorf("fetching OAUTHBEARER token: %w", err)
	}
	if t.Value == "" {
		return Token{}, errors.New("fetching OAUTHBEARER token: empty token")
	}
	r.tok, r.have = t, true
	if !t.Expiry.IsZero() {
		r.refresh = now.Add(time.Duration(float64(t.Expiry.Sub(now)) * 0.8))
	}
	return t, nil
}

// OAuthBearer returns the OAUTHBEARER mechanism (RFC 7628, KIP-255) taking
// its tokens from src. The session ends no later than the token's Expiry:
// the client re-authenticates with a fresh token before then.
func OAuthBearer(src TokenSource) Mechanism { return &oauthMech{src: src} }

type oauthMech struct{ src TokenSource }

func (m *oauthMech) Name() string { return "OAUTHBEARER" }

// Format never prints a token.
func (m *oauthMech) Format(f fmt.State, _ rune) { fmt.Fprint(f, "OAUTHBEARER") }

func (m *oauthMech) Start(ctx context.Context) (Session, []byte, error) {
	t, err := m.src.Token(ctx)
	if err != nil {
		return nil, nil, err
	}
	msg, err := oauthInitial(t)
	if err != nil {
		return nil, nil, err
	}
	return &oauthSession{expiry: t.Expiry}, msg, nil
}

// oauthInitial is the RFC 7628 client initial response:
// "n,," kvsep "auth=Bearer " token kvsep {key=value kvsep} kvsep.
func oauthInitial(t Token) ([]byte, error) {
	if t.Value == "" {
		return nil, errors.New("empty OAUTHBEARER token")
	}
	var b strings.Builder
	b.WriteString("n,,\x01auth=Bearer ")
	b.WriteString(t.Value)
	b.WriteByte(1)
	keys := make([]string, 0, len(t.Extensions))
	for k := range t.Extensions {
		if k == "auth" || k == "" || strings.TrimLeft(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
			return nil, fmt.Errorf("invalid OAUTHBEARER extension name %q", k)
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b.WriteString(k + "=" + t.Extensions[k])
		b.WriteByte(1)
	}
	b.WriteByte(1)
	return []byte(b.String()), nil
}

type oauthSession struct {
	expiry time.Time
	failed bool
}

// Step: an empty answer is success. A non-empty one is the server's JSON
// error (RFC 7628 §3.2.2); the client answers it with a single kvsep, after
// which the broker fails the exchange with its SaslAuthenticate error.
func (s *oauthSession) Step(challenge []byte) ([]byte, bool, error) {
	if len(challenge) == 0 {
		return nil, true, nil
	}
	if s.failed {
		return nil, false, fmt.Errorf("OAUTHBEARER refused: %s", challenge)
	}
	s.failed = true
	return []byte{1}, false, nil
}

func (s *oauthSession) Expiry() time.Time { return s.expiry }
