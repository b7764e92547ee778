package client

import (
	"context"
	"fmt"
	"time"

	"github.com/xdg-go/scram"
)

// Mechanism is a SASL mechanism (sasl.mechanism) the client authenticates
// with: PLAIN, SCRAM-SHA-256/512 and OAUTHBEARER are provided (Plain,
// ScramSHA256, ScramSHA512, OAuthBearer); a cloud provider's mechanism can be
// plugged in by implementing it. Start is called for every authentication:
// at connect and at every re-authentication (KIP-368), so a mechanism can use
// fresh credentials each time. Implementations must be safe for concurrent
// use, and must not print their credentials from String or Format.
type Mechanism interface {
	// Name is the mechanism name sent in SaslHandshake, e.g. "PLAIN".
	Name() string
	// Start begins one authentication exchange and returns it with the
	// client's initial response (the first SaslAuthenticate bytes).
	Start(ctx context.Context) (Session, []byte, error)
}

// Session is one SASL authentication exchange of a Mechanism.
type Session interface {
	// Step is given the broker's answer to the last response the client
	// sent and returns the next response. done reports that the exchange
	// is complete: challenge was the broker's last message and response is
	// not sent. An error ends the exchange (the client wraps it in
	// ErrAuthentication).
	Step(challenge []byte) (response []byte, done bool, err error)
}

// SessionExpirer is a Session whose credentials expire (an OAUTHBEARER
// token): the client re-authenticates before Expiry even when the broker
// sets a longer session lifetime or none (KIP-368).
type SessionExpirer interface {
	Session
	// Expiry is when the credentials used by the exchange expire; zero
	// means never.
	Expiry() time.Time
}

// Plain returns the PLAIN mechanism (RFC 4616) for user and password.
func Plain(user, password string) Mechanism { return &plainMech{user: user, password: password} }

// ScramSHA256 returns the SCRAM-SHA-256 mechanism (RFC 5802, KIP-84).
func ScramSHA256(user, password string) Mechanism {
	return &scramMech{name: string(SASLScramSHA256), user: user, password: password}
}

// ScramSHA512 returns the SCRAM-SHA-512 mechanism (RFC 5802, KIP-84).
func ScramSHA512(user, password string) Mechanism {
	return &scramMech{name: string(SASLScramSHA512), user: user, password: password}
}

// mechanism returns the Mechanism s describes (validated by New).
func (s *SASL) mechanism() Mechanism {
	switch s.Mechanism {
	case SASLScramSHA256:
		return ScramSHA256(s.Username, s.Password)
	case SASLScramSHA512:
		return ScramSHA512(s.Username, s.Password)
	}
	return Plain(s.Username, s.Password)
}

type plainMech struct{ user, password string }

func (m *plainMech) Name() string { return string(SASLPlain) }

func (m *plainMech) Start(context.Context) (Session, []byte, error) {
	msg := make([]byte, 0, 2+len(m.user)+len(m.password))
	msg = append(msg, 0)
	msg = append(msg, m.user...)
	msg = append(msg, 0)
	msg = append(msg, m.password...)
	return doneSession{}, msg, nil
}

// Format prints the mechanism and user, never the password.
func (m *plainMech) Format(f fmt.State, _ rune) { fmt.Fprintf(f, "PLAIN(user=%q)", m.user) }

// doneSession is an exchange that ends with the broker's first answer.
type doneSession struct{}

func (doneSession) Step([]byte) ([]byte, bool, error) { return nil, true, nil }

type scramMech struct{ name, user, password string }

func (m *scramMech) Name() string { return m.name }

// Format prints the mechanism and user, never the password.
func (m *scramMech) Format(f fmt.State, _ rune) { fmt.Fprintf(f, "%s(user=%q)", m.name, m.user) }

func (m *scramMech) Start(context.Context) (Session, []byte, error) {
	hash := scram.SHA256
	if m.name == string(SASLScramSHA512) {
		hash = scram.SHA512
	}
	sc, err := hash.NewClient(m.user, m.password, "")
	if err != nil {
		// Only stringprep failures land here; they do not quote the input.
		return nil, nil, fmt.Errorf("preparing credentials: %w", err)
	}
	conv := sc.NewConversation()
	out, err := conv.Step("")
	if err != nil {
		return nil, nil, err
	}
	return &scramSession{conv: conv}, []byte(out), nil
}

type scramSession struct{ conv *scram.ClientConversation }

func (s *scramSession) Step(in []byte) ([]byte, bool, error) {
	out, err := s.conv.Step(string(in))
	if err != nil {
		return nil, false, err
	}
	if s.conv.Done() {
		if !s.conv.Valid() {
			return nil, false, fmt.Errorf("server signature not verified")
		}
		return nil, true, nil
	}
	return []byte(out), false, nil
}
