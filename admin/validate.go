package admin

import (
	"errors"
	"fmt"

	"github.com/gregor-kafka/gregor"
)

// ErrInvalidBatch reports a batch the client rejected before sending
// anything: a duplicate resource, an invalid name, a negative count. The
// error returned is a *BatchError wrapping it.
var ErrInvalidBatch = errors.New("admin: invalid batch")

// BatchError names the resource (by its index in the batch) that made a
// batch invalid; nothing of the batch was sent.
type BatchError struct {
	// Index is the position of the offending resource in the batch.
	Index int
	// Reason says what is wrong with it.
	Reason string
}

// Error returns the index and the reason.
func (e *BatchError) Error() string {
	return fmt.Sprintf("%v: resource %d: %s", ErrInvalidBatch, e.Index, e.Reason)
}

// Unwrap returns ErrInvalidBatch.
func (e *BatchError) Unwrap() error { return ErrInvalidBatch }

// invalid returns a *BatchError for resource i.
func invalid(i int, format string, args ...any) error {
	return &BatchError{Index: i, Reason: fmt.Sprintf(format, args...)}
}

// checkUnique fails the first resource whose key repeats an earlier one.
func checkUnique[K comparable](n int, key func(i int) K) error {
	seen := make(map[K]int, n)
	for i := 0; i < n; i++ {
		k := key(i)
		if j, ok := seen[k]; ok {
			return invalid(i, "duplicates resource %d (%v)", j, k)
		}
		seen[k] = i
	}
	return nil
}

// topicNameProblem returns what makes name an invalid topic name (Kafka's
// Topic.validate: 1-249 characters of [a-zA-Z0-9._-], not "." or ".."),
// or "" when it is valid.
func topicNameProblem(name string) string {
	switch {
	case name == "":
		return "empty topic name"
	case name == "." || name == "..":
		return fmt.Sprintf("topic name %q is not allowed", name)
	case len(name) > 249:
		return fmt.Sprintf("topic name of %d characters (at most 249)", len(name))
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Sprintf("topic name %q has the illegal character %q", name, c)
		}
	}
	return ""
}

// checkPartitions validates a batch of partitions: valid topic names,
// non-negative indexes and, when unique, no partition twice.
func checkPartitions(n int, tp func(i int) gregor.TopicPartition, unique bool) error {
	for i := 0; i < n; i++ {
		p := tp(i)
		if s := topicNameProblem(p.Topic); s != "" {
			return invalid(i, "%s", s)
		}
		if p.Partition < 0 {
			return invalid(i, "negative partition %d", p.Partition)
		}
	}
	if unique {
		return checkUnique(n, tp)
	}
	return nil
}

// checkBrokerList validates a replica list: non-negative broker IDs, none
// twice.
func checkBrokerList(i int, ids []int32) error {
	seen := map[int32]bool{}
	for _, id := range ids {
		if id < 0 {
			return invalid(i, "negative broker ID %d", id)
		}
		if seen[id] {
			return invalid(i, "broker %d listed twice", id)
		}
		seen[id] = true
	}
	return nil
}
