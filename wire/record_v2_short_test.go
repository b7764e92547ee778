package wire

import (
	"bytes"
	"fmt"
	"testing"
)

// shortVersusGeneral decodes the record at the start of raw with
// recordV2Short and, when it took it, with recordV2General on a fresh
// reader, and fails t unless both read the same fields and bytes.
func shortVersusGeneral(t *testing.T, raw []byte) (short bool) {
	t.Helper()
	b := &RecordBatch{BaseOffset: 1000, BaseTimestamp: 5000, MaxTimestamp: 9000}
	var fast, slow Record
	var fr, sr BatchReader
	fr.r.Reset(raw)
	if !fr.recordV2Short(b, &fast.Offset, &fast.Timestamp, &fast.Key, &fast.Value, &fast.Headers) {
		if fr.r.Offset() != 0 || fr.r.Err() != nil {
			t.Fatalf("a record not taken moved the reader to %d (err %v)", fr.r.Offset(), fr.r.Err())
		}
		return false
	}
	sr.r.Reset(raw)
	if err := sr.recordV2General(b, 0, &slow.Offset, &slow.Timestamp, &slow.Key, &slow.Value, &slow.Headers); err != nil {
		t.Fatalf("short path took a record the general path rejects: %v (% x)", err, raw)
	}
	if fr.r.Offset() != sr.r.Offset() || fast.Offset != slow.Offset || fast.Timestamp != slow.Timestamp ||
		(fast.Key == nil) != (slow.Key == nil) || (fast.Value == nil) != (slow.Value == nil) ||
		!bytes.Equal(fast.Key, slow.Key) || !bytes.Equal(fast.Value, slow.Value) ||
		cap(fast.Key) != len(fast.Key) || cap(fast.Value) != len(fast.Value) || len(fast.Headers) != len(slow.Headers) {
		t.Fatalf("short %+v at %d, general %+v at %d (% x)", fast, fr.r.Offset(), slow, sr.r.Offset(), raw)
	}
	return true
}

// TestRecordV2Short: the short path takes exactly the records of its
// shape (one- or two-byte varints, no headers) and reads them as the
// general path does; everything else is left to the general path.
func TestRecordV2Short(t *testing.T) {
	for _, tc := range []struct {
		key, value []byte
		tsDelta    int64
		offDelta   int32
		headers    []Header
		short      bool
	}{
		{nil, nil, 0, 0, nil, true},
		{[]byte{}, []byte("v"), -3, 7, nil, true},
		{[]byte("key"), bytes.Repeat([]byte("x"), 100), 8191, 8191, nil, true},
		{nil, bytes.Repeat([]byte("x"), 8000), -8192, 0, nil, true},
		{nil, bytes.Repeat([]byte("x"), 9000), 0, 0, nil, false},          // value length: a three-byte varint
		{nil, []byte("v"), 8192, 0, nil, false},                           // timestamp delta: three bytes
		{nil, []byte("v"), 0, 9000, nil, false},                           // offset delta: three bytes
		{nil, []byte("v"), 0, 0, []Header{{Key: "h", Value: nil}}, false}, // headers
	} {
		t.Run(fmt.Sprintf("k%d/v%d/ts%d/off%d/h%d", len(tc.key), len(tc.value), tc.tsDelta, tc.offDelta, len(tc.headers)), func(t *testing.T) {
			raw := AppendRecord(nil, tc.offDelta, tc.tsDelta, tc.key, tc.value, tc.headers)
			if got := shortVersusGeneral(t, raw); got != tc.short {
				t.Fatalf("taken by the short path: %v, want %v", got, tc.short)
			}
			for cut := 1; cut < len(raw); cut++ { // truncated: never taken
				if shortVersusGeneral(t, raw[:cut]) {
					t.Fatalf("a record cut to %d of %d bytes was taken", cut, len(raw))
				}
			}
		})
	}
}

// FuzzRecordV2Short: whatever the bytes, a record the short path takes is
// one the general path decodes to the same fields, and one it does not
// take leaves the reader where it was.
func FuzzRecordV2Short(f *testing.F) {
	f.Add(AppendRecord(nil, 1, 2, []byte("k"), []byte("value"), nil))
	f.Add(AppendRecord(nil, 0, 0, nil, nil, nil))
	f.Add(AppendRecord(nil, 3, -1, []byte{}, bytes.Repeat([]byte("x"), 200), nil))
	f.Add(AppendRecord(nil, 0, 0, nil, []byte("v"), []Header{{Key: "a", Value: []byte("b")}}))
	f.Fuzz(func(t *testing.T, raw []byte) {
		shortVersusGeneral(t, raw)
	})
}
