package wire

import (
	"bytes"
	"testing"
)

// benchRecords returns n records of size-byte values that compress like
// typical text payloads.
func benchRecords(n, size int) []Record {
	recs := make([]Record, n)
	for i := range recs {
		v := bytes.Repeat([]byte("gregor kafka "), size/13+1)[:size]
		v[i%size] = byte(i)
		recs[i] = Record{Timestamp: 1_700_000_000_000 + int64(i), Key: []byte("key-0001"), Value: v}
	}
	return recs
}

// BenchmarkAppendBatch encodes 100 records of 100 bytes into a reused buffer
// for each codec. Target: 0 allocs/op once warm.
func BenchmarkAppendBatch(b *testing.B) {
	recs := benchRecords(100, 100)
	for _, c := range allCodecs {
		b.Run(c.String(), func(b *testing.B) {
			enc := NewBatchEncoder(nil)
			h := &BatchHeader{Compression: c, ProducerID: 1, BaseTimestamp: recs[0].Timestamp}
			buf, err := enc.AppendBatch(nil, h, recs) // warm pools and buffers
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(100 * 100)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				buf, err = enc.AppendBatch(buf[:0], h, recs)
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDecode1MiB decodes a 1 MiB partition's records (batches of 100
// records of 100 bytes) per codec, reusing one RecordBatch. Reports MB/s of
// fetched (wire) bytes and allocations per record.
func BenchmarkDecode1MiB(b *testing.B) {
	plain := benchRecords(100, 100)
	withHeaders := benchRecords(100, 100)
	for i := range withHeaders {
		withHeaders[i].Headers = []Header{{Key: "trace-id", Value: []byte("0123456789abcdef")}, {Key: "content-type", Value: []byte("text/plain")}}
	}
	type variant struct {
		name string
		c    Compression
		recs []Record
	}
	var variants []variant
	for _, c := range allCodecs {
		variants = append(variants, variant{c.String(), c, plain})
	}
	variants = append(variants, variant{"none-2headers", CompressionNone, withHeaders}, variant{"zstd-2headers", CompressionZstd, withHeaders})
	for _, vt := range variants {
		c, recs := vt.c, vt.recs
		b.Run(vt.name, func(b *testing.B) {
			enc := NewBatchEncoder(nil)
			var buf []byte
			nrec := 0
			for len(buf) < 1<<20 {
				var err error
				buf, err = enc.AppendBatch(buf, &BatchHeader{Compression: c, BaseTimestamp: recs[0].Timestamp}, recs)
				if err != nil {
					b.Fatal(err)
				}
				nrec += len(recs)
			}
			opts := DecodeOptions{Decompressor: NewDecompressor(0)}
			br := NewBatchReader(nil, opts)
			var rb RecordBatch
			b.SetBytes(int64(len(buf)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				br.Reset(buf, opts)
				n := 0
				for br.Next(&rb) {
					n += len(rb.Records)
				}
				if br.Err() != nil || n != nrec {
					b.Fatalf("err %v, %d of %d records", br.Err(), n, nrec)
				}
			}
			b.StopTimer()
			// Allocations per record, measured outside the timed loop.
			allocs := testing.AllocsPerRun(5, func() {
				br.Reset(buf, opts)
				for br.Next(&rb) {
				}
			})
			b.ReportMetric(allocs/float64(nrec), "allocs/record")
			b.ReportMetric(float64(nrec), "records/op")
		})
	}
}
