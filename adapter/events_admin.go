package adapter

// Admin events (§5.6).

type (
	TopicCreated struct {
		OperationID ID     `json:"operation_id"`
		Topic       string `json:"topic"`
	}
	TopicCreationValidated          TopicCreated
	TopicPartitionsCreated          TopicCreated
	TopicPartitionIncreaseValidated TopicCreated
	TopicDeleted                    TopicCreated
	TopicOutcome                    struct {
		Topic     string  `json:"topic"`
		ErrorCode *string `json:"error_code"`
	}
	TopicsCreationCompleted struct {
		OperationID ID             `json:"operation_id"`
		Outcomes    []TopicOutcome `json:"outcomes"`
	}
	TopicDescribed struct {
		OperationID ID      `json:"operation_id"`
		Topic       string  `json:"topic"`
		Partitions  []int32 `json:"partitions"`
	}
	TopicsListed struct {
		OperationID ID       `json:"operation_id"`
		Topics      []string `json:"topics"`
	}
	OffsetListed struct {
		OperationID ID     `json:"operation_id"`
		Topic       string `json:"topic"`
		Partition   int32  `json:"partition"`
		Offset      *int64 `json:"offset"`
	}
	RecordsDeleted struct {
		OperationID  ID     `json:"operation_id"`
		Topic        string `json:"topic"`
		Partition    int32  `json:"partition"`
		LowWatermark int64  `json:"low_watermark"`
	}
	TopicConfigDescribed struct {
		OperationID ID      `json:"operation_id"`
		Topic       string  `json:"topic"`
		ConfigName  string  `json:"config_name"`
		Value       *string `json:"value"`
	}
	TopicConfigAltered struct {
		OperationID ID     `json:"operation_id"`
		Topic       string `json:"topic"`
		ConfigName  string `json:"config_name"`
	}
	TopicConfigAlterationValidated TopicConfigAltered
	ClusterDescribed               struct {
		OperationID ID      `json:"operation_id"`
		ClusterID   *string `json:"cluster_id"`
		BrokerIDs   []int32 `json:"broker_ids"`
	}
	BrokerErrorCode struct {
		BrokerID int32 `json:"broker_id"`
		Code     int16 `json:"code"`
	}
	ConsumerGroupsListed struct {
		OperationID  ID                `json:"operation_id"`
		GroupIDs     []string          `json:"group_ids"`
		BrokerErrors []BrokerErrorCode `json:"broker_errors"`
	}
	ConsumerGroupDescribed struct {
		OperationID ID     `json:"operation_id"`
		GroupID     string `json:"group_id"`
		MemberCount uint32 `json:"member_count"`
	}
	ConsumerGroupOffsetListed struct {
		OperationID ID     `json:"operation_id"`
		GroupID     string `json:"group_id"`
		Topic       string `json:"topic"`
		Partition   int32  `json:"partition"`
		Offset      *int64 `json:"offset"`
	}
	OffsetOutcome struct {
		Topic     string  `json:"topic"`
		Partition int32   `json:"partition"`
		Offset    *int64  `json:"offset"`
		ErrorCode *string `json:"error_code"`
	}
	ConsumerGroupOffsetsListed struct {
		OperationID ID              `json:"operation_id"`
		GroupID     string          `json:"group_id"`
		Outcomes    []OffsetOutcome `json:"outcomes"`
	}
	GroupOffsetsOutcome struct {
		GroupID   string          `json:"group_id"`
		ErrorCode *string         `json:"error_code"`
		Offsets   []OffsetOutcome `json:"offsets"`
	}
	ConsumerGroupsOffsetsListed struct {
		OperationID ID                    `json:"operation_id"`
		Groups      []GroupOffsetsOutcome `json:"groups"`
	}
	ConsumerGroupOffsetAltered struct {
		OperationID ID     `json:"operation_id"`
		GroupID     string `json:"group_id"`
		Topic       string `json:"topic"`
		Partition   int32  `json:"partition"`
	}
	PartitionOutcome struct {
		Topic     string  `json:"topic"`
		Partition int32   `json:"partition"`
		ErrorCode *string `json:"error_code"`
	}
	ConsumerGroupOffsetsAltered struct {
		OperationID ID                 `json:"operation_id"`
		GroupID     string             `json:"group_id"`
		Outcomes    []PartitionOutcome `json:"outcomes"`
	}
	ConsumerGroupOffsetDeleted  ConsumerGroupOffsetAltered
	ConsumerGroupOffsetsDeleted ConsumerGroupOffsetsAltered
	ConsumerGroupDeleted        struct {
		OperationID ID     `json:"operation_id"`
		GroupID     string `json:"group_id"`
	}
	ClassicGroupOutcome struct {
		GroupID     string  `json:"group_id"`
		MemberCount *uint32 `json:"member_count"`
		ErrorCode   *string `json:"error_code"`
	}
	ClassicGroupsDescribed struct {
		OperationID ID                    `json:"operation_id"`
		Outcomes    []ClassicGroupOutcome `json:"outcomes"`
	}
)

func (TopicCreated) EventKind() string            { return "topic_created" }
func (TopicCreationValidated) EventKind() string  { return "topic_creation_validated" }
func (TopicsCreationCompleted) EventKind() string { return "topics_creation_completed" }
func (TopicPartitionsCreated) EventKind() string  { return "topic_partitions_created" }
func (TopicPartitionIncreaseValidated) EventKind() string {
	return "topic_partition_increase_validated"
}
func (TopicDeleted) EventKind() string                   { return "topic_deleted" }
func (TopicDescribed) EventKind() string                 { return "topic_described" }
func (TopicsListed) EventKind() string                   { return "topics_listed" }
func (OffsetListed) EventKind() string                   { return "offset_listed" }
func (RecordsDeleted) EventKind() string                 { return "records_deleted" }
func (TopicConfigDescribed) EventKind() string           { return "topic_config_described" }
func (TopicConfigAltered) EventKind() string             { return "topic_config_altered" }
func (TopicConfigAlterationValidated) EventKind() string { return "topic_config_alteration_validated" }
func (ClusterDescribed) EventKind() string               { return "cluster_described" }
func (ConsumerGroupsListed) EventKind() string           { return "consumer_groups_listed" }
func (ConsumerGroupDescribed) EventKind() string         { return "consumer_group_described" }
func (ConsumerGroupOffsetListed) EventKind() string      { return "consumer_group_offset_listed" }
func (ConsumerGroupOffsetsListed) EventKind() string     { return "consumer_group_offsets_listed" }
func (ConsumerGroupsOffsetsListed) EventKind() string    { return "consumer_groups_offsets_listed" }
func (ConsumerGroupOffsetAltered) EventKind() string     { return "consumer_group_offset_altered" }
func (ConsumerGroupOffsetsAltered) EventKind() string    { return "consumer_group_offsets_altered" }
func (ConsumerGroupOffsetDeleted) EventKind() string     { return "consumer_group_offset_deleted" }
func (ConsumerGroupOffsetsDeleted) EventKind() string    { return "consumer_group_offsets_deleted" }
func (ConsumerGroupDeleted) EventKind() string           { return "consumer_group_deleted" }
func (ClassicGroupsDescribed) EventKind() string         { return "classic_groups_described" }
