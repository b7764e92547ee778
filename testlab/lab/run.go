package lab

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Config configures Run.
type Config struct {
	// Repo is the repository root: sources are hashed under it and the test
	// command runs in Repo/testlab.
	Repo string
	// Cases are the case names to run, each exactly once. Required.
	Cases []string
	// EvidenceDir receives <Name>-<YYYY-MM-DD>.json and its logs.
	EvidenceDir string
	// Name is the evidence file's base name. Default "lab".
	Name string
	// Timeout bounds the test command; at the deadline its process group gets
	// SIGTERM, then SIGKILL. Default 14 minutes.
	Timeout time.Duration
	// KafkaVersion is the Kafka version the cases must run against.
	KafkaVersion string
	// GoVersion is the Go version the cases must run with; "" asks
	// `go env GOVERSION` (recorded as a command).
	GoVersion string
	// Command replaces the test command (self-tests): it must print a
	// `go test -json` stream. Default: go test -json -tags lab -count=1
	// -run '^TestLab$/^(case|...)$' ./lab/cases/.
	Command []string
	// KillGrace is how long the test command's process group has between
	// SIGTERM and SIGKILL at the deadline. Default 20s.
	KillGrace time.Duration
	// Env is added to the test command's environment (TMPDIR is set to the
	// run directory).
	Env []string
	// Progress receives the test command's observation lines as they arrive
	// (nil: discard).
	Progress io.Writer
}

// Run runs the lab once and returns its evidence, already written to
// EvidenceDir with its final status, and the evidence path. The error is
// non-nil only when the evidence itself could not be written.
func Run(ctx context.Context, cfg Config) (*Evidence, string, error) {
	if cfg.Name == "" {
		cfg.Name = "lab"
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 14 * time.Minute
	}
	if cfg.KillGrace == 0 {
		cfg.KillGrace = 20 * time.Second
	}
	if cfg.Progress == nil {
		cfg.Progress = io.Discard
	}
	start := time.Now().UTC()
	base := filepath.Join(cfg.EvidenceDir, cfg.Name+"-"+start.Format("2006-01-02"))
	path := base + ".json"
	e := &Evidence{Schema: 1, Status: Running, StartedAt: start, Cases: cfg.Cases,
		Inputs:   map[string]string{"repo": cfg.Repo, "cases": strings.Join(cfg.Cases, ","), "timeout": cfg.Timeout.String()},
		Versions: Versions{KafkaExpected: cfg.KafkaVersion, GoExpected: cfg.GoVersion}}
	if err := e.Write(path); err != nil {
		return e, path, fmt.Errorf("lab: evidence %s: %w", path, err)
	}
	var err error
	if e.Sources, err = HashSources(cfg.Repo); err != nil {
		e.Reasons = append(e.Reasons, "hashing sources: "+err.Error())
	}
	if e.Versions.GoExpected == "" {
		var out bytes.Buffer
		c := runCommand(ctx, cfg.KillGrace, cfg.Repo, nil, &out, io.Discard, "go", "env", "GOVERSION")
		e.Commands = append(e.Commands, c)
		e.Versions.GoExpected = strings.TrimSpace(out.String())
	}
	runDir, err := os.MkdirTemp("", "gregor-lab-")
	if err != nil {
		return finish(e, path, "run directory: "+err.Error())
	}
	if err := os.Mkdir(filepath.Join(runDir, "tmp"), 0o755); err != nil {
		return finish(e, path, "run directory: "+err.Error())
	}
	e.Inputs["run_dir"] = runDir

	stream, stderrLog := base+".test.jsonl", base+".stderr.log"
	e.Logs = []string{stream, stderrLog}
	e.Write(path)
	args := cfg.Command
	if args == nil {
		args = []string{"go", "test", "-json", "-tags", "lab", "-count=1", "-timeout", (cfg.Timeout - time.Minute).String(),
			"-run", RunPattern(cfg.Cases), "./lab/cases/"}
	}
	if err := runTests(ctx, cfg, args, runDir, stream, stderrLog, e); err != nil {
		e.Reasons = append(e.Reasons, err.Error())
	}
	e.Cleanup = cleanup(runDir)
	if e.SourcesEnd, err = HashSources(cfg.Repo); err != nil {
		e.Reasons = append(e.Reasons, "hashing sources at the end: "+err.Error())
	}
	return finish(e, path, "")
}

// runTests runs the test command into the stream and stderr logs and parses
// the stream into e.
func runTests(ctx context.Context, cfg Config, args []string, runDir, stream, stderrLog string, e *Evidence) error {
	out, err := os.Create(stream)
	if err != nil {
		return err
	}
	defer out.Close()
	errf, err := os.Create(stderrLog)
	if err != nil {
		return err
	}
	defer errf.Close()
	tctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	env := append([]string{"TMPDIR=" + filepath.Join(runDir, "tmp")}, cfg.Env...)
	c := runCommand(tctx, cfg.KillGrace, filepath.Join(cfg.Repo, "testlab"), env, io.MultiWriter(out, &progress{w: cfg.Progress}), errf, args...)
	e.Commands = append(e.Commands, c)
	if _, err := out.Seek(0, io.SeekStart); err != nil {
		return err
	}
	return parseTestJSON(out, e)
}

// finish decides e, adds any extra reason, writes it and returns it.
func finish(e *Evidence, path, extra string) (*Evidence, string, error) {
	status, why := Decide(e)
	if extra != "" {
		status, why = Failed, append(why, extra)
	}
	if len(e.Reasons) > 0 {
		status = Failed
	}
	e.Status = status
	e.Reasons = append(e.Reasons, why...)
	end := time.Now().UTC()
	e.FinishedAt = &end
	if err := e.Write(path); err != nil {
		return e, path, fmt.Errorf("lab: evidence %s: %w", path, err)
	}
	return e, path, nil
}

// RunPattern is go test's -run pattern selecting exactly cases under LabTest.
func RunPattern(cases []string) string {
	q := make([]string, len(cases))
	for i, c := range cases {
		q[i] = regexp.QuoteMeta(c)
	}
	return "^" + LabTest + "$/^(" + strings.Join(q, "|") + ")$"
}

// progress copies observation lines of a go test -json stream to w as they
// arrive.
type progress struct {
	w   io.Writer
	buf []byte
}

func (p *progress) Write(b []byte) (int, error) {
	p.buf = append(p.buf, b...)
	for {
		i := bytes.IndexByte(p.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		var e Evidence
		_ = parseTestJSON(bytes.NewReader(p.buf[:i+1]), &e)
		for _, o := range e.Observations {
			fmt.Fprintln(p.w, o)
		}
		p.buf = p.buf[i+1:]
	}
}
