package assign

import (
	"sort"
	"unicode/utf16"
	"unicode/utf8"
)

// The Java assignors' results depend on Java's String ordering (UTF-16 code
// units) and, where they iterate a java.util.HashMap or HashSet, on the
// iteration order of those tables. The helpers here reproduce both.

// javaCompare orders strings as java.lang.String.compareTo does: by UTF-16
// code unit. It equals a byte comparison unless a string holds a character
// at or above U+E000 (surrogate pairs sort below U+E000..U+FFFF in Java).
func javaCompare(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	if i == n {
		return cmpInt(len(a), len(b))
	}
	if a[i] < utf8.RuneSelf && b[i] < utf8.RuneSelf {
		return cmpInt(int(a[i]), int(b[i]))
	}
	// back up to the start of the differing runes and compare in UTF-16
	for i > 0 && !utf8.RuneStart(a[i]) {
		i--
	}
	ua := utf16.Encode([]rune(a[i:]))
	ub := utf16.Encode([]rune(b[i:]))
	m := min(len(ua), len(ub))
	for j := 0; j < m; j++ {
		if ua[j] != ub[j] {
			return cmpInt(int(ua[j]), int(ub[j]))
		}
	}
	return cmpInt(len(ua), len(ub))
}

func javaLess(a, b string) bool { return javaCompare(a, b) < 0 }

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// javaStringHash is java.lang.String.hashCode.
func javaStringHash(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 {
			r1, r2 := utf16.EncodeRune(r)
			h = 31*h + int32(r1)
			h = 31*h + int32(r2)
			continue
		}
		h = 31*h + int32(r)
	}
	return h
}

// topicPartitionHash is org.apache.kafka.common.TopicPartition.hashCode.
func topicPartitionHash(tp topicPartition) int32 {
	h := 31 + tp.partition
	return 31*h + javaStringHash(tp.topic)
}

// hashBucket is the bucket of a key in a java.util.HashMap table of
// capacity capacity (a power of two): the hash spread by HashMap.hash.
func hashBucket(h int32, capacity int) int {
	u := uint32(h)
	return int((u ^ u>>16) & uint32(capacity-1))
}

// defaultCapacity is the table size of a java.util.HashMap created with
// the default constructor after n distinct insertions (it doubles from 16
// whenever the size exceeds three quarters of the table).
func defaultCapacity(n int) int {
	c := 16
	for n > c*3/4 {
		c *= 2
	}
	return c
}

// javaHashOrder returns keys (distinct, in insertion order) in the order a
// java.util.HashMap created with the default constructor iterates them:
// by bucket, and within a bucket by insertion. (Java turns a bucket of more
// than eight keys into a tree; member ids never collide that much.)
func javaHashOrder(keys []string) []string {
	capacity := defaultCapacity(len(keys))
	out := append([]string(nil), keys...)
	sort.SliceStable(out, func(i, j int) bool {
		return hashBucket(javaStringHash(out[i]), capacity) < hashBucket(javaStringHash(out[j]), capacity)
	})
	return out
}

// tpHashSet is a java.util.HashSet<TopicPartition> created with the default
// constructor, reduced to what the sticky assignor asks of it: add, remove,
// emptiness, and the first element its iterator returns.
type tpHashSet struct {
	seq      map[topicPartition]uint64 // element → insertion number
	next     uint64
	capacity int
}

func newTPHashSet() *tpHashSet {
	return &tpHashSet{seq: map[topicPartition]uint64{}, capacity: 16}
}

func (s *tpHashSet) add(tp topicPartition) {
	if _, ok := s.seq[tp]; ok {
		return
	}
	s.seq[tp] = s.next
	s.next++
	if len(s.seq) > s.capacity*3/4 {
		s.capacity *= 2
	}
}

func (s *tpHashSet) remove(tp topicPartition) { delete(s.seq, tp) }

func (s *tpHashSet) empty() bool { return len(s.seq) == 0 }

// first is the element a Java iterator returns first: the lowest bucket,
// and in it the earliest inserted.
func (s *tpHashSet) first() topicPartition {
	var best topicPartition
	bestBucket, bestSeq := -1, uint64(0)
	for tp, q := range s.seq {
		b := hashBucket(topicPartitionHash(tp), s.capacity)
		if bestBucket < 0 || b < bestBucket || (b == bestBucket && q < bestSeq) {
			best, bestBucket, bestSeq = tp, b, q
		}
	}
	return best
}
