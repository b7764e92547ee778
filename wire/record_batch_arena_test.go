package wire

import (
	"bytes"
	"fmt"
	"testing"
)

// inside reports whether b's first byte lies in buf's backing array.
func inside(b, buf []byte) bool {
	whole := buf[:cap(buf)]
	for i := range whole {
		if &whole[i] == &b[0] {
			return true
		}
	}
	return false
}

func TestBatchReaderArena(t *testing.T) {
	enc := NewBatchEncoder(nil)
	for _, c := range allCodecs[1:] {
		t.Run(c.String(), func(t *testing.T) {
			var raw []byte
			var want [][]byte
			for b := range 3 {
				recs := make([]Record, 20)
				for i := range recs {
					recs[i].Value = fmt.Appendf(nil, "batch %d record %d %s", b, i, bytes.Repeat([]byte{'v'}, 100))
					want = append(want, recs[i].Value)
				}
				var err error
				if raw, err = enc.AppendBatch(raw, &BatchHeader{Compression: c}, recs); err != nil {
					t.Fatal(err)
				}
			}
			// Room for the first two batches (each ~2.6 KB decompressed)
			// but not for the third.
			arena := make([]byte, 0, 6000)
			br := NewBatchReader(raw, DecodeOptions{})
			br.SetArena(arena)
			var b RecordBatch
			var got [][]byte
			for n := 0; br.Next(&b); n++ {
				for _, r := range b.Records {
					got = append(got, r.Value)
				}
				inArena := inside(b.Records[0].Value, arena)
				if n < 2 && !inArena {
					t.Fatalf("batch %d was not decompressed into the arena", n)
				}
				if n == 2 && inArena {
					t.Fatal("batch 2 does not fit the arena's rest but was written into it")
				}
			}
			if br.Err() != nil {
				t.Fatal(br.Err())
			}
			if len(br.Arena()) == 0 || len(br.Arena()) > cap(arena) || &br.Arena()[0] != &arena[:1][0] {
				t.Fatalf("Arena() has length %d, want the bytes of two batches in the same array", len(br.Arena()))
			}
			if len(got) != len(want) {
				t.Fatalf("%d records, want %d", len(got), len(want))
			}
			for i := range want {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("record %d: %q, want %q", i, got[i], want[i])
				}
			}
		})
	}
}
