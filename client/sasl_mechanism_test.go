package client

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestOAuthInitialResponse(t *testing.T) {
	got, err := oauthInitial(Token{Value: "tok.en.", Extensions: map[string]string{"b": "2", "a": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "n,,\x01auth=Bearer tok.en.\x01a=1\x01b=2\x01\x01"
	if string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	for _, bad := range []string{"auth", "x1", ""} {
		if _, err := oauthInitial(Token{Value: "t", Extensions: map[string]string{bad: "v"}}); err == nil {
			t.Errorf("extension %q accepted", bad)
		}
	}
	if _, err := oauthInitial(Token{}); err == nil {
		t.Error("empty token accepted")
	}
}

// TestOAuthSessionRefusal: a non-empty server answer is RFC 7628's error
// JSON; the client answers with a single kvsep, and fails on a second one.
func TestOAuthSessionRefusal(t *testing.T) {
	s := &oauthSession{}
	out, done, err := s.Step([]byte(`{"status":"invalid_token"}`))
	if err != nil || done || string(out) != "\x01" {
		t.Fatalf("first error answer: %q %v %v", out, done, err)
	}
	if _, _, err := s.Step([]byte(`{"status":"invalid_token"}`)); err == nil {
		t.Fatal("second error answer accepted")
	}
	if _, done, err := (&oauthSession{}).Step(nil); !done || err != nil {
		t.Fatalf("empty answer: done %v err %v", done, err)
	}
}

func TestRefreshingToken(t *testing.T) {
	now := time.Unix(1000, 0)
	calls := 0
	src := RefreshingToken(func(context.Context) (Token, error) {
		calls++
		if calls == 3 {
			return Token{}, errors.New("idp down")
		}
		return Token{Value: fmt.Sprint("t", calls), Expiry: now.Add(100 * time.Second)}, nil
	}).(*refreshingToken)
	src.now = func() time.Time { return now }
	get := func() string {
		tok, err := src.Token(context.Background())
		if err != nil {
			return "error"
		}
		return tok.Value
	}
	if v := get(); v != "t1" {
		t.Fatalf("first: %s", v)
	}
	now = now.Add(79 * time.Second) // before 80% of the lifetime: cached
	if v := get(); v != "t1" || calls != 1 {
		t.Fatalf("at 79%%: %s after %d fetches", v, calls)
	}
	now = now.Add(2 * time.Second) // past 80%: refreshed
	if v := get(); v != "t2" || calls != 2 {
		t.Fatalf("at 81%%: %s after %d fetches", v, calls)
	}
	now = now.Add(81 * time.Second)
	if v := get(); v != "error" {
		t.Fatalf("failed fetch returned %s", v)
	}
	if v := get(); v != "t4" {
		t.Fatalf("after a failed fetch: %s", v)
	}
}

// TestSecretsNotFormatted: no verb of fmt prints a password or token held
// in a config value or mechanism.
func TestSecretsNotFormatted(t *testing.T) {
	const pw, tok = "s3cret-pw", "s3cret-token"
	values := []any{
		SASL{Mechanism: SASLPlain, Username: "u", Password: pw},
		&SASL{Mechanism: SASLPlain, Username: "u", Password: pw},
		Plain("u", pw), ScramSHA256("u", pw), ScramSHA512("u", pw),
		Token{Value: tok}, StaticToken(Token{Value: tok}), OAuthBearer(StaticToken(Token{Value: tok})),
		Config{SASL: &SASL{Mechanism: SASLPlain, Username: "u", Password: pw}, Mechanism: Plain("u", pw)},
	}
	for _, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
			if s := fmt.Sprintf(verb, v); strings.Contains(s, pw) || strings.Contains(s, tok) {
				t.Errorf("%s of %T prints a secret: %s", verb, v, s)
			}
		}
	}
	// A normalized config (New copies SASL into Mechanism) too.
	cfg := Config{Bootstrap: []string{"127.0.0.1:1"}, SASL: &SASL{Mechanism: SASLScramSHA512, Username: "u", Password: pw}}
	cfg, err := cfg.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	for _, verb := range []string{"%v", "%+v", "%#v"} {
		if s := fmt.Sprintf(verb, cfg); strings.Contains(s, pw) {
			t.Errorf("%s of a normalized Config prints the password: %s", verb, s)
		}
	}
}
