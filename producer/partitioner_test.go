package producer

import (
	"encoding/hex"
	"testing"
)

// javaKeys was produced by the Java client itself (kafka-clients 4.4.0,
// org.apache.kafka.common.utils.Utils.murmur2 and Utils.toPositive(h) % n)
// for n = 1, 3, 12 and 100; keys are UTF-8, raw ones hex.
var javaKeys = []struct {
	key  string
	hash int32
	p    [4]int32
}{
	{"", 275646681, [4]int32{0, 0, 9, 81}},
	{"a", -1563381124, [4]int32{0, 1, 4, 24}},
	{"ab", 316155434, [4]int32{0, 2, 2, 34}},
	{"abc", 479470107, [4]int32{0, 0, 3, 7}},
	{"abcd", -1323649548, [4]int32{0, 2, 8, 0}},
	{"abcde", 461995741, [4]int32{0, 1, 1, 41}},
	{"key-0", 29210041, [4]int32{0, 1, 1, 41}},
	{"key-1", 193331640, [4]int32{0, 0, 0, 40}},
	{"key-42", -187086521, [4]int32{0, 0, 3, 27}},
	{"hello world", 1221641059, [4]int32{0, 1, 7, 59}},
	{"héllo", 614509002, [4]int32{0, 0, 6, 2}},
	{"日本語キー", 1445825182, [4]int32{0, 1, 10, 82}},
	{"🙂emoji", 1463688712, [4]int32{0, 1, 4, 12}},
	{"kafka", -798503068, [4]int32{0, 1, 4, 80}},
	{"gregor", -1512854036, [4]int32{0, 0, 0, 12}},
	{"user-123456789", 1220388429, [4]int32{0, 0, 9, 29}},
	{"0", 971027396, [4]int32{0, 2, 8, 96}},
	{"negative?", -74965636, [4]int32{0, 1, 4, 12}},
}

var javaRaw = []struct {
	hex  string
	hash int32
	p    [4]int32
}{
	{"ff", -311467685, [4]int32{0, 0, 3, 63}},
	{"8000000001", -1731040564, [4]int32{0, 1, 4, 84}},
	{"deadbeefcafe", -1156973575, [4]int32{0, 1, 1, 73}},
}

func TestKeyPartitionMatchesJava(t *testing.T) {
	ns := [4]int32{1, 3, 12, 100}
	check := func(name string, key []byte, hash int32, want [4]int32) {
		t.Helper()
		if got := murmur2(key); got != hash {
			t.Errorf("murmur2(%s) = %d, Java %d", name, got, hash)
		}
		for i, n := range ns {
			if got := KeyPartition(key, n); got != want[i] {
				t.Errorf("KeyPartition(%s, %d) = %d, Java %d", name, n, got, want[i])
			}
		}
	}
	negatives := 0
	for _, k := range javaKeys {
		if k.hash < 0 {
			negatives++
		}
		check("'"+k.key+"'", []byte(k.key), k.hash, k.p)
	}
	for _, k := range javaRaw {
		b, _ := hex.DecodeString(k.hex)
		check(k.hex, b, k.hash, k.p)
	}
	if negatives < 3 {
		t.Fatalf("table has %d negative hashes, want several", negatives)
	}
}

func TestStickyPartitionerSwitchesAfterBatchBytes(t *testing.T) {
	s := stickyState{partition: -1}
	first := s.next(100, 1000, 12, nil)
	for i := 0; i < 9; i++ { // 1000 bytes in total stay on one partition
		if p := s.next(100, 1000, 12, nil); p != first {
			t.Fatalf("record %d moved to %d before the batch filled (sticky %d)", i, p, first)
		}
	}
	if p := s.next(100, 1000, 12, nil); p == first {
		t.Fatalf("partition %d kept after %d bytes", p, 1000)
	}
	// Only partitions with a leader are chosen.
	avail := []int32{5, 7}
	s = stickyState{partition: -1}
	seen := map[int32]int{}
	for i := 0; i < 200; i++ {
		seen[s.next(600, 1000, 12, avail)]++
	}
	if len(seen) != 2 || seen[5] == 0 || seen[7] == 0 {
		t.Fatalf("sticky choices %v, want only 5 and 7", seen)
	}
	// A single partition always wins.
	s = stickyState{partition: -1}
	for i := 0; i < 10; i++ {
		if p := s.next(2000, 1000, 1, nil); p != 0 {
			t.Fatalf("single partition topic got %d", p)
		}
	}
}
