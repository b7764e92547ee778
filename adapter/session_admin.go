package adapter

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

// adminHandler performs one admin command kind within ctx and returns its
// completion event. Singleton commands turn a per-resource error into the
// command's error.
type adminHandler func(ctx context.Context, a Admin, p adminPayload) (Event, error)

// adminHandlers maps each admin command kind to its handler.
var adminHandlers = map[string]adminHandler{
	"create_topic":                      handle(createTopic),
	"create_topics_batch":               handle(createTopicsBatch),
	"create_partitions":                 handle(createPartitions),
	"delete_topic":                      handle(deleteTopic),
	"describe_topic":                    handle(describeTopic),
	"list_topics":                       handle(listTopics),
	"list_offsets":                      handle(listOffsets),
	"delete_records":                    handle(deleteRecords),
	"describe_topic_config":             handle(describeTopicConfig),
	"alter_topic_config":                handle(alterTopicConfig),
	"describe_cluster":                  handle(describeCluster),
	"list_consumer_groups":              handle(listConsumerGroups),
	"describe_consumer_group":           handle(describeConsumerGroup),
	"delete_consumer_group":             handle(deleteConsumerGroup),
	"list_consumer_group_offsets":       handle(listConsumerGroupOffsets),
	"list_consumer_group_offsets_batch": handle(listConsumerGroupOffsetsBatch),
	"list_consumer_groups_offsets":      handle(listConsumerGroupsOffsets),
	"alter_consumer_group_offset":       handle(alterConsumerGroupOffset),
	"alter_consumer_group_offsets":      handle(alterConsumerGroupOffsets),
	"delete_consumer_group_offset":      handle(deleteConsumerGroupOffset),
	"delete_consumer_group_offsets":     handle(deleteConsumerGroupOffsets),
	"describe_classic_groups":           handle(describeClassicGroups),
}

// handle adapts a handler of one payload type to adminHandler; a payload of
// another type is the adapter's own bug (unexpectedPayload).
func handle[P adminPayload](run func(context.Context, Admin, P) (Event, error)) adminHandler {
	return func(ctx context.Context, a Admin, p adminPayload) (Event, error) {
		q, ok := p.(P)
		if !ok {
			return nil, errWrongPayload
		}
		return run(ctx, a, q)
	}
}

// errWrongPayload marks a payload whose type does not fit its kind's handler.
var errWrongPayload = errors.New("admin payload of the wrong type")

func (s *Session) dispatchAdmin(cmd *Command) error {
	h, known := adminHandlers[cmd.Kind]
	p, ok := cmd.Payload.(adminPayload)
	if !known || !ok {
		return unexpectedPayload(cmd.Kind)
	}
	clientID, ms := p.adminRoute()
	c, err := s.clientOf(clientID)
	if err != nil {
		return err
	}
	ev, err := runAdmin(c.client.Admin(), h, p, ms)
	if errors.Is(err, errWrongPayload) {
		return unexpectedPayload(cmd.Kind)
	}
	if err != nil {
		var fe *fatalError
		if errors.As(err, &fe) {
			return err
		}
		return failed(err, familyAdmin)
	}
	return s.emit(ev)
}

// runAdmin runs h within the command's whole deadline (timeoutMs).
func runAdmin(a Admin, h adminHandler, p adminPayload, timeoutMs uint64) (Event, error) {
	ctx, cancel := timeout(timeoutMs)
	defer cancel()
	return h(ctx, a, p)
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
