package properties

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gregor-kafka/gregor/client"
)

// Java's login modules, as sasl.jaas.config names them.
const (
	plainModule = "org.apache.kafka.common.security.plain.PlainLoginModule"
	scramModule = "org.apache.kafka.common.security.scram.ScramLoginModule"
	oauthModule = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
)

// Options of OAuthBearerLoginModule's unsecured login (Java's
// OAuthBearerUnsecuredLoginCallbackHandler) and of its SASL extensions
// (KIP-342).
const (
	optUnsecuredPrefix    = "unsecuredLogin"
	optPrincipalClaimName = "unsecuredLoginPrincipalClaimName"
	optLifetimeSeconds    = "unsecuredLoginLifetimeSeconds"
	optStringClaim        = "unsecuredLoginStringClaim_"
	optNumberClaim        = "unsecuredLoginNumberClaim_"
	optListClaim          = "unsecuredLoginListClaim_"
	optUnsecuredExtension = "unsecuredLoginExtension_"
	optExtension          = "extension_"
)

// oauthMechanism builds the OAUTHBEARER mechanism from the
// OAuthBearerLoginModule options and sasl.oauthbearer.token.endpoint.url:
// a file: URL is a token file (read again whenever 80% of the last token's
// lifetime has passed), no URL is Java's unsecured login (unsigned tokens
// minted here, for test brokers with the unsecured validator only).
func (b *builder) oauthMechanism() (client.Mechanism, error) {
	if b.jaasModule != oauthModule {
		return nil, &KeyError{Key: "sasl.jaas.config", Value: "[hidden]", Err: ErrInvalidValue,
			Reason: "sasl.mechanism OAUTHBEARER needs " + oauthModule}
	}
	ext := map[string]string{}
	for k, v := range b.jaasOpts {
		if name, ok := strings.CutPrefix(k, optExtension); ok {
			ext[name] = v
		}
	}
	if err := checkExtensions(ext); err != nil {
		return nil, err
	}
	if b.tokenURL == "" {
		return b.unsecuredLogin()
	}
	u, err := url.Parse(b.tokenURL)
	switch {
	case err != nil:
		return nil, &KeyError{Key: "sasl.oauthbearer.token.endpoint.url", Value: b.tokenURL, Err: ErrInvalidValue, Reason: "not a URL"}
	case u.Scheme == "http" || u.Scheme == "https":
		return nil, &KeyError{Key: "sasl.oauthbearer.token.endpoint.url", Value: b.tokenURL, Err: ErrUnsupported,
			Reason: "gregor has no OAuth client-credentials login; give a token file (file:) or set client.Config.Mechanism to client.OAuthBearer with a TokenSource"}
	case u.Scheme != "file" || u.Path == "":
		return nil, &KeyError{Key: "sasl.oauthbearer.token.endpoint.url", Value: b.tokenURL, Err: ErrInvalidValue, Reason: "not a file: or https: URL"}
	}
	path := u.Path
	read := func(context.Context) (client.Token, error) {
		t, err := readTokenFile(path)
		t.Extensions = ext
		return t, err
	}
	if _, err := read(context.Background()); err != nil {
		return nil, &KeyError{Key: "sasl.oauthbearer.token.endpoint.url", Value: b.tokenURL, Err: ErrInvalidValue, Reason: err.Error()}
	}
	return client.OAuthBearer(client.RefreshingToken(read)), nil
}

// readTokenFile reads a compact-serialized token and takes its expiry from
// the "exp" claim when the payload is JSON that has one.
func readTokenFile(path string) (client.Token, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return client.Token{}, fmt.Errorf("reading the token file: %w", err)
	}
	tok := string(bytes.TrimSpace(data))
	parts := strings.Split(tok, ".")
	if tok == "" || len(parts) != 3 {
		return client.Token{}, fmt.Errorf("the token file does not hold a compact-serialized JWT")
	}
	t := client.Token{Value: tok}
	if payload, err := base64.RawURLEncoding.DecodeString(parts[1]); err == nil {
		var claims struct {
			Exp *float64 `json:"exp"`
		}
		if json.Unmarshal(payload, &claims) == nil && claims.Exp != nil {
			t.Expiry = time.UnixMilli(int64(*claims.Exp * 1000))
		}
	}
	return t, nil
}

// unsecuredLogin is Java's OAuthBearerUnsecuredLoginCallbackHandler: an
// unsigned JWS ({"alg":"none"}) with the principal claim (sub unless
// unsecuredLoginPrincipalClaimName says otherwise), iat, exp (now plus
// unsecuredLoginLifetimeSeconds, default 3600) and the configured string,
// number and list claims; extensions from unsecuredLoginExtension_<name>.
func (b *builder) unsecuredLogin() (client.Mechanism, error) {
	bad := func(format string, args ...any) error {
		return &KeyError{Key: "sasl.jaas.config", Value: "[hidden]", Err: ErrInvalidValue, Reason: fmt.Sprintf(format, args...)}
	}
	principal := "sub"
	lifetime := time.Hour
	claims := map[string]any{}
	ext := map[string]string{}
	names := make([]string, 0, len(b.jaasOpts))
	for k := range b.jaasOpts {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := b.jaasOpts[k]
		switch {
		case k == optPrincipalClaimName:
			if strings.TrimSpace(v) == "" {
				return nil, bad("%s is empty", k)
			}
			principal = strings.TrimSpace(v)
		case k == optLifetimeSeconds:
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil || n < 1 || n > 1<<31 {
				return nil, bad("%s is not a positive number of seconds", k)
			}
			lifetime = time.Duration(n) * time.Second
		case strings.HasPrefix(k, optStringClaim):
			claims[strings.TrimPrefix(k, optStringClaim)] = v
		case strings.HasPrefix(k, optNumberClaim):
			n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return nil, bad("%s is not a number", k)
			}
			claims[strings.TrimPrefix(k, optNumberClaim)] = n
		case strings.HasPrefix(k, optListClaim):
			// Java: the value's first character is the delimiter.
			if v == "" {
				claims[strings.TrimPrefix(k, optListClaim)] = []string{}
				break
			}
			claims[strings.TrimPrefix(k, optListClaim)] = strings.Split(v[1:], v[:1])
		case strings.HasPrefix(k, optUnsecuredExtension):
			ext[strings.TrimPrefix(k, optUnsecuredExtension)] = v
		case strings.HasPrefix(k, optUnsecuredPrefix):
			return nil, bad("unknown unsecured login option %s", k)
		}
	}
	if err := checkExtensions(ext); err != nil {
		return nil, err
	}
	for _, reserved := range []string{"iat", "exp"} {
		if _, ok := claims[reserved]; ok {
			return nil, bad("the %s claim is set by the login, not by an option", reserved)
		}
	}
	if s, ok := claims[principal].(string); !ok || s == "" {
		return nil, bad("no %s%s option (the unsecured login's principal); or set sasl.oauthbearer.token.endpoint.url to a token file", optStringClaim, principal)
	}
	mint := func(context.Context) (client.Token, error) {
		now := time.Now()
		exp := now.Add(lifetime)
		c := make(map[string]any, len(claims)+2)
		for k, v := range claims {
			c[k] = v
		}
		c["iat"] = float64(now.UnixMilli()) / 1000
		c["exp"] = float64(exp.UnixMilli()) / 1000
		payload, err := json.Marshal(c)
		if err != nil {
			return client.Token{}, err
		}
		enc := base64.RawURLEncoding
		return client.Token{Value: enc.EncodeToString([]byte(`{"alg":"none"}`)) + "." + enc.EncodeToString(payload) + ".",
			Expiry: exp, Extensions: ext}, nil
	}
	if _, err := mint(context.Background()); err != nil {
		return nil, bad("claims: %v", err)
	}
	return client.OAuthBearer(client.RefreshingToken(mint)), nil
}

// checkExtensions refuses SASL extension names RFC 7628 forbids: "auth"
// and names that are not alphabetic.
func checkExtensions(ext map[string]string) error {
	for k := range ext {
		if k == "auth" || k == "" || strings.TrimLeft(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
			return &KeyError{Key: "sasl.jaas.config", Value: "[hidden]", Err: ErrInvalidValue,
				Reason: fmt.Sprintf("SASL extension name %q is not alphabetic or is \"auth\"", k)}
		}
	}
	return nil
}
