package admin

import (
	"context"

	"github.com/gregor-kafka/gregor/wire"
)

// MemberResult is the outcome of removing one static member.
type MemberResult struct {
	// InstanceID is the member's group.instance.id.
	InstanceID string
	// Err is nil, wire.ErrUnknownMemberID (no such member in the group),
	// wire.ErrFencedInstanceID, or another Kafka error.
	Err error
}

// RemoveGroupMembers removes static members (KIP-345) from a classic group
// by group instance ID, as Java's removeMembersFromConsumerGroup does:
// one LeaveGroup (v3+, members by instance ID with no member ID) to the
// group's coordinator, which rebalances the group at once instead of
// waiting for the members' session timeouts. It returns one result per
// instance ID in request order. A group-level failure (e.g.
// wire.ErrGroupIDNotFound) is returned as the error.
func (a *Admin) RemoveGroupMembers(ctx context.Context, groupID string, instanceIDs []string) ([]MemberResult, error) {
	out := make([]MemberResult, len(instanceIDs))
	pos := map[string]int{}
	req := &wire.LeaveGroupRequest{GroupID: groupID}
	reason := "member removed by an admin"
	for i, id := range instanceIDs {
		out[i].InstanceID = id
		pos[id] = i
		req.Members = append(req.Members, wire.LeaveGroupMember{GroupInstanceID: &instanceIDs[i], Reason: &reason})
	}
	send := func(ctx context.Context, broker int32) (groupErr, err error) {
		resp, err := a.cl.Request(ctx, broker, req)
		if err != nil {
			return nil, err
		}
		r := resp.(*wire.LeaveGroupResponse)
		if err := wire.ErrorForCode(r.ErrorCode); err != nil {
			return err, nil
		}
		for _, m := range r.Members {
			if m.GroupInstanceID == nil {
				continue
			}
			if i, ok := pos[*m.GroupInstanceID]; ok {
				out[i].Err = wire.ErrorForCode(m.ErrorCode)
			}
		}
		return nil, nil
	}
	if err := a.atCoordinator(ctx, groupID, send); err != nil {
		return nil, err
	}
	return out, nil
}
