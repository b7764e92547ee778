package wire

import (
	"errors"
	"strconv"
)

// ErrorClass is a set of facts about what a Kafka error code means to a
// client: whether a retry can help, what must be looked up again first,
// whether a failed Produce may still have appended its batch. The packages
// of gregor (and the adapter's normalisation) ask ClassOf or Classify
// instead of keeping their own lists of codes; the few operations that
// decide otherwise name their exception at their function (INTERNALS.md §7,
// "Add a retriable error").
type ErrorClass uint16

const (
	// ClassRetriable: the same request may succeed later. Set exactly
	// when KafkaError.Retriable is (Java's RetriableException).
	ClassRetriable ErrorClass = 1 << iota
	// ClassStaleMetadata: the client's metadata (a partition's leader or
	// epoch, a topic's name or id, the controller) is out of date; refresh
	// it before retrying.
	ClassStaleMetadata
	// ClassCoordinator: the group or transaction coordinator is loading,
	// unavailable or elsewhere; find it again (after a backoff) and retry.
	ClassCoordinator
	// ClassNotAppended: a Produce partition answered with this code
	// appended none of its batch, so the records are certainly not written
	// by that attempt.
	ClassNotAppended
	// ClassAuthorization: an ACL denies the operation on the named
	// resource; retrying with the same principal cannot help.
	ClassAuthorization
	// ClassProducerFenced: a newer producer with the same id or
	// transactional id took over, or the epoch is invalid; this producer
	// instance cannot go on with its epoch.
	ClassProducerFenced
	// ClassInvalidRecord: the broker rejected the records themselves
	// (corrupt, too large, bad timestamp); resending them unchanged fails
	// again.
	ClassInvalidRecord
	// ClassRejoin: the group member's generation or member id (classic) or
	// member epoch (KIP-848) is no longer valid; it must rejoin the group.
	ClassRejoin
	// ClassCoordinatorMoved: the coordinator the client asked is not (or no
	// longer) the coordinator, so the cached coordinator must be forgotten
	// before looking it up again (a coordinator still loading, also
	// ClassCoordinator, is asked again as it is).
	ClassCoordinatorMoved
	// ClassResetOffset: the fetch position is outside the partition's log;
	// the consumer resets it by its reset policy (auto.offset.reset).
	ClassResetOffset
)

// Has reports whether every class of x is in c.
func (c ErrorClass) Has(x ErrorClass) bool { return c&x == x && x != 0 }

// classRow is one code's classes (besides ClassRetriable, which comes from
// the error table) and why.
type classRow struct {
	code   int16
	class  ErrorClass
	reason string
}

// classRows is the classification: one row per code that is more than
// "retriable or not". A code without a row has only ClassRetriable, if its
// KafkaError says so. Pinned by TestErrorClassTable.
var classRows = []classRow{
	{1, ClassResetOffset, "the fetch position is outside the log (truncated, or beyond its end): reset it by the reset policy"},
	{2, ClassNotAppended | ClassInvalidRecord, "the batch failed its CRC or size checks: nothing of it is appended"},
	{3, ClassStaleMetadata | ClassNotAppended, "the broker does not host the partition: metadata is stale or the topic is gone; nothing appended"},
	{5, ClassStaleMetadata | ClassNotAppended, "a leader election is under way: look the leader up again; nothing appended"},
	{6, ClassStaleMetadata | ClassNotAppended, "the broker is no longer the leader: look the leader up again; nothing appended"},
	{10, ClassNotAppended | ClassInvalidRecord, "a record or batch is larger than the topic allows: nothing appended"},
	{14, ClassCoordinator, "the coordinator is still loading its state: retry it after a backoff"},
	{15, ClassCoordinator | ClassCoordinatorMoved, "the coordinator is unavailable: forget it and find it again"},
	{16, ClassCoordinator | ClassCoordinatorMoved, "the broker is not the coordinator: forget it and find it again"},
	{17, ClassNotAppended, "the topic name is invalid (or internal): nothing appended"},
	{18, ClassNotAppended | ClassInvalidRecord, "the request's records are larger than the broker accepts: nothing appended"},
	{19, ClassNotAppended, "fewer in-sync replicas than min.insync.replicas: the leader refused before appending"},
	{21, ClassNotAppended, "the acks value is invalid: nothing appended"},
	{22, ClassRejoin, "the member's generation is not the group's: rejoin"},
	{25, ClassRejoin, "the coordinator does not know the member id: rejoin"},
	{27, ClassRejoin, "the group is rebalancing: rejoin to take part"},
	{29, ClassNotAppended | ClassAuthorization, "the principal may not use the topic: nothing appended"},
	{30, ClassAuthorization, "the principal may not use the group"},
	{31, ClassNotAppended | ClassAuthorization, "the principal lacks a cluster permission (e.g. IdempotentWrite): nothing appended"},
	{32, ClassNotAppended | ClassInvalidRecord, "a record's timestamp is outside the topic's accepted range: nothing appended"},
	{35, ClassNotAppended, "the broker does not serve this request version: nothing appended"},
	{41, ClassStaleMetadata, "the broker is not the active controller: refresh metadata to find it"},
	{42, ClassNotAppended, "the broker could not parse the request: nothing appended"},
	{43, ClassNotAppended, "the topic's message format cannot hold the request: nothing appended"},
	{45, ClassNotAppended, "the batch's sequence does not follow the last one appended: nothing appended"},
	{47, ClassNotAppended | ClassProducerFenced, "the producer's epoch is not the current one: nothing appended"},
	{53, ClassAuthorization, "the principal may not use the transactional id"},
	{56, ClassStaleMetadata, "the leader's log directory failed: the partition moves; refresh metadata"},
	{59, ClassNotAppended, "the broker has no state for the producer id: nothing appended"},
	{74, ClassStaleMetadata | ClassNotAppended, "the request's leader epoch is older than the leader's: refresh metadata; nothing appended"},
	{75, ClassStaleMetadata, "the request's leader epoch is newer than the broker's: metadata is ahead of the broker; refresh"},
	{76, ClassNotAppended, "the topic does not accept the batch's compression: nothing appended"},
	{79, ClassRejoin, "a first JoinGroup gets its member id in this error (KIP-394): join again with it"},
	{87, ClassNotAppended | ClassInvalidRecord, "a record breaks the topic's rules (e.g. no key on a compacted topic): nothing appended"},
	{90, ClassNotAppended | ClassProducerFenced, "a newer producer with the same transactional id took over: nothing appended"},
	{100, ClassStaleMetadata | ClassNotAppended, "the broker does not know the topic id: the topic was deleted or metadata is stale; nothing appended"},
	{103, ClassStaleMetadata | ClassNotAppended, "the topic id does not match the broker's: the topic was recreated; refresh metadata; nothing appended"},
	{110, ClassRejoin, "the member epoch is fenced (KIP-848): rejoin with epoch 0"},
}

// Action is the "what now" of a failure's classes: the one decision every
// package starts from (an operation that decides otherwise names its
// exception beside its call, INTERNALS.md §7).
type Action uint8

const (
	// ActionFatal: return the error; no retry can cure it.
	ActionFatal Action = iota
	// ActionRetry: send the same request again after a backoff.
	ActionRetry
	// ActionRefreshMetadata: look the leader, topic or controller up
	// again, then retry.
	ActionRefreshMetadata
	// ActionFindCoordinator: forget the cached coordinator, find it again,
	// then retry.
	ActionFindCoordinator
	// ActionRejoin: the group membership is no longer valid; rejoin.
	ActionRejoin
	// ActionResetOffset: reset the fetch position by the reset policy.
	ActionResetOffset
)

// Action returns what to do after a failure with classes c, the first of:
// reset the offset, rejoin the group, find the coordinator again (moved),
// refresh metadata, retry (retriable, or a coordinator still loading),
// else fatal. Pinned over every code by TestActionTable.
func (c ErrorClass) Action() Action {
	switch {
	case c.Has(ClassResetOffset):
		return ActionResetOffset
	case c.Has(ClassRejoin):
		return ActionRejoin
	case c.Has(ClassCoordinatorMoved):
		return ActionFindCoordinator
	case c.Has(ClassStaleMetadata):
		return ActionRefreshMetadata
	case c.Has(ClassRetriable), c.Has(ClassCoordinator):
		return ActionRetry
	}
	return ActionFatal
}

// String returns the action's name, as "refresh-metadata".
func (a Action) String() string {
	switch a {
	case ActionFatal:
		return "fatal"
	case ActionRetry:
		return "retry"
	case ActionRefreshMetadata:
		return "refresh-metadata"
	case ActionFindCoordinator:
		return "find-coordinator"
	case ActionRejoin:
		return "rejoin"
	case ActionResetOffset:
		return "reset-offset"
	}
	return "action(" + strconv.Itoa(int(a)) + ")"
}

// classByCode indexes classRows and the retriable flags by code+1 (codes
// start at -1); built once from the two tables, never written afterwards.
var classByCode = indexClasses()

func indexClasses() []ErrorClass {
	var hi int16
	for c := range errorsByCode {
		hi = max(hi, c)
	}
	t := make([]ErrorClass, int(hi)+2)
	for c, e := range errorsByCode {
		if e.Retriable {
			t[c+1] |= ClassRetriable
		}
	}
	for _, r := range classRows {
		t[r.code+1] |= r.class
	}
	return t
}

// ClassOf returns the classes of a Kafka error code: 0 for NONE and for
// codes this client does not know.
func ClassOf(code int16) ErrorClass {
	if i := int(code) + 1; i >= 0 && i < len(classByCode) {
		return classByCode[i]
	}
	return 0
}

// Classify returns the classes of the *KafkaError in err's chain, 0 if
// there is none.
func Classify(err error) ErrorClass {
	c, _ := KafkaClass(err)
	return c
}

// KafkaClass returns the classes of the *KafkaError in err's chain and
// whether there is one: a caller that treats "no Kafka error" differently
// from "a Kafka error with no class" (an unknown code) asks this.
func KafkaClass(err error) (ErrorClass, bool) {
	if err == nil {
		return 0, false // the common case, without errors.As's allocation
	}
	var kerr *KafkaError
	if errors.As(err, &kerr) {
		return ClassOf(kerr.Code), true
	}
	return 0, false
}

// Retriable reports whether err's chain holds a Kafka error a retry can
// cure (ClassRetriable).
func Retriable(err error) bool { return Classify(err).Has(ClassRetriable) }

// Fatal reports whether err's chain holds a Kafka error no retry can cure:
// a code without ClassRetriable, including a code this client does not
// know (ErrorForCode's UNKNOWN_CODE_n). An error without a Kafka error
// (a transport failure, a closed client) is neither Retriable nor Fatal:
// the caller's policy for it is client.Classify's.
func Fatal(err error) bool {
	c, ok := KafkaClass(err)
	return ok && !c.Has(ClassRetriable)
}
