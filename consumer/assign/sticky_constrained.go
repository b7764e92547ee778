package assign

import "sort"

// constrained is AbstractStickyAssignor's ConstrainedAssignmentBuilder,
// used when every member subscribes to the same topics: members keep up
// to their quota of what they owned, the rest is dealt round robin.
type constrained struct {
	*stickyState
	maybeRevoked map[topicPartition]string
	transferring map[topicPartition]string // partitionsTransferringOwnership

	underMin   []string // unfilledMembersWithUnderMinQuotaPartitions
	exactlyMin []string // unfilledMembersWithExactlyMinQuotaPartitions

	minQuota, maxQuota       int
	expectedOverMin, overMin int

	assignment map[string][]topicPartition
	assigned   []topicPartition
	total      int
}

func newConstrained(st *stickyState) *constrained {
	c := &constrained{stickyState: st, maybeRevoked: map[topicPartition]string{},
		transferring: map[topicPartition]string{}, assignment: make(map[string][]topicPartition, len(st.g.members))}
	c.total = st.g.partitionCount()
	n := len(st.g.members)
	c.minQuota = c.total / n
	c.maxQuota = (c.total + n - 1) / n
	c.expectedOverMin = c.total % n
	c.assigned = make([]topicPartition, 0, c.total)
	for _, m := range st.g.members {
		c.assignment[m.MemberID] = make([]topicPartition, 0, c.maxQuota)
	}
	return c
}

func (c *constrained) build() (map[string][]topicPartition, error) {
	c.assignOwned()
	unassigned := c.unassignedPartitions()
	sort.Slice(c.underMin, func(i, j int) bool { return javaLess(c.underMin[i], c.underMin[j]) })
	sort.Slice(c.exactlyMin, func(i, j int) bool { return javaLess(c.exactlyMin[i], c.exactlyMin[j]) })
	unassigned = c.rack.sortByRackConsumers(unassigned)
	unassigned = c.assignRackAwareRoundRobin(unassigned)
	if err := c.assignRoundRobin(unassigned); err != nil {
		return nil, err
	}
	if err := c.verifyUnfilled(); err != nil {
		return nil, err
	}
	return c.assignment, nil
}

func (c *constrained) assignOwned() {
	for _, m := range c.g.members {
		id := m.MemberID
		owned := make([]topicPartition, 0, len(c.owned[id]))
		for _, tp := range c.owned[id] {
			if c.rack.racksMismatch(id, tp) {
				c.maybeRevoked[tp] = id
				continue
			}
			owned = append(owned, tp)
		}
		sort.SliceStable(owned, func(i, j int) bool {
			if owned[i].partition != owned[j].partition {
				return owned[i].partition < owned[j].partition
			}
			return javaLess(owned[i].topic, owned[j].topic)
		})
		for tp := range c.multipleOwners {
			owned = removeTP(owned, tp)
		}
		switch {
		case len(owned) < c.minQuota:
			c.assignment[id] = append(c.assignment[id], owned...)
			c.assigned = append(c.assigned, owned...)
			c.underMin = append(c.underMin, id)
		case len(owned) >= c.maxQuota && c.overMin < c.expectedOverMin:
			c.overMin++
			if c.overMin == c.expectedOverMin {
				c.exactlyMin = c.exactlyMin[:0]
			}
			c.assignment[id] = append(c.assignment[id], owned[:c.maxQuota]...)
			c.assigned = append(c.assigned, owned[:c.maxQuota]...)
			for _, tp := range owned[c.maxQuota:] {
				c.maybeRevoked[tp] = id
			}
		default:
			c.assignment[id] = append(c.assignment[id], owned[:c.minQuota]...)
			c.assigned = append(c.assigned, owned[:c.minQuota]...)
			for _, tp := range owned[c.minQuota:] {
				c.maybeRevoked[tp] = id
			}
			if c.overMin < c.expectedOverMin {
				c.exactlyMin = append(c.exactlyMin, id)
			}
		}
	}
}

// unassignedPartitions lists, topics in name order, the partitions no
// member kept.
func (c *constrained) unassignedPartitions() []topicPartition {
	kept := make(map[topicPartition]bool, len(c.assigned))
	for _, tp := range c.assigned {
		kept[tp] = true
	}
	out := make([]topicPartition, 0, max(c.total-len(c.assigned), 0))
	for _, tp := range c.g.allPartitions(c.g.sortedTopics()) {
		if !kept[tp] {
			out = append(out, tp)
		}
	}
	return out
}

// assignRackAwareRoundRobin deals partitions to members on a rack with a
// replica, first to those under their minimum quota (circling), then to
// those at it; it returns the partitions it could not place.
func (c *constrained) assignRackAwareRoundRobin(unassigned []topicPartition) []topicPartition {
	if len(c.rack.consumerRacks) == 0 {
		return unassigned
	}
	var left []topicPartition
	next := 0
	for _, tp := range unassigned {
		consumer := ""
		if idx := c.rack.nextRackConsumer(tp, c.underMin, next); idx >= 0 {
			consumer = c.underMin[idx]
			count := len(c.assignment[consumer]) + 1
			if count >= c.minQuota {
				c.underMin = removeString(c.underMin, consumer)
				if count < c.maxQuota && c.overMin < c.expectedOverMin {
					c.exactlyMin = append(c.exactlyMin, consumer)
				}
			} else {
				idx++
			}
			next = 0
			if len(c.underMin) > 0 {
				next = idx % len(c.underMin)
			}
		} else if len(c.exactlyMin) > 0 {
			if first := c.rack.nextRackConsumer(tp, c.exactlyMin, 0); first >= 0 {
				consumer = c.exactlyMin[first]
				if len(c.assignment[consumer])+1 == c.maxQuota {
					c.exactlyMin = append(c.exactlyMin[:first:first], c.exactlyMin[first+1:]...)
					c.overMin++
					if c.overMin == c.expectedOverMin {
						c.exactlyMin = c.exactlyMin[:0]
					}
				}
			}
		}
		if consumer != "" {
			c.assignNew(tp, consumer)
		} else {
			left = append(left, tp)
		}
	}
	return left
}

func (c *constrained) assignRoundRobin(unassigned []topicPartition) error {
	pos := 0 // the iterator over underMin: index of its next member
	for _, tp := range unassigned {
		var consumer string
		fromIter := false
		switch {
		case pos < len(c.underMin):
			consumer, fromIter = c.underMin[pos], true
			pos++
		case len(c.underMin) == 0 && len(c.exactlyMin) == 0:
			return errJavaFails
		case len(c.underMin) == 0:
			consumer = c.exactlyMin[0]
			c.exactlyMin = c.exactlyMin[1:]
		default:
			pos = 0
			consumer, fromIter = c.underMin[pos], true
			pos++
		}
		count := c.assignNew(tp, consumer)
		if count == c.minQuota {
			if !fromIter {
				return errJavaFails // Java's Iterator.remove throws here
			}
			pos--
			c.underMin = append(c.underMin[:pos:pos], c.underMin[pos+1:]...)
			c.exactlyMin = append(c.exactlyMin, consumer)
		} else if count == c.maxQuota {
			c.overMin++
		}
	}
	return nil
}

func (c *constrained) assignNew(tp topicPartition, consumer string) int {
	c.assignment[consumer] = append(c.assignment[consumer], tp)
	if prev, ok := c.maybeRevoked[tp]; (ok && prev != consumer) || c.multipleOwners[tp] {
		c.transferring[tp] = consumer
	}
	return len(c.assignment[consumer])
}

func (c *constrained) verifyUnfilled() error {
	if len(c.underMin) == 0 {
		return nil
	}
	if c.overMin != c.expectedOverMin {
		return errJavaFails
	}
	for _, m := range c.underMin {
		if len(c.assignment[m]) != c.minQuota {
			return errJavaFails
		}
	}
	return nil
}

func removeString(l []string, s string) []string {
	for i, x := range l {
		if x == s {
			return append(l[:i:i], l[i+1:]...)
		}
	}
	return l
}
