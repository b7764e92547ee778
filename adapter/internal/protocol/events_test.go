package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

func sp(s string) *string { return &s }

// eventGolden pairs every event this adapter emits with its exact line.
var eventGolden = []struct {
	ev   Event
	line string
}{
	{Ready{Descriptor: Descriptor{ID: "gregor-go", Implementation: "impl", Version: "0.1.0", ProtocolVersion: 34, Capabilities: []string{"producer", "admin"}}},
		`"kind":"ready","descriptor":{"id":"gregor-go","implementation":"impl","version":"0.1.0","protocol_version":34,"capabilities":["producer","admin"]}}`},
	{ClientCreated{ClientID: "c1"}, `"kind":"client_created","client_id":"c1"}`},
	{ClientReady{ClientID: "c1"}, `"kind":"client_ready","client_id":"c1"}`},
	{ClientShutdown{ClientID: "c1"}, `"kind":"client_shutdown","client_id":"c1"}`},
	{ClientMetricsObserved{ClientID: "c1", OperationID: "m1"},
		`"kind":"client_metrics_observed","client_id":"c1","operation_id":"m1","snapshot":{` +
			`"calls":{"admitted":0,"succeeded":0,"failed":0,"observer_abandoned":0,"not_sent":0,"possibly_sent":0},` +
			`"failures":{"dns":0,"connect":0,"transport":0,"negotiation":0,"authentication":0,"deadline":0,"local_rejection":0,"response_capacity":0,"route_capacity":0},` +
			`"mailbox":{"capacity_per_lane":0,"byte_capacity_per_lane":0,"queued_work":0,"queued_work_bytes":0,"queued_control":0,"queued_control_bytes":0,"work_full":0,"work_byte_full":0,"control_full":0,"control_byte_full":0,"closed_rejections":0,"wake_failures":0},` +
			`"latency":{"mailbox":{"samples":0,"total_ns":0,"max_ns":0},"routing":{"samples":0,"total_ns":0,"max_ns":0},"preparation":{"samples":0,"total_ns":0,"max_ns":0},"writer_admission":{"samples":0,"total_ns":0,"max_ns":0},"in_flight":{"samples":0,"total_ns":0,"max_ns":0},"end_to_end":{"samples":0,"total_ns":0,"max_ns":0},"deadline_lateness":{"samples":0,"total_ns":0,"max_ns":0}},` +
			`"producer":{"active_records":0,"active_bytes":0,"waiting_records":0,"waiting_bytes":0,"prepared_batches":0,"prepared_batch_bytes":0,"terminal_backlog":0,"produce_requests":0,"produce_batches":0,"produce_records":0,"produce_encoded_bytes":0,"peak_produce_in_flight_requests":0,"peak_produce_in_flight_requests_per_broker":0,"accepting":false,"healthy":false}}}`},
	{ProducerCreated{ProducerID: "p1"}, `"kind":"producer_created","producer_id":"p1"}`},
	{OperationAccepted{OperationID: "op-9"}, `"kind":"operation_accepted","operation_id":"op-9"}`},
	{OperationRejected{OperationID: "op-9", Code: "backpressure"}, `"kind":"operation_rejected","operation_id":"op-9","code":"backpressure"}`},
	{OperationTerminal{OperationID: "op-9", Status: "acknowledged", Offset: i64(412)}, `"kind":"operation_terminal","operation_id":"op-9","status":"acknowledged","code":null,"offset":412}`},
	{OperationTerminal{OperationID: "op-9", Status: "definitely_not_sent", Code: sp("cancelled")}, `"kind":"operation_terminal","operation_id":"op-9","status":"definitely_not_sent","code":"cancelled","offset":null}`},
	{ProducerCancellationCompleted{OperationID: "op-9", Outcomes: []string{"cancelled_not_sent", "already_terminal"}}, `"kind":"producer_cancellation_completed","operation_id":"op-9","outcomes":["cancelled_not_sent","already_terminal"]}`},
	{BatchCompleted{ProducerID: "p1"}, `"kind":"batch_completed","producer_id":"p1"}`},
	{FlushCompleted{ProducerID: "p1"}, `"kind":"flush_completed","producer_id":"p1"}`},
	{ProducerClosed{ProducerID: "p1"}, `"kind":"producer_closed","producer_id":"p1"}`},
	{ConcurrentActorsStarted{ConcurrencyID: "g", ActorIDs: []ID{"a2", "a1"}}, `"kind":"concurrent_actors_started","concurrency_id":"g","actor_ids":["a2","a1"]}`},
	{ConcurrentActorCompleted{ConcurrencyID: "g", ActorID: "a2", OperationID: "r1"}, `"kind":"concurrent_actor_completed","concurrency_id":"g","actor_id":"a2","operation_id":"r1"}`},
	{ConcurrentActorsCompleted{ConcurrencyID: "g", ActorIDs: []ID{"a2", "a1"}}, `"kind":"concurrent_actors_completed","concurrency_id":"g","actor_ids":["a2","a1"]}`},
	{AssignedConsumerCreated{ConsumerID: "k"}, `"kind":"assigned_consumer_created","consumer_id":"k"}`},
	{AssignmentCompleted{ConsumerID: "k"}, `"kind":"assignment_completed","consumer_id":"k"}`},
	{AssignedConsumerControlCompleted{OperationID: "o", ConsumerID: "k", Control: "seek"}, `"kind":"assigned_consumer_control_completed","operation_id":"o","consumer_id":"k","control":"seek"}`},
	{ReceiveCompleted{ReceiveID: "r1", Records: []ConsumedRecord{}}, `"kind":"receive_completed","receive_id":"r1","records":[]}`},
	{ReceiveCompleted{ReceiveID: "r1", Records: mustConsumed([]ReceivedRecord{
		{Topic: "t", Partition: 1, Offset: 7, TimestampMillis: i64(1700), Key: nil, Value: []byte{0x0A, 0xFF}, Headers: []RecordHeader{{Name: "h", Value: []byte("x")}, {Name: "n", Value: nil}, {Name: "e", Value: []byte{}}}},
		{Topic: "t", Partition: 1, Offset: 8, Key: []byte{}, Value: nil},
	})}, `"kind":"receive_completed","receive_id":"r1","records":[` +
		`{"topic":"t","partition":1,"offset":7,"timestamp_millis":1700,"key":null,"value":{"encoding":"hex","data":"0aff"},"headers":[{"name":"h","value":{"encoding":"hex","data":"78"}},{"name":"n","value":null},{"name":"e","value":{"encoding":"hex","data":""}}]},` +
		`{"topic":"t","partition":1,"offset":8,"timestamp_millis":null,"key":{"encoding":"hex","data":""},"value":null,"headers":[]}]}`},
	{AssignedConsumerClosed{ConsumerID: "k"}, `"kind":"assigned_consumer_closed","consumer_id":"k"}`},
	{CommandFailed{Code: "broker:broker_36", Diagnostic: "d"}, `"kind":"command_failed","code":"broker:broker_36","diagnostic":"d"}`},
	{Finished{}, `"kind":"finished"}`},
	{Aborted{}, `"kind":"aborted"}`},
	{Fatal{Code: "adapter_state", Diagnostic: "d"}, `"kind":"fatal","code":"adapter_state","diagnostic":"d"}`},
	{TopicCreated{OperationID: "o", Topic: "t"}, `"kind":"topic_created","operation_id":"o","topic":"t"}`},
	{TopicCreationValidated{OperationID: "o", Topic: "t"}, `"kind":"topic_creation_validated","operation_id":"o","topic":"t"}`},
	{TopicsCreationCompleted{OperationID: "o", Outcomes: []TopicOutcome{{Topic: "a"}, {Topic: "b", ErrorCode: sp("broker:broker_36")}}},
		`"kind":"topics_creation_completed","operation_id":"o","outcomes":[{"topic":"a","error_code":null},{"topic":"b","error_code":"broker:broker_36"}]}`},
	{TopicPartitionsCreated{OperationID: "o", Topic: "t"}, `"kind":"topic_partitions_created","operation_id":"o","topic":"t"}`},
	{TopicPartitionIncreaseValidated{OperationID: "o", Topic: "t"}, `"kind":"topic_partition_increase_validated","operation_id":"o","topic":"t"}`},
	{TopicDeleted{OperationID: "o", Topic: "t"}, `"kind":"topic_deleted","operation_id":"o","topic":"t"}`},
	{TopicDescribed{OperationID: "o", Topic: "t", Partitions: []int32{0, 1}}, `"kind":"topic_described","operation_id":"o","topic":"t","partitions":[0,1]}`},
	{TopicsListed{OperationID: "o", Topics: []string{"a", "b"}}, `"kind":"topics_listed","operation_id":"o","topics":["a","b"]}`},
	{OffsetListed{OperationID: "o", Topic: "t", Partition: 0, Offset: i64(3)}, `"kind":"offset_listed","operation_id":"o","topic":"t","partition":0,"offset":3}`},
	{RecordsDeleted{OperationID: "o", Topic: "t", Partition: 0, LowWatermark: 5}, `"kind":"records_deleted","operation_id":"o","topic":"t","partition":0,"low_watermark":5}`},
	{TopicConfigDescribed{OperationID: "o", Topic: "t", ConfigName: "retention.ms"}, `"kind":"topic_config_described","operation_id":"o","topic":"t","config_name":"retention.ms","value":null}`},
	{TopicConfigAltered{OperationID: "o", Topic: "t", ConfigName: "c"}, `"kind":"topic_config_altered","operation_id":"o","topic":"t","config_name":"c"}`},
	{TopicConfigAlterationValidated{OperationID: "o", Topic: "t", ConfigName: "c"}, `"kind":"topic_config_alteration_validated","operation_id":"o","topic":"t","config_name":"c"}`},
	{ClusterDescribed{OperationID: "o", ClusterID: sp("abc"), BrokerIDs: []int32{1, 2}}, `"kind":"cluster_described","operation_id":"o","cluster_id":"abc","broker_ids":[1,2]}`},
	{ConsumerGroupsListed{OperationID: "o", GroupIDs: []string{"g"}, BrokerErrors: []BrokerErrorCode{{BrokerID: 1, Code: 15}}},
		`"kind":"consumer_groups_listed","operation_id":"o","group_ids":["g"],"broker_errors":[{"broker_id":1,"code":15}]}`},
	{ConsumerGroupDescribed{OperationID: "o", GroupID: "g", MemberCount: 2}, `"kind":"consumer_group_described","operation_id":"o","group_id":"g","member_count":2}`},
	{ConsumerGroupOffsetListed{OperationID: "o", GroupID: "g", Topic: "t", Partition: 1}, `"kind":"consumer_group_offset_listed","operation_id":"o","group_id":"g","topic":"t","partition":1,"offset":null}`},
	{ConsumerGroupOffsetsListed{OperationID: "o", GroupID: "g", Outcomes: []OffsetOutcome{{Topic: "t", Partition: 1, Offset: i64(4)}}},
		`"kind":"consumer_group_offsets_listed","operation_id":"o","group_id":"g","outcomes":[{"topic":"t","partition":1,"offset":4,"error_code":null}]}`},
	{ConsumerGroupsOffsetsListed{OperationID: "o", Groups: []GroupOffsetsOutcome{{GroupID: "g", Offsets: []OffsetOutcome{{Topic: "t", Partition: 1}}}}},
		`"kind":"consumer_groups_offsets_listed","operation_id":"o","groups":[{"group_id":"g","error_code":null,"offsets":[{"topic":"t","partition":1,"offset":null,"error_code":null}]}]}`},
	{ConsumerGroupOffsetAltered{OperationID: "o", GroupID: "g", Topic: "t", Partition: 1}, `"kind":"consumer_group_offset_altered","operation_id":"o","group_id":"g","topic":"t","partition":1}`},
	{ConsumerGroupOffsetsAltered{OperationID: "o", GroupID: "g", Outcomes: []PartitionOutcome{{Topic: "t", Partition: 1}}},
		`"kind":"consumer_group_offsets_altered","operation_id":"o","group_id":"g","outcomes":[{"topic":"t","partition":1,"error_code":null}]}`},
	{ConsumerGroupOffsetDeleted{OperationID: "o", GroupID: "g", Topic: "t", Partition: 1}, `"kind":"consumer_group_offset_deleted","operation_id":"o","group_id":"g","topic":"t","partition":1}`},
	{ConsumerGroupOffsetsDeleted{OperationID: "o", GroupID: "g", Outcomes: []PartitionOutcome{{Topic: "t", Partition: 1, ErrorCode: sp("broker:broker_3")}}},
		`"kind":"consumer_group_offsets_deleted","operation_id":"o","group_id":"g","outcomes":[{"topic":"t","partition":1,"error_code":"broker:broker_3"}]}`},
	{ConsumerGroupDeleted{OperationID: "o", GroupID: "g"}, `"kind":"consumer_group_deleted","operation_id":"o","group_id":"g"}`},
	{ClassicGroupsDescribed{OperationID: "o", Outcomes: []ClassicGroupOutcome{{GroupID: "g", MemberCount: func() *uint32 { n := uint32(0); return &n }()}, {GroupID: "h", ErrorCode: sp("broker:broker_69")}}},
		`"kind":"classic_groups_described","operation_id":"o","outcomes":[{"group_id":"g","member_count":0,"error_code":null},{"group_id":"h","member_count":null,"error_code":"broker:broker_69"}]}`},
}

func mustConsumed(b []ReceivedRecord) []ConsumedRecord {
	out, err := consumedRecords(b)
	if err != nil {
		panic(err)
	}
	return out
}

func TestEventGoldenLines(t *testing.T) {
	for _, tc := range eventGolden {
		got, err := EncodeEvent("command-00000007", tc.ev)
		if err != nil {
			t.Fatalf("%s: %v", tc.ev.EventKind(), err)
		}
		want := `{"protocol_version":34,"command_id":"command-00000007",` + tc.line + "\n"
		if string(got) != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.ev.EventKind(), got, want)
		}
		if !json.Valid(bytes.TrimSuffix(got, []byte("\n"))) || bytes.Count(got, []byte("\n")) != 1 {
			t.Errorf("%s: not one valid JSON line", tc.ev.EventKind())
		}
	}
}

func TestEventLineBound(t *testing.T) {
	_, err := EncodeEvent("c", CommandFailed{Code: "x", Diagnostic: strings.Repeat("a", MaxLine)})
	if err == nil {
		t.Fatal("an event over 4 MiB was encoded")
	}
}

// oneByteWriter records how many Write calls it got.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) { c.writes++; return c.Buffer.Write(p) }

func TestWriterOneWritePerLine(t *testing.T) {
	var cw countingWriter
	w := NewWriter(&cw)
	for i := 0; i < 3; i++ {
		if err := w.Emit("c1", Finished{}); err != nil {
			t.Fatal(err)
		}
	}
	if cw.writes != 3 || strings.Count(cw.String(), "\n") != 3 {
		t.Fatalf("%d writes for 3 lines: %q", cw.writes, cw.String())
	}
}

func TestLineReader(t *testing.T) {
	const max = 16
	read := func(in string) ([]string, error) {
		lr := newLineReader(strings.NewReader(in), max)
		var lines []string
		for {
			l, err := lr.ReadLine()
			if err != nil {
				return lines, err
			}
			lines = append(lines, string(l))
		}
	}
	lines, err := read("a\n\nbc\n")
	if !errors.Is(err, io.EOF) || strings.Join(lines, "|") != "a||bc" {
		t.Fatalf("got %q %v", lines, err)
	}
	if _, err := read("a\nbc"); !errors.Is(err, ErrIncompleteLine) {
		t.Fatalf("incomplete: %v", err)
	}
	// exactly max bytes with the newline is allowed, one more is not
	if lines, err := read(strings.Repeat("x", max-1) + "\n"); !errors.Is(err, io.EOF) || len(lines) != 1 {
		t.Fatalf("at bound: %v", err)
	}
	if _, err := read(strings.Repeat("x", max) + "\n"); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("over bound: %v", err)
	}
	if _, err := read(strings.Repeat("x", max+5)); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("over bound without newline: %v", err)
	}
}

func TestLineReaderProtocolBound(t *testing.T) {
	big := strings.Repeat("x", MaxLine-1) + "\n" + strings.Repeat("y", MaxLine) + "\n"
	lr := NewLineReader(strings.NewReader(big))
	l, err := lr.ReadLine()
	if err != nil || len(l) != MaxLine-1 {
		t.Fatalf("4 MiB line: %d %v", len(l), err)
	}
	if _, err := lr.ReadLine(); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("4 MiB + 1 line: %v", err)
	}
}
