package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ID is a protocol identifier (§1.4: RunId, CommandId, ClientId, ProducerId,
// ConsumerId, OperationId, ConcurrencyId, ActorId, ...): 1..=128 bytes, the
// first an ASCII letter or digit, the rest ASCII letters, digits or one of
// "-_.:". Decoding rejects any other string, which makes the whole line
// invalid.
type ID string

// ErrBadID is returned (wrapped) when an identifier breaks §1.4.
type badIDError struct{ id string }

func (e *badIDError) Error() string {
	s := e.id
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return fmt.Sprintf("invalid identifier %q", s)
}

// ValidID reports whether s satisfies the identifier rule of §1.4.
func ValidID(s string) bool {
	if len(s) < 1 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if alnum {
			continue
		}
		if i == 0 {
			return false
		}
		if c != '-' && c != '_' && c != '.' && c != ':' {
			return false
		}
	}
	return true
}

// UnmarshalJSON accepts a JSON string that is a valid identifier.
func (id *ID) UnmarshalJSON(b []byte) error {
	var s *string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == nil {
		return errors.New("identifier is null")
	}
	return id.set(*s)
}

func (id *ID) set(s string) error {
	if !ValidID(s) {
		return &badIDError{id: s}
	}
	*id = ID(s)
	return nil
}
