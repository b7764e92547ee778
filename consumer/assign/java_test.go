package assign

import "testing"

func TestJavaCompare(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"a", "b", -1}, {"b", "a", 1}, {"a", "a", 0}, {"a", "ab", -1},
		{"\uffff", "\U00010000", 1}, // UTF-16: U+FFFF sorts after a surrogate pair, unlike UTF-8
		{"x\u00e9", "x\u00e8", 1},
	} {
		if got := javaCompare(c.a, c.b); got != c.want {
			t.Errorf("javaCompare(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestJavaHashes(t *testing.T) {
	// the values Java 17 computes for "consumer-1".hashCode(),
	// "\uD83D\uDE00".hashCode() and new TopicPartition("orders", 3).hashCode()
	if got := javaStringHash("consumer-1"); got != -166239206 {
		t.Errorf("hash(consumer-1) = %d", got)
	}
	if got := javaStringHash("\U0001F600"); got != 1772899 {
		t.Errorf("hash(U+1F600) = %d", got)
	}
	if got := topicPartitionHash(topicPartition{"orders", 3}); got != -1008769277 {
		t.Errorf("hash(orders-3) = %d", got)
	}
}

// TestHashCapacityCrowdedBucket checks the growth of a small table with a
// ninth key in one bucket (Java resizes instead of making a tree).
func TestHashCapacityCrowdedBucket(t *testing.T) {
	var hashes []int32
	for i := range 9 {
		hashes = append(hashes, int32(i*16)) // all in bucket 0 of 16
	}
	if got := hashCapacity(hashes); got != 32 {
		t.Fatalf("capacity %d, want 32", got)
	}
	if got := hashCapacity(hashes[:8]); got != 16 {
		t.Fatalf("capacity %d, want 16", got)
	}
	var many []int32
	for i := range 13 {
		many = append(many, int32(i))
	}
	if got := hashCapacity(many); got != 32 {
		t.Fatalf("capacity for 13 keys %d, want 32", got)
	}
}
