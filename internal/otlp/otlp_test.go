package otlp

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"
)

// field is one decoded protobuf field: a varint, a fixed64 or bytes.
type field struct {
	num   int
	wt    int
	u     uint64
	bytes []byte
}

// parse reads one protobuf message's fields with the wire format's rules
// only (tag varint, then a varint, 8 bytes or a length-delimited run),
// knowing nothing of the writer.
func parse(t *testing.T, b []byte) []field {
	t.Helper()
	var out []field
	for len(b) > 0 {
		tag, n := binary.Uvarint(b)
		if n <= 0 {
			t.Fatalf("bad tag varint in %x", b)
		}
		b = b[n:]
		f := field{num: int(tag >> 3), wt: int(tag & 7)}
		switch f.wt {
		case 0:
			f.u, n = binary.Uvarint(b)
			if n <= 0 {
				t.Fatalf("bad varint")
			}
			b = b[n:]
		case 1:
			if len(b) < 8 {
				t.Fatalf("short fixed64")
			}
			f.u = binary.LittleEndian.Uint64(b)
			b = b[8:]
		case 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				t.Fatalf("bad length")
			}
			f.bytes = b[n : n+int(l)]
			b = b[n+int(l):]
		default:
			t.Fatalf("unexpected wire type %d", f.wt)
		}
		out = append(out, f)
	}
	return out
}

func only(t *testing.T, fs []field, num int) []field {
	t.Helper()
	var out []field
	for _, f := range fs {
		if f.num == num {
			out = append(out, f)
		}
	}
	return out
}

func one(t *testing.T, fs []field, num int) field {
	t.Helper()
	o := only(t, fs, num)
	if len(o) != 1 {
		t.Fatalf("field %d: %d occurrences, want 1", num, len(o))
	}
	return o[0]
}

func kv(t *testing.T, b []byte) string {
	fs := parse(t, b)
	val := parse(t, one(t, fs, 2).bytes)
	return fmt.Sprintf("%s=%s", one(t, fs, 1).bytes, one(t, val, 1).bytes)
}

// TestMetricsDataLayout decodes a payload with the independent reader above
// and checks every field against metrics.proto's numbering.
func TestMetricsDataLayout(t *testing.T) {
	md := MetricsData{
		Resource:  []Attr{{"client_id", "c1"}},
		ScopeName: "gregor", ScopeVersion: "dev",
		Metrics: []Metric{
			{Name: "org.apache.kafka.producer.connection.creation.total", Unit: "1", Sum: true, Temporality: TemporalityCumulative, Monotonic: true,
				Points: []Point{{Start: 10, Time: 20, Value: 3}}},
			{Name: "org.apache.kafka.producer.node.request.latency.avg", Unit: "ms",
				Points: []Point{{Time: 30, Value: 1.5, Attrs: []Attr{{"node_id", "1"}}}, {Time: 30, Value: 0, Attrs: []Attr{{"node_id", "2"}}}}},
		},
	}
	top := parse(t, md.Append(nil))
	rm := parse(t, one(t, top, 1).bytes)
	res := parse(t, one(t, rm, 1).bytes)
	if got := kv(t, one(t, res, 1).bytes); got != "client_id=c1" {
		t.Fatalf("resource attribute %q", got)
	}
	sm := parse(t, one(t, rm, 2).bytes)
	scope := parse(t, one(t, sm, 1).bytes)
	if string(one(t, scope, 1).bytes) != "gregor" || string(one(t, scope, 2).bytes) != "dev" {
		t.Fatalf("scope %v", scope)
	}
	ms := only(t, sm, 2)
	if len(ms) != 2 {
		t.Fatalf("%d metrics", len(ms))
	}
	sum := parse(t, ms[0].bytes)
	if string(one(t, sum, 1).bytes) != md.Metrics[0].Name || string(one(t, sum, 3).bytes) != "1" {
		t.Fatalf("sum metric %v", sum)
	}
	sd := parse(t, one(t, sum, 7).bytes)
	if one(t, sd, 2).u != 2 || one(t, sd, 3).u != 1 {
		t.Fatalf("sum temporality/monotonic %v", sd)
	}
	p := parse(t, one(t, sd, 1).bytes)
	if one(t, p, 2).u != 10 || one(t, p, 3).u != 20 || math.Float64frombits(one(t, p, 4).u) != 3 {
		t.Fatalf("sum point %v", p)
	}
	gauge := parse(t, ms[1].bytes)
	if len(only(t, gauge, 7)) != 0 {
		t.Fatal("gauge written as a sum")
	}
	pts := only(t, parse(t, one(t, gauge, 5).bytes), 1)
	if len(pts) != 2 {
		t.Fatalf("%d gauge points", len(pts))
	}
	p2 := parse(t, pts[1].bytes)
	if len(only(t, p2, 2)) != 0 || one(t, p2, 4).u != 0 || kv(t, one(t, p2, 7).bytes) != "node_id=2" {
		t.Fatalf("gauge point %v", p2)
	}
	if one(t, p2, 4).wt != 1 || one(t, p2, 3).wt != 1 {
		t.Fatal("as_double or time_unix_nano not fixed64")
	}
}

// TestEmptyMetricsData: no metrics is still one ResourceMetrics with a
// scope, which a decoder reads as an empty push.
func TestEmptyMetricsData(t *testing.T) {
	md := MetricsData{ScopeName: "gregor"}
	top := parse(t, md.Append(nil))
	sm := parse(t, one(t, parse(t, one(t, top, 1).bytes), 2).bytes)
	if len(only(t, sm, 2)) != 0 {
		t.Fatal("metrics in an empty payload")
	}
}
