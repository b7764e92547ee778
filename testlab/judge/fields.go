package judge

// ProtocolVersion is the adapter control protocol version the judge speaks.
const ProtocolVersion = 34

// MaxEventsPerCommand is testctl's limit on events read while one command is
// active (§1.1).
const MaxEventsPerCommand = 64

// MaxLineBytes bounds one line, newline included (§1.1).
const MaxLineBytes = 4 << 20

// singleCompletion maps a command kind whose answer is one event to that
// event's kind and the identity keys that must equal the command's.
var singleCompletion = map[string]struct {
	event string
	ids   []string
}{
	"hello":                    {"ready", nil},
	"create_client":            {"client_created", []string{"client_id"}},
	"create_configured_client": {"client_created", []string{"client_id"}},
	"await_client_ready":       {"client_ready", []string{"client_id"}},
	"observe_client_metrics":   {"client_metrics_observed", []string{"client_id", "operation_id"}},
	"create_producer":          {"producer_created", []string{"producer_id"}},
	"flush":                    {"flush_completed", []string{"producer_id"}},
	"close_producer":           {"producer_closed", []string{"producer_id"}},
	"start_concurrent_actors":  {"concurrent_actors_started", []string{"concurrency_id"}},

	"create_assigned_consumer":  {"assigned_consumer_created", []string{"consumer_id"}},
	"assign_beginning":          {"assignment_completed", []string{"consumer_id"}},
	"assign_beginning_batch":    {"assignment_completed", []string{"consumer_id"}},
	"control_assigned_consumer": {"assigned_consumer_control_completed", []string{"operation_id", "consumer_id"}},
	"receive":                   {"receive_completed", []string{"receive_id"}},
	"close_assigned_consumer":   {"assigned_consumer_closed", []string{"consumer_id"}},

	"create_group_consumer":     {"group_consumer_created", []string{"consumer_id"}},
	"group_receive":             {"group_receive_completed", []string{"receive_id"}},
	"observe_group_assignments": {"group_assignments_observed", []string{"operation_id"}},
	"group_receive_set":         {"group_receive_set_completed", []string{"receive_id"}},
	"control_group_consumer":    {"group_consumer_control_completed", []string{"operation_id", "consumer_id"}},
	"shutdown_group_consumer":   {"group_consumer_shutdown_completed", []string{"operation_id", "consumer_id", "request_count"}},
	"close_group_consumer":      {"group_consumer_closed", []string{"consumer_id"}},

	"create_share_consumer": {"share_consumer_created", []string{"consumer_id"}},
	"share_receive":         {"share_receive_completed", []string{"consumer_id", "receive_id"}},
	"share_acknowledge":     {"share_acknowledgement_completed", []string{"receive_id", "acknowledgement_id", "dispositions"}},
	"drop_share_batch":      {"share_batch_dropped", []string{"receive_id"}},
	"close_share_consumer":  {"share_consumer_closed", []string{"consumer_id"}},

	"create_topic":                      {"topic_created", []string{"operation_id", "topic"}},
	"create_topics_batch":               {"topics_creation_completed", []string{"operation_id"}},
	"create_partitions":                 {"topic_partitions_created", []string{"operation_id", "topic"}},
	"delete_topic":                      {"topic_deleted", []string{"operation_id", "topic"}},
	"describe_topic":                    {"topic_described", []string{"operation_id", "topic"}},
	"list_topics":                       {"topics_listed", []string{"operation_id"}},
	"list_offsets":                      {"offset_listed", []string{"operation_id", "topic", "partition"}},
	"delete_records":                    {"records_deleted", []string{"operation_id", "topic", "partition"}},
	"describe_topic_config":             {"topic_config_described", []string{"operation_id", "topic", "config_name"}},
	"alter_topic_config":                {"topic_config_altered", []string{"operation_id", "topic", "config_name"}},
	"describe_cluster":                  {"cluster_described", []string{"operation_id"}},
	"list_consumer_groups":              {"consumer_groups_listed", []string{"operation_id"}},
	"describe_consumer_group":           {"consumer_group_described", []string{"operation_id", "group_id"}},
	"list_consumer_group_offsets":       {"consumer_group_offset_listed", []string{"operation_id", "group_id", "topic", "partition"}},
	"list_consumer_group_offsets_batch": {"consumer_group_offsets_listed", []string{"operation_id", "group_id"}},
	"list_consumer_groups_offsets":      {"consumer_groups_offsets_listed", []string{"operation_id"}},
	"alter_consumer_group_offset":       {"consumer_group_offset_altered", []string{"operation_id", "group_id", "topic", "partition"}},
	"alter_consumer_group_offsets":      {"consumer_group_offsets_altered", []string{"operation_id", "group_id"}},
	"delete_consumer_group_offset":      {"consumer_group_offset_deleted", []string{"operation_id", "group_id", "topic", "partition"}},
	"delete_consumer_group_offsets":     {"consumer_group_offsets_deleted", []string{"operation_id", "group_id"}},
	"delete_consumer_group":             {"consumer_group_deleted", []string{"operation_id", "group_id"}},
	"describe_classic_groups":           {"classic_groups_described", []string{"operation_id"}},

	"create_transactional_producer": {"transactional_producer_created", []string{"producer_id"}},
	"close_transactional_producer":  {"transactional_producer_closed", []string{"producer_id"}},

	"shutdown_client": {"client_shutdown", []string{"client_id"}},
	"finish":          {"finished", nil},
	"abort":           {"aborted", nil},
}

// validateOnlyCompletion is the completion when validate_only is true.
var validateOnlyCompletion = map[string]string{
	"create_topic":       "topic_creation_validated",
	"create_partitions":  "topic_partition_increase_validated",
	"alter_topic_config": "topic_config_alteration_validated",
}
