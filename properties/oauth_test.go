package properties

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
)

// initial starts m's exchange and returns the token and extensions of its
// RFC 7628 initial response, and the session's expiry.
func initial(t *testing.T, m client.Mechanism) (string, map[string]string, time.Time) {
	t.Helper()
	if m == nil || m.Name() != "OAUTHBEARER" {
		t.Fatalf("mechanism %v, want OAUTHBEARER", m)
	}
	sess, msg, err := m.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s, ok := strings.CutPrefix(string(msg), "n,,\x01auth=Bearer ")
	if !ok {
		t.Fatalf("initial response %q", msg)
	}
	parts := strings.Split(strings.TrimSuffix(s, "\x01\x01"), "\x01")
	ext := map[string]string{}
	for _, kv := range parts[1:] {
		k, v, _ := strings.Cut(kv, "=")
		ext[k] = v
	}
	var exp time.Time
	if e, ok := sess.(client.SessionExpirer); ok {
		exp = e.Expiry()
	}
	return parts[0], ext, exp
}

func claimsOf(t *testing.T, token string) map[string]any {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("token %q is not a compact JWS", token)
	}
	for i, want := range []string{`{"alg":"none"}`} {
		if b, _ := base64.RawURLEncoding.DecodeString(parts[i]); string(b) != want {
			t.Fatalf("header %q", b)
		}
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestOAuthBearerUnsecuredLogin: Java's unsecured login options become
// unsigned tokens with the principal, lifetime, claims and extensions asked
// for, minted afresh (the mechanism is client.OAuthBearer; SASL stays nil).
func TestOAuthBearerUnsecuredLogin(t *testing.T) {
	c, err := Client(map[string]string{
		"bootstrap.servers": "h:1", "security.protocol": "SASL_SSL", "sasl.mechanism": "OAUTHBEARER",
		"sasl.jaas.config": oauthModule + ` required unsecuredLoginStringClaim_sub="alice" unsecuredLoginLifetimeSeconds="60"` +
			` unsecuredLoginNumberClaim_n="7" unsecuredLoginListClaim_scope="|a|b" unsecuredLoginExtension_logicalCluster="lc-1";`,
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.SASL != nil || c.TLS == nil {
		t.Fatalf("SASL %v TLS %v", c.SASL, c.TLS)
	}
	before := time.Now()
	tok, ext, exp := initial(t, c.Mechanism)
	cl := claimsOf(t, tok)
	if cl["sub"] != "alice" || cl["n"] != 7.0 || len(cl["scope"].([]any)) != 2 || cl["scope"].([]any)[1] != "b" {
		t.Fatalf("claims %v", cl)
	}
	if life := cl["exp"].(float64) - cl["iat"].(float64); life < 59.9 || life > 60.1 {
		t.Fatalf("lifetime %vs, want 60", life)
	}
	if exp.Before(before.Add(59*time.Second)) || exp.After(time.Now().Add(61*time.Second)) {
		t.Fatalf("session expiry %v", exp)
	}
	if len(ext) != 1 || ext["logicalCluster"] != "lc-1" {
		t.Fatalf("extensions %v", ext)
	}
	if f := Format(Configs{Client: c}); f["sasl.mechanism"] != "OAUTHBEARER" || f["security.protocol"] != "SASL_SSL" || f["sasl.jaas.config"] != "" {
		t.Fatalf("Format: %v", f)
	}
}

// TestOAuthBearerTokenFile: sasl.oauthbearer.token.endpoint.url=file:...
// sends the file's token with its exp claim as the session's expiry, and
// reads the file again once the token is due for refresh.
func TestOAuthBearerTokenFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "token.jwt")
	enc := base64.RawURLEncoding
	exp := time.Now().Add(time.Hour).Truncate(time.Second)
	payload, _ := json.Marshal(map[string]any{"sub": "svc", "exp": exp.Unix()})
	token := enc.EncodeToString([]byte(`{"alg":"RS256"}`)) + "." + enc.EncodeToString(payload) + ".c2ln"
	if err := os.WriteFile(path, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Client(map[string]string{
		"bootstrap.servers": "h:1", "security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "OAUTHBEARER",
		"sasl.oauthbearer.token.endpoint.url": "file://" + path,
		"sasl.jaas.config":                    oauthModule + ` required extension_traceId="abc";`,
	})
	if err != nil {
		t.Fatal(err)
	}
	got, ext, gotExp := initial(t, c.Mechanism)
	if got != token || !gotExp.Equal(exp) || ext["traceId"] != "abc" {
		t.Fatalf("token %q (want the file's), expiry %v (want %v), extensions %v", got, gotExp, exp, ext)
	}
	if strings.Contains(fmtAll(c), token) {
		t.Fatal("the token appears in the formatted config")
	}
}

// fmtAll formats c the ways a log line might.
func fmtAll(c client.Config) string {
	var b strings.Builder
	for _, f := range []string{"%v", "%+v", "%#v"} {
		b.WriteString(fmt.Sprintf(f, c))
		b.WriteString(fmt.Sprintf(f, c.Mechanism))
	}
	return b.String()
}

// TestOAuthBearerBadValues: every wrong OAUTHBEARER setting is a typed
// *KeyError naming the key, and never shows the JAAS options.
func TestOAuthBearerBadValues(t *testing.T) {
	oauth := func(jaas string, kv ...string) map[string]string {
		p := map[string]string{"bootstrap.servers": "h:1", "security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "OAUTHBEARER"}
		if jaas != "" {
			p["sasl.jaas.config"] = jaas
		}
		for i := 0; i < len(kv); i += 2 {
			p[kv[i]] = kv[i+1]
		}
		return p
	}
	sub := ` unsecuredLoginStringClaim_sub="topsecret"`
	cases := []struct {
		name string
		p    map[string]string
		kind error
		key  string
		text string
	}{
		{"no jaas", oauth(""), ErrMissingKey, "sasl.jaas.config", ""},
		{"plain module", oauth(plainModule + ` required username="u" password="topsecret";`), ErrInvalidValue, "sasl.jaas.config", "needs " + oauthModule},
		{"oauth module for PLAIN", map[string]string{"bootstrap.servers": "h:1", "security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
			"sasl.jaas.config": oauthModule + " required" + sub + ";"}, ErrInvalidValue, "sasl.jaas.config", "needs sasl.mechanism OAUTHBEARER"},
		{"no principal", oauth(oauthModule + ` required unsecuredLoginStringClaim_aud="topsecret";`), ErrInvalidValue, "sasl.jaas.config", "unsecuredLoginStringClaim_sub"},
		{"principal claim renamed", oauth(oauthModule + " required unsecuredLoginPrincipalClaimName=\"user\"" + sub + ";"), ErrInvalidValue, "sasl.jaas.config", "unsecuredLoginStringClaim_user"},
		{"bad lifetime", oauth(oauthModule + " required" + sub + ` unsecuredLoginLifetimeSeconds="1h";`), ErrInvalidValue, "sasl.jaas.config", "positive number of seconds"},
		{"zero lifetime", oauth(oauthModule + " required" + sub + ` unsecuredLoginLifetimeSeconds="0";`), ErrInvalidValue, "sasl.jaas.config", "positive number of seconds"},
		{"bad number claim", oauth(oauthModule + " required" + sub + ` unsecuredLoginNumberClaim_n="x";`), ErrInvalidValue, "sasl.jaas.config", "not a number"},
		{"exp claim", oauth(oauthModule + " required" + sub + ` unsecuredLoginNumberClaim_exp="1";`), ErrInvalidValue, "sasl.jaas.config", "set by the login"},
		{"unknown option", oauth(oauthModule + " required" + sub + ` unsecuredLoginFoo="1";`), ErrInvalidValue, "sasl.jaas.config", "unknown unsecured login option"},
		{"bad extension", oauth(oauthModule + " required" + sub + ` unsecuredLoginExtension_auth="x";`), ErrInvalidValue, "sasl.jaas.config", "extension name"},
		{"https endpoint", oauth(oauthModule+" required;", "sasl.oauthbearer.token.endpoint.url", "https://idp.example/token"), ErrUnsupported, "sasl.oauthbearer.token.endpoint.url", "client-credentials"},
		{"ftp endpoint", oauth(oauthModule+" required;", "sasl.oauthbearer.token.endpoint.url", "ftp://x/y"), ErrInvalidValue, "sasl.oauthbearer.token.endpoint.url", "not a file: or https: URL"},
		{"missing token file", oauth(oauthModule+" required;", "sasl.oauthbearer.token.endpoint.url", "file:///nonexistent/token"), ErrInvalidValue, "sasl.oauthbearer.token.endpoint.url", "no such file"},
		{"callback handler", oauth(oauthModule+" required"+sub+";", "sasl.login.callback.handler.class", "com.example.Handler"), ErrUnsupported, "sasl.login.callback.handler.class", "Java class"},
		{"gssapi", oauth("", "sasl.mechanism", "GSSAPI"), ErrUnsupported, "sasl.mechanism", "OAUTHBEARER"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := All(tc.p)
			var ke *KeyError
			if !errors.As(err, &ke) || !errors.Is(err, tc.kind) || ke.Key != tc.key {
				t.Fatalf("got %v (%T), want a %v KeyError for %s", err, err, tc.kind, tc.key)
			}
			if !strings.Contains(err.Error(), tc.text) || strings.Contains(err.Error(), "topsecret") {
				t.Fatalf("error %q lacks %q or shows a JAAS option", err, tc.text)
			}
		})
	}
}
