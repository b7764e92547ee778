package properties

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"strings"
)

// jaas parses a sasl.jaas.config entry: `<module> required name="value" ...;`
// for PlainLoginModule and ScramLoginModule (username and password
// options) or OAuthBearerLoginModule (its options are read by finish, once
// sasl.oauthbearer.token.endpoint.url is known).
func (b *builder) jaas(v string) error {
	s := strings.TrimSpace(v)
	s = strings.TrimSuffix(s, ";")
	fields := strings.Fields(s)
	if len(fields) < 2 {
		return invalid("not `<LoginModule> required name=\"value\" ...;`")
	}
	switch fields[0] {
	case plainModule, scramModule, oauthModule:
	default:
		return unsupported("login module %s; gregor reads PlainLoginModule, ScramLoginModule and OAuthBearerLoginModule", fields[0])
	}
	rest := strings.TrimSpace(strings.TrimPrefix(s, fields[0]))
	flag, rest, _ := strings.Cut(rest, " ")
	switch flag {
	case "required", "requisite", "sufficient", "optional":
	default:
		return invalid("missing the control flag (required) after the login module")
	}
	opts, err := jaasOptions(rest)
	if err != nil {
		return err
	}
	b.jaasModule, b.jaasOpts, b.jaasSet = fields[0], opts, true
	if fields[0] == oauthModule {
		return nil
	}
	user, ok := opts["username"]
	if !ok || user == "" {
		return invalid("no username option")
	}
	pass, ok := opts["password"]
	if !ok {
		return invalid("no password option")
	}
	b.jaasUser, b.jaasPassword = user, pass
	return nil
}

// jaasOptions parses name=value pairs; values may be double-quoted with
// backslash escapes.
func jaasOptions(s string) (map[string]string, error) {
	out := map[string]string{}
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" {
			return out, nil
		}
		name, rest, ok := strings.Cut(s, "=")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, invalid("option %q is not name=value", s)
		}
		name = strings.TrimSpace(name)
		rest = strings.TrimLeft(rest, " \t")
		var val strings.Builder
		if strings.HasPrefix(rest, `"`) {
			i, closed := 1, false
			for ; i < len(rest); i++ {
				if rest[i] == '\\' && i+1 < len(rest) {
					i++
					val.WriteByte(rest[i])
					continue
				}
				if rest[i] == '"' {
					closed = true
					break
				}
				val.WriteByte(rest[i])
			}
			if !closed {
				return nil, invalid("option %s: unterminated quote", name)
			}
			s = rest[i+1:]
		} else {
			end := strings.IndexAny(rest, " \t\r\n")
			if end < 0 {
				end = len(rest)
			}
			val.WriteString(rest[:end])
			s = rest[end:]
		}
		out[name] = val.String()
	}
}

// tlsConfig builds the TLS settings from the PEM stores.
func (b *builder) tlsConfig() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	var caPEM []byte
	switch {
	case b.truststorePEM != "" && b.truststoreFile != "":
		return nil, &KeyError{Key: "ssl.truststore.certificates", Value: "PEM", Err: ErrInvalidValue, Reason: "set either ssl.truststore.location or ssl.truststore.certificates"}
	case b.truststoreFile != "":
		data, err := os.ReadFile(b.truststoreFile)
		if err != nil {
			return nil, &KeyError{Key: "ssl.truststore.location", Value: b.truststoreFile, Err: ErrInvalidValue, Reason: err.Error()}
		}
		caPEM = data
	case b.truststorePEM != "":
		caPEM = []byte(b.truststorePEM)
	}
	if caPEM != nil {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(caPEM) {
			key, val := "ssl.truststore.location", b.truststoreFile
			if b.truststoreFile == "" {
				key, val = "ssl.truststore.certificates", "PEM"
			}
			return nil, &KeyError{Key: key, Value: val, Err: ErrInvalidValue, Reason: "no PEM certificate found"}
		}
		cfg.RootCAs = pool
	}
	cert, ok, err := b.keystore()
	if err != nil {
		return nil, err
	}
	if ok {
		cfg.Certificates = []tls.Certificate{cert}
	}
	if b.skipHostname {
		// The chain is verified against RootCAs; only the host name is not.
		roots := cfg.RootCAs
		cfg.InsecureSkipVerify = true
		cfg.VerifyConnection = func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return x509.CertificateInvalidError{Reason: x509.NotAuthorizedToSign, Detail: "no peer certificate"}
			}
			inter := x509.NewCertPool()
			for _, c := range cs.PeerCertificates[1:] {
				inter.AddCert(c)
			}
			_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
			return err
		}
	}
	return cfg, nil
}

// keystore loads the client certificate, if one is configured.
func (b *builder) keystore() (tls.Certificate, bool, error) {
	switch {
	case b.keystoreFile != "":
		data, err := os.ReadFile(b.keystoreFile)
		if err != nil {
			return tls.Certificate{}, false, &KeyError{Key: "ssl.keystore.location", Value: b.keystoreFile, Err: ErrInvalidValue, Reason: err.Error()}
		}
		cert, err := tls.X509KeyPair(data, data)
		if err != nil {
			return tls.Certificate{}, false, &KeyError{Key: "ssl.keystore.location", Value: b.keystoreFile, Err: ErrInvalidValue, Reason: "needs a PEM certificate chain and an unencrypted private key: " + err.Error()}
		}
		return cert, true, nil
	case b.keystoreChain != "" || b.keystoreKey != "":
		cert, err := tls.X509KeyPair([]byte(b.keystoreChain), []byte(b.keystoreKey))
		if err != nil {
			return tls.Certificate{}, false, &KeyError{Key: "ssl.keystore.key", Value: "[hidden]", Err: ErrInvalidValue, Reason: "with ssl.keystore.certificate.chain, not a PEM key pair"}
		}
		return cert, true, nil
	}
	return tls.Certificate{}, false, nil
}
