package otel

import (
	"strconv"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// apiName is the Kafka API's name (Produce, Fetch, ...) of a request event.
func apiName(ev client.RequestEvent) string {
	if info, ok := wire.LookupAPI(ev.Key); ok {
		return info.Name
	}
	return "api_" + strconv.Itoa(int(ev.Key))
}
