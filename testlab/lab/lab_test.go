package lab

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var twoCases = []string{"minIsr", "retention"}

// stream builds a go test -json stream of a lab run: TestLab with one
// subtest per case, each printing line(case) (none when it returns "").
func stream(t *testing.T, cases []string, line func(string) []string, result func(string) string) string {
	var b strings.Builder
	ev := func(action, test, output string) {
		m := map[string]string{"Action": action, "Package": "p"}
		if test != "" {
			m["Test"] = test
		}
		if output != "" {
			m["Output"] = output
		}
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(data, '\n'))
	}
	ev("start", "", "")
	ev("run", LabTest, "")
	ev("output", LabTest, EnvPrefix+"kafka=4.4.0,4.4.0,4.4.0 go=go-test\n")
	for _, c := range cases {
		name := LabTest + "/" + c
		ev("run", name, "")
		for _, l := range line(c) {
			ev("output", name, l+"\n")
		}
		ev(result(c), name, "")
	}
	ev("pass", LabTest, "")
	ev("pass", "", "")
	return b.String()
}

func passLine(c string) []string { return []string{ObservationPrefix + c + "=PASS"} }
func pass(string) string         { return "pass" }

// goodEvidence is the evidence of a faithful run of twoCases.
func goodEvidence(t *testing.T) *Evidence {
	e := &Evidence{Cases: twoCases, Commands: []Command{{Args: []string{"go", "test"}}},
		Versions: Versions{KafkaExpected: "4.4.0", GoExpected: "go-test"},
		Sources:  map[string]string{"a.go": "1"}, SourcesEnd: map[string]string{"a.go": "1"},
		Cleanup: Cleanup{OK: true}}
	if err := parseTestJSON(strings.NewReader(stream(t, twoCases, passLine, pass)), e); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestDecide: a faithful run passes; each way evidence can be short of the
// rules makes it failed, never passed.
func TestDecide(t *testing.T) {
	if s, why := Decide(goodEvidence(t)); s != Passed {
		t.Fatalf("faithful run: %s %v", s, why)
	}
	mutations := map[string]func(e *Evidence){
		"missing observation line": func(e *Evidence) { e.Observations = e.Observations[1:] },
		"duplicated observation line": func(e *Evidence) {
			e.Observations = append(e.Observations, e.Observations[0])
		},
		"observation says FAIL": func(e *Evidence) {
			e.Observations[0] = ObservationPrefix + "minIsr=FAIL (no)"
		},
		"line of an unknown case": func(e *Evidence) {
			e.Observations = append(e.Observations, ObservationPrefix+"other=PASS")
		},
		"skipped case": func(e *Evidence) { e.Tests[1].Result = "skip" },
		"case never ran": func(e *Evidence) {
			e.Tests = slices.DeleteFunc(e.Tests, func(r TestResult) bool { return r.Name == LabTest+"/retention" })
		},
		"case ran twice":          func(e *Evidence) { e.Tests[1].Runs = 2 },
		"no cases selected":       func(e *Evidence) { e.Cases = nil; e.Observations = nil },
		"source changed mid-run":  func(e *Evidence) { e.SourcesEnd = map[string]string{"a.go": "2"} },
		"source added mid-run":    func(e *Evidence) { e.SourcesEnd = map[string]string{"a.go": "1", "b.go": "3"} },
		"no source hashes":        func(e *Evidence) { e.Sources, e.SourcesEnd = nil, nil },
		"failed cleanup":          func(e *Evidence) { e.Cleanup = Cleanup{OK: false, Detail: "a JVM left"} },
		"kafka version mismatch":  func(e *Evidence) { e.Versions.KafkaActual[1] = "4.3.0" },
		"kafka version unknown":   func(e *Evidence) { e.Versions.KafkaActual = nil },
		"go version mismatch":     func(e *Evidence) { e.Versions.GoExpected = "go1.0" },
		"command exited non-zero": func(e *Evidence) { e.Commands[0].ExitStatus = 1 },
		"no command":              func(e *Evidence) { e.Commands = nil },
	}
	for name, mutate := range mutations {
		t.Run(name, func(t *testing.T) {
			e := goodEvidence(t)
			mutate(e)
			if s, why := Decide(e); s != Failed || len(why) == 0 {
				t.Errorf("%s: status %s (%v), want failed", name, s, why)
			}
		})
	}
}

// fakeRepo is a repository root with one source file.
func fakeRepo(t *testing.T) string {
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, "testlab"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "testlab", "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return repo
}

// runFake runs the lab with a command that prints events (written to a file)
// and then runs the shell snippet extra.
func runFake(t *testing.T, repo, events, extra string) *Evidence {
	t.Helper()
	return runFakeFor(t, repo, events, extra, time.Minute)
}

// runFakeFor is runFake with a deadline for the command (1s grace before
// SIGKILL).
func runFakeFor(t *testing.T, repo, events, extra string, timeout time.Duration) *Evidence {
	t.Helper()
	f := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(f, []byte(events), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Repo: repo, Cases: twoCases, EvidenceDir: filepath.Join(repo, "evidence"), KafkaVersion: "4.4.0",
		GoVersion: "go-test", Timeout: timeout, KillGrace: time.Second, Command: []string{"sh", "-c", "cat " + f + "; " + extra}}
	e, path, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var onDisk Evidence
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &onDisk); err != nil {
		t.Fatal(err)
	}
	if onDisk.Status != e.Status {
		t.Fatalf("file says %s, Run returned %s", onDisk.Status, e.Status)
	}
	return &onDisk
}

// TestRunEvidence runs the lab with scripted test commands: a faithful one
// passes (its evidence says running while it runs); a later failing run of the same day overwrites the success; a
// source file changed mid-run, a process left in the run directory and a
// missing observation line each make the evidence failed.
func TestRunEvidence(t *testing.T) {
	repo := fakeRepo(t)
	good := stream(t, twoCases, passLine, pass)
	// While the cases run, the evidence file already says running.
	running := `grep -q '"status": "running"' ` + filepath.Join(repo, "evidence", "lab-*.json")
	if e := runFake(t, repo, good, running); e.Status != Passed {
		t.Fatalf("faithful run: %s %v", e.Status, e.Reasons)
	}
	missing := stream(t, twoCases, func(c string) []string {
		if c == "retention" {
			return nil
		}
		return passLine(c)
	}, pass)
	if e := runFake(t, repo, missing, "true"); e.Status != Failed {
		t.Errorf("missing line: %s, want failed (overwriting the earlier success)", e.Status)
	}
	if e := runFake(t, repo, good, "echo '// edited' >> a.go"); e.Status != Failed || !strings.Contains(strings.Join(e.Reasons, ";"), "testlab/a.go") {
		t.Errorf("source changed mid-run: %s %v, want failed naming testlab/a.go", e.Status, e.Reasons)
	}
	left := `sh -c 'sleep 30' "$TMPDIR/left-behind" </dev/null >/dev/null 2>&1 &`
	e := runFake(t, repo, good, left)
	if e.Status != Failed || e.Cleanup.OK {
		t.Errorf("process left behind: %s, cleanup %+v, want failed", e.Status, e.Cleanup)
	}
	if e := runFake(t, repo, good, "exit 3"); e.Status != Failed {
		t.Errorf("non-zero exit: %s, want failed", e.Status)
	}
}

// TestRunPattern checks the -run pattern selects exactly the named subtests.
func TestRunPattern(t *testing.T) {
	if got, want := RunPattern([]string{"minIsr", "a.b"}), `^TestLab$/^(minIsr|a\.b)$`; got != want {
		t.Errorf("RunPattern = %q, want %q", got, want)
	}
}

// TestRunDeadline: at the deadline the test command's whole process group is
// stopped (a child that ignores SIGTERM too, by the SIGKILL after the
// grace), the run is failed, and nothing is left in the run directory.
func TestRunDeadline(t *testing.T) {
	repo := fakeRepo(t)
	stubborn := `trap '' TERM; sh -c 'trap "" TERM; sleep 30' "$TMPDIR/child" & sleep 30`
	start := time.Now()
	e := runFakeFor(t, repo, stream(t, twoCases, passLine, pass), stubborn, time.Second)
	if took := time.Since(start); took > 15*time.Second {
		t.Errorf("the run took %v: the process group outlived its deadline and grace", took)
	}
	if e.Status != Failed || e.Commands[0].ExitStatus != -1 || !strings.Contains(e.Commands[0].Error, "deadline") {
		t.Errorf("status %s, command %+v; want failed, exit -1 at the deadline", e.Status, e.Commands[0])
	}
	if !e.Cleanup.OK {
		t.Errorf("cleanup %+v: the group's SIGKILL left a process", e.Cleanup)
	}
}
