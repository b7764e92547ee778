package wire

// APIKey identifies a Kafka API (the api_key of the request header).
type APIKey int16

// The API keys gregor implements or plans to implement.
const (
	KeyProduce                 APIKey = 0
	KeyFetch                   APIKey = 1
	KeyListOffsets             APIKey = 2
	KeyMetadata                APIKey = 3
	KeyOffsetCommit            APIKey = 8
	KeyOffsetFetch             APIKey = 9
	KeyFindCoordinator         APIKey = 10
	KeyJoinGroup               APIKey = 11
	KeyHeartbeat               APIKey = 12
	KeyLeaveGroup              APIKey = 13
	KeySyncGroup               APIKey = 14
	KeyDescribeGroups          APIKey = 15
	KeyListGroups              APIKey = 16
	KeySaslHandshake           APIKey = 17
	KeyApiVersions             APIKey = 18
	KeyCreateTopics            APIKey = 19
	KeyDeleteTopics            APIKey = 20
	KeyDeleteRecords           APIKey = 21
	KeyInitProducerId          APIKey = 22
	KeyOffsetForLeaderEpoch    APIKey = 23
	KeyAddPartitionsToTxn      APIKey = 24
	KeyAddOffsetsToTxn         APIKey = 25
	KeyEndTxn                  APIKey = 26
	KeyTxnOffsetCommit         APIKey = 28
	KeyDescribeConfigs         APIKey = 32
	KeySaslAuthenticate        APIKey = 36
	KeyCreatePartitions        APIKey = 37
	KeyDeleteGroups            APIKey = 42
	KeyIncrementalAlterConfigs APIKey = 44
	KeyOffsetDelete            APIKey = 47
	KeyDescribeCluster         APIKey = 60
	KeyConsumerGroupHeartbeat  APIKey = 68
	KeyConsumerGroupDescribe   APIKey = 69
	KeyShareGroupHeartbeat     APIKey = 76
	KeyShareGroupDescribe      APIKey = 77
	KeyShareFetch              APIKey = 78
	KeyShareAcknowledge        APIKey = 79

	// The share-group offset admin APIs (KIP-932).
	KeyDescribeShareGroupOffsets APIKey = 90
	KeyAlterShareGroupOffsets    APIKey = 91
	KeyDeleteShareGroupOffsets   APIKey = 92
)

// The API keys of the operator admin APIs (reassignments, elections, log
// dirs, ACLs, SCRAM, quotas, producers and transactions, features, quorum).
const (
	KeyWriteTxnMarkers              APIKey = 27
	KeyDescribeAcls                 APIKey = 29
	KeyCreateAcls                   APIKey = 30
	KeyDeleteAcls                   APIKey = 31
	KeyAlterReplicaLogDirs          APIKey = 34
	KeyDescribeLogDirs              APIKey = 35
	KeyElectLeaders                 APIKey = 43
	KeyAlterPartitionReassignments  APIKey = 45
	KeyListPartitionReassignments   APIKey = 46
	KeyDescribeClientQuotas         APIKey = 48
	KeyAlterClientQuotas            APIKey = 49
	KeyDescribeUserScramCredentials APIKey = 50
	KeyAlterUserScramCredentials    APIKey = 51
	KeyDescribeQuorum               APIKey = 55
	KeyUpdateFeatures               APIKey = 57
	KeyDescribeProducers            APIKey = 61
	KeyDescribeTransactions         APIKey = 65
	KeyListTransactions             APIKey = 66
	KeyDescribeTopicPartitions      APIKey = 75
)

// Request is the body of a Kafka request. Implementations live one per file
// (e.g. MetadataRequest in metadata.go) and encode every version in the
// range the API table (APIs) records for their key.
type Request interface {
	// Key returns the API key.
	Key() APIKey
	// AppendTo appends the request body for version v (header excluded).
	AppendTo(dst []byte, v int16) []byte
	// ResponseFor returns an empty response of the matching type, ready for
	// DecodeFrom.
	ResponseFor() Response
}

// FrameFreeResponder is implemented by requests whose decoded responses
// keep no reference to the bytes they were decoded from (every string, byte
// field and unknown tagged field is a copy), so a connection may reuse one
// buffer for all their response frames.
type FrameFreeResponder interface {
	Request
	// ResponseKeepsNoFrame marks the request type; it does nothing.
	ResponseKeepsNoFrame()
}

// FrameBufferer is implemented by requests that supply the buffer their
// response frame is read into, so a caller that reuses its memory (the
// consumer's record blocks) also reuses the frame. FrameBuffer is called by
// the connection's reader, once per response frame, before the frame is
// read; it returns a slice of length size (or nil: the connection allocates
// one). The decoded response may alias it. The requester must not touch
// that buffer again until it has the response, and never if it abandoned
// the request (the reader may still fill it).
type FrameBufferer interface {
	Request
	FrameBuffer(size int) []byte
}

// VersionCapper is implemented by requests that may have to be sent below
// the version the client would negotiate: the client sends them at
// min(negotiated, CapVersion()) when CapVersion is non-negative, and fails
// them with an unsupported-version error when the broker lacks that version.
type VersionCapper interface {
	Request
	// CapVersion returns the highest version to send, or -1 for no cap.
	CapVersion() int16
}

// Response is the body of a Kafka response.
type Response interface {
	// Key returns the API key.
	Key() APIKey
	// DecodeFrom decodes the response body for version v (header excluded)
	// from r. Decoded byte slices may alias r's buffer. Errors are recorded
	// in r (see Reader.Err); DecodeFrom returns r.Err().
	DecodeFrom(r *Reader, v int16) error
}

// RequestDecoder is implemented by requests that can also be decoded, as the
// scripted fake brokers in tests and the fuzz targets need.
type RequestDecoder interface {
	Request
	DecodeFrom(r *Reader, v int16) error
}

// ResponseEncoder is implemented by responses that can also be encoded, as the
// scripted fake brokers in tests need.
type ResponseEncoder interface {
	Response
	AppendTo(dst []byte, v int16) []byte
}

// APIInfo records, for one API, its name and the versions gregor implements.
// Flexible is the first version that uses flexible encoding (KIP-482), or -1
// when no implemented version is flexible.
type APIInfo struct {
	Key        APIKey
	Name       string
	MinVersion int16
	MaxVersion int16
	Flexible   int16
}

// IsFlexible reports whether version v of the API uses flexible encoding.
func (a APIInfo) IsFlexible(v int16) bool { return a.Flexible >= 0 && v >= a.Flexible }

// RequestHeaderVersion returns the request header version for API version v:
// 2 for flexible versions, 1 otherwise (ControlledShutdown v0's header v0 is
// not used by a client).
func (a APIInfo) RequestHeaderVersion(v int16) int16 {
	if a.IsFlexible(v) {
		return 2
	}
	return 1
}

// ResponseHeaderVersion returns the response header version for API version
// v: 1 for flexible versions, 0 otherwise, and always 0 for ApiVersions
// (KIP-511: the client may not know yet whether the broker speaks v3+).
func (a APIInfo) ResponseHeaderVersion(v int16) int16 {
	if a.Key == KeyApiVersions || !a.IsFlexible(v) {
		return 0
	}
	return 1
}

// AppendRequestHeader appends a request header (v1, or v2 with an empty
// tagged-field section for flexible versions) for API info at version v.
// clientID nil writes a null client ID.
func AppendRequestHeader(dst []byte, info APIInfo, v int16, correlationID int32, clientID *string) []byte {
	dst = AppendInt16(dst, int16(info.Key))
	dst = AppendInt16(dst, v)
	dst = AppendInt32(dst, correlationID)
	dst = AppendNullableString(dst, clientID, false) // the client ID is never compact
	if info.RequestHeaderVersion(v) >= 2 {
		dst = AppendEmptyTags(dst)
	}
	return dst
}

// RequestHeader is a decoded request header, for fake brokers and fuzzing.
type RequestHeader struct {
	Key           APIKey
	Version       int16
	CorrelationID int32
	ClientID      *string
}

// ReadRequestHeader decodes a request header. The header version follows from
// the API key and version when the key is in APIs; unknown keys are read as v1.
func ReadRequestHeader(r *Reader) RequestHeader {
	var h RequestHeader
	h.Key = APIKey(r.Int16())
	h.Version = r.Int16()
	h.CorrelationID = r.Int32()
	h.ClientID = r.NullableString(false)
	if info, ok := LookupAPI(h.Key); ok && info.RequestHeaderVersion(h.Version) >= 2 {
		r.ReadTags(nil)
	}
	return h
}

// AppendResponseHeader appends a response header for API info at version v.
func AppendResponseHeader(dst []byte, info APIInfo, v int16, correlationID int32) []byte {
	dst = AppendInt32(dst, correlationID)
	if info.ResponseHeaderVersion(v) >= 1 {
		dst = AppendEmptyTags(dst)
	}
	return dst
}

// ReadResponseHeader decodes a response header for API info at version v and
// returns its correlation ID.
func ReadResponseHeader(r *Reader, info APIInfo, v int16) int32 {
	id := r.Int32()
	if info.ResponseHeaderVersion(v) >= 1 {
		r.ReadTags(nil)
	}
	return id
}
