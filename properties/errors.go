package properties

import (
	"errors"
	"fmt"
)

// The error kinds a *KeyError wraps; match them with errors.Is.
var (
	// ErrUnknownKey: no gregor setting has this name in the scope asked
	// for (a consumer key given to Producer is unknown there too).
	ErrUnknownKey = errors.New("unknown key")
	// ErrInvalidValue: the value does not parse as the key's type or is
	// out of its range.
	ErrInvalidValue = errors.New("invalid value")
	// ErrMissingKey: a required key (bootstrap.servers) is absent, or a key
	// another one needs is (sasl.jaas.config for sasl.mechanism).
	ErrMissingKey = errors.New("missing key")
	// ErrUnsupported: a Java setting or value gregor does not implement
	// (GSSAPI, JKS stores, an https: OAuth token endpoint, transactional.id,
	// group.id).
	ErrUnsupported = errors.New("not supported by gregor")
	// ErrWeakensDurability: the setting would weaken durability (acks=0 or
	// 1, enable.idempotence=false, more than 5 requests in flight); gregor's
	// producer is always idempotent with acks=all.
	ErrWeakensDurability = errors.New("would weaken durability")
)

// KeyError is the failure of one property. Value is "[hidden]" for secret
// keys.
type KeyError struct {
	// Key is the property name.
	Key string
	// Value is the value as given, or "[hidden]" for secrets.
	Value string
	// Err is one of ErrUnknownKey, ErrInvalidValue, ErrMissingKey,
	// ErrUnsupported, ErrWeakensDurability.
	Err error
	// Reason says what was expected.
	Reason string
}

// Error formats the failure as one line: properties: key="value": kind: reason.
func (e *KeyError) Error() string {
	s := "properties: " + e.Key
	if e.Err != ErrMissingKey {
		s += fmt.Sprintf("=%q", e.Value)
	}
	s += ": " + e.Err.Error()
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

// Unwrap returns the error kind.
func (e *KeyError) Unwrap() error { return e.Err }
