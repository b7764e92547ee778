package wire

import "slices"

// apiTable lists every API gregor implements with the version range it
// encodes and decodes. The client negotiates min(MaxVersion, broker max).
// Ranges start at the Kafka 4.x baseline (KIP-896) and end at the newest
// stable version Apache Kafka 4.4 speaks. It joins the per-area tables
// (coreAPIs in apis_core.go, adminAPIs in apis_admin.go, groupAPIs in
// apis_group.go, groupNextAPIs in apis_group848.go, shareAPIs in
// apis_share.go, telemetryAPIs in apis_telemetry.go, txnAPIs in
// apis_txn.go), sorted by key.
var apiTable = joinAPIs(coreAPIs, adminAPIs, groupAPIs, groupNextAPIs, shareAPIs, telemetryAPIs, txnAPIs)

// joinAPIs concatenates API tables and sorts the result by key.
func joinAPIs(tables ...[]APIInfo) []APIInfo {
	var all []APIInfo
	for _, t := range tables {
		all = append(all, t...)
	}
	slices.SortFunc(all, func(a, b APIInfo) int { return int(a.Key) - int(b.Key) })
	return all
}

// LookupAPI returns what gregor implements of the API with the given key.
func LookupAPI(k APIKey) (APIInfo, bool) {
	for _, a := range apiTable {
		if a.Key == k {
			return a, true
		}
	}
	return APIInfo{}, false
}

// APIs returns a copy of the API table, sorted by key.
func APIs() []APIInfo { return append([]APIInfo(nil), apiTable...) }
