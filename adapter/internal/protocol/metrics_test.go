package protocol

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
)

// TestSnapshotFromMapsNames: each of the client's metric names lands under
// the protocol key SnapshotFrom documents, with durations in nanoseconds.
func TestSnapshotFromMapsNames(t *testing.T) {
	var m client.MetricsSnapshot
	m.Calls = client.CallMetrics{Started: 1, Succeeded: 2, Failed: 3, Abandoned: 4, NotSent: 5, PossiblySent: 6, RejectedClosed: 7}
	m.Failures = client.FailureMetrics{Rejected: 8, ResponseTooLarge: 9, UnknownBroker: 10}
	m.Slots = client.SlotMetrics{MaxInFlight: 11, Waiting: 12, Waited: 13}
	m.Stages.SlotWait = client.DurationStats{Count: 14, Total: 15 * time.Nanosecond, Max: 16 * time.Nanosecond}
	m.Stages.WriterWait = client.DurationStats{Count: 17}
	m.Stages.Call = client.DurationStats{Count: 18}
	m.Stages.DeadlineOverrun = client.DurationStats{Count: 19}
	m.Producer = client.ProducerMetrics{BufferedRecords: 20, UnreadResults: 21, Bytes: 22, PeakInFlightPerBroker: 23, SealedBatches: 24}
	b, err := json.Marshal(SnapshotFrom(m))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		section, key string
		want         float64
	}{
		{"calls", "admitted", 1}, {"calls", "observer_abandoned", 4}, {"calls", "possibly_sent", 6},
		{"failures", "local_rejection", 8}, {"failures", "response_capacity", 9}, {"failures", "route_capacity", 10},
		{"mailbox", "capacity_per_lane", 11}, {"mailbox", "queued_work", 12}, {"mailbox", "work_full", 13},
		{"mailbox", "closed_rejections", 7}, {"mailbox", "queued_control", 0},
		{"producer", "active_records", 20}, {"producer", "terminal_backlog", 21}, {"producer", "produce_encoded_bytes", 22},
		{"producer", "peak_produce_in_flight_requests_per_broker", 23}, {"producer", "prepared_batches", 24},
	} {
		if v, _ := got[c.section][c.key].(float64); v != c.want {
			t.Errorf("%s.%s = %v, want %v", c.section, c.key, got[c.section][c.key], c.want)
		}
	}
	lat := got["latency"]
	for key, want := range map[string]float64{"mailbox": 14, "writer_admission": 17, "end_to_end": 18, "deadline_lateness": 19} {
		if v, _ := lat[key].(map[string]any)["samples"].(float64); v != want {
			t.Errorf("latency.%s.samples = %v, want %v", key, lat[key], want)
		}
	}
	if mb := lat["mailbox"].(map[string]any); mb["total_ns"] != 15.0 || mb["max_ns"] != 16.0 {
		t.Errorf("latency.mailbox = %v, want total_ns 15 max_ns 16", mb)
	}
}
