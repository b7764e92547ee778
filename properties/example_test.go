package properties_test

import (
	"context"
	"log"
	"strings"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/properties"
)

// ExampleProducer builds a producer from a Java client's properties.
func ExampleProducer() {
	p, err := properties.Parse(strings.NewReader(`
bootstrap.servers=127.0.0.1:9092
security.protocol=SASL_PLAINTEXT
sasl.mechanism=SCRAM-SHA-256
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="alice-secret";
linger.ms=10
compression.type=lz4
`))
	if err != nil {
		log.Fatal(err)
	}
	cc, pc, err := properties.Producer(p) // acks=1 here would fail: ErrWeakensDurability
	if err != nil {
		log.Fatal(err) // one line naming the key, e.g. properties: linger.ms="x": invalid value: not an integer
	}
	cl, err := client.New(cc)
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Close(context.Background())
	pr, err := producer.New(cl, pc)
	if err != nil {
		log.Fatal(err)
	}
	defer pr.Close(context.Background()) // before cl.Close
}
