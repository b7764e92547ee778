// Package consumer reads records: the group consumer Group (NewGroup) and
// the directly assigned Consumer (New).
//
// # Quick start
//
// A member of group "billing" reading topic "orders" (ExampleNewGroup has
// the whole program):
//
//	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:9092"}})
//	// ... handle err; defer cl.Close(ctx) after the group's Close
//	g, err := consumer.NewGroup(cl, consumer.GroupConfig{GroupID: "billing", Topics: []string{"orders"}})
//	// ... handle err; defer g.Close(ctx)
//	for {
//		recs, err := g.Receive(ctx) // ctx's error, a stopped member, or a notice (TopicIDChangedError)
//		// ... handle err
//		for _, r := range recs {
//			process(r.Topic, r.Partition, r.Offset, r.Key, r.Value)
//		}
//	}
//
// Offsets are committed automatically (GroupConfig.DisableAutoCommit turns
// that off for Commit, CommitDelivered or CommitProcessed). Without a group,
// New and Assign read explicit partitions from a Position (AtBeginning,
// AtEnd, AtOffset; ExampleConsumer_Assign). The assigned consumer reads
// its explicit set of topic-partitions with Fetch sessions (KIP-227),
// follows leaders, filters aborted transactions under read_committed,
// detects truncation with leader epochs (KIP-320), and bounds buffered
// bytes; the group consumer does the same for the partitions the group
// assigns it. The contract follows; how fetching works comes last.
//
// # Positions
//
// Every assigned partition has a position: the next offset Receive
// delivers. Assign, Add and Seek resolve Beginning and End to exact offsets
// with ListOffsets before they return (End is the last stable offset under
// ReadCommitted), so a position is never "pending": what was written after
// the call returned is delivered. Delivered records advance the position
// past the batch headers they came from, so empty batches left by
// compaction, control batches and aborted batches move it forward without
// being delivered. Records below the position (a Fetch returns whole
// batches) are never delivered.
//
// # Delivery
//
// Receive returns the records buffered for unpaused partitions (of each
// partition, the oldest fetched response's), partition by partition in
// offset order, waiting for the first when none is buffered. Null and empty keys, values and header values stay distinct
// (nil vs non-nil empty). The records of one Fetch response are decoded
// into one slice, so records that arrived together are delivered without
// a copy; their keys and values alias the response (or, for compressed
// batches, one decompression buffer per response).
//
// An application that is done with a delivered slice may hand it back with
// Recycle: the slice and the decompression buffer are then reused by later
// fetches, and a steady consumer allocates almost nothing per record
// (none for every codec in the offline benchmark). Without
// Recycle the garbage collector reclaims them. The consumer keeps at most
// 8 recycled blocks, within MaxBufferedBytes (see Memory).
//
// # End of partition and lag
//
// Each Fetch response reports a partition's high watermark and last stable
// offset. Progress returns, per assigned partition, the position (the next
// offset Receive returns), the end (the high watermark, or the last stable
// offset under ReadCommitted; -1 until the first response), the lag (end
// minus position, in offsets) and the records buffered; Progress.AtEnd
// holds once Receive returned every record below the end. WaitEnd blocks
// until the listed partitions are at their ends, so
//
//	go func() { done <- c.WaitEnd(ctx) }() // every assigned partition
//	for { recs, err := c.Receive(ctx); ... }
//
// learns when everything produced before the consumer started has been
// read (the end moves as records are produced; WaitEnd reports the first
// moment all were reached). Group has the same two methods. The client's
// Metrics snapshot (client.PartitionMetrics) carries the same numbers with
// the records and bytes fetched per partition.
//
// # Consumer groups
//
// NewGroup starts a member of a consumer group (GroupConfig.GroupID) that
// subscribes to topics (a list, or a regular expression matched against
// metadata) and fetches the partitions the group assigns it, with the same
// engine, positions and errors as above. The membership protocol is a
// setting (GroupConfig.Protocol), same API for both:
//
//   - "classic": JoinGroup/SyncGroup/Heartbeat with client-side assignors
//     from package assign (Java's names; default range, cooperative-sticky).
//   - "consumer" (KIP-848): ConsumerGroupHeartbeat only; the coordinator
//     assigns (GroupConfig.ServerAssignor: "uniform" or "range"), matches
//     TopicRegex itself and sets the heartbeat interval. The member epoch
//     takes the generation's place in commits, OffsetFetch and
//     GroupMetadata. Fenced (FENCED_MEMBER_EPOCH, UNKNOWN_MEMBER_ID) the
//     member loses its partitions and joins again with epoch 0; a static
//     member leaves with epoch -2 (keeping its assignment for the session).
//   - unset (default): "consumer" when the cluster's finalized
//     group.version feature is 1 or more (Kafka 4.0+ by default), else
//     "classic", chosen once when the member starts. Java's default is
//     classic; set it explicitly to join a group of classic Java members.
//
// A classic group is upgraded online (Kafka 4.x) by restarting its members
// one by one with "consumer"; gregor members of both protocols can share
// the group meanwhile.
//
// Rebalances are eager or cooperative (KIP-429: when every configured
// assignor is cooperative). GroupConfig.OnAssignment sees the changes in
// order, each once: Assigned (after the committed offsets were fetched with
// require_stable; a partition without one starts at OffsetReset, or under
// ResetNone waits paused and Receive reports a *NoCommittedOffsetError), Revoking
// (the partitions are paused; commits of them are accepted until the
// callback returns, at most RebalanceTimeout; with auto-commit they are
// then committed), Lost (fenced or expired: no commit). A partition that
// leaves loses its buffered records and pause state; one that returns
// starts from its committed offset. An OffsetFetch that fails (for
// "consumer" also STALE_MEMBER_EPOCH) leaves the partitions unassigned and
// is retried after the next heartbeat: it never falls back to OffsetReset.
// The consumer protocol acknowledges an assignment only after its
// revocations and additions are done. Classic: the group rejoins when TopicRegex
// matches change or, on the leader, a subscribed topic's partition count
// changes (checked at most every second, on heartbeats).
//
// Commits carry the generation and member ID: Commit (given offsets),
// CommitDelivered (the positions), and the gap-safe CommitProcessed mode
// (MarkProcessed in any order, CommitMarked and auto-commit commit only each
// partition's contiguous processed prefix). A refusal is a *CommitError
// (errors.Is: gregor.ErrRebalanceInProgress, gregor.ErrIllegalGeneration,
// gregor.ErrUnknownMemberID, and for "consumer" gregor.ErrStaleMemberEpoch,
// gregor.ErrFencedMemberEpoch, ...); it never stops fetching or changes the
// assignment by itself. A Group commits only partitions it owns (others get
// ErrNotAssigned in the *CommitError) and never moves a committed offset
// backwards: an offset at or below what it committed (or fetched) for a
// partition is skipped.
//
// Close commits (auto-commit), leaves the group (not a static member,
// GroupConfig.InstanceID, KIP-345) and returns within its context. Give each
// Group its own client.Client: the coordinator holds a JoinGroup for a
// whole rebalance and a broker answers one connection's requests in order,
// so other group requests (the group lane) to that broker from the same client
// wait behind it.
// JoinGroup is bounded by the client's RequestTimeout and retried when it
// expires.
//
// # Deleted and recreated topics
//
// A position belongs to the topic ID it was read under (KIP-516): the ID
// metadata named when the partition was first fetched. When metadata
// shows the topic under another ID (deleted and created again under the
// same name), every assigned partition of it drops what it buffered,
// leaves its fetch sessions and restarts under Config.OffsetReset; under
// ResetNone, and for partitions the new topic does not have, it stops
// until a Seek or a new assignment. When metadata no longer lists the
// topic, its partitions stay assigned and metadata is asked again once a
// second. Either change is reported once by Receive, before any record of
// the new topic, as a *TopicIDChangedError naming the topic and its
// partitions (errors.Is: ErrTopicDeleted, ErrTopicRecreated); it is a
// notice, and the consumer goes on. Partitions added to a topic change
// nothing for the assigned consumer (Add them). A Group refuses to commit
// an offset read under another topic ID than metadata's (the
// *CommitError names the partition with a *TopicIDChangedError), does not
// auto-commit the revoked partitions of a deleted or recreated topic, and
// its Receive reports such a topic once its partitions are revoked.
//
// # Truncation (KIP-320)
//
// Each Fetch carries the partition's current leader epoch (fencing stale
// leaders) and the epoch of the last consumed batch (v12+). When metadata
// names a new leader epoch, the position is first validated with
// OffsetForLeaderEpoch; a diverging epoch in a Fetch response is handled
// the same way. If the leader's log ends that epoch below the position
// (an unclean election truncated it), the position moves back to the
// epoch's end or, with ResetNone, Receive reports a *LogTruncationError.
//
// # Memory
//
// Config.MaxBufferedBytes (default 64 MiB) bounds, in bytes, the memory of
// records fetched and not yet delivered: each response's records field,
// the decompressed bytes of its compressed batches and 112 bytes per
// Record value. A broker bounds max_bytes in compressed bytes, so decoding
// stops at the buffer's room (after at least one batch per response) and
// the rest is fetched again later: the buffer exceeds MaxBufferedBytes by
// at most one batch per leader, and the memory reserved for a response
// (its records slice and decompression buffer) is sized to what that room
// admits, however well the data compresses (a consumer's first compressed
// response, before any ratio is known, may reserve up to twice the room).
// Memory handed back with Recycle is kept for reuse within
// MaxBufferedBytes more (at most 8 blocks); Close releases it.
//
// Delivered records are the application's: the records of one response
// share its records slice and decompression buffer, so a delivered slice
// (or any record, key or value of it still referenced) keeps the whole
// response's memory, up to the room it was decoded into, until it is
// recycled or garbage collected. Hand slices back with Recycle, or copy
// what must outlive the next few Receive calls, to keep what a consumer
// holds within about twice MaxBufferedBytes (buffered and recycled).
//
// # Fetching
//
// Fetch requests are sent in the background: at most one in flight per
// leader, each in that leader's fetch session (full, then incremental:
// only partitions whose fetch position changed are listed). A partition
// is fetched one response ahead of delivery: while its records wait for
// Receive and the log holds more (they end below the high watermark), the
// next Fetch already asks for what follows them, so the round trip
// overlaps the application's processing; a partition with two
// fetched responses undelivered waits for Receive (and is forgotten from
// the session meanwhile). A partition is not fetched while it is paused or
// the buffered bytes reach Config.MaxBufferedBytes, and one Fetch asks
// for at most a quarter of MaxBufferedBytes, so that one response can be
// processed while another waits and the next arrives. Over a link whose
// round trip is long against decoding (tens of milliseconds), the next
// Fetch to a leader goes out as soon as a response of uncompressed
// batches arrives, before it is decoded, from the positions its batch
// headers give (Metrics.EarlyAnswers), so decoding overlaps the next
// round trip; compressed responses are decoded first. When responses come
// full (the leader has more to send) and the network round trip to the
// leader (the client's shortest connection setup, client.Client.RoundTrip)
// is at least four times as long as decoding one, as across regions, a
// leader's partitions are split between two fetch sessions, each with one
// Fetch in flight on a connection of its own (Metrics.TwinFetches), so two
// responses arrive per round trip within the same MaxBufferedBytes; a
// consumer whose client is that far from the cluster starts split. They
// are joined again, and the second session closed, once responses no
// longer come full or decoding takes half the round trip. The defaults
// (Config) are chosen to need no tuning from one partition to thousands,
// on loopback or across a round trip of tens of milliseconds.
// A partition sought, resumed, assigned or added while its leader holds the
// session's Fetch (up to MaxWait) does not wait for it: it is fetched at
// once in a Fetch of its own without a session, on a second connection to
// that broker (Metrics.MovedFetches), and rejoins the session at its next
// Fetch. Resets (OFFSET_OUT_OF_RANGE) and position validations after a
// leader change run in the background, each bounded by
// Config.RequestTimeout, while the other partitions are fetched on.
// When NOT_LEADER_OR_FOLLOWER or FENCED_LEADER_EPOCH comes with the partition's newer leader and epoch
// (CurrentLeader, Fetch v16+, KIP-951) and the client knows that broker,
// the partition is fetched from it at once (after validating the position,
// KIP-320), while metadata still names the old leader, and no metadata is
// refreshed (Metrics.LeaderHints). Other retriable errors (also those
// without a hint, or the same hint twice) refresh metadata and retry after a
// short backoff; session errors restart the session.
// OFFSET_OUT_OF_RANGE applies Config.OffsetReset; with ResetNone the
// partition stops and Receive reports an *OffsetOutOfRangeError. A broker's
// throttle_time_ms delays the next Fetch to it (KIP-219). Close asks each
// broker to drop the consumer's sessions (a Fetch with the final epoch -1),
// so it does not hold one of the broker's shared session-cache slots until
// evicted as idle.
package consumer
