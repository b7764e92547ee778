package protocol

// The share-group events of §5.5.

type (
	// ShareConsumerCreated is the share_consumer_created event.
	ShareConsumerCreated struct {
		ConsumerID ID `json:"consumer_id"`
	}
	// ShareRecordEvent is one record of share_receive_completed.
	ShareRecordEvent struct {
		Record        ConsumedRecord `json:"record"`
		DeliveryCount int16          `json:"delivery_count"`
	}
	// ShareReceiveCompleted is the share_receive_completed event.
	ShareReceiveCompleted struct {
		ConsumerID       ID                 `json:"consumer_id"`
		ReceiveID        ID                 `json:"receive_id"`
		Records          []ShareRecordEvent `json:"records"`
		AcquisitionCount uint64             `json:"acquisition_count"`
		MemberEpoch      *int32             `json:"member_epoch"`
		AssignmentEpoch  *uint64            `json:"assignment_epoch"`
	}
	// ShareAcknowledgementCompleted is the share_acknowledgement_completed event.
	ShareAcknowledgementCompleted struct {
		AcknowledgementID ID       `json:"acknowledgement_id"`
		ReceiveID         ID       `json:"receive_id"`
		Dispositions      []string `json:"dispositions"`
		Success           bool     `json:"success"`
		Delivery          *string  `json:"delivery"`
		Code              *string  `json:"code"`
	}
	// ShareBatchDropped is the share_batch_dropped event.
	ShareBatchDropped struct {
		ReceiveID ID `json:"receive_id"`
	}
	// ShareConsumerClosed is the share_consumer_closed event.
	ShareConsumerClosed struct {
		ConsumerID ID      `json:"consumer_id"`
		Success    bool    `json:"success"`
		Delivery   *string `json:"delivery"`
		Code       *string `json:"code"`
	}
)

// EventKind returns "share_consumer_created": the "kind" its event line carries (§5).
func (ShareConsumerCreated) EventKind() string { return "share_consumer_created" }

// EventKind returns "share_receive_completed": the "kind" its event line carries (§5).
func (ShareReceiveCompleted) EventKind() string { return "share_receive_completed" }

// EventKind returns "share_acknowledgement_completed": the "kind" its event line carries (§5).
func (ShareAcknowledgementCompleted) EventKind() string { return "share_acknowledgement_completed" }

// EventKind returns "share_batch_dropped": the "kind" its event line carries (§5).
func (ShareBatchDropped) EventKind() string { return "share_batch_dropped" }

// EventKind returns "share_consumer_closed": the "kind" its event line carries (§5).
func (ShareConsumerClosed) EventKind() string { return "share_consumer_closed" }
