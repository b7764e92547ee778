package prom_test

import (
	"context"
	"log"
	"net/http"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/plugin/prom"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Example exposes a client's metrics on http://localhost:2112/metrics: the
// collector is the client's hook (per-partition records, bytes, failures
// and lag) and reads its metrics snapshot at each scrape (request latency
// per broker and lane, calls, connections). It needs a running Kafka for
// the series to move, so it has no Output comment: go test compiles it
// but does not run it (prom_test.go checks a scrape after real traffic).
func Example() {
	col := prom.New()
	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:9092"}, Hooks: []client.Hook{col}})
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Close(context.Background())
	col.Attach(cl)
	reg := prometheus.NewRegistry()
	reg.MustRegister(col)
	http.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	// ... producers and consumers on cl ...
	log.Fatal(http.ListenAndServe("localhost:2112", nil))
}
