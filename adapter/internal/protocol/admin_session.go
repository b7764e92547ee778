package protocol

import (
	"context"
	"errors"
	"slices"
	"strings"
)

// errNoResult is reported when the admin API answers with fewer results
// than resources asked for (a bug upstream, never papered over).
var errNoResult = errors.New("admin result does not match the request")

func codePtr(err error) *string {
	if err == nil {
		return nil
	}
	c := normalize(err, familyAdmin)
	return &c
}

// adminPayload is what every admin command payload carries: the client to
// run on and the operation's deadline in milliseconds (§4.7).
type adminPayload interface {
	adminRoute() (client ID, timeoutMs uint64)
}

// adminCommands are the admin rows of the command table (§4.7); the
// handlers are in admin_handlers.go.
var adminCommands = []command{
	adminCommand("create_topic", createTopic),
	adminCommand("create_topics_batch", createTopicsBatch),
	adminCommand("create_partitions", createPartitions),
	adminCommand("delete_topic", deleteTopic),
	adminCommand("describe_topic", describeTopic),
	adminCommand("list_topics", listTopics),
	adminCommand("list_offsets", listOffsets),
	adminCommand("delete_records", deleteRecords),
	adminCommand("describe_topic_config", describeTopicConfig),
	adminCommand("alter_topic_config", alterTopicConfig),
	adminCommand("describe_cluster", describeCluster),
	adminCommand("list_consumer_groups", listConsumerGroups),
	adminCommand("describe_consumer_group", describeConsumerGroup),
	adminCommand("delete_consumer_group", deleteConsumerGroup),
	adminCommand("list_consumer_group_offsets", listConsumerGroupOffsets),
	adminCommand("list_consumer_group_offsets_batch", listConsumerGroupOffsetsBatch),
	adminCommand("list_consumer_groups_offsets", listConsumerGroupsOffsets),
	adminCommand("alter_consumer_group_offset", alterConsumerGroupOffset),
	adminCommand("alter_consumer_group_offsets", alterConsumerGroupOffsets),
	adminCommand("delete_consumer_group_offset", deleteConsumerGroupOffset),
	adminCommand("delete_consumer_group_offsets", deleteConsumerGroupOffsets),
	adminCommand("describe_classic_groups", describeClassicGroups),
}

// adminCommand returns the row of an admin kind whose payload is a P: run
// performs it on the payload's client within the payload's whole deadline
// and returns its completion event. Singleton commands turn a per-resource
// error into the command's error.
func adminCommand[T any, P interface {
	*T
	adminPayload
}](kind string, run func(context.Context, Admin, P) (Event, error)) command {
	return handledBy(kind, func(s *Session, payload *T) error {
		p := P(payload)
		clientID, timeoutMs := p.adminRoute()
		return s.runAdmin(clientID, timeoutMs, func(ctx context.Context, a Admin) (Event, error) {
			return run(ctx, a, p)
		})
	})
}

// runAdmin runs call on clientID's Admin within timeoutMs and emits its
// event; a Kafka error fails the command, a fatal error ends the session.
func (s *Session) runAdmin(clientID ID, timeoutMs uint64, call func(context.Context, Admin) (Event, error)) error {
	c, err := s.clientOf(clientID)
	if err != nil {
		return err
	}
	ctx, cancel := timeout(timeoutMs)
	defer cancel()
	ev, err := call(ctx, c.client.Admin())
	if err != nil {
		var fe *fatalError
		if errors.As(err, &fe) {
			return err
		}
		return failed(err, familyAdmin)
	}
	return s.emit(ev)
}

// single turns a one-resource result into one error.
func single(errs []error, err error) error {
	if err != nil {
		return err
	}
	if len(errs) != 1 {
		return fatalf("adapter_admin_result", "%v", errNoResult)
	}
	return errs[0]
}

func offsetOutcomes(req []TopicPartition, res []GroupOffset) ([]OffsetOutcome, error) {
	if len(res) != len(req) {
		return nil, fatalf("adapter_admin_result", "%v", errNoResult)
	}
	out := make([]OffsetOutcome, len(req))
	for i, tp := range req {
		out[i] = OffsetOutcome{Topic: tp.Topic, Partition: tp.Partition, ErrorCode: codePtr(res[i].Err)}
		if res[i].Err == nil {
			out[i].Offset = res[i].Offset
		}
	}
	return out, nil
}

func partitionOutcomes(req []TopicPartition, errs []error) ([]PartitionOutcome, error) {
	if len(errs) != len(req) {
		return nil, fatalf("adapter_admin_result", "%v", errNoResult)
	}
	out := make([]PartitionOutcome, len(req))
	for i, tp := range req {
		out[i] = PartitionOutcome{Topic: tp.Topic, Partition: tp.Partition, ErrorCode: codePtr(errs[i])}
	}
	return out, nil
}

// sortedUnique returns names sorted byte-wise without duplicates, never nil.
func sortedUnique(names []string) []string {
	out := slices.Clone(names)
	slices.SortFunc(out, strings.Compare)
	out = slices.Compact(out)
	if out == nil {
		out = []string{}
	}
	return out
}
