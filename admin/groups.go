package admin

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// coordRoute routes resource i to the coordinator of group(i).
func (a *Admin) coordRoute(group func(i int) string) routeFunc {
	return func(ctx context.Context, i int) (int32, error) {
		return a.cl.Coordinator(ctx, client.CoordinatorGroup, group(i))
	}
}

// coordRetry reports whether a group-level error is cured by finding the
// coordinator again (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE: the cached
// coordinator is forgotten) or by waiting (COORDINATOR_LOAD_IN_PROGRESS).
func (a *Admin) coordRetry(group string, err error) bool {
	switch {
	case client.StaleCoordinator(err):
		a.cl.InvalidateCoordinator(client.CoordinatorGroup, group)
		return true
	case errors.Is(err, wire.ErrCoordinatorLoadInProgress):
		return true
	}
	return false
}

// forgetCoordinators is the onSendErr hook of group operations: after a
// failed request the coordinator may have moved.
func (a *Admin) forgetCoordinators(group func(i int) string) func(int32, []int) {
	return func(_ int32, idx []int) {
		for _, i := range idx {
			a.cl.InvalidateCoordinator(client.CoordinatorGroup, group(i))
		}
	}
}

// ListedGroup is one group of ListGroups.
type ListedGroup struct {
	// GroupID is the group ID.
	GroupID string
	// ProtocolType is "consumer" for consumer groups (classic or KIP-848),
	// "" for an empty classic group without members ever, others for
	// Connect and the like.
	ProtocolType string
	// State is the state name (e.g. "Empty", "Stable"; "" from old brokers).
	State string
	// Type is "classic", "consumer", "share" or "streams" ("" from old brokers).
	Type string
	// Coordinator is the broker that listed the group.
	Coordinator int32
}

// BrokerOutcome is the outcome of asking one broker.
type BrokerOutcome struct {
	// Broker is the broker (node) ID asked.
	Broker int32
	// Err is nil, or the Kafka error the broker answered (e.g.
	// COORDINATOR_LOAD_IN_PROGRESS until the deadline), or the failure
	// that ended the retries.
	Err error
}

// GroupListing is the result of ListGroups.
type GroupListing struct {
	// Groups are sorted by GroupID.
	Groups []ListedGroup
	// Brokers holds one outcome per broker asked, sorted by broker ID.
	Brokers []BrokerOutcome
}

// Failed returns the brokers whose listing failed.
func (l *GroupListing) Failed() []BrokerOutcome {
	var out []BrokerOutcome
	for _, b := range l.Brokers {
		if b.Err != nil {
			out = append(out, b)
		}
	}
	return out
}

// ListGroupsOptions filters ListGroups.
type ListGroupsOptions struct {
	// States keeps groups in these states (ListGroups v4+), e.g. "Stable".
	// A broker without v4 is not asked: its outcome is
	// gregor.ErrUnsupportedFeature (it would list groups in every state).
	States []string
	// Types keeps groups of these types (ListGroups v5+, Kafka 4.0+), e.g.
	// "classic", "consumer"; a broker without v5 is not asked and its
	// outcome is gregor.ErrUnsupportedFeature.
	Types []string
	// ConsumerOnly keeps only consumer groups: type "consumer", or type
	// "classic" with protocol type "consumer" or "" (what Kafka's
	// listConsumerGroups returns). It works on every release: before
	// ListGroups v5 (no group types) it filters on the protocol type.
	ConsumerOnly bool
}

// ListGroups asks every broker for the groups it coordinates (ListGroups
// v0-5) and returns them sorted with one outcome per broker; a broker that
// fails does not fail the listing (see GroupListing.Brokers). The error is
// non-nil only when the broker list cannot be read.
func (a *Admin) ListGroups(ctx context.Context, opts ListGroupsOptions) (*GroupListing, error) {
	ids, err := a.brokerIDs(ctx)
	if err != nil {
		return nil, err
	}
	out := &GroupListing{Brokers: make([]BrokerOutcome, len(ids))}
	for i, id := range ids {
		out.Brokers[i].Broker = id
	}
	types := opts.Types
	hinted := opts.ConsumerOnly && types == nil // the filter below does the same
	if hinted {
		types = []string{"classic", "consumer"}
	}
	route := func(_ context.Context, i int) (int32, error) { return ids[i], nil }
	send := func(ctx context.Context, broker int32, idx []int) (map[int]error, error) {
		resp, err := a.cl.Request(ctx, broker, &wire.ListGroupsRequest{StatesFilter: opts.States, TypesFilter: types})
		if hinted && errors.Is(err, gregor.ErrUnsupportedFeature) && client.CertaintyOf(err) == client.NotSent {
			// Before ListGroups v5 (Kafka 4.0) there are no group types:
			// ConsumerOnly filters on the protocol type alone.
			resp, err = a.cl.Request(ctx, broker, &wire.ListGroupsRequest{StatesFilter: opts.States})
		}
		if err != nil {
			return nil, err
		}
		r := resp.(*wire.ListGroupsResponse)
		if err := wire.ErrorForCode(r.ErrorCode); err != nil {
			if wire.Retriable(err) {
				return map[int]error{idx[0]: err}, nil
			}
			out.Brokers[idx[0]].Err = err
			return nil, nil
		}
		for _, g := range r.Groups {
			if opts.ConsumerOnly && !(g.GroupType == "consumer" || g.ProtocolType == "consumer" || (g.ProtocolType == "" && g.GroupType != "share" && g.GroupType != "streams")) {
				continue
			}
			out.Groups = append(out.Groups, ListedGroup{GroupID: g.GroupID, ProtocolType: g.ProtocolType, State: g.GroupState, Type: g.GroupType, Coordinator: broker})
		}
		return nil, nil
	}
	a.runPlan(ctx, resourcePlan{
		resources:  len(ids),
		idempotent: true,
		route:      route,
		send:       send,
		fail:       func(i int, err error) { out.Brokers[i].Err = err },
	})
	slices.SortFunc(out.Groups, func(x, y ListedGroup) int { return strings.Compare(x.GroupID, y.GroupID) })
	return out, nil
}

// GroupMember is one member of a described group.
type GroupMember struct {
	// MemberID is the member ID the coordinator assigned.
	MemberID string
	// InstanceID is the static member ID (group.instance.id), or nil.
	InstanceID *string
	// ClientID is the member's client.id.
	ClientID string
	// ClientHost is the member's host as the broker saw it.
	ClientHost string
	// MemberEpoch is the KIP-848 member epoch; -1 for classic members.
	MemberEpoch int32
	// Assignment is the member's assigned partitions (consumer-protocol
	// groups only; classic assignments are in AssignmentBytes).
	Assignment []gregor.TopicPartition
	// TargetAssignment is the partitions the coordinator's target
	// assignment gives the member (consumer-protocol groups only): equal
	// to Assignment once the member has reconciled.
	TargetAssignment []gregor.TopicPartition
	// Metadata and AssignmentBytes are the classic protocol's raw member
	// metadata and assignment (only in the Stable state).
	Metadata []byte
	// AssignmentBytes is the raw classic assignment.
	AssignmentBytes []byte
}

// GroupDescription describes one group.
type GroupDescription struct {
	// GroupID is the group ID.
	GroupID string
	// Type is "classic" (DescribeGroups) or "consumer" (ConsumerGroupDescribe).
	Type string
	// State is the state name ("Empty", "Stable", "Dead", ... for classic;
	// "empty", "assigning", "reconciling", "stable" for consumer groups).
	State string
	// ProtocolType is the classic protocol type ("consumer"); "consumer"
	// for consumer-protocol groups.
	ProtocolType string
	// Protocol is the classic chosen protocol (assignor) or the consumer
	// group's assignor name.
	Protocol string
	// Epoch is the consumer group epoch, -1 for classic groups.
	Epoch int32
	// AssignmentEpoch is the epoch of the consumer group's target
	// assignment (KIP-848), -1 for classic groups.
	AssignmentEpoch int32
	// Coordinator is the broker that answered.
	Coordinator int32
	// Members are the group's members.
	Members []GroupMember
	// Err is nil, wire.ErrGroupIDNotFound for a missing group (brokers
	// before DescribeGroups v6 instead answer State "Dead" with no
	// members), another Kafka error, or the failure that ended the retries.
	Err error
}

// DescribeGroups describes classic groups (DescribeGroups v0-6, one request
// per coordinator) and returns one description per group in request order.
func (a *Admin) DescribeGroups(ctx context.Context, groups []string) ([]GroupDescription, error) {
	out := make([]GroupDescription, len(groups))
	for i, g := range groups {
		out[i] = GroupDescription{GroupID: g, Type: "classic", Epoch: -1, AssignmentEpoch: -1, Coordinator: -1}
	}
	runGroupCall(ctx, a, groups, groupCall[wire.DescribeGroupsGroup]{
		request: func(ids []string) wire.Request { return &wire.DescribeGroupsRequest{Groups: ids} },
		answers: func(r wire.Response) []wire.DescribeGroupsGroup { return r.(*wire.DescribeGroupsResponse).Groups },
		id:      func(r *wire.DescribeGroupsGroup) string { return r.GroupID },
		code:    func(r *wire.DescribeGroupsGroup) (int16, *string) { return r.ErrorCode, r.ErrorMessage },
		ok: func(i int, broker int32, r *wire.DescribeGroupsGroup) {
			d := &out[i]
			d.State, d.ProtocolType, d.Protocol, d.Coordinator = r.GroupState, r.ProtocolType, r.ProtocolData, broker
			d.Members = make([]GroupMember, 0, len(r.Members))
			for _, m := range r.Members {
				d.Members = append(d.Members, GroupMember{MemberID: m.MemberID, InstanceID: m.GroupInstanceID, ClientID: m.ClientID,
					ClientHost: m.ClientHost, MemberEpoch: -1, Metadata: clone(m.MemberMetadata), AssignmentBytes: clone(m.MemberAssignment)})
			}
		},
		idempotent: true,
	}, func(i int, err error) { out[i].Err = err })
	return out, nil
}

// describedTPs lists a ConsumerGroupDescribe assignment's partitions by
// topic name.
func describedTPs(a wire.ConsumerGroupDescribeAssignment) []gregor.TopicPartition {
	var out []gregor.TopicPartition
	for _, tp := range a.TopicPartitions {
		for _, p := range tp.Partitions {
			out = append(out, gregor.TopicPartition{Topic: tp.TopicName, Partition: p})
		}
	}
	return out
}

// DescribeConsumerGroups describes consumer groups of either protocol: it
// asks ConsumerGroupDescribe (KIP-848) first and describes with
// DescribeGroups the groups that are not consumer-protocol groups (or all,
// when the broker lacks ConsumerGroupDescribe). One description per group in
// request order; a missing group has Err wire.ErrGroupIDNotFound.
func (a *Admin) DescribeConsumerGroups(ctx context.Context, groups []string) ([]GroupDescription, error) {
	out := make([]GroupDescription, len(groups))
	classic := make([]bool, len(groups))
	for i, g := range groups {
		out[i] = GroupDescription{GroupID: g, Type: "consumer", Epoch: -1, AssignmentEpoch: -1, Coordinator: -1}
	}
	runGroupCall(ctx, a, groups, groupCall[wire.ConsumerGroupDescribeGroup]{
		request: func(ids []string) wire.Request { return &wire.ConsumerGroupDescribeRequest{GroupIDs: ids} },
		answers: func(r wire.Response) []wire.ConsumerGroupDescribeGroup {
			return r.(*wire.ConsumerGroupDescribeResponse).Groups
		},
		id:   func(r *wire.ConsumerGroupDescribeGroup) string { return r.GroupID },
		code: func(r *wire.ConsumerGroupDescribeGroup) (int16, *string) { return r.ErrorCode, r.ErrorMessage },
		ok: func(i int, broker int32, r *wire.ConsumerGroupDescribeGroup) {
			d := &out[i]
			d.State, d.ProtocolType, d.Protocol, d.Epoch, d.Coordinator = r.GroupState, "consumer", r.AssignorName, r.GroupEpoch, broker
			d.Members = make([]GroupMember, 0, len(r.Members))
			d.AssignmentEpoch = r.AssignmentEpoch
			for _, m := range r.Members {
				d.Members = append(d.Members, GroupMember{MemberID: m.MemberID, InstanceID: m.InstanceID, ClientID: m.ClientID, ClientHost: m.ClientHost,
					MemberEpoch: m.MemberEpoch, Assignment: describedTPs(m.Assignment), TargetAssignment: describedTPs(m.TargetAssignment)})
			}
		},
		// Not a consumer-protocol group (maybe classic), or a broker
		// without ConsumerGroupDescribe: DescribeGroups below.
		handled: func(i int, err error) bool {
			classic[i] = errors.Is(err, wire.ErrGroupIDNotFound) || errors.Is(err, wire.ErrUnsupportedVersion)
			return classic[i]
		},
		requestErr: func(idx []int, err error) bool {
			if !errors.Is(err, client.ErrUnsupportedVersion) {
				return false
			}
			for _, i := range idx {
				classic[i] = true
			}
			return true
		},
		idempotent: true,
	}, func(i int, err error) { out[i].Err = err })
	var rest []string
	var at []int
	for i := range groups {
		if classic[i] {
			rest, at = append(rest, groups[i]), append(at, i)
		}
	}
	if len(rest) > 0 {
		cd, err := a.DescribeGroups(ctx, rest)
		if err != nil {
			return nil, err
		}
		for k, i := range at {
			out[i] = cd[k]
		}
	}
	return out, nil
}

// GroupResult is the outcome of a group operation for one group.
type GroupResult struct {
	// GroupID is the group ID.
	GroupID string
	// Err is nil, wire.ErrNonEmptyGroup (the group has members),
	// wire.ErrGroupIDNotFound, another Kafka error, or the failure that
	// ended the retries.
	Err error
}

// DeleteGroups deletes groups (DeleteGroups v0-3, one request per
// coordinator) and returns one result per group in request order. Only
// empty groups can be deleted.
func (a *Admin) DeleteGroups(ctx context.Context, groups []string) ([]GroupResult, error) {
	out := make([]GroupResult, len(groups))
	for i, g := range groups {
		out[i].GroupID = g
	}
	runGroupCall(ctx, a, groups, groupCall[wire.DeleteGroupsResult]{
		request: func(ids []string) wire.Request { return &wire.DeleteGroupsRequest{GroupsNames: ids} },
		answers: func(r wire.Response) []wire.DeleteGroupsResult { return r.(*wire.DeleteGroupsResponse).Results },
		id:      func(r *wire.DeleteGroupsResult) string { return r.GroupID },
		code:    func(r *wire.DeleteGroupsResult) (int16, *string) { return r.ErrorCode, r.ErrorMessage },
		ok:      func(int, int32, *wire.DeleteGroupsResult) {},
		// Not idempotent: a resent delete of a deleted group answers
		// GROUP_ID_NOT_FOUND.
	}, func(i int, err error) { out[i].Err = err })
	return out, nil
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}
