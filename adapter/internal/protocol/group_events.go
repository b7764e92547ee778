package protocol

import "encoding/json"

// GroupEpoch is a GroupMembershipEpoch (§3.9): {"kind":"classic",
// "generation_id":N} or {"kind":"consumer","member_epoch":N}.
type GroupEpoch struct {
	Kind         string `json:"kind"`
	GenerationID int32  `json:"generation_id"` // classic
	MemberEpoch  int32  `json:"member_epoch"`  // consumer (KIP-848)
}

// MarshalJSON writes only the epoch field of the Kind.
func (e GroupEpoch) MarshalJSON() ([]byte, error) {
	if e.Kind == "consumer" {
		return json.Marshal(struct {
			Kind        string `json:"kind"`
			MemberEpoch int32  `json:"member_epoch"`
		}{e.Kind, e.MemberEpoch})
	}
	return json.Marshal(struct {
		Kind         string `json:"kind"`
		GenerationID int32  `json:"generation_id"`
	}{e.Kind, e.GenerationID})
}

// groupEpoch is a snapshot's GroupMembershipEpoch.
func groupEpoch(sn GroupSnapshot) GroupEpoch {
	if sn.Protocol == "consumer" {
		return GroupEpoch{Kind: "consumer", MemberEpoch: sn.Generation}
	}
	return GroupEpoch{Kind: "classic", GenerationID: sn.Generation}
}

// GroupTransitionEvent is one element of group_assignments_observed.transitions.
type GroupTransitionEvent struct {
	ConsumerID      ID               `json:"consumer_id"`
	Kind            string           `json:"kind"`
	AssignmentEpoch uint64           `json:"assignment_epoch"`
	Partitions      []TopicPartition `json:"partitions"`
}

// GroupAssignmentEvent is one element of group_assignments_observed.assignments.
type GroupAssignmentEvent struct {
	ConsumerID      ID               `json:"consumer_id"`
	GroupID         string           `json:"group_id"`
	MemberID        string           `json:"member_id"`
	GroupEpoch      GroupEpoch       `json:"group_epoch"`
	AssignmentEpoch uint64           `json:"assignment_epoch"`
	Partitions      []TopicPartition `json:"partitions"`
}

// GroupMemberRecords is one element of group_receive_set_completed.members.
type GroupMemberRecords struct {
	ConsumerID ID               `json:"consumer_id"`
	Records    []ConsumedRecord `json:"records"`
	Committed  bool             `json:"committed"`
	GroupEpoch *GroupEpoch      `json:"group_epoch"`
}

type (
	// GroupConsumerCreated is the group_consumer_created event.
	GroupConsumerCreated struct {
		ConsumerID ID `json:"consumer_id"`
	}
	// GroupReceiveCompleted is the group_receive_completed event.
	GroupReceiveCompleted struct {
		ReceiveID  ID               `json:"receive_id"`
		Records    []ConsumedRecord `json:"records"`
		Committed  bool             `json:"committed"`
		GroupEpoch *GroupEpoch      `json:"group_epoch"`
	}
	// GroupAssignmentsObserved is the group_assignments_observed event.
	GroupAssignmentsObserved struct {
		OperationID ID                     `json:"operation_id"`
		Transitions []GroupTransitionEvent `json:"transitions"`
		Assignments []GroupAssignmentEvent `json:"assignments"`
	}
	// GroupReceiveSetCompleted is the group_receive_set_completed event.
	GroupReceiveSetCompleted struct {
		ReceiveID ID                   `json:"receive_id"`
		Members   []GroupMemberRecords `json:"members"`
	}
	// GroupConsumerControlCompleted is the group_consumer_control_completed event.
	GroupConsumerControlCompleted struct {
		OperationID ID     `json:"operation_id"`
		ConsumerID  ID     `json:"consumer_id"`
		Control     string `json:"control"`
	}
	// GroupConsumerShutdownCompleted is the group_consumer_shutdown_completed event.
	GroupConsumerShutdownCompleted struct {
		OperationID  ID    `json:"operation_id"`
		ConsumerID   ID    `json:"consumer_id"`
		RequestCount uint8 `json:"request_count"`
	}
	// GroupConsumerClosed is the group_consumer_closed event.
	GroupConsumerClosed struct {
		ConsumerID ID `json:"consumer_id"`
	}
)

// EventKind returns "group_consumer_created": the "kind" its event line carries (§5).
func (GroupConsumerCreated) EventKind() string { return "group_consumer_created" }

// EventKind returns "group_receive_completed": the "kind" its event line carries (§5).
func (GroupReceiveCompleted) EventKind() string { return "group_receive_completed" }

// EventKind returns "group_assignments_observed": the "kind" its event line carries (§5).
func (GroupAssignmentsObserved) EventKind() string { return "group_assignments_observed" }

// EventKind returns "group_receive_set_completed": the "kind" its event line carries (§5).
func (GroupReceiveSetCompleted) EventKind() string { return "group_receive_set_completed" }

// EventKind returns "group_consumer_control_completed": the "kind" its event line carries (§5).
func (GroupConsumerControlCompleted) EventKind() string { return "group_consumer_control_completed" }

// EventKind returns "group_consumer_shutdown_completed": the "kind" its event line carries (§5).
func (GroupConsumerShutdownCompleted) EventKind() string { return "group_consumer_shutdown_completed" }

// EventKind returns "group_consumer_closed": the "kind" its event line carries (§5).
func (GroupConsumerClosed) EventKind() string { return "group_consumer_closed" }
