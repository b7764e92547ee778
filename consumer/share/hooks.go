package share

import (
	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
)

// hookAssignmentLocked reports the change from c.assigned to assigned to
// the client's AssignmentHooks: one event for the partitions revoked, one
// for those assigned. Called with c.mu held, only when such hooks exist.
func (c *Consumer) hookAssignmentLocked(assigned map[gregor.TopicPartition]struct{}, epoch int32) {
	diff := func(a, b map[gregor.TopicPartition]struct{}) client.TopicPartitions {
		var m client.TopicPartitions
		for tp := range a {
			if _, ok := b[tp]; !ok {
				if m == nil {
					m = client.TopicPartitions{}
				}
				m[tp.Topic] = append(m[tp.Topic], tp.Partition)
			}
		}
		return m
	}
	if m := diff(c.assigned, assigned); m != nil {
		c.hooks.Assignment(client.AssignmentChange{Group: c.cfg.GroupID, MemberID: c.memberID, Generation: c.memberEpoch, Partitions: m})
	}
	if m := diff(assigned, c.assigned); m != nil {
		c.hooks.Assignment(client.AssignmentChange{Group: c.cfg.GroupID, MemberID: c.memberID, Generation: epoch, Assigned: true, Partitions: m})
	}
}
