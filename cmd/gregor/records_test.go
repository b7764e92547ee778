package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
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

// TestBinaryExitStatus runs the built command: --help exits 0 on stdout, a
// bad flag and an unreachable broker exit 1 with one line on stderr.
func TestBinaryExitStatus(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "gregor")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cases := []struct {
		args   []string
		status int
		stderr string
	}{
		{[]string{"topic", "list", "--help"}, 0, ""},
		{[]string{"topic", "list", "--bogus"}, 1, "gregor topic list: flag provided but not defined: -bogus (see gregor topic list --help)\n"},
		{[]string{"cluster", "describe", "-b", "127.0.0.1:1", "--timeout", "1s"}, 1, "gregor cluster describe: cannot connect to 127.0.0.1:1: "},
	}
	for _, tc := range cases {
		cmd := exec.Command(bin, tc.args...)
		cmd.Env = append(os.Environ(), "GREGOR_BOOTSTRAP=", "GREGOR_CONFIG=")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		status := 0
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if status != tc.status || !strings.HasPrefix(stderr.String(), tc.stderr) || strings.Count(stderr.String(), "\n") > 1 {
			t.Fatalf("gregor %v: status %d, stderr %q; want %d, %q", tc.args, status, stderr.String(), tc.status, tc.stderr)
		}
		if tc.status == 0 && !strings.Contains(stdout.String(), "usage: gregor topic list") {
			t.Fatalf("--help stdout %q", stdout.String())
		}
	}
}
