package assign

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"testing"
)

func TestStickyUserDataRoundTrip(t *testing.T) {
	owned := []TopicPartitions{{Topic: "orders", Partitions: []int32{3, 1}}, {Topic: "audit", Partitions: []int32{0}}}
	b := StickyUserData(owned, 42)
	d, err := DecodeStickyUserData(b)
	if err != nil {
		t.Fatal(err)
	}
	if !d.HasGeneration || d.Generation != 42 {
		t.Fatalf("generation %d (present %v), want 42", d.Generation, d.HasGeneration)
	}
	got := render(map[string][]TopicPartitions{"m": d.Owned})["m"]
	want := render(map[string][]TopicPartitions{"m": owned})["m"]
	if len(got) != 3 {
		t.Fatalf("decoded %v, want the partitions of %v", got, want)
	}
	for _, s := range want {
		if !containsString(got, s) {
			t.Fatalf("decoded %v, want the partitions of %v", got, want)
		}
	}
	// version 0: the same without the generation
	d0, err := DecodeStickyUserData(b[:len(b)-4])
	if err != nil || d0.HasGeneration || len(d0.Owned) != 2 {
		t.Fatalf("version 0: %+v, %v", d0, err)
	}
}

func TestDecodeStickyUserDataRejects(t *testing.T) {
	for _, h := range []string{
		"",                         // no array length
		"ffffffff",                 // negative topic count
		"7fffffff",                 // topic count beyond the data
		"00000001ffff",             // negative string length
		"000000010005616263",       // string beyond the data
		"00000001000174ffffffff",   // negative partition count
		"0000000100017400000002aa", // partitions beyond the data
	} {
		b, _ := hex.DecodeString(h)
		if _, err := DecodeStickyUserData(b); !errors.Is(err, ErrMalformedUserData) {
			t.Errorf("%q: err %v, want ErrMalformedUserData", h, err)
		}
	}
}

func TestCooperativeStickyUserData(t *testing.T) {
	if got := CooperativeStickyUserData(-1); !bytes.Equal(got, []byte{0xff, 0xff, 0xff, 0xff}) {
		t.Fatalf("CooperativeStickyUserData(-1) = %x", got)
	}
}

// FuzzDecodeStickyUserData checks that any input decodes or fails cleanly,
// that what decodes re-encodes to data that decodes to the same, and that
// nothing is allocated beyond what the input can hold.
func FuzzDecodeStickyUserData(f *testing.F) {
	f.Add(StickyUserData([]TopicPartitions{{Topic: "t", Partitions: []int32{0, 1}}}, 3))
	f.Add([]byte{0, 0, 0, 0})
	f.Add([]byte{0x7f, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := DecodeStickyUserData(b)
		if err != nil {
			return
		}
		n := 0
		for _, o := range d.Owned {
			n += 6 + len(o.Topic) + 4*len(o.Partitions)
		}
		if 4+n > len(b) {
			t.Fatalf("decoded %d bytes' worth from %d bytes", 4+n, len(b))
		}
		again, err := DecodeStickyUserData(StickyUserData(d.Owned, d.Generation))
		if err != nil || !again.HasGeneration || again.Generation != d.Generation {
			t.Fatalf("re-encoded data: %+v, %v", again, err)
		}
		if fmtTPs(again.Owned) != fmtTPs(mergeByTopic(d.Owned)) {
			t.Fatalf("re-encoded partitions %s, want %s", fmtTPs(again.Owned), fmtTPs(mergeByTopic(d.Owned)))
		}
	})
}

// mergeByTopic is what re-encoding does to repeated topics.
func mergeByTopic(l []TopicPartitions) []TopicPartitions {
	m := map[string][]int32{}
	for _, tp := range l {
		m[tp.Topic] = append(m[tp.Topic], tp.Partitions...)
	}
	var out []TopicPartitions
	for t, ps := range m {
		if len(ps) > 0 {
			out = append(out, TopicPartitions{Topic: t, Partitions: ps})
		}
	}
	return out
}

// fmtTPs renders partitions sorted by topic, keeping each topic's order.
func fmtTPs(l []TopicPartitions) string {
	byTopic := map[string][]int32{}
	var topics []string
	for _, tp := range l {
		if _, ok := byTopic[tp.Topic]; !ok {
			topics = append(topics, tp.Topic)
		}
		byTopic[tp.Topic] = append(byTopic[tp.Topic], tp.Partitions...)
	}
	sort.Strings(topics)
	s := ""
	for _, t := range topics {
		s += fmt.Sprintf("%q:%v;", t, byTopic[t])
	}
	return s
}
