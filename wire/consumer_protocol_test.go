package wire

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// subCodec and asgCodec adapt the unversioned consumer protocol messages to
// the codec interface of checkRoundTrip (the version is in the message).
type subCodec struct{ ConsumerProtocolSubscription }

func (c *subCodec) AppendTo(dst []byte, _ int16) []byte {
	return c.ConsumerProtocolSubscription.AppendTo(dst)
}
func (c *subCodec) DecodeFrom(r *Reader, _ int16) error {
	return c.ConsumerProtocolSubscription.DecodeFrom(r)
}

type asgCodec struct{ ConsumerProtocolAssignment }

func (c *asgCodec) AppendTo(dst []byte, _ int16) []byte {
	return c.ConsumerProtocolAssignment.AppendTo(dst)
}
func (c *asgCodec) DecodeFrom(r *Reader, _ int16) error {
	return c.ConsumerProtocolAssignment.DecodeFrom(r)
}

func sampleSubscription(v int16) *subCodec {
	s := ConsumerProtocolSubscription{Version: v, Topics: []string{"a", "b"}, UserData: []byte{5}, GenerationID: -1}
	if v >= 1 {
		s.OwnedPartitions = []ConsumerProtocolTopicPartitions{{Topic: "a", Partitions: []int32{0, 2}}}
	}
	if v >= 2 {
		s.GenerationID = 4
	}
	if v >= 3 {
		s.RackID = ptr("r")
	}
	return &subCodec{s}
}

func sampleAssignment(v int16) *asgCodec {
	return &asgCodec{ConsumerProtocolAssignment{Version: v, AssignedPartitions: []ConsumerProtocolTopicPartitions{{Topic: "a", Partitions: []int32{1}}}}}
}

// TestConsumerProtocolGolden pins subscription and assignment v0-v3 to the
// bytes franz-go's kmsg v1.15.1 (ConsumerMemberMetadata and
// ConsumerMemberAssignment) writes for the same content, the layout of
// Java's ConsumerProtocol, and round-trips each with every truncation
// failing.
func TestConsumerProtocolGolden(t *testing.T) {
	subs := []string{
		"0000000000020001610001620000000105",
		"000100000002000161000162000000010500000001000161000000020000000000000002",
		"00020000000200016100016200000001050000000100016100000002000000000000000200000004",
		"00030000000200016100016200000001050000000100016100000002000000000000000200000004000172",
	}
	for v, want := range subs {
		checkGolden(t, int16(v), sampleSubscription(int16(v)), new(subCodec), want)
		checkRoundTrip(t, int16(v), sampleSubscription(int16(v)), func() codec { return new(subCodec) })
		asg := "00" + "0" + string(rune('0'+v)) + "000000010001610000000100000001ffffffff"
		checkGolden(t, int16(v), sampleAssignment(int16(v)), new(asgCodec), asg)
		checkRoundTrip(t, int16(v), sampleAssignment(int16(v)), func() codec { return new(asgCodec) })
	}
}

// TestConsumerProtocolNewerVersion checks a version above 3 decodes with the
// v3 layout and ignores trailing fields, as Java's ConsumerProtocol does, and
// that a negative version fails typed.
func TestConsumerProtocolNewerVersion(t *testing.T) {
	b := sampleSubscription(3).ConsumerProtocolSubscription.AppendTo(nil)
	b[1] = 9
	b = append(b, 0xde, 0xad)
	var s ConsumerProtocolSubscription
	if err := s.DecodeFrom(NewReader(b)); err != nil {
		t.Fatal(err)
	}
	want := sampleSubscription(3).ConsumerProtocolSubscription
	want.Version = 9
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("got %+v\nwant %+v", s, want)
	}
	b[0] = 0xff
	if err := s.DecodeFrom(NewReader(b)); !errors.Is(err, ErrConsumerProtocolVersion) {
		t.Fatalf("negative version: %v", err)
	}
	var a ConsumerProtocolAssignment
	if err := a.DecodeFrom(NewReader([]byte{0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff})); !errors.Is(err, ErrConsumerProtocolVersion) {
		t.Fatalf("negative assignment version: %v", err)
	}
}

func FuzzConsumerProtocolSubscription(f *testing.F) {
	for v := int16(0); v <= 3; v++ {
		f.Add(sampleSubscription(v).ConsumerProtocolSubscription.AppendTo(nil))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s ConsumerProtocolSubscription
		if s.DecodeFrom(NewReader(data)) != nil {
			return
		}
		b := s.AppendTo(nil)
		var s2 ConsumerProtocolSubscription
		if err := s2.DecodeFrom(NewReader(b)); err != nil || !reflect.DeepEqual(s, s2) {
			t.Fatalf("re-decode: %v\n%+v\n%+v", err, s, s2)
		}
		if !bytes.Equal(s2.AppendTo(nil), b) {
			t.Fatal("re-encode differs")
		}
	})
}

func FuzzConsumerProtocolAssignment(f *testing.F) {
	for v := int16(0); v <= 3; v++ {
		f.Add(sampleAssignment(v).ConsumerProtocolAssignment.AppendTo(nil))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var a ConsumerProtocolAssignment
		if a.DecodeFrom(NewReader(data)) != nil {
			return
		}
		var a2 ConsumerProtocolAssignment
		if err := a2.DecodeFrom(NewReader(a.AppendTo(nil))); err != nil || !reflect.DeepEqual(a, a2) {
			t.Fatalf("re-decode: %v\n%+v\n%+v", err, a, a2)
		}
	})
}
