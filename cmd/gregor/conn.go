package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/properties"
)

// connFlags are the connection settings every command takes.
type connFlags struct {
	bootstrap, configFile, clientID       string
	tls                                   bool
	caFile, certFile, keyFile             string
	saslMechanism, saslUser, saslPassword string
	props                                 multiFlag
	timeout                               time.Duration
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// connFlagNames are the flags addConnFlags registers (help lists them apart).
var connFlagNames = map[string]bool{
	"b": true, "bootstrap": true, "F": true, "client-id": true, "tls": true, "ca-file": true, "cert-file": true,
	"key-file": true, "sasl-mechanism": true, "sasl-user": true, "sasl-password": true, "X": true, "timeout": true,
}

// addConnFlags registers the connection flags on fs.
func addConnFlags(fs *flag.FlagSet) *connFlags {
	c := &connFlags{}
	fs.StringVar(&c.bootstrap, "bootstrap", "", "bootstrap `host:port` list, comma-separated (bootstrap.servers; env GREGOR_BOOTSTRAP)")
	fs.StringVar(&c.bootstrap, "b", "", "same as --bootstrap `host:port`")
	fs.StringVar(&c.configFile, "F", "", "Java-style client properties `file` (env GREGOR_CONFIG)")
	fs.StringVar(&c.clientID, "client-id", "", "client.id sent to brokers (env GREGOR_CLIENT_ID; default gregor)")
	fs.BoolVar(&c.tls, "tls", false, "connect with TLS (security.protocol SSL or SASL_SSL)")
	fs.StringVar(&c.caFile, "ca-file", "", "PEM `file` of the CAs to trust; implies --tls (env GREGOR_CA_FILE)")
	fs.StringVar(&c.certFile, "cert-file", "", "PEM `file` of the client certificate chain; implies --tls")
	fs.StringVar(&c.keyFile, "key-file", "", "PEM `file` of the client certificate's unencrypted key")
	fs.StringVar(&c.saslMechanism, "sasl-mechanism", "", "PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512 (env GREGOR_SASL_MECHANISM)")
	fs.StringVar(&c.saslUser, "sasl-user", "", "SASL user name (env GREGOR_SASL_USER)")
	fs.StringVar(&c.saslPassword, "sasl-password", "", "SASL password; prefer env GREGOR_SASL_PASSWORD")
	fs.Var(&c.props, "X", "set a client property `key=value` (repeatable; applied last)")
	fs.DurationVar(&c.timeout, "timeout", 30*time.Second, "bound on connecting and on each admin operation")
	return c
}

// properties merges the file, the environment, the flags and -X into one
// Java-style properties set.
func (c *connFlags) properties(getenv env) (map[string]string, error) {
	pick := func(flagVal, envName string) string {
		if flagVal != "" {
			return flagVal
		}
		return getenv(envName)
	}
	p := map[string]string{}
	if f := pick(c.configFile, "GREGOR_CONFIG"); f != "" {
		loaded, err := properties.Load(f)
		if err != nil {
			return nil, err
		}
		p = loaded
	}
	if v := pick(c.bootstrap, "GREGOR_BOOTSTRAP"); v != "" {
		p["bootstrap.servers"] = v
	}
	if v := pick(c.clientID, "GREGOR_CLIENT_ID"); v != "" {
		p["client.id"] = v
	}
	proto := strings.ToUpper(p["security.protocol"])
	tlsOn := c.tls || strings.HasSuffix(proto, "SSL")
	saslOn := strings.HasPrefix(proto, "SASL_")
	if v := pick(c.caFile, "GREGOR_CA_FILE"); v != "" {
		tlsOn = true
		p["ssl.truststore.type"] = "PEM"
		p["ssl.truststore.location"] = v
	}
	if c.certFile != "" || c.keyFile != "" {
		if c.certFile == "" || c.keyFile == "" {
			return nil, usagef("--cert-file and --key-file go together")
		}
		tlsOn = true
		p["ssl.keystore.type"] = "PEM"
		if err := loadPEMPair(p, c.certFile, c.keyFile); err != nil {
			return nil, err
		}
	}
	if v := pick(c.saslMechanism, "GREGOR_SASL_MECHANISM"); v != "" {
		saslOn = true
		p["sasl.mechanism"] = v
	}
	user, pass := pick(c.saslUser, "GREGOR_SASL_USER"), pick(c.saslPassword, "GREGOR_SASL_PASSWORD")
	if user != "" || pass != "" {
		if user == "" {
			return nil, usagef("a SASL password needs --sasl-user")
		}
		saslOn = true
		module := "org.apache.kafka.common.security.scram.ScramLoginModule"
		if p["sasl.mechanism"] == "PLAIN" {
			module = "org.apache.kafka.common.security.plain.PlainLoginModule"
		}
		p["sasl.jaas.config"] = fmt.Sprintf("%s required username=%s password=%s;", module, jaasQuote(user), jaasQuote(pass))
	}
	switch {
	case tlsOn && saslOn:
		p["security.protocol"] = "SASL_SSL"
	case saslOn:
		p["security.protocol"] = "SASL_PLAINTEXT"
	case tlsOn:
		p["security.protocol"] = "SSL"
	}
	for _, kv := range c.props {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, usagef("-X %q is not key=value", kv)
		}
		p[k] = v
	}
	// A Java consumer's file carries group settings; consume reads group.id
	// and group.protocol itself (groupKeys), the rest has no use here.
	for _, k := range properties.GroupKeys {
		delete(p, k)
	}
	if p["bootstrap.servers"] == "" {
		return nil, usagef("no broker address: give -b HOST:PORT, GREGOR_BOOTSTRAP, or bootstrap.servers in -F FILE")
	}
	return p, nil
}

// configs builds every configuration from the merged properties.
func (c *connFlags) configs(getenv env) (properties.Configs, error) {
	p, err := c.properties(getenv)
	if err != nil {
		return properties.Configs{}, err
	}
	return properties.All(p)
}

// session is a client with its admin, connected on first use (so a
// command checks its flags before it connects).
type session struct {
	conn *connFlags
	io   *ioctx
	cl   *client.Client
	adm  *admin.Admin
	cfg  properties.Configs
}

// connect builds the client and waits until it is ready within --timeout.
func (s *session) connect() error {
	if s.cl != nil {
		return nil
	}
	cfg, err := s.conn.configs(s.io.getenv)
	if err != nil {
		return err
	}
	if lvl := s.io.getenv("GREGOR_LOG_LEVEL"); lvl != "" {
		var l slog.Level
		if err := l.UnmarshalText([]byte(lvl)); err != nil {
			return usagef("GREGOR_LOG_LEVEL %q: want DEBUG, INFO, WARN or ERROR", lvl)
		}
		cfg.Client.Logger = slog.New(slog.NewTextHandler(s.io.stderr, &slog.HandlerOptions{Level: l}))
	}
	cl, err := client.New(cfg.Client)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(s.io.ctx, s.conn.timeout)
	defer cancel()
	if err := cl.Ready(ctx); err != nil {
		cl.Close(context.Background())
		return fmt.Errorf("cannot connect to %s: %w", strings.Join(cfg.Client.Bootstrap, ","), err)
	}
	s.cl, s.adm, s.cfg = cl, admin.New(cl, admin.Config{}), cfg
	return nil
}

// op connects if needed and returns a context bounded by --timeout for one
// operation.
func (s *session) op() (context.Context, context.CancelFunc, error) {
	if err := s.connect(); err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(s.io.ctx, s.conn.timeout)
	return ctx, cancel, nil
}

func (s *session) close() {
	if s.cl != nil {
		s.cl.Close(context.Background())
	}
}

func jaasQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// groupKeys returns the Java consumer group settings (properties.GroupKeys)
// of the properties file, overridden by -X; consume --group reads group.id
// and group.protocol from them.
func (c *connFlags) groupKeys(getenv env) (map[string]string, error) {
	out := map[string]string{}
	f := c.configFile
	if f == "" {
		f = getenv("GREGOR_CONFIG")
	}
	if f != "" {
		p, err := properties.Load(f)
		if err != nil {
			return nil, err
		}
		for _, k := range properties.GroupKeys {
			if v, ok := p[k]; ok {
				out[k] = v
			}
		}
	}
	for _, kv := range c.props {
		k, v, _ := strings.Cut(kv, "=")
		if slices.Contains(properties.GroupKeys, k) {
			out[k] = v
		}
	}
	return out, nil
}
