package protocol

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

const pre = `{"protocol_version":34,"command_id":"command-00000001",`

func i64(v int64) *int64 { return &v }

var rec9 = RecordSpec{Topic: "orders", Partition: 0, Sequence: 9,
	Key:   &ByteString{Encoding: "utf8", Data: "k-9"},
	Value: &ByteString{Encoding: "hex", Data: "0aff"},
	Headers: []HeaderSpec{
		{Name: "testlab-operation-id", Value: &ByteString{Encoding: "utf8", Data: "op-9"}},
		{Name: "trace", Value: nil},
	}}

const rec9JSON = `{"topic":"orders","partition":0,"sequence":9,"key":{"encoding":"utf8","data":"k-9"},"value":{"encoding":"hex","data":"0aff"},"headers":[{"name":"testlab-operation-id","value":{"encoding":"utf8","data":"op-9"}},{"name":"trace","value":null}]}`

// commandCases holds one hand-written line per implemented command kind and
// the payload it must decode to.
var commandCases = []struct {
	line string
	want any
}{
	{pre + `"kind":"hello","run_id":"run-1","scenario_id":"producer-basic","broker_endpoints":["127.0.0.1:19092"],"security":{"kind":"plaintext"}}`,
		&Hello{RunID: "run-1", ScenarioID: "producer-basic", BrokerEndpoints: []string{"127.0.0.1:19092"}, Security: Security{Kind: "plaintext"}}},
	{pre + `"kind":"hello","run_id":"run-1","scenario_id":"s","broker_endpoints":["a:1","b:2"],"security":{"kind":"sasl_tls","ca_pem_environment":"CA","mechanism":"scram_sha512","username_environment":"U","password_environment":"P"}}`,
		&Hello{RunID: "run-1", ScenarioID: "s", BrokerEndpoints: []string{"a:1", "b:2"}, Security: Security{Kind: "sasl_tls", CAPEMEnvironment: "CA", Mechanism: "scram_sha512", UsernameEnvironment: "U", PasswordEnvironment: "P"}}},
	{pre + `"kind":"hello","run_id":"r","scenario_id":"s","broker_endpoints":[],"security":{"kind":"tls_custom","ca_pem_environment":"CA"}}`,
		&Hello{RunID: "r", ScenarioID: "s", BrokerEndpoints: []string{}, Security: Security{Kind: "tls_custom", CAPEMEnvironment: "CA"}}},
	{pre + `"kind":"hello","run_id":"r","scenario_id":"s","broker_endpoints":["x:1"],"security":{"kind":"sasl_plaintext","mechanism":"plain","username_environment":"U","password_environment":"P"}}`,
		&Hello{RunID: "r", ScenarioID: "s", BrokerEndpoints: []string{"x:1"}, Security: Security{Kind: "sasl_plaintext", Mechanism: "plain", UsernameEnvironment: "U", PasswordEnvironment: "P"}}},
	{pre + `"kind":"create_client","client_id":"c1"}`, &CreateClient{ClientID: "c1"}},
	{pre + `"kind":"create_configured_client","client_id":"c1","configuration":{"delivery_timeout_ms":5000,"compression":"zstd","max_retries":3,"retry_backoff_ms":100,"limits":{"retained_bytes":1048576,"in_flight_records":64,"waiting_records":32,"waiting_bytes":65536,"batch_records":16,"batch_bytes":16384,"request_bytes":65536,"max_in_flight_requests_per_broker":5,"linger_ms":5}}}`,
		&CreateConfiguredClient{ClientID: "c1", Configuration: ProducerConfiguration{DeliveryTimeoutMs: 5000, Compression: "zstd", MaxRetries: 3, RetryBackoffMs: 100,
			Limits: ProducerLimits{RetainedBytes: 1048576, InFlightRecords: 64, WaitingRecords: 32, WaitingBytes: 65536, BatchRecords: 16, BatchBytes: 16384, RequestBytes: 65536, MaxInFlightRequestsPerBroker: 5, LingerMs: 5}}}},
	{pre + `"kind":"await_client_ready","client_id":"c1"}`, &AwaitClientReady{ClientID: "c1"}},
	{pre + `"kind":"observe_client_metrics","client_id":"c1","operation_id":"m-1"}`, &ObserveClientMetrics{ClientID: "c1", OperationID: "m-1"}},
	{pre + `"kind":"create_producer","client_id":"c1","producer_id":"p1"}`, &CreateProducer{ClientID: "c1", ProducerID: "p1"}},
	{pre + `"kind":"send","producer_id":"prod-a","operation_id":"op-9","record":` + rec9JSON + `}`,
		&Send{ProducerID: "prod-a", OperationID: "op-9", Record: rec9}},
	{pre + `"kind":"send","producer_id":"p","operation_id":"o","record":{"topic":"t","partition":2,"sequence":1,"key":null,"value":{"encoding":"utf8","data":""},"timestamp_millis":1700000000000}}`,
		&Send{ProducerID: "p", OperationID: "o", Record: RecordSpec{Topic: "t", Partition: 2, Sequence: 1, Value: &ByteString{Encoding: "utf8"}, TimestampMillis: i64(1700000000000)}}},
	{pre + `"kind":"cancel_producer_send","producer_id":"p","operation_id":"op-9","record":` + rec9JSON + `,"timeout_ms":1000}`,
		&CancelProducerSend{ProducerID: "p", OperationID: "op-9", Record: rec9, TimeoutMs: 1000}},
	{pre + `"kind":"send_batch","producer_id":"p","operations":[{"operation_id":"op-9","record":` + rec9JSON + `}]}`,
		&SendBatch{ProducerID: "p", Operations: []BatchRecord{{OperationID: "op-9", Record: rec9}}}},
	{pre + `"kind":"flush","producer_id":"p"}`, &Flush{ProducerID: "p"}},
	{pre + `"kind":"close_producer","producer_id":"p"}`, &CloseProducer{ProducerID: "p"}},
	{pre + `"kind":"start_concurrent_actors","concurrency_id":"g1","actors":[{"kind":"producer_send","actor_id":"a1","producer_id":"p","operation_id":"op-9","record":` + rec9JSON + `},{"kind":"assigned_receive","actor_id":"a2","consumer_id":"c","receive_id":"r1","timeout_ms":500}]}`,
		&StartConcurrentActors{ConcurrencyID: "g1", Actors: []Actor{
			{Kind: "producer_send", ActorID: "a1", ProducerID: "p", OperationID: "op-9", Record: rec9},
			{Kind: "assigned_receive", ActorID: "a2", ConsumerID: "c", ReceiveID: "r1", TimeoutMs: 500}}}},
	{pre + `"kind":"join_concurrent_actors","concurrency_id":"g1","timeout_ms":5000}`, &JoinConcurrentActors{ConcurrencyID: "g1", TimeoutMs: 5000}},
	{pre + `"kind":"create_assigned_consumer","client_id":"c1","consumer_id":"k1"}`, &CreateAssignedConsumer{ClientID: "c1", ConsumerID: "k1"}},
	{pre + `"kind":"assign_beginning","consumer_id":"k1","topic":"t","partition":3}`, &AssignBeginning{ConsumerID: "k1", Topic: "t", Partition: 3}},
	{pre + `"kind":"assign_beginning_batch","consumer_id":"k1","partitions":[{"topic":"t","partition":0},{"topic":"u","partition":1}],"timeout_ms":1000}`,
		&AssignBeginningBatch{ConsumerID: "k1", Partitions: []TopicPartition{{"t", 0}, {"u", 1}}, TimeoutMs: 1000}},
	{pre + `"kind":"control_assigned_consumer","operation_id":"o1","consumer_id":"k1","control":{"kind":"replace","partitions":[{"topic":"t","partition":0,"position":{"kind":"offset","offset":7}},{"topic":"t","partition":1,"position":{"kind":"end"}}]},"timeout_ms":1}`,
		&ControlAssignedConsumer{OperationID: "o1", ConsumerID: "k1", TimeoutMs: 1, Control: AssignedControl{Kind: "replace", Positions: []PartitionPosition{
			{Topic: "t", Partition: 0, Position: StartPosition{Kind: "offset", Offset: 7}}, {Topic: "t", Partition: 1, Position: StartPosition{Kind: "end"}}}}}},
	{pre + `"kind":"control_assigned_consumer","operation_id":"o1","consumer_id":"k1","control":{"kind":"add","partitions":[{"topic":"t","partition":2,"position":{"kind":"beginning"}}]},"timeout_ms":10}`,
		&ControlAssignedConsumer{OperationID: "o1", ConsumerID: "k1", TimeoutMs: 10, Control: AssignedControl{Kind: "add", Positions: []PartitionPosition{{Topic: "t", Partition: 2, Position: StartPosition{Kind: "beginning"}}}}}},
	{pre + `"kind":"control_assigned_consumer","operation_id":"o1","consumer_id":"k1","control":{"kind":"remove","partitions":[{"topic":"t","partition":2}]},"timeout_ms":10}`,
		&ControlAssignedConsumer{OperationID: "o1", ConsumerID: "k1", TimeoutMs: 10, Control: AssignedControl{Kind: "remove", Partitions: []TopicPartition{{"t", 2}}}}},
	{pre + `"kind":"control_assigned_consumer","operation_id":"o1","consumer_id":"k1","control":{"kind":"seek","partition":{"topic":"t","partition":2},"position":{"kind":"offset","offset":0}},"timeout_ms":10}`,
		&ControlAssignedConsumer{OperationID: "o1", ConsumerID: "k1", TimeoutMs: 10, Control: AssignedControl{Kind: "seek", Partition: TopicPartition{"t", 2}, Position: StartPosition{Kind: "offset"}}}},
	{pre + `"kind":"control_assigned_consumer","operation_id":"o1","consumer_id":"k1","control":{"kind":"pause","partition":{"topic":"t","partition":2}},"timeout_ms":10}`,
		&ControlAssignedConsumer{OperationID: "o1", ConsumerID: "k1", TimeoutMs: 10, Control: AssignedControl{Kind: "pause", Partition: TopicPartition{"t", 2}}}},
	{pre + `"kind":"control_assigned_consumer","operation_id":"o1","consumer_id":"k1","control":{"kind":"resume","partition":{"topic":"t","partition":2}},"timeout_ms":10}`,
		&ControlAssignedConsumer{OperationID: "o1", ConsumerID: "k1", TimeoutMs: 10, Control: AssignedControl{Kind: "resume", Partition: TopicPartition{"t", 2}}}},
	{pre + `"kind":"receive","consumer_id":"k1","receive_id":"r1","timeout_ms":100}`, &Receive{ConsumerID: "k1", ReceiveID: "r1", TimeoutMs: 100}},
	{pre + `"kind":"close_assigned_consumer","consumer_id":"k1"}`, &CloseAssignedConsumer{ConsumerID: "k1"}},
	{pre + `"kind":"create_topic","client_id":"c","operation_id":"o","topic":"t","partitions":3,"replication_factor":1,"validate_only":false,"timeout_ms":5000}`,
		&CreateTopic{ClientID: "c", OperationID: "o", Topic: "t", Partitions: 3, ReplicationFactor: 1, TimeoutMs: 5000}},
	{pre + `"kind":"create_topics_batch","client_id":"c","operation_id":"o","topics":[{"topic":"a","partitions":1,"replication_factor":1},{"topic":"b","partitions":2,"replication_factor":1}],"timeout_ms":5000}`,
		&CreateTopicsBatch{ClientID: "c", OperationID: "o", Topics: []TopicSpec{{"a", 1, 1}, {"b", 2, 1}}, TimeoutMs: 5000}},
	{pre + `"kind":"create_partitions","client_id":"c","operation_id":"o","topic":"t","total_count":6,"validate_only":true,"timeout_ms":5000}`,
		&CreatePartitions{ClientID: "c", OperationID: "o", Topic: "t", TotalCount: 6, ValidateOnly: true, TimeoutMs: 5000}},
	{pre + `"kind":"delete_topic","client_id":"c","operation_id":"o","topic":"t","timeout_ms":5000}`, &DeleteTopic{ClientID: "c", OperationID: "o", Topic: "t", TimeoutMs: 5000}},
	{pre + `"kind":"describe_topic","client_id":"c","operation_id":"o","topic":"t","timeout_ms":5000}`, &DescribeTopic{ClientID: "c", OperationID: "o", Topic: "t", TimeoutMs: 5000}},
	{pre + `"kind":"list_topics","client_id":"c","operation_id":"o","include_internal":true,"timeout_ms":5000}`, &ListTopics{ClientID: "c", OperationID: "o", IncludeInternal: true, TimeoutMs: 5000}},
	{pre + `"kind":"list_offsets","client_id":"c","operation_id":"o","topic":"t","partition":0,"position":"latest","timeout_ms":5000}`,
		&ListOffsets{ClientID: "c", OperationID: "o", Topic: "t", Position: "latest", TimeoutMs: 5000}},
	{pre + `"kind":"delete_records","client_id":"c","operation_id":"o","topic":"t","partition":0,"before_offset":5,"timeout_ms":5000}`,
		&DeleteRecords{ClientID: "c", OperationID: "o", Topic: "t", BeforeOffset: 5, TimeoutMs: 5000}},
	{pre + `"kind":"describe_topic_config","client_id":"c","operation_id":"o","topic":"t","config_name":"retention.ms","timeout_ms":5000}`,
		&DescribeTopicConfig{ClientID: "c", OperationID: "o", Topic: "t", ConfigName: "retention.ms", TimeoutMs: 5000}},
	{pre + `"kind":"alter_topic_config","client_id":"c","operation_id":"o","topic":"t","config_name":"retention.ms","value":"1000","validate_only":false,"timeout_ms":5000}`,
		&AlterTopicConfig{ClientID: "c", OperationID: "o", Topic: "t", ConfigName: "retention.ms", Value: "1000", TimeoutMs: 5000}},
	{pre + `"kind":"describe_cluster","client_id":"c","operation_id":"o","timeout_ms":5000}`, &AdminSimple{ClientID: "c", OperationID: "o", TimeoutMs: 5000}},
	{pre + `"kind":"list_consumer_groups","client_id":"c","operation_id":"o","timeout_ms":5000}`, &AdminSimple{ClientID: "c", OperationID: "o", TimeoutMs: 5000}},
	{pre + `"kind":"describe_consumer_group","client_id":"c","operation_id":"o","group_id":"g","timeout_ms":5000}`, &GroupCommand{ClientID: "c", OperationID: "o", GroupID: "g", TimeoutMs: 5000}},
	{pre + `"kind":"list_consumer_group_offsets","client_id":"c","operation_id":"o","group_id":"g","topic":"t","partition":1,"require_stable":true,"timeout_ms":5000}`,
		&ListConsumerGroupOffsets{ClientID: "c", OperationID: "o", GroupID: "g", Topic: "t", Partition: 1, RequireStable: true, TimeoutMs: 5000}},
	{pre + `"kind":"list_consumer_group_offsets_batch","client_id":"c","operation_id":"o","group_id":"g","require_stable":false,"partitions":[{"topic":"t","partition":1}],"timeout_ms":5000}`,
		&ListConsumerGroupOffsetsBatch{ClientID: "c", OperationID: "o", GroupID: "g", Partitions: []TopicPartition{{"t", 1}}, TimeoutMs: 5000}},
	{pre + `"kind":"list_consumer_groups_offsets","client_id":"c","operation_id":"o","require_stable":false,"groups":[{"group_id":"g","partitions":[{"topic":"t","partition":1}]}],"timeout_ms":5000}`,
		&ListConsumerGroupsOffsets{ClientID: "c", OperationID: "o", Groups: []GroupPartitions{{GroupID: "g", Partitions: []TopicPartition{{"t", 1}}}}, TimeoutMs: 5000}},
	{pre + `"kind":"alter_consumer_group_offset","client_id":"c","operation_id":"o","group_id":"g","topic":"t","partition":1,"offset":4,"timeout_ms":5000}`,
		&AlterConsumerGroupOffset{ClientID: "c", OperationID: "o", GroupID: "g", Topic: "t", Partition: 1, Offset: 4, TimeoutMs: 5000}},
	{pre + `"kind":"alter_consumer_group_offsets","client_id":"c","operation_id":"o","group_id":"g","offsets":[{"topic":"t","partition":1,"offset":4}],"timeout_ms":5000}`,
		&AlterConsumerGroupOffsets{ClientID: "c", OperationID: "o", GroupID: "g", Offsets: []PartitionOffset{{"t", 1, 4}}, TimeoutMs: 5000}},
	{pre + `"kind":"delete_consumer_group_offset","client_id":"c","operation_id":"o","group_id":"g","topic":"t","partition":1,"timeout_ms":5000}`,
		&DeleteConsumerGroupOffset{ClientID: "c", OperationID: "o", GroupID: "g", Topic: "t", Partition: 1, TimeoutMs: 5000}},
	{pre + `"kind":"delete_consumer_group_offsets","client_id":"c","operation_id":"o","group_id":"g","partitions":[{"topic":"t","partition":1}],"timeout_ms":5000}`,
		&DeleteConsumerGroupOffsets{ClientID: "c", OperationID: "o", GroupID: "g", Partitions: []TopicPartition{{"t", 1}}, TimeoutMs: 5000}},
	{pre + `"kind":"delete_consumer_group","client_id":"c","operation_id":"o","group_id":"g","timeout_ms":5000}`, &GroupCommand{ClientID: "c", OperationID: "o", GroupID: "g", TimeoutMs: 5000}},
	{pre + `"kind":"describe_classic_groups","client_id":"c","operation_id":"o","group_ids":["g","h"],"timeout_ms":5000}`,
		&DescribeClassicGroups{ClientID: "c", OperationID: "o", GroupIDs: []string{"g", "h"}, TimeoutMs: 5000}},
	{pre + `"kind":"create_group_consumer","client_id":"c","consumer_id":"g1","group_id":"g","topic":"t","protocol":"classic"}`,
		&CreateGroupConsumer{ClientID: "c", ConsumerID: "g1", GroupID: "g", Topic: "t", Protocol: "classic"}},
	{pre + `"kind":"create_group_consumer","client_id":"c","consumer_id":"g1","group_id":"g","topic":"t","protocol":"classic","configuration":{"offset_reset":"latest","read_isolation":"read_committed"}}`,
		&CreateGroupConsumer{ClientID: "c", ConsumerID: "g1", GroupID: "g", Topic: "t", Protocol: "classic",
			Configuration: &GroupConsumerConfiguration{OffsetReset: "latest", ReadIsolation: "read_committed"}}},
	{pre + `"kind":"group_receive","consumer_id":"g1","receive_id":"r","timeout_ms":500}`, &GroupReceive{ConsumerID: "g1", ReceiveID: "r", TimeoutMs: 500}},
	{pre + `"kind":"observe_group_assignments","operation_id":"o","consumer_ids":["g1","g2"],"timeout_ms":500}`,
		&ObserveGroupAssignments{OperationID: "o", ConsumerIDs: []ID{"g1", "g2"}, TimeoutMs: 500}},
	{pre + `"kind":"group_receive_set","receive_id":"r","consumer_ids":["g1"],"record_count":3,"timeout_ms":500}`,
		&GroupReceiveSet{ReceiveID: "r", ConsumerIDs: []ID{"g1"}, RecordCount: 3, TimeoutMs: 500}},
	{pre + `"kind":"control_group_consumer","operation_id":"o","consumer_id":"g1","control":{"kind":"pause","partitions":[{"topic":"t","partition":0}]},"timeout_ms":500}`,
		&ControlGroupConsumer{OperationID: "o", ConsumerID: "g1", Control: GroupControl{Kind: "pause", Partitions: []TopicPartition{{"t", 0}}}, TimeoutMs: 500}},
	{pre + `"kind":"control_group_consumer","operation_id":"o","consumer_id":"g1","control":{"kind":"seek","partition":{"topic":"t","partition":0},"position":{"kind":"offset","offset":3}},"timeout_ms":500}`,
		&ControlGroupConsumer{OperationID: "o", ConsumerID: "g1", Control: GroupControl{Kind: "seek", Partition: TopicPartition{"t", 0}, Position: StartPosition{Kind: "offset", Offset: 3}}, TimeoutMs: 500}},
	{pre + `"kind":"shutdown_group_consumer","operation_id":"o","consumer_id":"g1","request_count":3,"timeout_ms":500}`,
		&ShutdownGroupConsumer{OperationID: "o", ConsumerID: "g1", RequestCount: 3, TimeoutMs: 500}},
	{pre + `"kind":"close_group_consumer","consumer_id":"g1"}`, &CloseGroupConsumer{ConsumerID: "g1"}},
	{pre + `"kind":"shutdown_client","client_id":"c"}`, &ShutdownClient{ClientID: "c"}},
	{pre + `"kind":"create_transactional_producer","client_id":"c","producer_id":"p","transactional_id":"tid","transaction_timeout_ms":10000,"initialization_timeout_ms":5000}`,
		&CreateTransactionalProducer{ClientID: "c", ProducerID: "p", TransactionalID: "tid", TransactionTimeoutMs: 10000, InitializationTimeoutMs: 5000}},
	{pre + `"kind":"execute_transaction","producer_id":"p","transaction_id":"x","operations":[{"operation_id":"o","record":{"topic":"t","partition":0,"sequence":1,"key":null,"value":null}}],"disposition":"abort","timeout_ms":5000}`,
		&ExecuteTransaction{ProducerID: "p", TransactionID: "x", Operations: []BatchRecord{{OperationID: "o", Record: RecordSpec{Topic: "t", Sequence: 1}}}, Disposition: "abort", TimeoutMs: 5000}},
	{pre + `"kind":"execute_transactional_transform","producer_id":"p","consumer_id":"g1","transaction_id":"x","operations":[],"disposition":"commit","timeout_ms":5000}`,
		&ExecuteTransactionalTransform{ProducerID: "p", ConsumerID: "g1", TransactionID: "x", Operations: []BatchRecord{}, Disposition: "commit", TimeoutMs: 5000}},
	{pre + `"kind":"fence_transaction","producer_id":"p","transaction_id":"x","operation":{"operation_id":"o","record":{"topic":"t","partition":0,"sequence":1,"key":null,"value":null}},"replacement_client_id":"c2","replacement_producer_id":"p2","transactional_id":"tid","transaction_timeout_ms":10000,"initialization_timeout_ms":5000,"timeout_ms":5000}`,
		&FenceTransaction{ProducerID: "p", TransactionID: "x", Operation: BatchRecord{OperationID: "o", Record: RecordSpec{Topic: "t", Sequence: 1}},
			ReplacementClientID: "c2", ReplacementProducerID: "p2", TransactionalID: "tid", TransactionTimeoutMs: 10000, InitializationTimeoutMs: 5000, TimeoutMs: 5000}},
	{pre + `"kind":"close_transactional_producer","producer_id":"p"}`, &CloseTransactionalProducer{ProducerID: "p"}},
	{pre + `"kind":"finish"}`, &Finish{}},
	{pre + `"kind":"abort"}`, &Abort{}},
}

func TestDecodeEveryCommand(t *testing.T) {
	kinds := map[string]bool{}
	for _, tc := range commandCases {
		cmd, err := DecodeCommand([]byte(tc.line))
		if err != nil {
			t.Errorf("decode %s: %v", tc.line, err)
			continue
		}
		kinds[cmd.Kind] = true
		if cmd.CommandID != "command-00000001" || cmd.ProtocolVersion != 34 {
			t.Errorf("envelope = %+v", cmd)
		}
		if !reflect.DeepEqual(cmd.Payload, tc.want) {
			t.Errorf("decode %s:\n got %#v\nwant %#v", cmd.Kind, cmd.Payload, tc.want)
		}
	}
	for k := range commandPayloads {
		if !kinds[k] {
			t.Errorf("no decode case for command %q", k)
		}
	}
	if n := len(commandPayloads) + len(unimplementedKinds); n != 61 {
		t.Errorf("%d command kinds known, the v34 spec has 61", n)
	}
}

func TestDecodeRejects(t *testing.T) {
	cases := []struct {
		name, line, code string
		envelope         bool
	}{
		{"malformed", `{"protocol_version":34,`, "adapter_json", false},
		{"not object", `[1]`, "adapter_json", false},
		{"missing kind", `{"protocol_version":34,"command_id":"c1"}`, "adapter_json", false},
		{"version float", `{"protocol_version":34.0,"command_id":"c1","kind":"finish"}`, "adapter_json", false},
		{"version string", `{"protocol_version":"34","command_id":"c1","kind":"finish"}`, "adapter_json", false},
		{"version over u16", `{"protocol_version":65536,"command_id":"c1","kind":"finish"}`, "adapter_json", false},
		{"version negative", `{"protocol_version":-1,"command_id":"c1","kind":"finish"}`, "adapter_json", false},
		{"wrong version", `{"protocol_version":33,"command_id":"c1","kind":"finish"}`, "protocol_version", true},
		{"bad command id char", `{"protocol_version":34,"command_id":"c 1","kind":"finish"}`, "adapter_identity", false},
		{"bad command id start", `{"protocol_version":34,"command_id":"-c1","kind":"finish"}`, "adapter_identity", false},
		{"empty command id", `{"protocol_version":34,"command_id":"","kind":"finish"}`, "adapter_identity", false},
		{"long command id", `{"protocol_version":34,"command_id":"` + strings.Repeat("a", 129) + `","kind":"finish"}`, "adapter_identity", false},
		{"unknown kind", pre + `"kind":"teleport"}`, "adapter_json", false},
		{"unknown top key", pre + `"kind":"finish","extra":1}`, "adapter_json", false},
		{"unknown payload key", pre + `"kind":"create_client","client_id":"c","x":1}`, "adapter_json", false},
		{"missing payload key", pre + `"kind":"create_producer","client_id":"c"}`, "adapter_json", false},
		{"null payload key", pre + `"kind":"create_client","client_id":null}`, "adapter_json", false},
		{"bad payload id", pre + `"kind":"create_client","client_id":"c/1"}`, "adapter_identity", false},
		{"unknown nested key", pre + `"kind":"send","producer_id":"p","operation_id":"o","record":{"topic":"t","partition":0,"sequence":1,"key":null,"value":null,"partition_key":1}}`, "adapter_json", false},
		{"missing nullable key", pre + `"kind":"send","producer_id":"p","operation_id":"o","record":{"topic":"t","partition":0,"sequence":1,"value":null}}`, "adapter_json", false},
		{"unknown bytes key", pre + `"kind":"send","producer_id":"p","operation_id":"o","record":{"topic":"t","partition":0,"sequence":1,"key":{"encoding":"utf8","data":"","x":1},"value":null}}`, "adapter_json", false},
		{"bad encoding", pre + `"kind":"send","producer_id":"p","operation_id":"o","record":{"topic":"t","partition":0,"sequence":1,"key":{"encoding":"base64","data":""},"value":null}}`, "adapter_json", false},
		{"unknown security key", pre + `"kind":"hello","run_id":"r","scenario_id":"s","broker_endpoints":[],"security":{"kind":"plaintext","ca_pem_environment":"X"}}`, "adapter_json", false},
		{"unknown security kind", pre + `"kind":"hello","run_id":"r","scenario_id":"s","broker_endpoints":[],"security":{"kind":"kerberos"}}`, "adapter_json", false},
		{"bad mechanism", pre + `"kind":"hello","run_id":"r","scenario_id":"s","broker_endpoints":[],"security":{"kind":"sasl_plaintext","mechanism":"gssapi","username_environment":"U","password_environment":"P"}}`, "adapter_json", false},
		{"bad compression", pre + `"kind":"create_configured_client","client_id":"c1","configuration":{"delivery_timeout_ms":5000,"compression":"brotli","max_retries":3,"retry_backoff_ms":100,"limits":{"retained_bytes":1,"in_flight_records":1,"waiting_records":1,"waiting_bytes":1,"batch_records":1,"batch_bytes":1,"request_bytes":1,"max_in_flight_requests_per_broker":1,"linger_ms":0}}}`, "adapter_json", false},
		{"limit out of u8", pre + `"kind":"create_configured_client","client_id":"c1","configuration":{"delivery_timeout_ms":5000,"compression":"none","max_retries":3,"retry_backoff_ms":100,"limits":{"retained_bytes":1,"in_flight_records":1,"waiting_records":1,"waiting_bytes":1,"batch_records":1,"batch_bytes":1,"request_bytes":1,"max_in_flight_requests_per_broker":256,"linger_ms":0}}}`, "adapter_json", false},
		{"unknown control kind", pre + `"kind":"control_assigned_consumer","operation_id":"o1","consumer_id":"k1","control":{"kind":"rewind"},"timeout_ms":1}`, "adapter_json", false},
		{"extra control key", pre + `"kind":"control_assigned_consumer","operation_id":"o1","consumer_id":"k1","control":{"kind":"pause","partition":{"topic":"t","partition":0},"partitions":[]},"timeout_ms":1}`, "adapter_json", false},
		{"bad actor id", pre + `"kind":"start_concurrent_actors","concurrency_id":"g","actors":[{"kind":"assigned_receive","actor_id":"a b","consumer_id":"c","receive_id":"r","timeout_ms":100}]}`, "adapter_identity", false},
		{"offset position without offset", pre + `"kind":"control_assigned_consumer","operation_id":"o1","consumer_id":"k1","control":{"kind":"seek","partition":{"topic":"t","partition":0},"position":{"kind":"offset"}},"timeout_ms":1}`, "adapter_json", false},
		{"trailing garbage", pre + `"kind":"finish"} x`, "adapter_json", false},
	}
	for _, tc := range cases {
		_, err := DecodeCommand([]byte(tc.line))
		var de *DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%s: got %v, want a DecodeError", tc.name, err)
			continue
		}
		if de.Code != tc.code || de.Envelope != tc.envelope {
			t.Errorf("%s: got code %s envelope %v (%v), want %s %v", tc.name, de.Code, de.Envelope, de.Err, tc.code, tc.envelope)
		}
	}
}

func TestByteStringBytes(t *testing.T) {
	for _, tc := range []struct {
		b    *ByteString
		want []byte
		bad  bool
	}{
		{nil, nil, false},
		{&ByteString{"utf8", ""}, []byte{}, false},
		{&ByteString{"utf8", "hé"}, []byte("hé"), false},
		{&ByteString{"hex", "0AfF"}, []byte{0x0a, 0xff}, false},
		{&ByteString{"hex", ""}, []byte{}, false},
		{&ByteString{"hex", "abc"}, nil, true},
		{&ByteString{"hex", "zz"}, nil, true},
	} {
		got, err := tc.b.Bytes()
		var be *BytesError
		if tc.bad != errors.As(err, &be) {
			t.Errorf("%v: err %v", tc.b, err)
			continue
		}
		if !tc.bad && (!reflect.DeepEqual(got, tc.want) || (got == nil) != (tc.want == nil)) {
			t.Errorf("%v: got %#v want %#v", tc.b, got, tc.want)
		}
	}
}

func FuzzDecodeCommand(f *testing.F) {
	for _, tc := range commandCases {
		f.Add([]byte(tc.line))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		cmd, err := DecodeCommand(line)
		if err == nil && cmd == nil {
			t.Fatal("nil command without error")
		}
	})
}
