package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/wire"
)

// FuzzJSONRecordRoundTrip: produce's JSON input decoder never panics, and
// a record it reads, written as consume's JSON output, reads back the same
// (consume output is valid produce input, bytes that are not UTF-8
// included).
func FuzzJSONRecordRoundTrip(f *testing.F) {
	for _, s := range []string{
		`{"key":"k","value":"v","headers":[{"key":"h","value":null}],"partition":1,"timestamp":5}`,
		`{"key":null,"value_base64":"/wA=","headers":{"a":"b"}}`,
		`{"key_base64":"gA==","value":"é\n\"","headers":[{"key":"x","value_base64":"AA=="}]}`,
		`{}`, `null`, `{"key":"a","key_base64":"YQ=="}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		key, value, headers, _, _, err := decodeJSONRecord(line)
		if err != nil {
			return
		}
		r := consumer.Record{Topic: "t", Partition: 1, Offset: 2, Timestamp: time.UnixMilli(3), Key: key, Value: value, Headers: headers}
		out := appendJSONRecord(nil, &r)
		if !json.Valid(out) {
			t.Fatalf("invalid JSON output %q", out)
		}
		k2, v2, h2, _, _, err := decodeJSONRecord(out)
		if err != nil {
			t.Fatalf("output %q does not read back: %v", out, err)
		}
		if !bytes.Equal(k2, key) || (k2 == nil) != (key == nil) || !bytes.Equal(v2, value) || (v2 == nil) != (value == nil) || !sameHeaders(h2, headers) {
			t.Fatalf("round trip of %q via %q: key %q/%q value %q/%q headers %v/%v", line, out, key, k2, value, v2, headers, h2)
		}
	})
}

func sameHeaders(a, b []wire.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key || !bytes.Equal(a[i].Value, b[i].Value) || (a[i].Value == nil) != (b[i].Value == nil) {
			return false
		}
	}
	return true
}

func TestJSONOutputShape(t *testing.T) {
	r := consumer.Record{Topic: "t", Partition: 1, Offset: 2, Timestamp: time.UnixMilli(3), Key: nil, Value: []byte{0xff, 0}, Headers: []wire.Header{{Key: "h", Value: []byte("x\"y")}}}
	got := string(appendJSONRecord(nil, &r))
	want := `{"topic":"t","partition":1,"offset":2,"timestamp":3,"key":null,"value_base64":"/wA=","headers":[{"key":"h","value":"x\"y"}]}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(got), &m); err != nil || !reflect.DeepEqual(m["headers"], []any{map[string]any{"key": "h", "value": "x\"y"}}) {
		t.Fatalf("%v %v", m, err)
	}
}
