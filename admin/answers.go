package admin

import (
	"errors"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// topicEntry returns the entry of *topics whose name (reached through name)
// is topic, appending a new entry with that name when there is none: the way
// a request groups its partitions by topic. The pointer is valid until
// *topics next grows.
func topicEntry[T any](topics *[]T, topic string, name func(*T) *string) *T {
	for i := range *topics {
		if t := &(*topics)[i]; *name(t) == topic {
			return t
		}
	}
	var t T
	*name(&t) = topic
	*topics = append(*topics, t)
	return &(*topics)[len(*topics)-1]
}

// answerFor returns the first entry of a response's answers that match
// accepts, or nil when the broker left the query out.
func answerFor[T any](answers []T, match func(*T) bool) *T {
	for i := range answers {
		if match(&answers[i]) {
			return &answers[i]
		}
	}
	return nil
}

// settle sorts the answers to the resources idx of one request:
// answer(j) is the error of resource idx[j] (nil: success). A retriable one
// (retriableAnswer) is returned for a retry; any other is the resource's
// result, recorded with set.
func settle(idx []int, answer func(j int) error, set func(i int, err error)) map[int]error {
	retry := map[int]error{}
	for j, i := range idx {
		if err := answer(j); err != nil && retriableAnswer(err) {
			retry[i] = err
		} else {
			set(i, err)
		}
	}
	return retry
}

// lastAnswerFor is answerFor keeping the last match: the answer a by-name
// map of the response would keep when the broker repeats a name.
func lastAnswerFor[T any](answers []T, match func(*T) bool) *T {
	for i := len(answers) - 1; i >= 0; i-- {
		if match(&answers[i]) {
			return &answers[i]
		}
	}
	return nil
}

// leaderAnswers sorts one partition leader's per-partition answers to the
// queries of one request (ListOffsets, DeleteRecords). pos maps each queried
// partition to its query index.
type leaderAnswers struct {
	a        *Admin
	pos      map[gregor.TopicPartition]int
	retry    map[int]error
	answered map[int]bool
	fail     func(i int, err error)
}

// newLeaderAnswers returns a leaderAnswers recording final per-query errors
// with fail.
func (a *Admin) newLeaderAnswers(pos map[gregor.TopicPartition]int, fail func(i int, err error)) *leaderAnswers {
	return &leaderAnswers{a: a, pos: pos, retry: map[int]error{}, answered: map[int]bool{}, fail: fail}
}

// answer files the answer for partition tp with error code code. It returns
// the query index and true when the answer is a success the caller should
// apply; false for a partition not asked, an error that a metadata refresh
// and a retry at the (new) leader can cure (marked for retry), or another
// Kafka error (recorded with fail).
func (l *leaderAnswers) answer(tp gregor.TopicPartition, code int16) (int, bool) {
	i, ok := l.pos[tp]
	if !ok {
		return 0, false
	}
	l.answered[i] = true
	if err := wire.ErrorForCode(code); err != nil {
		if wire.Retriable(err) {
			l.a.cl.InvalidateMetadata()
			l.retry[i] = err
		} else {
			l.fail(i, err)
		}
		return i, false
	}
	return i, true
}

// done fails the queries of idx the broker did not answer ("admin: broker
// returned no <what> for topic[partition]") and returns those to retry.
func (l *leaderAnswers) done(idx []int, what string, tp func(i int) gregor.TopicPartition) map[int]error {
	for _, i := range idx {
		if !l.answered[i] {
			l.fail(i, errors.New("admin: broker returned no "+what+" for "+tpString(tp(i))))
		}
	}
	return l.retry
}
