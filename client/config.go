package client

import (
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"time"
)

// Defaults applied by New to zero fields of Config.
const (
	// DefaultClientID is the client.id sent in request headers.
	DefaultClientID = "gregor"
	// DefaultDialTimeout bounds one TCP connect and TLS handshake.
	DefaultDialTimeout = 10 * time.Second
	// DefaultRequestTimeout is request.timeout.ms (30000).
	DefaultRequestTimeout = 30 * time.Second
	// DefaultRetryBackoff is retry.backoff.ms (100).
	DefaultRetryBackoff = 100 * time.Millisecond
	// DefaultRetryBackoffMax is retry.backoff.max.ms (1000).
	DefaultRetryBackoffMax = time.Second
	// DefaultMetadataMaxAge is metadata.max.age.ms (300000).
	DefaultMetadataMaxAge = 5 * time.Minute
	// DefaultConnIdleTimeout is connections.max.idle.ms (540000).
	DefaultConnIdleTimeout = 9 * time.Minute
	// DefaultMaxInFlightPerBroker is max.in.flight.requests.per.connection (5).
	DefaultMaxInFlightPerBroker = 5
	// DefaultMaxResponseBytes bounds one response frame: 100 MiB.
	DefaultMaxResponseBytes = 100 << 20
	// DefaultRebootstrapTrigger is metadata.recovery.rebootstrap.trigger.ms
	// (300000, KIP-1102).
	DefaultRebootstrapTrigger = 5 * time.Minute
)

// minResponseBytes is the smallest MaxResponseBytes New accepts: below it
// even an ApiVersions response may not fit.
const minResponseBytes = 4 << 10

// withDefaults returns cfg with defaults filled in, or an error wrapping
// ErrInvalidConfig naming the first invalid field.
func (cfg Config) withDefaults() (Config, error) {
	bad := func(field, format string, args ...any) (Config, error) {
		return Config{}, fmt.Errorf("%w: %s: %s", ErrInvalidConfig, field, fmt.Sprintf(format, args...))
	}
	if len(cfg.Bootstrap) == 0 {
		return bad("Bootstrap", "at least one host:port is required")
	}
	for _, a := range cfg.Bootstrap {
		host, port, err := net.SplitHostPort(a)
		if err != nil {
			return bad("Bootstrap", "%q is not host:port: %v", a, err)
		}
		if host == "" {
			return bad("Bootstrap", "%q has no host", a)
		}
		if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
			return bad("Bootstrap", "%q has an invalid port", a)
		}
	}
	if cfg.ClientID == "" {
		cfg.ClientID = DefaultClientID
	}
	if len(cfg.ClientID) > 32767 {
		return bad("ClientID", "longer than 32767 bytes")
	}
	if cfg.SASL != nil {
		switch cfg.SASL.Mechanism {
		case SASLPlain, SASLScramSHA256, SASLScramSHA512:
		default:
			return bad("SASL.Mechanism", "%q is not one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512", cfg.SASL.Mechanism)
		}
		if cfg.SASL.Username == "" {
			return bad("SASL.Username", "empty")
		}
		sasl := *cfg.SASL // the caller may reuse its struct
		cfg.SASL = &sasl
		if cfg.Mechanism != nil {
			return bad("Mechanism", "set together with SASL; set one")
		}
		cfg.Mechanism = sasl.mechanism()
	}
	durations := []struct {
		name string
		d    *time.Duration
		def  time.Duration
	}{
		{"DialTimeout", &cfg.DialTimeout, DefaultDialTimeout},
		{"RequestTimeout", &cfg.RequestTimeout, DefaultRequestTimeout},
		{"RetryBackoff", &cfg.RetryBackoff, DefaultRetryBackoff},
		{"RetryBackoffMax", &cfg.RetryBackoffMax, DefaultRetryBackoffMax},
		{"MetadataMaxAge", &cfg.MetadataMaxAge, DefaultMetadataMaxAge},
		{"ConnIdleTimeout", &cfg.ConnIdleTimeout, DefaultConnIdleTimeout},
		{"RebootstrapTrigger", &cfg.RebootstrapTrigger, DefaultRebootstrapTrigger},
	}
	for _, d := range durations {
		switch {
		case *d.d < 0:
			return bad(d.name, "negative (%v)", *d.d)
		case *d.d == 0:
			*d.d = d.def
		}
	}
	if cfg.RetryBackoffMax < cfg.RetryBackoff {
		return bad("RetryBackoffMax", "%v is below RetryBackoff %v", cfg.RetryBackoffMax, cfg.RetryBackoff)
	}
	switch {
	case cfg.MaxInFlightPerBroker < 0:
		return bad("MaxInFlightPerBroker", "negative (%d)", cfg.MaxInFlightPerBroker)
	case cfg.MaxInFlightPerBroker == 0:
		cfg.MaxInFlightPerBroker = DefaultMaxInFlightPerBroker
	case cfg.MaxInFlightPerBroker > 1024:
		return bad("MaxInFlightPerBroker", "%d is above 1024", cfg.MaxInFlightPerBroker)
	}
	switch {
	case cfg.MaxResponseBytes < 0:
		return bad("MaxResponseBytes", "negative (%d)", cfg.MaxResponseBytes)
	case cfg.MaxResponseBytes == 0:
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	case cfg.MaxResponseBytes < minResponseBytes:
		return bad("MaxResponseBytes", "%d is below the minimum %d", cfg.MaxResponseBytes, minResponseBytes)
	}
	switch cfg.MetadataRecoveryStrategy {
	case "":
		cfg.MetadataRecoveryStrategy = RecoveryRebootstrap
	case RecoveryRebootstrap, RecoveryNone:
	default:
		return bad("MetadataRecoveryStrategy", "%q is not one of rebootstrap, none", cfg.MetadataRecoveryStrategy)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return cfg, nil
}
