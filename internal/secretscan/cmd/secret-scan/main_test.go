package main

import (
	"crypto/x509/pkix"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/internal/secretscan"
)

// TestRun: a bed's state file with generated keys; a clean directory
// passes (0), a file holding the first line of a private key's PEM body
// or a password fails (1), a missing state file is a usage error (2).
func TestRun(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"keystore.pem", "client-alice.pem"} {
		pem, err := kafkatest.SignedCert(nil, nil, pkix.Name{CommonName: name})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), pem, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	st := kafkatest.State{Version: 1, Keystore: filepath.Join(dir, "keystore.pem"),
		ClientCerts: map[string]string{"alice": filepath.Join(dir, "client-alice.pem")}}
	data, _ := json.Marshal(st)
	state := filepath.Join(dir, "state.json")
	if err := os.WriteFile(state, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(out, "run.log"), []byte("log line "+s+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("clean")
	if rc := run(state, []string{out, dir}); rc != 0 { // dir: the .pem inputs are skipped
		t.Fatalf("clean output: rc %d", rc)
	}
	keys, err := filepathKeys(st)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append(keys, kafkatest.AlicePassword, kafkatest.AdminPassword) {
		write(s)
		if rc := run(state, []string{out}); rc != 1 {
			t.Fatalf("a planted secret (%d bytes): rc %d, want 1", len(s), rc)
		}
	}
	if rc := run(filepath.Join(dir, "missing.json"), []string{out}); rc != 2 {
		t.Fatalf("missing state: rc %d, want 2", rc)
	}
}

// filepathKeys returns the PEM bodies' first lines the scan looks for.
func filepathKeys(st kafkatest.State) ([]string, error) {
	secrets, err := secretscan.KeySecrets(st.Keystore, st.ClientCerts["alice"])
	var out []string
	for _, s := range secrets {
		out = append(out, string(s.Value))
	}
	return out, err
}
