package protocol

// The share-group command payloads of §4.6 (KIP-932); their rows of the
// command table are in share_session.go.

// ShareConfiguration is create_share_consumer's optional configuration.
type ShareConfiguration struct {
	MaxRecords uint32 `json:"max_records"`
	BatchSize  uint32 `json:"batch_size"`
}

// CreateShareConsumer creates a share-group consumer subscribed to one topic.
type CreateShareConsumer struct {
	ClientID            ID                  `json:"client_id"`
	ConsumerID          ID                  `json:"consumer_id"`
	GroupID             string              `json:"group_id"`
	Topic               string              `json:"topic"`
	MembershipTimeoutMs uint64              `json:"membership_timeout_ms"`
	CloseTimeoutMs      uint64              `json:"close_timeout_ms"`
	Configuration       *ShareConfiguration `json:"configuration" adapter:"optional"`
}

// ShareReceive waits for one batch of acquired records and retains it.
type ShareReceive struct {
	ConsumerID ID     `json:"consumer_id"`
	ReceiveID  ID     `json:"receive_id"`
	TimeoutMs  uint64 `json:"timeout_ms"`
}

// ShareAcknowledge acknowledges a retained batch, one disposition per record.
type ShareAcknowledge struct {
	ConsumerID        ID       `json:"consumer_id"`
	ReceiveID         ID       `json:"receive_id"`
	AcknowledgementID ID       `json:"acknowledgement_id"`
	Dispositions      []string `json:"dispositions"`
	TimeoutMs         uint64   `json:"timeout_ms"`
}

// DropShareBatch forgets a retained batch without acknowledging it.
type DropShareBatch struct {
	ConsumerID ID `json:"consumer_id"`
	ReceiveID  ID `json:"receive_id"`
}

// CloseShareConsumer closes a share consumer.
type CloseShareConsumer struct {
	ConsumerID ID `json:"consumer_id"`
}

// Share dispositions (§3.10 ShareDisposition).
const (
	DispositionAccept  = "accept"
	DispositionRelease = "release"
	DispositionReject  = "reject"
)
