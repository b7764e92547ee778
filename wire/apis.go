package wire

// apiTable lists every API gregor implements with the version range it
// encodes and decodes. The client negotiates min(MaxVersion, broker max).
// Ranges start at the Kafka 4.x baseline (KIP-896) and end at the newest
// stable version Apache Kafka 4.4 speaks. Keep it sorted by key.
var apiTable = []APIInfo{
	// Filled in as each message file lands: {Key, Name, MinVersion, MaxVersion, Flexible}.
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
