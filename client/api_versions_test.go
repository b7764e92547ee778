package client

import (
	"maps"
	"testing"

	"github.com/gregor-kafka/gregor/wire"
)

// Every API gregor implements is looked up in the connection's array.
func TestVersionSlotsCoverAPIs(t *testing.T) {
	for _, a := range wire.APIs() {
		if a.Key < 0 || int(a.Key) >= versionSlots {
			t.Errorf("%s (key %d) is outside the version table's %d slots", a.Name, a.Key, versionSlots)
		}
	}
}

// The table answers as the map it replaced: last range of a repeated key,
// keys beyond the array and negative keys found in the advertised list,
// absent keys absent; BrokerVersions' map holds every advertised key.
func TestAPIVersionsTable(t *testing.T) {
	keys := []wire.ApiVersionsResponseKey{
		{ApiKey: wire.KeyFetch, MinVersion: 4, MaxVersion: 17},
		{ApiKey: wire.KeyMetadata, MinVersion: 0, MaxVersion: 13},
		{ApiKey: wire.KeyFetch, MinVersion: 4, MaxVersion: 16}, // repeated: the last wins
		{ApiKey: 300, MinVersion: 1, MaxVersion: 2},
		{ApiKey: -5, MinVersion: 0, MaxVersion: 3},
	}
	var tab apiVersions
	tab.set(keys)
	want := map[wire.APIKey][2]int16{}
	for _, k := range keys {
		want[k.ApiKey] = [2]int16{k.MinVersion, k.MaxVersion}
	}
	for _, k := range []wire.APIKey{wire.KeyFetch, wire.KeyMetadata, 300, -5, wire.KeyProduce, 127, 128, 1000} {
		got, ok := tab.get(k)
		w, wok := want[k]
		if got != w || ok != wok {
			t.Errorf("get(%d) = %v, %v; want %v, %v", k, got, ok, w, wok)
		}
	}
	if got := tab.asMap(); !maps.Equal(got, want) {
		t.Errorf("asMap = %v, want %v", got, want)
	}
}
