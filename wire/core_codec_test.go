package wire

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// codec is a message that encodes and decodes in both directions.
type codec interface {
	AppendTo(dst []byte, v int16) []byte
	DecodeFrom(r *Reader, v int16) error
}

// unhex decodes a hex string, ignoring spaces and '|' separators.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	s = strings.NewReplacer(" ", "", "|", "", "\n", "", "\t", "").Replace(s)
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex: %v", err)
	}
	return b
}

// checkGolden asserts m encodes at v to exactly want, and that want decodes
// into fresh equal to m.
func checkGolden(t *testing.T, v int16, m, fresh codec, want string) {
	t.Helper()
	wb := unhex(t, want)
	got := m.AppendTo(nil, v)
	if !bytes.Equal(got, wb) {
		t.Fatalf("v%d encode:\n got %x\nwant %x", v, got, wb)
	}
	r := NewReader(wb)
	if err := fresh.DecodeFrom(r, v); err != nil {
		t.Fatalf("v%d decode golden: %v", v, err)
	}
	if err := r.Complete(); err != nil {
		t.Fatalf("v%d decode golden: %v", v, err)
	}
	if !reflect.DeepEqual(fresh, m) {
		t.Fatalf("v%d decode golden:\n got %+v\nwant %+v", v, fresh, m)
	}
}

// checkRoundTrip encodes m at v, decodes into a fresh value from newMsg and
// asserts equality, exact re-encoding, and that every strict prefix of the
// encoding fails to decode without panicking.
func checkRoundTrip(t *testing.T, v int16, m codec, newMsg func() codec) {
	t.Helper()
	b := m.AppendTo(nil, v)
	got := newMsg()
	r := NewReader(b)
	if err := got.DecodeFrom(r, v); err != nil {
		t.Fatalf("v%d decode: %v\n%x", v, err, b)
	}
	if err := r.Complete(); err != nil {
		t.Fatalf("v%d decode: %v", v, err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Fatalf("v%d round trip:\n got %+v\nwant %+v", v, got, m)
	}
	if b2 := got.AppendTo(nil, v); !bytes.Equal(b, b2) {
		t.Fatalf("v%d re-encode differs:\n%x\n%x", v, b, b2)
	}
	for i := 0; i < len(b); i++ {
		if err := newMsg().DecodeFrom(NewReader(b[:i]), v); err == nil {
			t.Fatalf("v%d: decoding a %d-byte prefix of %d bytes succeeded", v, i, len(b))
		}
	}
}

// forVersions runs f for every version gregor implements of key.
func forVersions(t *testing.T, key APIKey, f func(t *testing.T, v int16)) {
	t.Helper()
	info, ok := LookupAPI(key)
	if !ok {
		t.Fatalf("API %d not in the table", key)
	}
	for v := info.MinVersion; v <= info.MaxVersion; v++ {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) { f(t, v) })
	}
}

// fuzzDecoder runs a fuzz target for a decoder of key: the first input byte
// picks the version, the rest is the body. Decoding must not panic, must not
// allocate more than the input can justify, and a successful decode must
// survive encode->decode unchanged.
func fuzzDecoder(f *testing.F, key APIKey, newMsg func() codec, seeds ...[]byte) {
	info, ok := LookupAPI(key)
	if !ok {
		f.Fatalf("API %d not in the table", key)
	}
	span := int(info.MaxVersion-info.MinVersion) + 1
	for _, s := range seeds {
		for v := 0; v < span; v++ {
			f.Add(append([]byte{byte(v)}, s...))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		v := info.MinVersion + int16(int(data[0])%span)
		body := data[1:]
		m := newMsg()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := m.DecodeFrom(NewReader(body), v)
		runtime.ReadMemStats(&after)
		// Every decoded element is bounded by the input bytes it needs (at
		// least one), and no Go value is more than 64 times its encoding.
		limit := 64*uint64(len(body)) + 16<<10
		if got := after.TotalAlloc - before.TotalAlloc; got > limit {
			t.Fatalf("v%d: decoding %d bytes allocated %d bytes (limit %d)", v, len(body), got, limit)
		}
		if err != nil {
			return
		}
		b := m.AppendTo(nil, v)
		m2 := newMsg()
		if err := m2.DecodeFrom(NewReader(b), v); err != nil {
			t.Fatalf("v%d: re-decoding our encoding failed: %v\n%x", v, err, b)
		}
		// A float64 NaN (DescribeClientQuotas values) never equals itself:
		// there the encodings are compared, bit for bit.
		nanSame := strings.Contains(fmt.Sprint(m), "NaN") && bytes.Equal(b, m2.AppendTo(nil, v))
		if !reflect.DeepEqual(m, m2) && !nanSame {
			t.Fatalf("v%d: decode/encode/decode changed the message:\n%+v\n%+v", v, m, m2)
		}
	})
}

func ptr[T any](v T) *T { return &v }
