package wire

import "fmt"

// KafkaError is an error code returned by a Kafka broker, with Kafka's name for
// it (e.g. NOT_LEADER_OR_FOLLOWER), its numeric code, Kafka's description and
// whether retrying the request can succeed. The package defines one value per
// code (ErrNotLeaderOrFollower, ...); compare with errors.Is, which matches on
// the code, or extract with errors.As.
type KafkaError struct {
	Code      int16
	Name      string
	Message   string
	Retriable bool
}

// Error returns "NAME (code): message".
func (e *KafkaError) Error() string {
	return fmt.Sprintf("%s (%d): %s", e.Name, e.Code, e.Message)
}

// Is reports whether target is a *KafkaError with the same code.
func (e *KafkaError) Is(target error) bool {
	t, ok := target.(*KafkaError)
	return ok && t.Code == e.Code
}

// ErrorForCode returns nil for code 0, the package's *KafkaError for a known
// code, and a *KafkaError named UNKNOWN_CODE_<n> (not retriable) otherwise.
func ErrorForCode(code int16) error {
	if code == 0 {
		return nil
	}
	if e, ok := errorsByCode[code]; ok {
		return e
	}
	return &KafkaError{Code: code, Name: fmt.Sprintf("UNKNOWN_CODE_%d", code), Message: "an error code this client does not know"}
}
