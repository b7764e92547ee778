package client

import "github.com/gregor-kafka/gregor/wire"

// versionSlots is how many API keys (0 to versionSlots-1) a connection's
// version table indexes directly; every key gregor implements is below it
// (TestVersionSlotsCoverAPIs), so a larger key is only looked up by
// BrokerVersions.
const versionSlots = 128

// apiVersions is what a broker advertised in ApiVersions: the version range
// of each key below versionSlots in an array inside the connection (no map
// to build per connection), and the advertised list as decoded (the
// response's own slice) for BrokerVersions. A key listed twice keeps its
// last range, as a map built in order would.
type apiVersions struct {
	ranges [versionSlots][2]int16
	has    [versionSlots]bool
	all    []wire.ApiVersionsResponseKey
}

// set records the advertised list keys (kept, not copied).
func (t *apiVersions) set(keys []wire.ApiVersionsResponseKey) {
	t.all = keys
	for _, k := range keys {
		if k.ApiKey >= 0 && int(k.ApiKey) < versionSlots {
			t.ranges[k.ApiKey] = [2]int16{k.MinVersion, k.MaxVersion}
			t.has[k.ApiKey] = true
		}
	}
}

// get returns the advertised range of key, and whether it was advertised.
func (t *apiVersions) get(key wire.APIKey) ([2]int16, bool) {
	if key >= 0 && int(key) < versionSlots {
		return t.ranges[key], t.has[key]
	}
	for i := len(t.all) - 1; i >= 0; i-- {
		if k := t.all[i]; k.ApiKey == key {
			return [2]int16{k.MinVersion, k.MaxVersion}, true
		}
	}
	return [2]int16{}, false
}

// asMap returns every advertised range in a new map (BrokerVersions).
func (t *apiVersions) asMap() map[wire.APIKey][2]int16 {
	out := make(map[wire.APIKey][2]int16, len(t.all))
	for _, k := range t.all {
		out[k.ApiKey] = [2]int16{k.MinVersion, k.MaxVersion}
	}
	return out
}
