package runner

import (
	"context"
	"fmt"
	"strings"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// brokerFeature is what a scenario capability needs of the broker: an API
// it advertises and a finalized feature level of at least 1.
type brokerFeature struct {
	name    string      // for the reason, e.g. "KIP-848 consumer groups"
	api     wire.APIKey // advertised in ApiVersions
	feature string      // finalized at level 1 or more
}

// brokerFeatures maps the scenario capabilities that depend on the broker
// to what it must have; a scenario requiring one the broker lacks is
// ineligible on that broker, not failed.
var brokerFeatures = map[string]brokerFeature{
	"consumer_protocol_groups": {"KIP-848 consumer groups", wire.KeyConsumerGroupHeartbeat, "group.version"},
	"share_consumer":           {"KIP-932 share groups", wire.KeyShareGroupHeartbeat, "share.version"},
}

// brokerLacks returns why the broker at bootstrap cannot run a scenario
// requiring requires ("" when it can), from its ApiVersions answer.
func brokerLacks(ctx context.Context, bootstrap []string, requires []string) (string, error) {
	var needed []brokerFeature
	for _, r := range requires {
		if f, ok := brokerFeatures[r]; ok {
			needed = append(needed, f)
		}
	}
	if len(needed) == 0 {
		return "", nil
	}
	cl, err := client.New(client.Config{Bootstrap: bootstrap})
	if err != nil {
		return "", err
	}
	defer cl.Close(context.Background())
	resp, err := cl.Request(ctx, client.AnyBroker, &wire.ApiVersionsRequest{ClientSoftwareName: "gregor-testlab", ClientSoftwareVersion: "0", NodeID: -1})
	if err != nil {
		return "", fmt.Errorf("ApiVersions: %w", err)
	}
	return lacking(resp.(*wire.ApiVersionsResponse), needed), nil
}

// lacking names the features of needed the ApiVersions answer av lacks.
func lacking(av *wire.ApiVersionsResponse, needed []brokerFeature) string {
	var why []string
	for _, f := range needed {
		advertised := false
		for _, k := range av.ApiKeys {
			advertised = advertised || k.ApiKey == f.api
		}
		level := int16(0)
		for _, ff := range av.FinalizedFeatures {
			if ff.Name == f.feature {
				level = ff.MaxVersionLevel
			}
		}
		api := "?"
		if info, ok := wire.LookupAPI(f.api); ok {
			api = info.Name
		}
		switch {
		case !advertised:
			why = append(why, fmt.Sprintf("the broker lacks %s (%s not in ApiVersions)", f.name, api))
		case level < 1:
			why = append(why, fmt.Sprintf("the broker lacks %s (%s not finalized)", f.name, f.feature))
		}
	}
	return strings.Join(why, "; ")
}
