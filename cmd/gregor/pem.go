package main

import (
	"fmt"
	"os"
)

// loadPEMPair puts the client certificate chain and key into p as
// ssl.keystore.certificate.chain and ssl.keystore.key.
func loadPEMPair(p map[string]string, certFile, keyFile string) error {
	chain, err := os.ReadFile(certFile)
	if err != nil {
		return fmt.Errorf("--cert-file: %w", err)
	}
	key, err := os.ReadFile(keyFile)
	if err != nil {
		return fmt.Errorf("--key-file: %w", err)
	}
	p["ssl.keystore.certificate.chain"] = string(chain)
	p["ssl.keystore.key"] = string(key)
	return nil
}
