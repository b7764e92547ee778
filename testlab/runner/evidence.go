package runner

import (
	"encoding/json"
	"time"

	"github.com/gregor-kafka/gregor/testlab/faultproxy"
	"github.com/gregor-kafka/gregor/testlab/internal/jsonfile"
)

// Verdicts.
const (
	Passed     = "passed"
	Failed     = "failed"
	Invalid    = "invalid"
	Ineligible = "ineligible"
)

// Evidence is the JSON record of one scenario run. It is first written with
// Status "running" and atomically replaced with Status "final" at the end, so
// a crash leaves "running", never a stale verdict.
type Evidence struct {
	Schema          int              `json:"schema"`
	Status          string           `json:"status"`
	ScenarioID      string           `json:"scenario_id"`
	ScenarioFile    string           `json:"scenario_file"`
	RunID           string           `json:"run_id"`
	Verdict         string           `json:"verdict,omitempty"`
	Reason          string           `json:"reason,omitempty"`
	Adapter         string           `json:"adapter"`
	Descriptor      json.RawMessage  `json:"descriptor,omitempty"`
	Environment     map[string]any   `json:"environment"`
	StartedAt       time.Time        `json:"started_at"`
	FinishedAt      *time.Time       `json:"finished_at,omitempty"`
	DurationMillis  int64            `json:"duration_ms"`
	Transcript      []TranscriptLine `json:"transcript"`
	Facts           []Fact           `json:"observer_facts"`
	Stderr          string           `json:"stderr"`
	StderrTruncated bool             `json:"stderr_truncated"`
	ExitStatus      *int             `json:"exit_status"`
	// Faults are the fault proxies' records of a proxied scenario.
	Faults []faultproxy.Record `json:"faults,omitempty"`
}

// TranscriptLine is one line sent to or read from the adapter.
type TranscriptLine struct {
	Millis int64           `json:"t_ms"`
	Dir    string          `json:"dir"` // "command" | "event" | "raw" | "env"
	Line   json.RawMessage `json:"line,omitempty"`
	Text   string          `json:"text,omitempty"`
}

// Fact is one thing the observer checked against the broker.
type Fact struct {
	CommandID string `json:"command_id,omitempty"`
	Claim     string `json:"claim"`
	Broker    string `json:"broker"`
	OK        bool   `json:"ok"`
}

// write stores e at path atomically (temp file in the same dir, rename).
func (e *Evidence) write(path string) error { return jsonfile.Write(path, ".evidence-*", e) }
