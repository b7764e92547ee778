package gregor

import (
	"errors"
	"strings"
)

// ErrUnsupportedFeature matches (errors.Is) every error saying that the
// cluster lacks a capability an operation needs: an API the broker does not
// advertise in ApiVersions (or none of whose versions gregor speaks), or a
// feature whose finalized level (KIP-584: group.version, share.version,
// transaction.version) is too low. gregor decides it from ApiVersions before
// sending the request that needs the feature, or from the broker's
// UNSUPPORTED_VERSION answer to it, and fails at once: it is never retried.
// The error is an *UnsupportedFeatureError naming the feature, what the
// broker offers and the way out.
var ErrUnsupportedFeature = errors.New("gregor: feature not supported by the cluster")

// UnsupportedFeatureError is the error of ErrUnsupportedFeature.
type UnsupportedFeatureError struct {
	// Feature names the capability, e.g. "KIP-848 consumer groups
	// (ConsumerGroupHeartbeat)" or "API DescribeTopicPartitions".
	Feature string
	// Broker says what the broker offers instead, e.g. "broker 1 does not
	// advertise ShareGroupHeartbeat" or "transaction.version finalized at
	// level 0".
	Broker string
	// Remedy is the way out, e.g. `use GroupConfig.Protocol "classic"`;
	// empty when there is none but another cluster.
	Remedy string
	// Err is the underlying failure (client.ErrUnsupportedVersion, the
	// broker's UNSUPPORTED_VERSION), or nil.
	Err error
}

// Error returns "gregor: <feature> not supported by the cluster: <broker>;
// <remedy>: <cause>".
func (e *UnsupportedFeatureError) Error() string {
	var b strings.Builder
	b.WriteString("gregor: ")
	b.WriteString(e.Feature)
	b.WriteString(" not supported by the cluster")
	if e.Broker != "" {
		b.WriteString(": ")
		b.WriteString(e.Broker)
	}
	if e.Remedy != "" {
		b.WriteString("; ")
		b.WriteString(e.Remedy)
	}
	if e.Err != nil {
		b.WriteString(" (")
		b.WriteString(e.Err.Error())
		b.WriteString(")")
	}
	return b.String()
}

// Is reports whether target is ErrUnsupportedFeature.
func (e *UnsupportedFeatureError) Is(target error) bool { return target == ErrUnsupportedFeature }

// Unwrap returns the underlying failure.
func (e *UnsupportedFeatureError) Unwrap() error { return e.Err }

// MayHaveBeenWritten is false: the operation was refused before (or by)
// the request that needed the feature.
func (e *UnsupportedFeatureError) MayHaveBeenWritten() bool { return false }
