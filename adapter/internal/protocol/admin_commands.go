package protocol

// The admin command payloads (§4.7). Every one carries ClientID,
// OperationID and (except where noted) TimeoutMs.

// CreateTopic creates (or validates) one topic.
type CreateTopic struct {
	ClientID          ID     `json:"client_id"`
	OperationID       ID     `json:"operation_id"`
	Topic             string `json:"topic"`
	Partitions        int32  `json:"partitions"`
	ReplicationFactor int16  `json:"replication_factor"`
	ValidateOnly      bool   `json:"validate_only"`
	TimeoutMs         uint64 `json:"timeout_ms"`
}

// TopicSpec is one topic of create_topics_batch.
type TopicSpec struct {
	Topic             string `json:"topic"`
	Partitions        int32  `json:"partitions"`
	ReplicationFactor int16  `json:"replication_factor"`
}

// CreateTopicsBatch creates 2..=32 topics with per-topic outcomes.
type CreateTopicsBatch struct {
	ClientID    ID          `json:"client_id"`
	OperationID ID          `json:"operation_id"`
	Topics      []TopicSpec `json:"topics"`
	TimeoutMs   uint64      `json:"timeout_ms"`
}

// CreatePartitions raises a topic's partition count to TotalCount.
type CreatePartitions struct {
	ClientID     ID     `json:"client_id"`
	OperationID  ID     `json:"operation_id"`
	Topic        string `json:"topic"`
	TotalCount   int32  `json:"total_count"`
	ValidateOnly bool   `json:"validate_only"`
	TimeoutMs    uint64 `json:"timeout_ms"`
}

// DeleteTopic deletes one topic.
type DeleteTopic struct {
	ClientID    ID     `json:"client_id"`
	OperationID ID     `json:"operation_id"`
	Topic       string `json:"topic"`
	TimeoutMs   uint64 `json:"timeout_ms"`
}

// DescribeTopic lists a topic's partitions.
type DescribeTopic = DeleteTopic

// ListTopics lists topic names.
type ListTopics struct {
	ClientID        ID     `json:"client_id"`
	OperationID     ID     `json:"operation_id"`
	IncludeInternal bool   `json:"include_internal"`
	TimeoutMs       uint64 `json:"timeout_ms"`
}

// ListOffsets looks up the earliest or latest offset of one partition.
type ListOffsets struct {
	ClientID    ID             `json:"client_id"`
	OperationID ID             `json:"operation_id"`
	Topic       string         `json:"topic"`
	Partition   int32          `json:"partition"`
	Position    OffsetPosition `json:"position"`
	TimeoutMs   uint64         `json:"timeout_ms"`
}

// DeleteRecords deletes records before BeforeOffset (exclusive).
type DeleteRecords struct {
	ClientID     ID     `json:"client_id"`
	OperationID  ID     `json:"operation_id"`
	Topic        string `json:"topic"`
	Partition    int32  `json:"partition"`
	BeforeOffset int64  `json:"before_offset"`
	TimeoutMs    uint64 `json:"timeout_ms"`
}

// DescribeTopicConfig reads one topic config entry.
type DescribeTopicConfig struct {
	ClientID    ID     `json:"client_id"`
	OperationID ID     `json:"operation_id"`
	Topic       string `json:"topic"`
	ConfigName  string `json:"config_name"`
	TimeoutMs   uint64 `json:"timeout_ms"`
}

// AlterTopicConfig incrementally SETs one topic config entry.
type AlterTopicConfig struct {
	ClientID     ID     `json:"client_id"`
	OperationID  ID     `json:"operation_id"`
	Topic        string `json:"topic"`
	ConfigName   string `json:"config_name"`
	Value        string `json:"value"`
	ValidateOnly bool   `json:"validate_only"`
	TimeoutMs    uint64 `json:"timeout_ms"`
}

// AdminSimple is the payload of describe_cluster and list_consumer_groups.
type AdminSimple struct {
	ClientID    ID     `json:"client_id"`
	OperationID ID     `json:"operation_id"`
	TimeoutMs   uint64 `json:"timeout_ms"`
}

// GroupCommand is the payload of describe_consumer_group and delete_consumer_group.
type GroupCommand struct {
	ClientID    ID     `json:"client_id"`
	OperationID ID     `json:"operation_id"`
	GroupID     string `json:"group_id"`
	TimeoutMs   uint64 `json:"timeout_ms"`
}

// ListConsumerGroupOffsets reads one committed offset.
type ListConsumerGroupOffsets struct {
	ClientID      ID     `json:"client_id"`
	OperationID   ID     `json:"operation_id"`
	GroupID       string `json:"group_id"`
	Topic         string `json:"topic"`
	Partition     int32  `json:"partition"`
	RequireStable bool   `json:"require_stable"`
	TimeoutMs     uint64 `json:"timeout_ms"`
}

// ListConsumerGroupOffsetsBatch reads committed offsets of several partitions.
type ListConsumerGroupOffsetsBatch struct {
	ClientID      ID               `json:"client_id"`
	OperationID   ID               `json:"operation_id"`
	GroupID       string           `json:"group_id"`
	RequireStable bool             `json:"require_stable"`
	Partitions    []TopicPartition `json:"partitions"`
	TimeoutMs     uint64           `json:"timeout_ms"`
}

// GroupPartitions is one group of list_consumer_groups_offsets.
type GroupPartitions struct {
	GroupID    string           `json:"group_id"`
	Partitions []TopicPartition `json:"partitions"`
}

// ListConsumerGroupsOffsets reads committed offsets of several groups.
type ListConsumerGroupsOffsets struct {
	ClientID      ID                `json:"client_id"`
	OperationID   ID                `json:"operation_id"`
	RequireStable bool              `json:"require_stable"`
	Groups        []GroupPartitions `json:"groups"`
	TimeoutMs     uint64            `json:"timeout_ms"`
}

// AlterConsumerGroupOffset commits one offset for a group.
type AlterConsumerGroupOffset struct {
	ClientID    ID     `json:"client_id"`
	OperationID ID     `json:"operation_id"`
	GroupID     string `json:"group_id"`
	Topic       string `json:"topic"`
	Partition   int32  `json:"partition"`
	Offset      int64  `json:"offset"`
	TimeoutMs   uint64 `json:"timeout_ms"`
}

// PartitionOffset is one entry of alter_consumer_group_offsets.
type PartitionOffset struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Offset    int64  `json:"offset"`
}

// AlterConsumerGroupOffsets commits several offsets for a group.
type AlterConsumerGroupOffsets struct {
	ClientID    ID                `json:"client_id"`
	OperationID ID                `json:"operation_id"`
	GroupID     string            `json:"group_id"`
	Offsets     []PartitionOffset `json:"offsets"`
	TimeoutMs   uint64            `json:"timeout_ms"`
}

// DeleteConsumerGroupOffset deletes one committed offset.
type DeleteConsumerGroupOffset struct {
	ClientID    ID     `json:"client_id"`
	OperationID ID     `json:"operation_id"`
	GroupID     string `json:"group_id"`
	Topic       string `json:"topic"`
	Partition   int32  `json:"partition"`
	TimeoutMs   uint64 `json:"timeout_ms"`
}

// DeleteConsumerGroupOffsets deletes several committed offsets.
type DeleteConsumerGroupOffsets struct {
	ClientID    ID               `json:"client_id"`
	OperationID ID               `json:"operation_id"`
	GroupID     string           `json:"group_id"`
	Partitions  []TopicPartition `json:"partitions"`
	TimeoutMs   uint64           `json:"timeout_ms"`
}

// DescribeClassicGroups describes 1..=32 classic groups.
type DescribeClassicGroups struct {
	ClientID    ID       `json:"client_id"`
	OperationID ID       `json:"operation_id"`
	GroupIDs    []string `json:"group_ids"`
	TimeoutMs   uint64   `json:"timeout_ms"`
}

// adminRoute implementations: the client and deadline of each admin payload.

func (p *CreateTopic) adminRoute() (ID, uint64)                   { return p.ClientID, p.TimeoutMs }
func (p *CreateTopicsBatch) adminRoute() (ID, uint64)             { return p.ClientID, p.TimeoutMs }
func (p *CreatePartitions) adminRoute() (ID, uint64)              { return p.ClientID, p.TimeoutMs }
func (p *DeleteTopic) adminRoute() (ID, uint64)                   { return p.ClientID, p.TimeoutMs }
func (p *ListTopics) adminRoute() (ID, uint64)                    { return p.ClientID, p.TimeoutMs }
func (p *ListOffsets) adminRoute() (ID, uint64)                   { return p.ClientID, p.TimeoutMs }
func (p *DeleteRecords) adminRoute() (ID, uint64)                 { return p.ClientID, p.TimeoutMs }
func (p *DescribeTopicConfig) adminRoute() (ID, uint64)           { return p.ClientID, p.TimeoutMs }
func (p *AlterTopicConfig) adminRoute() (ID, uint64)              { return p.ClientID, p.TimeoutMs }
func (p *AdminSimple) adminRoute() (ID, uint64)                   { return p.ClientID, p.TimeoutMs }
func (p *GroupCommand) adminRoute() (ID, uint64)                  { return p.ClientID, p.TimeoutMs }
func (p *ListConsumerGroupOffsets) adminRoute() (ID, uint64)      { return p.ClientID, p.TimeoutMs }
func (p *ListConsumerGroupOffsetsBatch) adminRoute() (ID, uint64) { return p.ClientID, p.TimeoutMs }
func (p *ListConsumerGroupsOffsets) adminRoute() (ID, uint64)     { return p.ClientID, p.TimeoutMs }
func (p *AlterConsumerGroupOffset) adminRoute() (ID, uint64)      { return p.ClientID, p.TimeoutMs }
func (p *AlterConsumerGroupOffsets) adminRoute() (ID, uint64)     { return p.ClientID, p.TimeoutMs }
func (p *DeleteConsumerGroupOffset) adminRoute() (ID, uint64)     { return p.ClientID, p.TimeoutMs }
func (p *DeleteConsumerGroupOffsets) adminRoute() (ID, uint64)    { return p.ClientID, p.TimeoutMs }
func (p *DescribeClassicGroups) adminRoute() (ID, uint64)         { return p.ClientID, p.TimeoutMs }
