package wire

// ApiVersionsRequest asks a broker which API versions it supports (API key
// 18, versions 0-5, flexible from v3). Source: ApiVersionsRequest.json;
// KIP-511 (client software name/version), KIP-1242 (ClusterID/NodeID, v5).
type ApiVersionsRequest struct {
	// ClientSoftwareName names the client library, v3+ (KIP-511).
	ClientSoftwareName string
	// ClientSoftwareVersion is the client library's version, v3+.
	ClientSoftwareVersion string
	// ClusterID is the cluster the client means to reach, or nil when
	// unknown, v5+ (KIP-1242). Set it together with NodeID.
	ClusterID *string
	// NodeID is the node the client means to reach, or -1 when unknown, v5+
	// (KIP-1242). Decoding an older version yields -1.
	NodeID int32
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
}

// Key returns KeyApiVersions.
func (*ApiVersionsRequest) Key() APIKey { return KeyApiVersions }

// ResponseFor returns an empty *ApiVersionsResponse.
func (*ApiVersionsRequest) ResponseFor() Response { return &ApiVersionsResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *ApiVersionsRequest) AppendTo(dst []byte, v int16) []byte {
	flex := v >= 3
	if v >= 3 {
		dst = AppendString(dst, m.ClientSoftwareName, flex)
		dst = AppendString(dst, m.ClientSoftwareVersion, flex)
	}
	if v >= 5 {
		dst = AppendNullableString(dst, m.ClusterID, flex)
		dst = AppendInt32(dst, m.NodeID)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v from r.
func (m *ApiVersionsRequest) DecodeFrom(r *Reader, v int16) error {
	*m = ApiVersionsRequest{NodeID: -1}
	flex := v >= 3
	if v >= 3 {
		m.ClientSoftwareName = r.String(flex)
		m.ClientSoftwareVersion = r.String(flex)
	}
	if v >= 5 {
		m.ClusterID = r.NullableString(flex)
		m.NodeID = r.Int32()
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

// ApiVersionsResponse lists the API versions a broker supports. Versions 0-5,
// flexible from v3; its response header is always v0 (KIP-511).
//
// A broker that does not support the requested ApiVersions version answers
// with ErrorCode 35 (UNSUPPORTED_VERSION) in the v0 body format, listing in
// ApiKeys at least the ApiVersions versions it does support. DecodeFrom
// therefore reads the rest of the body as v0 whenever the error code is 35,
// and AppendTo writes a v0 body for error code 35, as a broker does.
type ApiVersionsResponse struct {
	// ErrorCode is the top-level error code, 0 for none.
	ErrorCode int16
	// ApiKeys lists each API the broker supports with its version range.
	ApiKeys []ApiVersionsResponseKey
	// ThrottleTimeMs is the quota throttle in milliseconds, v1+.
	ThrottleTimeMs int32
	// SupportedFeatures lists features the broker supports (tag 0, v3+).
	SupportedFeatures []ApiVersionsSupportedFeature
	// FinalizedFeaturesEpoch is the epoch of FinalizedFeatures, -1 when
	// unknown or absent (tag 1, v3+).
	FinalizedFeaturesEpoch int64
	// FinalizedFeatures lists the cluster-wide finalized features (tag 2, v3+).
	FinalizedFeatures []ApiVersionsFinalizedFeature
	// ZkMigrationReady is set by a KRaft controller ready for ZK migration
	// (tag 3, v3+).
	ZkMigrationReady bool
	// UnknownTags keeps tagged fields this version does not define (v3+).
	UnknownTags []TaggedField
}

// ApiVersionsResponseKey is one API's supported version range.
type ApiVersionsResponseKey struct {
	// ApiKey is the API key.
	ApiKey APIKey
	// MinVersion is the lowest supported version, inclusive.
	MinVersion int16
	// MaxVersion is the highest supported version, inclusive.
	MaxVersion int16
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// ApiVersionsSupportedFeature is a feature's supported version range.
type ApiVersionsSupportedFeature struct {
	// Name is the feature name.
	Name string
	// MinVersion is the lowest supported version, inclusive.
	MinVersion int16
	// MaxVersion is the highest supported version, inclusive.
	MaxVersion int16
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// ApiVersionsFinalizedFeature is a feature's cluster-wide finalized levels.
type ApiVersionsFinalizedFeature struct {
	// Name is the feature name.
	Name string
	// MaxVersionLevel is the cluster-wide finalized maximum version level.
	MaxVersionLevel int16
	// MinVersionLevel is the cluster-wide finalized minimum version level.
	MinVersionLevel int16
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

// Key returns KeyApiVersions.
func (*ApiVersionsResponse) Key() APIKey { return KeyApiVersions }

// errUnsupportedVersionCode is UNSUPPORTED_VERSION, the code a broker answers
// in the v0 body format.
const errUnsupportedVersionCode = 35

// AppendTo appends the response body for version v (header excluded); with
// ErrorCode 35 it appends the v0 body, as a broker does.
func (m *ApiVersionsResponse) AppendTo(dst []byte, v int16) []byte {
	if m.ErrorCode == errUnsupportedVersionCode {
		v = 0
	}
	flex := v >= 3
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendArray(dst, flex, m.ApiKeys, func(dst []byte, k *ApiVersionsResponseKey) []byte {
		dst = AppendInt16(dst, int16(k.ApiKey))
		dst = AppendInt16(dst, k.MinVersion)
		dst = AppendInt16(dst, k.MaxVersion)
		return appendFlexTags(dst, flex, k.UnknownTags)
	})
	if v >= 1 {
		dst = AppendInt32(dst, m.ThrottleTimeMs)
	}
	if !flex {
		return dst
	}
	var known []TaggedField
	if len(m.SupportedFeatures) > 0 {
		known = append(known, TaggedField{Tag: 0, Data: AppendArray(nil, true, m.SupportedFeatures, func(dst []byte, f *ApiVersionsSupportedFeature) []byte {
			dst = AppendString(dst, f.Name, true)
			dst = AppendInt16(dst, f.MinVersion)
			dst = AppendInt16(dst, f.MaxVersion)
			return AppendTags(dst, f.UnknownTags)
		})})
	}
	if m.FinalizedFeaturesEpoch != -1 {
		known = append(known, TaggedField{Tag: 1, Data: AppendInt64(nil, m.FinalizedFeaturesEpoch)})
	}
	if len(m.FinalizedFeatures) > 0 {
		known = append(known, TaggedField{Tag: 2, Data: AppendArray(nil, true, m.FinalizedFeatures, func(dst []byte, f *ApiVersionsFinalizedFeature) []byte {
			dst = AppendString(dst, f.Name, true)
			dst = AppendInt16(dst, f.MaxVersionLevel)
			dst = AppendInt16(dst, f.MinVersionLevel)
			return AppendTags(dst, f.UnknownTags)
		})})
	}
	if m.ZkMigrationReady {
		known = append(known, TaggedField{Tag: 3, Data: AppendBool(nil, true)})
	}
	return appendTagSection(dst, known, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v from r; with error
// code 35 the rest of the body is read in the v0 format (see the type doc).
func (m *ApiVersionsResponse) DecodeFrom(r *Reader, v int16) error {
	*m = ApiVersionsResponse{FinalizedFeaturesEpoch: -1}
	m.ErrorCode = r.Int16()
	if m.ErrorCode == errUnsupportedVersionCode {
		v = 0
	}
	flex := v >= 3
	minKey := 6
	if flex {
		minKey = 7
	}
	m.ApiKeys = ReadArray(r, flex, minKey, func(r *Reader, k *ApiVersionsResponseKey) {
		k.ApiKey = APIKey(r.Int16())
		k.MinVersion = r.Int16()
		k.MaxVersion = r.Int16()
		k.UnknownTags = readFlexTags(r, flex)
	})
	if v >= 1 {
		m.ThrottleTimeMs = r.Int32()
	}
	if !flex {
		return r.Err()
	}
	m.UnknownTags = r.ReadTags(func(tag uint32, fr *Reader) bool {
		switch tag {
		case 0:
			m.SupportedFeatures = ReadArray(fr, true, 6, func(r *Reader, f *ApiVersionsSupportedFeature) {
				f.Name = readFeatureName(r)
				f.MinVersion = r.Int16()
				f.MaxVersion = r.Int16()
				f.UnknownTags = r.ReadTags(nil)
			})
		case 1:
			m.FinalizedFeaturesEpoch = fr.Int64()
		case 2:
			m.FinalizedFeatures = ReadArray(fr, true, 6, func(r *Reader, f *ApiVersionsFinalizedFeature) {
				f.Name = readFeatureName(r)
				f.MaxVersionLevel = r.Int16()
				f.MinVersionLevel = r.Int16()
				f.UnknownTags = r.ReadTags(nil)
			})
		case 3:
			m.ZkMigrationReady = fr.Bool()
		default:
			return false
		}
		return true
	})
	return r.Err()
}

// knownFeatures are the feature names an Apache Kafka 4.x broker lists in
// ApiVersions (KIP-584 and the features of later KIPs).
var knownFeatures = [...]string{
	"metadata.version", "kraft.version", "group.version", "transaction.version",
	"share.version", "streams.version", "eligible.leader.replicas.version",
}

// readFeatureName reads a feature's COMPACT_STRING name as r.String does,
// returning the knownFeatures entry when it is one (every connection
// decodes the same dozen names; this spares a string each), else a copy.
func readFeatureName(r *Reader) string {
	b := r.stringBytes(true)
	for _, s := range knownFeatures {
		if string(b) == s {
			return s
		}
	}
	return string(b)
}
