package consumer

import (
	"errors"
	"slices"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// topicGoneBackoff is how long a partition whose topic metadata no longer
// lists waits before metadata is asked again: a deleted topic may come back
// (recreated), but not in a tight loop of UNKNOWN_TOPIC_ID answers.
const topicGoneBackoff = time.Second

// topicIDChanged reports whether metadata tm shows that the topic of
// candidate cd, whose position belongs to topic ID cd.known, was deleted
// (not listed, UNKNOWN_TOPIC_OR_PARTITION) or recreated (another ID). A
// partition without a known ID yet, metadata without IDs, or metadata
// naming the ID the partition left on a recreation (a stale broker's view)
// changes nothing.
func topicIDChanged(cd candidate, tm *client.TopicMetadata) bool {
	if cd.known.IsZero() {
		return false
	}
	if tm == nil || errors.Is(tm.Err, wire.ErrUnknownTopicOrPartition) {
		return true
	}
	return tm.Err == nil && !tm.ID.IsZero() && tm.ID != cd.known && tm.ID != cd.retired
}

// topicIDsChanged applies what topicIDChanged found (KAFKA-12257,
// DESIGN.md: positions belong to a topic ID) to every assigned partition
// of the topic under the old ID, so one *TopicIDChangedError per topic and
// change names them all (reported once by Receive). A recreated topic's
// partition drops what it buffered and any Fetch in flight (new gen),
// leaves its fetch sessions (the next Fetch names the new ID, which
// forgets the old one), loses its leader epochs and restarts under
// OffsetReset, or stops under ResetNone or when the new topic lacks it; a
// deleted topic's partition waits topicGoneBackoff between metadata
// checks. It returns when a waiting partition may be checked again (zero:
// none waits).
func (c *Consumer) topicIDsChanged(cds []candidate, md *client.Metadata, now time.Time) time.Time {
	var again time.Time
	var notes []*TopicIDChangedError
	note := func(tp gregor.TopicPartition, old, id wire.UUID, stopped bool) {
		for _, n := range notes {
			if n.Topic == tp.Topic && n.NewID == id && n.Stopped == stopped {
				n.Partitions = append(n.Partitions, tp.Partition)
				return
			}
		}
		notes = append(notes, &TopicIDChangedError{Topic: tp.Topic, Partitions: []int32{tp.Partition}, OldID: old, NewID: id, Stopped: stopped})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cd := range cds {
		if st := c.parts[cd.tp]; st == nil || st.gen != cd.gen || st.topicID != cd.known {
			continue // changed since the snapshot, or applied with its topic
		}
		var id wire.UUID
		tm := md.Topics[cd.tp.Topic]
		if tm != nil && tm.Err == nil {
			id = tm.ID
		}
		for _, tp := range c.order {
			st := c.parts[tp]
			if tp.Topic != cd.tp.Topic || st.topicID != cd.known {
				continue
			}
			if id.IsZero() {
				if !st.gone {
					st.gone = true
					note(tp, cd.known, id, false)
				}
				st.backoff = now.Add(topicGoneBackoff)
				again = st.backoff
				continue
			}
			// Recreated: nothing of the old incarnation carries over.
			c.gen++
			c.buffered -= st.reposition(c.gen, st.offset)
			st.gone, st.leaderEpoch, st.hint = false, -1, nil
			st.replica.clear() // the old incarnation's follower choice too (KIP-392)
			// ResetNone, or a partition the new topic lacks (fewer
			// partitions): stopped until a Seek or reassignment, its
			// position still the old ID's (never committed under the new).
			stopped := c.cfg.OffsetReset == ResetNone || findPartition(tm, tp.Partition) == nil
			if stopped {
				st.stop(nil)
			} else {
				st.topicID, st.retiredID = id, cd.known
				st.startReset()
			}
			note(tp, cd.known, id, stopped)
		}
	}
	for _, n := range notes {
		slices.Sort(n.Partitions)
		c.notices = append(c.notices, n)
		c.logger().Info("gregor: topic ID changed", "topic", n.Topic, "partitions", n.Partitions, "topic_id", n.NewID.String(), "was", n.OldID.String(), "stopped", n.Stopped)
	}
	// The next look (at once for a reset, after topicGoneBackoff for a
	// deleted topic) asks the brokers again.
	c.m.MetadataRefreshes++
	c.cl.InvalidateMetadata()
	if len(notes) > 0 {
		c.progressedLocked()
		c.signalLocked()
		c.poke()
	}
	return again
}

// topicIDsOf returns the topic IDs the positions of tps belong to (zero:
// not known yet; absent: not assigned). Without gone, partitions whose
// topic's deletion the consumer already reported are left out.
func (c *Consumer) topicIDsOf(tps []gregor.TopicPartition, gone bool) map[gregor.TopicPartition]wire.UUID {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[gregor.TopicPartition]wire.UUID, len(tps))
	for _, tp := range tps {
		if st := c.parts[tp]; st != nil && (gone || !st.gone) {
			out[tp] = st.topicID
		}
	}
	return out
}
