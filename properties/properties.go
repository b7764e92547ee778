package properties

import (
	"errors"
	"sort"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/txn"
	"github.com/gregor-kafka/gregor/wire"
)

// Configs holds every configuration a properties set describes.
type Configs struct {
	// Client is the client.Config (bootstrap, security, timeouts).
	Client client.Config
	// Producer is the producer.Config.
	Producer producer.Config
	// Consumer is the consumer.Config.
	Consumer consumer.Config
	// Group is the consumer.GroupConfig of the group keys (GroupKeys), its
	// Config the same as Consumer. Topics is never set: a subscription is
	// not a property.
	Group consumer.GroupConfig
	// Txn is the txn.Config of the transactional keys (transactional.id,
	// transaction.timeout.ms), its Producer the same as Producer and its
	// RetryBackoff retry.backoff.ms.
	Txn txn.Config
	// APITimeout is default.api.timeout.ms: what a tool bounds one
	// operation by when the user gives no deadline; zero when absent.
	APITimeout time.Duration
}

// Client builds a client.Config from client keys only.
func Client(p map[string]string) (client.Config, error) {
	c, err := build(p, ScopeClient)
	return c.Client, err
}

// Producer builds a client.Config and a producer.Config from client and
// producer keys.
func Producer(p map[string]string) (client.Config, producer.Config, error) {
	c, err := build(p, ScopeClient|ScopeProducer)
	return c.Client, c.Producer, err
}

// Consumer builds a client.Config and a consumer.Config from client and
// consumer keys.
func Consumer(p map[string]string) (client.Config, consumer.Config, error) {
	c, err := build(p, ScopeClient|ScopeConsumer)
	return c.Client, c.Consumer, err
}

// Group builds a client.Config and a consumer.GroupConfig from client,
// consumer and group keys (a Java group consumer's file): group.id and the
// rest of GroupKeys set the group fields, the consumer keys its embedded
// Config. The caller sets Topics or TopicRegex (and OnAssignment).
func Group(p map[string]string) (client.Config, consumer.GroupConfig, error) {
	c, err := build(p, ScopeClient|ScopeConsumer|ScopeGroup)
	return c.Client, c.Group, err
}

// Transactional builds a client.Config and a txn.Config from client,
// producer and transactional keys (a Java transactional producer's file):
// transactional.id (required by txn.New) and transaction.timeout.ms set
// the transactional fields, the producer keys its Producer.
func Transactional(p map[string]string) (client.Config, txn.Config, error) {
	c, err := build(p, ScopeClient|ScopeProducer|ScopeTransactional)
	return c.Client, c.Txn, err
}

// All builds every configuration from a set that may mix client, producer,
// consumer and group keys (one file for a tool that both produces and
// consumes).
func All(p map[string]string) (Configs, error) {
	return build(p, ScopeClient|ScopeProducer|ScopeConsumer|ScopeGroup|ScopeTransactional)
}

// builder accumulates the settings of one build.
type builder struct {
	scope Scope
	cl    client.Config
	p     producer.Config
	c     consumer.Config
	g     consumer.GroupConfig // its Config is set from c when the build ends
	t     txn.Config           // its Producer and RetryBackoff are set when the build ends

	apiTimeout     time.Duration
	levels         map[wire.Compression]int
	protocol       string // security.protocol, "" when absent
	mechanism      string
	jaasUser       string
	jaasPassword   string
	jaasSet        bool
	jaasModule     string            // the login module sasl.jaas.config names
	jaasOpts       map[string]string // its options
	tokenURL       string            // sasl.oauthbearer.token.endpoint.url
	skipHostname   bool
	truststoreFile string
	truststorePEM  string
	keystoreFile   string
	keystoreChain  string
	keystoreKey    string
}

func lookup(name string) (Key, bool) {
	i := sort.Search(len(keys), func(i int) bool { return keys[i].Name >= name })
	if i < len(keys) && keys[i].Name == name {
		return keys[i], true
	}
	return Key{}, false
}

func isIgnored(name string) bool {
	i := sort.SearchStrings(Ignored, name)
	return i < len(Ignored) && Ignored[i] == name
}

func build(p map[string]string, scope Scope) (Configs, error) {
	b := &builder{scope: scope, levels: map[wire.Compression]int{}}
	names := make([]string, 0, len(p))
	for k := range p {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		v := p[name]
		if isIgnored(name) {
			continue
		}
		k, ok := lookup(name)
		if !ok {
			return Configs{}, &KeyError{Key: name, Value: v, Err: ErrUnknownKey, Reason: "see properties.Keys for the accepted names"}
		}
		if k.Scope == ScopeGroup && scope&ScopeGroup == 0 {
			return Configs{}, &KeyError{Key: name, Value: v, Err: ErrUnsupported, Reason: "a group consumer setting: build a consumer.GroupConfig with properties.Group"}
		}
		if k.Scope == ScopeTransactional && scope&ScopeTransactional == 0 {
			return Configs{}, &KeyError{Key: name, Value: v, Err: ErrUnsupported, Reason: "a transactional producer setting: build a txn.Config with properties.Transactional"}
		}
		if k.Scope&scope == 0 {
			return Configs{}, &KeyError{Key: name, Value: v, Err: ErrUnknownKey, Reason: "a " + k.Scope.String() + " setting, not a " + scope.String() + " one"}
		}
		if err := k.apply(b, v); err != nil {
			var ke *KeyError
			if errors.As(err, &ke) {
				ke.Key, ke.Value = name, v
				if k.Secret {
					ke.Value = "[hidden]"
				}
				return Configs{}, ke
			}
			return Configs{}, err
		}
	}
	if _, ok := p["bootstrap.servers"]; !ok {
		return Configs{}, &KeyError{Key: "bootstrap.servers", Err: ErrMissingKey, Reason: "a comma-separated list of host:port"}
	}
	if err := b.finish(); err != nil {
		return Configs{}, err
	}
	b.g.Config = b.c
	b.t.Producer, b.t.RetryBackoff = b.p, b.p.RetryBackoff
	return Configs{Client: b.cl, Producer: b.p, Consumer: b.c, Group: b.g, Txn: b.t, APITimeout: b.apiTimeout}, nil
}

// finish applies what depends on several keys: compression levels,
// security.protocol with SASL and TLS.
func (b *builder) finish() error {
	if l, ok := b.levels[b.p.Compression]; ok {
		b.p.CompressionLevel = l
	}
	proto := b.protocol
	if proto == "" {
		proto = "PLAINTEXT"
	}
	sasl := proto == "SASL_PLAINTEXT" || proto == "SASL_SSL"
	tlsOn := proto == "SSL" || proto == "SASL_SSL"
	if sasl {
		mech := b.mechanism
		if mech == "" {
			return &KeyError{Key: "sasl.mechanism", Err: ErrMissingKey, Reason: "Java's default GSSAPI is not supported: set PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER"}
		}
		if !b.jaasSet {
			return &KeyError{Key: "sasl.jaas.config", Err: ErrMissingKey, Reason: "security.protocol " + proto + " needs the credentials"}
		}
		if mech == "OAUTHBEARER" {
			m, err := b.oauthMechanism()
			if err != nil {
				return err
			}
			b.cl.Mechanism = m
		} else {
			if b.jaasModule == oauthModule {
				return &KeyError{Key: "sasl.jaas.config", Value: "[hidden]", Err: ErrInvalidValue,
					Reason: "OAuthBearerLoginModule needs sasl.mechanism OAUTHBEARER, not " + mech}
			}
			b.cl.SASL = &client.SASL{Mechanism: client.SASLMechanism(mech), Username: b.jaasUser, Password: b.jaasPassword}
		}
	}
	if tlsOn {
		t, err := b.tlsConfig()
		if err != nil {
			return err
		}
		b.cl.TLS = t
	}
	return nil
}
