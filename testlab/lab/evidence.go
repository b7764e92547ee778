package lab

import (
	"time"

	"github.com/gregor-kafka/gregor/testlab/internal/jsonfile"
)

// Evidence statuses.
const (
	Running = "running"
	Passed  = "passed"
	Failed  = "failed"
)

// Evidence is the lab's record of one run (see the package documentation).
type Evidence struct {
	Schema     int        `json:"schema"`
	Status     string     `json:"status"`
	Reasons    []string   `json:"reasons,omitempty"`
	StartedAt  time.Time  `json:"started_at"`
	FinishedAt *time.Time `json:"finished_at,omitempty"`
	// Inputs are the run's parameters (cases, timeout, paths).
	Inputs map[string]string `json:"inputs"`
	// Cases are the case names the run had to run, each exactly once.
	Cases        []string       `json:"cases"`
	Commands     []Command      `json:"commands"`
	Observations []string       `json:"observations"`
	Versions     Versions       `json:"versions"`
	Tests        []TestResult   `json:"tests"`
	TestCounts   map[string]int `json:"test_counts"`
	// Sources maps each source file (relative to the repository) to its
	// SHA-256 at the start; SourcesEnd at the end.
	Sources    map[string]string `json:"sources_sha256"`
	SourcesEnd map[string]string `json:"sources_sha256_end"`
	Logs       []string          `json:"logs"`
	Cleanup    Cleanup           `json:"cleanup"`
}

// Command is one process the lab ran.
type Command struct {
	Args       []string  `json:"args"`
	Dir        string    `json:"dir"`
	StartedAt  time.Time `json:"started_at"`
	Millis     int64     `json:"duration_ms"`
	ExitStatus int       `json:"exit_status"` // -1: did not start or was killed by a signal
	Error      string    `json:"error,omitempty"`
}

// Versions are the versions the lab expects and those actually used (as the
// cases report them: Kafka from the brokers' own start-up lines, Go from the
// test binary's runtime).
type Versions struct {
	KafkaExpected string   `json:"kafka_expected"`
	KafkaActual   []string `json:"kafka_actual"`
	GoExpected    string   `json:"go_expected"`
	GoActual      []string `json:"go_actual"`
}

// TestResult is one test's runs and final action as go test -json reported
// them ("pass", "fail", "skip"; "" when it never ended).
type TestResult struct {
	Name   string `json:"name"`
	Runs   int    `json:"runs"`
	Result string `json:"result"`
}

// Cleanup says whether the run left nothing behind.
type Cleanup struct {
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// Write stores e at path atomically: a temp file in the same directory,
// then a rename over path.
func (e *Evidence) Write(path string) error { return jsonfile.Write(path, ".lab-evidence-*", e) }
