package client_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/gregor-kafka/gregor/client"
)

// ExampleNew connects to a cluster over plaintext and prints its ID. The
// examples of this package need a running Kafka, so they have no Output
// comment: go test compiles them but does not run them.
func ExampleNew() {
	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:9092"}, ClientID: "my-app"})
	if err != nil {
		log.Fatal(err) // an invalid Config: the error names the field
	}
	defer cl.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := cl.Ready(ctx); err != nil { // connects, negotiates, loads metadata
		log.Fatal(err)
	}
	md := cl.CachedMetadata()
	fmt.Println("cluster", *md.ClusterID, "brokers", len(md.Brokers))
}

// ExampleConfig_tlsSASL connects over TLS (security.protocol SASL_SSL) with
// a private CA and SCRAM-SHA-512 credentials. Package properties builds the
// same Config from a Java client's properties file.
func ExampleConfig_tlsSASL() {
	caPEM, err := os.ReadFile("ca.pem")
	if err != nil {
		log.Fatal(err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(caPEM) {
		log.Fatal("no certificate in ca.pem")
	}
	cl, err := client.New(client.Config{
		Bootstrap: []string{"kafka.example.com:9094"},
		TLS:       &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		SASL:      &client.SASL{Mechanism: client.SASLScramSHA512, Username: "alice", Password: os.Getenv("KAFKA_PASSWORD")},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := cl.Ready(ctx); err != nil {
		log.Fatal(err) // errors.Is(err, client.ErrAuthentication) for bad credentials
	}
}
