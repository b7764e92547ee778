package protocol

import (
	"context"
	"errors"
	"strconv"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// Error kinds of §6.
const (
	KindConfiguration = "configuration"
	KindBackpressure  = "backpressure"
	KindAccess        = "access"
	KindBroker        = "broker"
	KindCompatibility = "compatibility"
	KindFenced        = "fenced"
	KindIdentity      = "identity"
	KindInvalidRecord = "invalid_record"
	KindRouting       = "routing"
	KindTransport     = "transport"
	KindTimeout       = "timeout"
	KindCancelled     = "cancelled"
	KindState         = "state"
	KindInternal      = "internal"
)

// family says which public API an error came from; the same broker code
// normalizes differently for a producer write than for an admin call (§6:
// a denied write is access:broker_29, a denied admin call broker:broker_29).
type family uint8

const (
	familyAdmin family = iota
	familyProducer
	familyConsumer
)

// kindClassifier lets a package's own error type name its §6 kind (an
// error with a method `ProtocolKind() string` anywhere in its chain).
type kindClassifier interface{ ProtocolKind() string }

// sentinelKinds maps client-side failures to kinds, checked in order.
var sentinelKinds = []struct {
	err  error
	kind string
}{
	{client.ErrBackpressure, KindBackpressure},
	{client.ErrTimeout, KindTimeout},
	{context.DeadlineExceeded, KindTimeout},
	{client.ErrCancelled, KindCancelled},
	{context.Canceled, KindCancelled},
	{client.ErrClusterIdentity, KindIdentity},
	{client.ErrAuthentication, KindAccess},
	{client.ErrUnsupportedVersion, KindCompatibility},
	{client.ErrUnknownBroker, KindRouting},
	{client.ErrDNS, KindTransport},
	{client.ErrTransport, KindTransport},
	{client.ErrClosed, KindState},
	{client.ErrProtocol, KindInternal},
}

// Normalize returns the §6 code of err: "<kind>" or "<kind>:broker_<n>".
// A feature the cluster lacks (gregor.ErrUnsupportedFeature) is
// compatibility, also when the broker said so with UNSUPPORTED_VERSION.
func normalize(err error, fam family) string {
	if errors.Is(err, gregor.ErrUnsupportedFeature) {
		return KindCompatibility
	}
	var kerr *wire.KafkaError
	if errors.As(err, &kerr) {
		return brokerKind(kerr.Code, fam) + ":broker_" + strconv.Itoa(int(kerr.Code))
	}
	if code, ok := brokerCodeOf(err); ok {
		return brokerKind(code, fam) + ":broker_" + strconv.Itoa(int(code))
	}
	var kc kindClassifier
	if errors.As(err, &kc) {
		if k := kc.ProtocolKind(); k != "" {
			return k
		}
	}
	for _, s := range sentinelKinds {
		if errors.Is(err, s.err) {
			return s.kind
		}
	}
	for _, s := range extraKinds {
		if errors.Is(err, s.err) {
			return s.kind
		}
	}
	return KindInternal
}

// brokerKind classifies a broker error code. Admin calls report every
// broker code as broker (§6); producer and consumer calls single out
// authorization (but GROUP_AUTHORIZATION_FAILED, broker:broker_30 in every
// family as §6 lists it), fencing and record faults.
func brokerKind(code int16, fam family) string {
	if code == 58 { // SASL_AUTHENTICATION_FAILED: the connection's credentials, in every family
		return KindAccess
	}
	if fam == familyAdmin {
		return KindBroker
	}
	if code == wire.ErrGroupAuthorizationFailed.Code {
		// §6: testctl's constant for a consumer-group operation denied by
		// ACL is broker:broker_30, whichever API the group failed in.
		return KindBroker
	}
	switch c := wire.ClassOf(code); {
	case c.Has(wire.ClassAuthorization):
		return KindAccess
	case c.Has(wire.ClassProducerFenced):
		return KindFenced
	case c.Has(wire.ClassInvalidRecord):
		return KindInvalidRecord
	}
	return KindBroker
}
