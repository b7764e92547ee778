package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/internal/secretscan"
)

func main() {
	state := flag.String("state", "", "the test bed's state file (kafka-local up -state)")
	flag.Parse()
	os.Exit(run(*state, flag.Args()))
}

func run(state string, roots []string) int {
	if state == "" || len(roots) == 0 {
		fmt.Fprintln(os.Stderr, "usage: secret-scan -state STATE.json DIR_OR_FILE...")
		return 2
	}
	st, err := kafkatest.ReadState(state)
	if err != nil {
		fmt.Fprintf(os.Stderr, "secret-scan: %v\n", err)
		return 2
	}
	secrets, err := secretscan.BedSecrets(st)
	if err != nil || len(secrets) != 4+len(st.ClientCerts) { // a key per PEM file, two passwords, the JWS header
		fmt.Fprintf(os.Stderr, "secret-scan: reading the bed's keys: %d secrets, %v\n", len(secrets), err)
		return 2
	}
	hits, files, err := secretscan.Scan(roots, secrets)
	if err != nil {
		fmt.Fprintf(os.Stderr, "secret-scan: %v\n", err)
		return 2
	}
	for _, h := range hits {
		fmt.Printf("secret-scan: %s found in %s\n", h.Secret, h.Path)
	}
	fmt.Printf("secret-scan: %d secrets, %d files scanned, %d hits\n", len(secrets), files, len(hits))
	if len(hits) > 0 {
		return 1
	}
	return 0
}
