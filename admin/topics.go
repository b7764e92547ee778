package admin

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// NewTopic describes a topic to create.
type NewTopic struct {
	// Name is the topic name.
	Name string
	// Partitions is the partition count; 0 (or -1) uses the broker default
	// (num.partitions). Another negative count fails with
	// gregor.ErrInvalidPartitions. Ignored when Assignments is set.
	Partitions int32
	// ReplicationFactor is the replica count per partition; 0 (or -1) uses
	// the broker default (default.replication.factor). Ignored when
	// Assignments is set.
	ReplicationFactor int16
	// Assignments optionally places every partition explicitly: index i
	// lists the replica broker IDs of partition i, preferred leader first.
	Assignments [][]int32
	// Configs are topic configs to set at creation (name -> value).
	Configs map[string]string
}

// TopicOptions tunes the topic operations.
type TopicOptions struct {
	// ValidateOnly asks the controller to check the request and report the
	// errors a real request would get, without changing anything
	// (CreateTopics and CreatePartitions only).
	ValidateOnly bool
	// WaitVisible makes a successful change wait until every broker's
	// metadata shows it (created topics with their partition count,
	// deleted topics gone). When the context ends first, the per-topic
	// results are returned with ErrVisibilityTimeout.
	WaitVisible bool
}

// CreateTopicResult is the outcome for one topic of CreateTopics.
type CreateTopicResult struct {
	// Name is the topic name.
	Name string
	// TopicID is the new topic's ID (zero for ValidateOnly or failures).
	TopicID gregor.TopicID
	// Partitions and ReplicationFactor are what the controller chose or
	// validated, -1 when unknown.
	Partitions int32
	// ReplicationFactor is the replica count per partition (-1: broker default).
	ReplicationFactor int16
	// Err is nil on success, else the Kafka error (e.g. wire.ErrTopicAlreadyExists,
	// wire.ErrInvalidPartitions, wire.ErrInvalidReplicationFactor), possibly
	// wrapped in *BrokerError, or the failure that ended the retries.
	Err error
}

// CreateTopics creates topics (CreateTopics v2-7, sent to any broker, which
// forwards to the KRaft controller) and returns one result per topic in
// request order. Per-topic retriable errors (e.g. NOT_CONTROLLER, quota
// throttling) are retried within ctx. The returned error is non-nil only for
// an operation-wide failure (or ErrVisibilityTimeout with WaitVisible).
func (a *Admin) CreateTopics(ctx context.Context, topics []NewTopic, opts TopicOptions) ([]CreateTopicResult, error) {
	out := make([]CreateTopicResult, len(topics))
	for i, t := range topics {
		out[i] = CreateTopicResult{Name: t.Name, Partitions: -1, ReplicationFactor: -1}
	}
	return runTopicOp(ctx, a, out, topicOp{
		n: len(topics),
		request: func(ctx context.Context, idx []int) wire.Request {
			req := &wire.CreateTopicsRequest{TimeoutMs: timeoutMs(ctx, 30*time.Second), ValidateOnly: opts.ValidateOnly}
			for _, i := range idx {
				req.Topics = append(req.Topics, createTopicsTopic(topics[i]))
			}
			return req
		},
		answer: func(resp wire.Response, i int) (error, func(error)) {
			r := lastAnswerFor(resp.(*wire.CreateTopicsResponse).Topics, func(r *wire.CreateTopicsTopicResult) bool { return r.Name == topics[i].Name })
			if r == nil {
				return errors.New("admin: broker returned no result for topic " + topics[i].Name), func(err error) { out[i].Err = err }
			}
			return codeErr(r.ErrorCode, r.ErrorMessage), func(err error) {
				out[i].TopicID, out[i].Partitions, out[i].ReplicationFactor, out[i].Err = r.TopicID, r.NumPartitions, r.ReplicationFactor, err
			}
		},
		retryUnknown: true,
		fail:         func(i int, err error) { out[i].Err = err },
		waitVisible:  opts.WaitVisible && !opts.ValidateOnly,
		visible: func(i int) (string, int32, bool) {
			r := out[i]
			return r.Name, max(r.Partitions, int32(len(topics[i].Assignments)), 0), r.Err == nil
		},
	})
}

// createTopicsTopic is t as one topic of a CreateTopics request (configs
// sorted by name, so the request bytes are deterministic).
func createTopicsTopic(t NewTopic) wire.CreateTopicsTopic {
	ct := wire.CreateTopicsTopic{Name: t.Name, NumPartitions: t.Partitions, ReplicationFactor: t.ReplicationFactor}
	if ct.NumPartitions == 0 {
		ct.NumPartitions = -1 // the broker's num.partitions
	}
	if ct.ReplicationFactor == 0 {
		ct.ReplicationFactor = -1 // the broker's default.replication.factor
	}
	if len(t.Assignments) > 0 {
		ct.NumPartitions, ct.ReplicationFactor = -1, -1
		for p, brokers := range t.Assignments {
			ct.Assignments = append(ct.Assignments, wire.CreateTopicsAssignment{PartitionIndex: int32(p), BrokerIDs: brokers})
		}
	}
	keys := make([]string, 0, len(t.Configs))
	for k := range t.Configs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := t.Configs[k]
		ct.Configs = append(ct.Configs, wire.CreateTopicsConfig{Name: k, Value: &v})
	}
	return ct
}

// topicOp is one of the topic batch calls (CreateTopics, CreatePartitions,
// DeleteTopics) as runTopicOp drives it: n topics by index, sent to any
// broker, retried per topic.
type topicOp struct {
	// n is the number of topics.
	n int
	// request builds the request for the topics idx (the ones still open).
	request func(ctx context.Context, idx []int) wire.Request
	// answer finds topic i's answer in resp: its error (nil: success; a
	// plain error when the broker left the topic out) and the function
	// that records the final outcome with that error.
	answer func(resp wire.Response, i int) (error, func(error))
	// retryUnknown keeps UNKNOWN_TOPIC_OR_PARTITION retriable (only
	// CreateTopics); the other calls report it at once.
	retryUnknown bool
	// fail records a final failure that ended topic i's retries.
	fail func(i int, err error)
	// waitVisible asks for visible's topics to show in every broker's
	// metadata (see Admin.waitVisible) after the results are in.
	waitVisible bool
	// visible tells whether topic i (by its final result) is waited for,
	// under which name, and what metadata must show (see waitVisible).
	visible func(i int) (name string, want int32, ok bool)
}

// runTopicOp runs op and returns out, which op's closures fill, or nil and
// the operation-wide failure when every topic failed on one.
// REQUEST_TIMED_OUT is never retried per topic: the controller may still
// apply the change, so it is reported as the topic's result.
func runTopicOp[R any](ctx context.Context, a *Admin, out []R, op topicOp) ([]R, error) {
	opErr := a.runAnyBroker(ctx, anyBrokerPlan{
		resources: op.n,
		send: func(ctx context.Context, idx []int) (map[int]error, error) {
			resp, err := a.cl.Request(ctx, client.AnyBroker, op.request(ctx, idx))
			if err != nil {
				return nil, err
			}
			retry := map[int]error{}
			for _, i := range idx {
				err, record := op.answer(resp, i)
				if err != nil && wire.Retriable(err) && !errors.Is(err, wire.ErrRequestTimedOut) && (op.retryUnknown || !isUnknownTopic(err)) {
					retry[i] = err
					continue
				}
				record(err)
			}
			return retry, nil
		},
		fail: op.fail,
	})
	if opErr != nil {
		return nil, opErr
	}
	if op.waitVisible {
		want := map[string]int32{}
		for i := range op.n {
			if name, n, ok := op.visible(i); ok {
				want[name] = n
			}
		}
		if err := a.waitVisible(ctx, want); err != nil {
			return out, err
		}
	}
	return out, nil
}

// anyBrokerPlan is an operation on resources 0..n-1 sent in one request to
// any broker (which forwards it to the controller): topics, ACLs, quotas,
// features, elections, reassignments. runAnyBroker carries it out.
type anyBrokerPlan struct {
	// resources is the number of resources.
	resources int
	// send sends the resources idx and records their results; it returns
	// those to retry with their errors, or a whole-request failure.
	send func(ctx context.Context, idx []int) (retry map[int]error, err error)
	// idempotent allows resending after a request that may have reached
	// the broker.
	idempotent bool
	// fail records the final failure of resource i.
	fail func(i int, err error)
}

// runAnyBroker runs p with per-resource retry (runPlan, every resource
// routed to any broker). A whole-request failure that cannot be retried
// fails the remaining resources when some already have results, and is
// returned as the operation's error when none do.
func (a *Admin) runAnyBroker(ctx context.Context, p anyBrokerPlan) error {
	var opErr error
	failed := 0
	a.runPlan(ctx, resourcePlan{
		resources:  p.resources,
		idempotent: p.idempotent,
		route:      func(context.Context, int) (int32, error) { return client.AnyBroker, nil },
		send:       func(ctx context.Context, _ int32, idx []int) (map[int]error, error) { return p.send(ctx, idx) },
		fail:       func(i int, err error) { failed++; opErr = err; p.fail(i, err) },
	})
	if failed == p.resources && p.resources > 0 {
		return opErr
	}
	return nil
}

// PartitionsIncrease raises a topic's partition count.
type PartitionsIncrease struct {
	// Topic is the topic name.
	Topic string
	// TotalCount is the new total number of partitions.
	TotalCount int32
	// Assignments optionally places each new partition (one entry per new
	// partition, replica broker IDs, preferred leader first).
	Assignments [][]int32
}

// TopicResult is the outcome of a topic operation for one topic.
type TopicResult struct {
	// Name is the topic name.
	Name string
	// TopicID is set for DeleteTopics by ID (and by name when known).
	TopicID gregor.TopicID
	// Err is nil on success, else the Kafka error (possibly in *BrokerError)
	// or the failure that ended the retries.
	Err error
}

// CreatePartitions raises partition counts (CreatePartitions v0-3, any
// broker) and returns one result per topic in request order
// (wire.ErrInvalidPartitions when the count does not grow,
// wire.ErrUnknownTopicOrPartition for a missing topic).
func (a *Admin) CreatePartitions(ctx context.Context, incs []PartitionsIncrease, opts TopicOptions) ([]TopicResult, error) {
	out := make([]TopicResult, len(incs))
	for i, in := range incs {
		out[i].Name = in.Topic
	}
	return runTopicOp(ctx, a, out, topicOp{
		n: len(incs),
		request: func(ctx context.Context, idx []int) wire.Request {
			req := &wire.CreatePartitionsRequest{TimeoutMs: timeoutMs(ctx, 30*time.Second), ValidateOnly: opts.ValidateOnly}
			for _, i := range idx {
				t := wire.CreatePartitionsTopic{Name: incs[i].Topic, Count: incs[i].TotalCount}
				for _, b := range incs[i].Assignments {
					t.Assignments = append(t.Assignments, wire.CreatePartitionsAssignment{BrokerIDs: b})
				}
				req.Topics = append(req.Topics, t)
			}
			return req
		},
		answer: func(resp wire.Response, i int) (error, func(error)) {
			set := func(err error) { out[i].Err = err }
			r := lastAnswerFor(resp.(*wire.CreatePartitionsResponse).Results, func(r *wire.CreatePartitionsTopicResult) bool { return r.Name == incs[i].Topic })
			if r == nil {
				return errors.New("admin: broker returned no result for topic " + incs[i].Topic), set
			}
			return codeErr(r.ErrorCode, r.ErrorMessage), set
		},
		fail:        func(i int, err error) { out[i].Err = err },
		waitVisible: opts.WaitVisible && !opts.ValidateOnly,
		visible:     func(i int) (string, int32, bool) { return out[i].Name, incs[i].TotalCount, out[i].Err == nil },
	})
}

// TopicRef names a topic by name or, when Name is empty, by ID.
type TopicRef struct {
	// Name is the topic name.
	Name string
	// ID is the topic ID (zero when unknown).
	ID gregor.TopicID
}

// DeleteTopics deletes topics by name or ID (DeleteTopics v1-6, any broker)
// and returns one result per topic in request order
// (wire.ErrUnknownTopicOrPartition / wire.ErrUnknownTopicID for a missing
// topic). With WaitVisible it waits until no broker's metadata shows the
// deleted topics.
func (a *Admin) DeleteTopics(ctx context.Context, topics []TopicRef, opts TopicOptions) ([]TopicResult, error) {
	out := make([]TopicResult, len(topics))
	for i, t := range topics {
		out[i] = TopicResult{Name: t.Name, TopicID: t.ID}
	}
	return runTopicOp(ctx, a, out, topicOp{
		n: len(topics),
		request: func(ctx context.Context, idx []int) wire.Request {
			req := &wire.DeleteTopicsRequest{TimeoutMs: timeoutMs(ctx, 30*time.Second)}
			for _, i := range idx {
				t := topics[i]
				dt := wire.DeleteTopicsTopic{TopicID: t.ID}
				if t.Name != "" {
					dt.Name = &t.Name
					dt.TopicID = wire.UUID{}
					req.TopicNames = append(req.TopicNames, t.Name) // v1-5
				}
				req.Topics = append(req.Topics, dt) // v6+
			}
			return req
		},
		answer: func(resp wire.Response, i int) (error, func(error)) {
			t := topics[i]
			r := answerFor(resp.(*wire.DeleteTopicsResponse).Responses, func(r *wire.DeleteTopicsTopicResult) bool {
				return (t.Name != "" && r.Name != nil && *r.Name == t.Name) || (t.Name == "" && r.TopicID == t.ID)
			})
			if r == nil {
				return errors.New("admin: broker returned no result for the topic"), func(err error) { out[i].Err = err }
			}
			return codeErr(r.ErrorCode, r.ErrorMessage), func(err error) {
				if r.Name != nil {
					out[i].Name = *r.Name
				}
				if !r.TopicID.IsZero() {
					out[i].TopicID = r.TopicID
				}
				out[i].Err = err
			}
		},
		fail:        func(i int, err error) { out[i].Err = err },
		waitVisible: opts.WaitVisible,
		visible:     func(i int) (string, int32, bool) { return out[i].Name, -1, out[i].Err == nil && out[i].Name != "" }, // gone
	})
}

// PartitionDescription describes one partition of a topic.
type PartitionDescription struct {
	// Partition is the partition index.
	Partition int32
	// Leader is the leader's broker ID, -1 when there is none.
	Leader int32
	// LeaderEpoch is the partition leader's epoch (-1 unknown).
	LeaderEpoch int32
	// Replicas are the replica broker IDs, preferred leader first.
	Replicas []int32
	// ISR are the in-sync replicas.
	ISR []int32
	// Offline are the replicas on offline log directories.
	Offline []int32
	// ELR are the eligible leader replicas (KIP-966; DescribeTopicPartitions
	// only), nil when unknown.
	ELR []int32
	// LastKnownELR is the last known ELR (KIP-966; DescribeTopicPartitions
	// only), nil when unknown.
	LastKnownELR []int32
	// Err is the partition's error from metadata (e.g. LEADER_NOT_AVAILABLE), or nil.
	Err error
}

// TopicDescription describes one topic.
type TopicDescription struct {
	// Name is the topic name.
	Name string
	// ID is the topic ID (zero when unknown).
	ID gregor.TopicID
	// Internal marks Kafka's internal topics (__consumer_offsets, ...).
	Internal bool
	// Partitions are sorted by partition index.
	Partitions []PartitionDescription
	// Err is nil, wire.ErrUnknownTopicOrPartition for a missing topic, or
	// another topic-level error (e.g. TOPIC_AUTHORIZATION_FAILED).
	Err error
}

// DescribeTopics reads fresh metadata (a Metadata request to any broker,
// never the client's cache, auto-creation off) for the named topics and
// returns one description per topic in request order. A topic whose leader
// election is still in progress (LEADER_NOT_AVAILABLE) is retried within ctx.
func (a *Admin) DescribeTopics(ctx context.Context, topics []string) ([]TopicDescription, error) {
	out := make([]TopicDescription, len(topics))
	for i, t := range topics {
		out[i].Name = t
	}
	opErr := a.runAnyBroker(ctx, anyBrokerPlan{
		resources: len(topics),
		send: func(ctx context.Context, idx []int) (map[int]error, error) {
			names := make([]string, len(idx))
			for k, i := range idx {
				names[k] = topics[i]
			}
			md, err := a.metadataFrom(ctx, client.AnyBroker, names)
			if err != nil {
				return nil, err
			}
			retry := map[int]error{}
			for _, i := range idx {
				mt := md.topic(topics[i])
				if mt == nil {
					out[i].Err = wire.ErrUnknownTopicOrPartition
					continue
				}
				d := describeTopic(mt)
				if d.Err != nil && retriableResource(d.Err) {
					retry[i] = d.Err
					continue
				}
				out[i] = d
			}
			return retry, nil
		},
		idempotent: true,
		fail:       func(i int, err error) { out[i].Err = err },
	})
	if opErr != nil {
		return nil, opErr
	}
	return out, nil
}

// TopicListing is one topic of ListTopics.
type TopicListing struct {
	// Name is the topic name.
	Name string
	// ID is the topic ID (zero when unknown).
	ID gregor.TopicID
	// Internal marks Kafka's internal topics (__consumer_offsets, ...).
	Internal bool
	// Partitions is the partition count.
	Partitions int
}

// ListTopics lists the cluster's topics sorted by name (byte-wise), from
// fresh metadata of any broker. Internal topics (__consumer_offsets,
// __transaction_state, ...) are included only when includeInternal is true.
func (a *Admin) ListTopics(ctx context.Context, includeInternal bool) ([]TopicListing, error) {
	for try := 0; ; try++ {
		md, err := a.metadataFrom(ctx, client.AnyBroker, nil)
		if err != nil {
			if transient(ctx, err, true) && a.wait(ctx, try) {
				continue
			}
			return nil, err
		}
		var out []TopicListing
		for i := range md.resp.Topics {
			t := &md.resp.Topics[i]
			if t.Name == nil || t.ErrorCode != 0 || (t.IsInternal && !includeInternal) {
				continue
			}
			out = append(out, TopicListing{Name: *t.Name, ID: t.TopicID, Internal: t.IsInternal, Partitions: len(t.Partitions)})
		}
		slices.SortFunc(out, func(x, y TopicListing) int {
			if x.Name < y.Name {
				return -1
			}
			if x.Name > y.Name {
				return 1
			}
			return 0
		})
		return out, nil
	}
}
