package protocol

// Admin events (§5.6).

type (
	// TopicCreated is the topic_created event.
	TopicCreated struct {
		OperationID ID     `json:"operation_id"`
		Topic       string `json:"topic"`
	}
	// TopicCreationValidated is the topic_creation_validated event.
	TopicCreationValidated TopicCreated
	// TopicPartitionsCreated is the topic_partitions_created event.
	TopicPartitionsCreated TopicCreated
	// TopicPartitionIncreaseValidated is an element of an event array (§5).
	TopicPartitionIncreaseValidated TopicCreated
	// TopicDeleted is the topic_deleted event.
	TopicDeleted TopicCreated
	// TopicOutcome is an element of an event array (§5).
	TopicOutcome struct {
		Topic     string  `json:"topic"`
		ErrorCode *string `json:"error_code"`
	}
	// TopicsCreationCompleted is the topics_creation_completed event.
	TopicsCreationCompleted struct {
		OperationID ID             `json:"operation_id"`
		Outcomes    []TopicOutcome `json:"outcomes"`
	}
	// TopicDescribed is the topic_described event.
	TopicDescribed struct {
		OperationID ID      `json:"operation_id"`
		Topic       string  `json:"topic"`
		Partitions  []int32 `json:"partitions"`
	}
	// TopicsListed is the topics_listed event.
	TopicsListed struct {
		OperationID ID       `json:"operation_id"`
		Topics      []string `json:"topics"`
	}
	// OffsetListed is the offset_listed event.
	OffsetListed struct {
		OperationID ID     `json:"operation_id"`
		Topic       string `json:"topic"`
		Partition   int32  `json:"partition"`
		Offset      *int64 `json:"offset"`
	}
	// RecordsDeleted is the records_deleted event.
	RecordsDeleted struct {
		OperationID  ID     `json:"operation_id"`
		Topic        string `json:"topic"`
		Partition    int32  `json:"partition"`
		LowWatermark int64  `json:"low_watermark"`
	}
	// TopicConfigDescribed is the topic_config_described event.
	TopicConfigDescribed struct {
		OperationID ID      `json:"operation_id"`
		Topic       string  `json:"topic"`
		ConfigName  string  `json:"config_name"`
		Value       *string `json:"value"`
	}
	// TopicConfigAltered is the topic_config_altered event.
	TopicConfigAltered struct {
		OperationID ID     `json:"operation_id"`
		Topic       string `json:"topic"`
		ConfigName  string `json:"config_name"`
	}
	// TopicConfigAlterationValidated is the topic_config_alteration_validated event.
	TopicConfigAlterationValidated TopicConfigAltered
	// ClusterDescribed is the cluster_described event.
	ClusterDescribed struct {
		OperationID ID      `json:"operation_id"`
		ClusterID   *string `json:"cluster_id"`
		BrokerIDs   []int32 `json:"broker_ids"`
	}
	// BrokerErrorCode is an element of an event array (§5).
	BrokerErrorCode struct {
		BrokerID int32 `json:"broker_id"`
		Code     int16 `json:"code"`
	}
	// ConsumerGroupsListed is the consumer_groups_listed event.
	ConsumerGroupsListed struct {
		OperationID  ID                `json:"operation_id"`
		GroupIDs     []string          `json:"group_ids"`
		BrokerErrors []BrokerErrorCode `json:"broker_errors"`
	}
	// ConsumerGroupDescribed is the consumer_group_described event.
	ConsumerGroupDescribed struct {
		OperationID ID     `json:"operation_id"`
		GroupID     string `json:"group_id"`
		MemberCount uint32 `json:"member_count"`
	}
	// ConsumerGroupOffsetListed is the consumer_group_offset_listed event.
	ConsumerGroupOffsetListed struct {
		OperationID ID     `json:"operation_id"`
		GroupID     string `json:"group_id"`
		Topic       string `json:"topic"`
		Partition   int32  `json:"partition"`
		Offset      *int64 `json:"offset"`
	}
	// OffsetOutcome is an element of an event array (§5).
	OffsetOutcome struct {
		Topic     string  `json:"topic"`
		Partition int32   `json:"partition"`
		Offset    *int64  `json:"offset"`
		ErrorCode *string `json:"error_code"`
	}
	// ConsumerGroupOffsetsListed is the consumer_group_offsets_listed event.
	ConsumerGroupOffsetsListed struct {
		OperationID ID              `json:"operation_id"`
		GroupID     string          `json:"group_id"`
		Outcomes    []OffsetOutcome `json:"outcomes"`
	}
	// GroupOffsetsOutcome is an element of an event array (§5).
	GroupOffsetsOutcome struct {
		GroupID   string          `json:"group_id"`
		ErrorCode *string         `json:"error_code"`
		Offsets   []OffsetOutcome `json:"offsets"`
	}
	// ConsumerGroupsOffsetsListed is the consumer_groups_offsets_listed event.
	ConsumerGroupsOffsetsListed struct {
		OperationID ID                    `json:"operation_id"`
		Groups      []GroupOffsetsOutcome `json:"groups"`
	}
	// ConsumerGroupOffsetAltered is the consumer_group_offset_altered event.
	ConsumerGroupOffsetAltered struct {
		OperationID ID     `json:"operation_id"`
		GroupID     string `json:"group_id"`
		Topic       string `json:"topic"`
		Partition   int32  `json:"partition"`
	}
	// PartitionOutcome is an element of an event array (§5).
	PartitionOutcome struct {
		Topic     string  `json:"topic"`
		Partition int32   `json:"partition"`
		ErrorCode *string `json:"error_code"`
	}
	// ConsumerGroupOffsetsAltered is the consumer_group_offsets_altered event.
	ConsumerGroupOffsetsAltered struct {
		OperationID ID                 `json:"operation_id"`
		GroupID     string             `json:"group_id"`
		Outcomes    []PartitionOutcome `json:"outcomes"`
	}
	// ConsumerGroupOffsetDeleted is the consumer_group_offset_deleted event.
	ConsumerGroupOffsetDeleted ConsumerGroupOffsetAltered
	// ConsumerGroupOffsetsDeleted is the consumer_group_offsets_deleted event.
	ConsumerGroupOffsetsDeleted ConsumerGroupOffsetsAltered
	// ConsumerGroupDeleted is the consumer_group_deleted event.
	ConsumerGroupDeleted struct {
		OperationID ID     `json:"operation_id"`
		GroupID     string `json:"group_id"`
	}
	// ClassicGroupOutcome is an element of an event array (§5).
	ClassicGroupOutcome struct {
		GroupID     string  `json:"group_id"`
		MemberCount *uint32 `json:"member_count"`
		ErrorCode   *string `json:"error_code"`
	}
	// ClassicGroupsDescribed is the classic_groups_described event.
	ClassicGroupsDescribed struct {
		OperationID ID                    `json:"operation_id"`
		Outcomes    []ClassicGroupOutcome `json:"outcomes"`
	}
)

// EventKind returns "topic_created": the "kind" its event line carries (§5).
func (TopicCreated) EventKind() string { return "topic_created" }

// EventKind returns "topic_creation_validated": the "kind" its event line carries (§5).
func (TopicCreationValidated) EventKind() string { return "topic_creation_validated" }

// EventKind returns "topics_creation_completed": the "kind" its event line carries (§5).
func (TopicsCreationCompleted) EventKind() string { return "topics_creation_completed" }

// EventKind returns "topic_partitions_created": the "kind" its event line carries (§5).
func (TopicPartitionsCreated) EventKind() string { return "topic_partitions_created" }

// EventKind returns "topic_partition_increase_validated": the "kind" its event line carries (§5).
func (TopicPartitionIncreaseValidated) EventKind() string {
	return "topic_partition_increase_validated"
}

// EventKind returns "topic_deleted": the "kind" its event line carries (§5).
func (TopicDeleted) EventKind() string { return "topic_deleted" }

// EventKind returns "topic_described": the "kind" its event line carries (§5).
func (TopicDescribed) EventKind() string { return "topic_described" }

// EventKind returns "topics_listed": the "kind" its event line carries (§5).
func (TopicsListed) EventKind() string { return "topics_listed" }

// EventKind returns "offset_listed": the "kind" its event line carries (§5).
func (OffsetListed) EventKind() string { return "offset_listed" }

// EventKind returns "records_deleted": the "kind" its event line carries (§5).
func (RecordsDeleted) EventKind() string { return "records_deleted" }

// EventKind returns "topic_config_described": the "kind" its event line carries (§5).
func (TopicConfigDescribed) EventKind() string { return "topic_config_described" }

// EventKind returns "topic_config_altered": the "kind" its event line carries (§5).
func (TopicConfigAltered) EventKind() string { return "topic_config_altered" }

// EventKind returns "topic_config_alteration_validated": the "kind" its event line carries (§5).
func (TopicConfigAlterationValidated) EventKind() string { return "topic_config_alteration_validated" }

// EventKind returns "cluster_described": the "kind" its event line carries (§5).
func (ClusterDescribed) EventKind() string { return "cluster_described" }

// EventKind returns "consumer_groups_listed": the "kind" its event line carries (§5).
func (ConsumerGroupsListed) EventKind() string { return "consumer_groups_listed" }

// EventKind returns "consumer_group_described": the "kind" its event line carries (§5).
func (ConsumerGroupDescribed) EventKind() string { return "consumer_group_described" }

// EventKind returns "consumer_group_offset_listed": the "kind" its event line carries (§5).
func (ConsumerGroupOffsetListed) EventKind() string { return "consumer_group_offset_listed" }

// EventKind returns "consumer_group_offsets_listed": the "kind" its event line carries (§5).
func (ConsumerGroupOffsetsListed) EventKind() string { return "consumer_group_offsets_listed" }

// EventKind returns "consumer_groups_offsets_listed": the "kind" its event line carries (§5).
func (ConsumerGroupsOffsetsListed) EventKind() string { return "consumer_groups_offsets_listed" }

// EventKind returns "consumer_group_offset_altered": the "kind" its event line carries (§5).
func (ConsumerGroupOffsetAltered) EventKind() string { return "consumer_group_offset_altered" }

// EventKind returns "consumer_group_offsets_altered": the "kind" its event line carries (§5).
func (ConsumerGroupOffsetsAltered) EventKind() string { return "consumer_group_offsets_altered" }

// EventKind returns "consumer_group_offset_deleted": the "kind" its event line carries (§5).
func (ConsumerGroupOffsetDeleted) EventKind() string { return "consumer_group_offset_deleted" }

// EventKind returns "consumer_group_offsets_deleted": the "kind" its event line carries (§5).
func (ConsumerGroupOffsetsDeleted) EventKind() string { return "consumer_group_offsets_deleted" }

// EventKind returns "consumer_group_deleted": the "kind" its event line carries (§5).
func (ConsumerGroupDeleted) EventKind() string { return "consumer_group_deleted" }

// EventKind returns "classic_groups_described": the "kind" its event line carries (§5).
func (ClassicGroupsDescribed) EventKind() string { return "classic_groups_described" }
