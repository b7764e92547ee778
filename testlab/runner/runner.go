// Package runner drives an adapter binary through testlab scenarios the way
// testctl does (adapter control protocol v34): cleared environment, hello and
// capability check, numbered commands, strict completion rules (package
// judge), and an independent observer (package observer) that checks every
// claim against the broker. Each run writes an evidence JSON file.
package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/testlab/faultproxy"
	"github.com/gregor-kafka/gregor/testlab/judge"
	"github.com/gregor-kafka/gregor/testlab/observer"
	"github.com/gregor-kafka/gregor/testlab/scenario"
)

// Config configures Run.
type Config struct {
	// Adapter is the path of the adapter binary.
	Adapter string
	// ExtraEnv are declared "NAME=value" variables passed to the adapter in
	// addition to the TESTLAB_KAFKA_* variables of the scenario's security.
	ExtraEnv []string
	// EvidenceDir receives <scenario>-<run>.json files ("" = none).
	EvidenceDir string
	// Bed provides clusters.
	Bed *Bed
	// CommandTimeout bounds each command's completion (default 90s).
	CommandTimeout time.Duration
	// Log receives progress lines (nil: discard).
	Log func(string, ...any)
}

// Result is the outcome of one scenario.
type Result struct {
	ScenarioID string
	Verdict    string
	Reason     string
	Duration   time.Duration
	Evidence   string
}

// Env names testctl uses for hello's *_environment fields (§2.1).
const (
	EnvCAPEM    = "TESTLAB_KAFKA_TLS_CA_PEM"
	EnvUsername = "TESTLAB_KAFKA_SASL_USERNAME"
	EnvPassword = "TESTLAB_KAFKA_SASL_PASSWORD"
)

// outcome ends a run early with a verdict.
type outcome struct {
	verdict, reason string
}

func (o *outcome) Error() string { return o.verdict + ": " + o.reason }

func failf(format string, args ...any) *outcome {
	return &outcome{Failed, fmt.Sprintf(format, args...)}
}

func invalidf(format string, args ...any) *outcome {
	return &outcome{Invalid, fmt.Sprintf(format, args...)}
}

// run is the state of one scenario run.
type run struct {
	cfg     Config
	sc      *scenario.Scenario
	exp     scenario.Expander
	cluster *kafkatest.Cluster
	obs     *observer.Observer
	proc    *adapterProc
	sess    *judge.Session
	ev      *Evidence
	evPath  string
	start   time.Time
	n       int // commands sent
	ops     map[string]*opRecord
	// opOrder lists operation ids in the order the runner first saw them
	// (the order each producer was handed them), for the invariant checker.
	opOrder []string
	// reads are the records receive commands claimed, in command order.
	reads []readRecord
	// envSends are the records environment steps produced with the observer.
	envSends []map[string]any
	topics   map[string]bool // topics the scenario created (setup or adapter)
	deleted  map[string]bool
	groups   map[string]bool
	// views: per group consumer, the assignment its observed transitions
	// add up to (claims_group.go).
	views map[string]*groupView
	// paused: brokers are SIGSTOPped; claims wait in deferred until resume.
	paused   bool
	deferred []*judge.Command
	down     int32 // the broker the last stop/kill took down

	share *shareState // share-group claims (share.go), made on first use
	// committedScans caches read_committed scans per "topic/partition"
	// within one checkClaimsOnce (cleared at its start).
	committedScans map[string]committedScan
	// proxies front the brokers when the environment is proxied; faults
	// are the ones applied and not yet removed, by name.
	proxies *faultproxy.Set
	faults  map[string]*faultproxy.Group
}

// opRecord is what the runner knows about one producer operation.
type opRecord struct {
	spec      map[string]any
	topic     string
	partition int32
	status    string
	offset    *int64
	commandID string
	txn       string
	// producer is the producer (producer_id, or producer_id/actor_id for a
	// concurrent actor, whose sends have no order among themselves).
	producer string
}

// Run runs one scenario and returns its verdict. It never panics on adapter
// misbehaviour; every problem becomes a verdict with a reason.
func Run(ctx context.Context, cfg Config, sc *scenario.Scenario) Result {
	if cfg.CommandTimeout == 0 {
		cfg.CommandTimeout = 90 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = func(string, ...any) {}
	}
	var rb [4]byte
	_, _ = rand.Read(rb[:])
	suffix := hex.EncodeToString(rb[:])
	r := &run{
		cfg: cfg, sc: sc, start: time.Now(),
		exp:  scenario.Expander{RunID: "run-" + time.Now().UTC().Format("20060102T150405") + "-" + suffix, Suffix: suffix},
		sess: judge.NewSession(), ops: map[string]*opRecord{}, topics: map[string]bool{}, deleted: map[string]bool{}, groups: map[string]bool{}, views: map[string]*groupView{},
	}
	r.ev = &Evidence{Schema: 1, Status: "running", ScenarioID: sc.ID, ScenarioFile: sc.Path, RunID: r.exp.RunID,
		Adapter: cfg.Adapter, StartedAt: r.start.UTC(), Environment: map[string]any{}}
	if cfg.EvidenceDir != "" {
		r.evPath = filepath.Join(cfg.EvidenceDir, sc.ID+"-"+r.exp.RunID+".json")
		_ = r.ev.write(r.evPath)
	}
	timeout := time.Duration(sc.TimeoutSeconds) * time.Second
	if timeout == 0 {
		timeout = 180 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	verdict, reason := Passed, ""
	if err := r.execute(ctx); err != nil {
		var o *outcome
		if errors.As(err, &o) {
			verdict, reason = o.verdict, o.reason
		} else {
			verdict, reason = Invalid, err.Error()
		}
	}
	if r.proc != nil {
		r.proc.kill()
		r.ev.Stderr, r.ev.StderrTruncated = r.proc.Stderr()
	}
	if r.obs != nil {
		r.obs.Close()
	}
	if problem := r.closeProxies(); problem != "" && verdict == Passed {
		verdict, reason = Invalid, problem
	}
	if verdict != Ineligible {
		if err := cfg.Bed.Heal(context.Background()); err != nil {
			cfg.Log("testlab: healing the 1+3 cluster: %v", err)
		}
	}
	end := time.Now()
	r.ev.Status, r.ev.Verdict, r.ev.Reason = "final", verdict, reason
	r.ev.FinishedAt = &end
	r.ev.DurationMillis = end.Sub(r.start).Milliseconds()
	if r.evPath != "" {
		if err := r.ev.write(r.evPath); err != nil {
			cfg.Log("testlab: evidence %s: %v", r.evPath, err)
		}
	}
	return Result{ScenarioID: sc.ID, Verdict: verdict, Reason: reason, Duration: end.Sub(r.start), Evidence: r.evPath}
}

func (r *run) ms() int64 { return time.Since(r.start).Milliseconds() }

func (r *run) fact(cmdID, claim, broker string, ok bool) {
	r.ev.Facts = append(r.ev.Facts, Fact{CommandID: cmdID, Claim: claim, Broker: broker, OK: ok})
}

// execute runs the scenario; a non-nil error carries the verdict.
func (r *run) execute(ctx context.Context) error {
	env := r.sc.Environment
	c, err := r.cfg.Bed.Cluster(ctx, env.Shape)
	if err != nil {
		return invalidf("environment: %v", err)
	}
	r.cluster = c
	r.obs, err = observer.New(c.Bootstrap(kafkatest.Plaintext))
	if err != nil {
		return invalidf("observer: %v", err)
	}
	for _, t := range r.sc.Setup.Topics {
		name := r.exp.String(t.Name)
		if err := r.obs.CreateTopic(ctx, name, t.Partitions, t.ReplicationFactor, t.Configs); err != nil {
			return invalidf("setup: topic %s: %v", name, err)
		}
		r.topics[name] = true
		r.fact("", "setup topic "+name, fmt.Sprintf("created with %d partitions", t.Partitions), true)
	}

	security, procEnv, listener, err := r.security()
	if err != nil {
		return invalidf("environment: %v", err)
	}
	endpoints := c.Bootstrap(listener)
	if env.Proxied {
		if endpoints, err = r.startProxies(c, listener); err != nil {
			return invalidf("environment: %v", err)
		}
	}
	r.ev.Environment = map[string]any{"shape": c.Shape(), "listener": listener, "bootstrap": endpoints,
		"cluster_id": c.ClusterID(), "security": security, "proxied": env.Proxied}
	r.proc, err = startAdapter(r.cfg.Adapter, append(procEnv, r.cfg.ExtraEnv...))
	if err != nil {
		return invalidf("%v", err)
	}

	steps := r.sc.Steps
	if !r.sc.SkipsHello() {
		hello := map[string]any{"kind": "hello", "run_id": r.exp.RunID, "scenario_id": r.sc.ID,
			"broker_endpoints": toAny(endpoints), "security": security}
		cmd, err := r.command(ctx, hello)
		if err != nil {
			return err
		}
		if cmd.Failed {
			return invalidf("hello answered with command_failed")
		}
		r.ev.Descriptor = cmd.Completion.Fields["descriptor"]
		caps := cmd.Completion.Payload.(*judge.Ready).Descriptor.Capabilities
		var missing []string
		for _, req := range r.sc.Requires {
			if !containsStr(caps, req) {
				missing = append(missing, req)
			}
		}
		if len(missing) > 0 {
			_, _ = r.command(ctx, map[string]any{"kind": "abort"})
			return &outcome{Ineligible, fmt.Sprintf("adapter lacks capabilities %v", missing)}
		}
		why, err := brokerLacks(ctx, c.Bootstrap(kafkatest.Plaintext), r.sc.Requires)
		if err != nil {
			return invalidf("environment: broker features: %v", err)
		}
		if why != "" {
			_, _ = r.command(ctx, map[string]any{"kind": "abort"})
			return &outcome{Ineligible, why}
		}
	}

	for i, st := range steps {
		var err error
		switch {
		case st.Env != nil:
			err = r.envAction(ctx, st.Env)
		case st.Raw != nil:
			return r.rawStep(ctx, i, st)
		default:
			err = r.commandStep(ctx, i, st)
		}
		if errors.Is(err, errSessionEnded) {
			return nil
		}
		if err != nil {
			return r.settleAfter(ctx, err)
		}
	}
	cmd, err := r.command(ctx, map[string]any{"kind": "finish"})
	if err != nil {
		return err
	}
	if cmd.Failed {
		code, _ := failure(cmd.Completion)
		return failf("finish answered with command_failed: %s", code)
	}
	if err := r.settle(ctx, 0); err != nil {
		return err
	}
	return r.checkInvariants(ctx)
}

// settleAfter ends the session after a step failed: for a scenario failure
// the runner sends abort (expects aborted, exit 0); for an unexpected
// command_failed it closes stdin and requires exit 0 (§9.2). Invalid runs end
// at once.
func (r *run) settleAfter(ctx context.Context, stepErr error) error {
	var o *outcome
	if !errors.As(stepErr, &o) || o.verdict != Failed {
		return stepErr
	}
	if act := r.sess.Active(); act == nil {
		last := r.sess.Commands()
		if len(last) > 0 && last[len(last)-1].Failed {
			// after an undeclared command_failed: close stdin, exit 0 required
			if err := r.settle(ctx, 0); err != nil {
				return err
			}
			return stepErr
		}
		if _, err := r.command(ctx, map[string]any{"kind": "abort"}); err != nil {
			return err
		}
		if err := r.settle(ctx, 0); err != nil {
			return err
		}
	}
	return stepErr
}

// settle closes stdin, reads stdout to EOF (any event now is invalid) and
// requires exit status want (0) or, with want < 0, any non-zero status.
func (r *run) settle(ctx context.Context, want int) error {
	r.proc.closeStdin()
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	// Nothing may follow the session's last completion: the next stdout item
	// must be EOF.
	l, err := r.proc.next(wctx)
	if err != nil {
		return invalidf("scenario_timeout: adapter did not close stdout after stdin closed")
	}
	if l.err != io.EOF {
		if l.data != nil {
			r.ev.Transcript = append(r.ev.Transcript, TranscriptLine{Millis: r.ms(), Dir: "event", Line: rawOrText(l.data)})
		}
		if l.err != nil {
			return invalidf("%v", l.err)
		}
		if _, _, err := r.sess.Feed(l.data); err != nil {
			return invalidf("late event after the session ended: %v", err)
		}
		return invalidf("unexpected_event_kind: event after the session ended: %.200s", l.data)
	}
	code, ok := r.proc.wait(wctx)
	r.ev.ExitStatus = &code
	if !ok {
		return invalidf("subject_exit_failed: adapter did not exit after stdout closed")
	}
	if want >= 0 && code != want {
		return invalidf("subject_exit_failed: exit status %d, want %d", code, want)
	}
	if want < 0 && code == 0 {
		return failf("adapter exited 0, want a non-zero exit status")
	}
	return nil
}

// command sends one command (kind + payload), waits for its completion and
// returns it. Protocol problems are invalid verdicts.
func (r *run) command(ctx context.Context, payload map[string]any) (*judge.Command, error) {
	r.n++
	id := judge.CommandID(r.n)
	kind := payload["kind"].(string)
	env := map[string]any{}
	for k, v := range payload {
		env[k] = v
	}
	env["protocol_version"] = judge.ProtocolVersion
	env["command_id"] = id
	b, err := json.Marshal(env)
	if err != nil {
		return nil, invalidf("encoding command: %v", err)
	}
	if len(b)+1 > judge.MaxLineBytes {
		return nil, invalidf("command %s would exceed 4 MiB", kind)
	}
	body := map[string]any{}
	for k, v := range payload {
		if k != "kind" {
			body[k] = v
		}
	}
	// Round-trip so numbers compare as JSON numbers in identity checks.
	var norm map[string]any
	if err := json.Unmarshal(b, &norm); err != nil {
		return nil, invalidf("re-reading command %s: %v", kind, err)
	}
	cmd := r.sess.Begin(id, kind, norm)
	r.ev.Transcript = append(r.ev.Transcript, TranscriptLine{Millis: r.ms(), Dir: "command", Line: b})
	if err := r.proc.write(append(b, '\n')); err != nil {
		return nil, invalidf("subject_exited_early: writing %s: %v", kind, err)
	}
	return cmd, r.await(ctx, cmd)
}

// await reads events until cmd completes.
func (r *run) await(ctx context.Context, cmd *judge.Command) error {
	cctx, cancel := context.WithTimeout(ctx, r.cfg.CommandTimeout)
	defer cancel()
	for {
		l, err := r.proc.next(cctx)
		if err != nil {
			return invalidf("scenario_timeout: no completion of %s (%s) within %s", cmd.Kind, cmd.ID, r.cfg.CommandTimeout)
		}
		if l.data != nil {
			r.ev.Transcript = append(r.ev.Transcript, TranscriptLine{Millis: r.ms(), Dir: "event", Line: rawOrText(l.data)})
		}
		if l.err == io.EOF {
			code, _ := r.proc.wait(cctx)
			r.ev.ExitStatus = &code
			return invalidf("subject_exited_early: stdout closed while %s (%s) was pending (exit status %d)", cmd.Kind, cmd.ID, code)
		}
		if l.err != nil {
			return invalidf("%v", l.err)
		}
		ev, done, err := r.sess.Feed(l.data)
		if err != nil {
			var p *judge.Problem
			if errors.As(err, &p) && p.Code == "adapter_fatal" {
				return &fatalErr{ev: ev, p: p}
			}
			return invalidf("%v", err)
		}
		if done {
			return nil
		}
	}
}

// errSessionEnded reports that a step ended the session as the scenario
// expected (an expected fatal): no finish follows.
var errSessionEnded = errors.New("session ended as expected")

func cmd0ID(f *fatalErr) string {
	if f.ev == nil {
		return ""
	}
	return f.ev.CommandID
}

// fatalErr is an adapter fatal event: invalid unless a misuse step expects it.
type fatalErr struct {
	ev *judge.Event
	p  *judge.Problem
}

func (f *fatalErr) Error() string { return f.p.Error() }

func (r *run) security() (map[string]any, []string, kafkatest.Listener, error) {
	env := r.sc.Environment
	user, pass := kafkatest.AdminUser, kafkatest.AdminPassword
	if env.User == kafkatest.AliceUser {
		user, pass = kafkatest.AliceUser, kafkatest.AlicePassword
	} else if env.User != "" && env.User != kafkatest.AdminUser {
		user = env.User
	}
	if env.Password != "" {
		pass = env.Password
	}
	switch env.Security {
	case "", "plaintext":
		return map[string]any{"kind": "plaintext"}, nil, kafkatest.Plaintext, nil
	case "tls_custom":
		return map[string]any{"kind": "tls_custom", "ca_pem_environment": EnvCAPEM},
			[]string{EnvCAPEM + "=" + r.cluster.CAFile()}, kafkatest.SSL, nil
	case "sasl_plaintext":
		return map[string]any{"kind": "sasl_plaintext", "mechanism": env.Mechanism,
				"username_environment": EnvUsername, "password_environment": EnvPassword},
			[]string{EnvUsername + "=" + user, EnvPassword + "=" + pass}, kafkatest.SASLPlaintext, nil
	case "sasl_tls":
		return map[string]any{"kind": "sasl_tls", "ca_pem_environment": EnvCAPEM, "mechanism": env.Mechanism,
				"username_environment": EnvUsername, "password_environment": EnvPassword},
			[]string{EnvCAPEM + "=" + r.cluster.CAFile(), EnvUsername + "=" + user, EnvPassword + "=" + pass}, kafkatest.SASLSSL, nil
	}
	return nil, nil, "", fmt.Errorf("unknown security %q", env.Security)
}

// commandStep sends a scenario command and checks its expectations and claims.
func (r *run) commandStep(ctx context.Context, i int, st scenario.Step) error {
	payload := r.exp.Value(st.Command).(map[string]any)
	cmd, err := r.command(ctx, payload)
	var fe *fatalErr
	if errors.As(err, &fe) {
		if st.Expect != nil && st.Expect.Fatal != "" {
			if got, _ := failure(fe.ev); got != st.Expect.Fatal {
				return invalidf("step %d: fatal %s, want fatal %s", i+1, got, st.Expect.Fatal)
			}
			r.fact(cmd0ID(fe), "fatal "+st.Expect.Fatal, "adapter reported it", true)
			if err := r.settle(ctx, -1); err != nil {
				return err
			}
			return errSessionEnded
		}
		return invalidf("step %d (%s): %v", i+1, payload["kind"], fe.p)
	}
	if err != nil {
		return err
	}
	exp := st.Expect
	if exp == nil {
		exp = &scenario.Expect{}
	}
	if exp.Fatal != "" {
		return failf("step %d (%s): completed with %s, want fatal %s", i+1, cmd.Kind, cmd.Completion.Kind, exp.Fatal)
	}
	r.trackOps(cmd)
	if err := r.trackShare(cmd); err != nil {
		return failf("step %d (%s): %v", i+1, cmd.Kind, err)
	}
	if cmd.Failed {
		code, diagnostic := failure(cmd.Completion)
		switch {
		case exp.Error != "" && code == exp.Error, exp.ErrorPrefix != "" && strings.HasPrefix(code, exp.ErrorPrefix):
			r.fact(cmd.ID, "command_failed "+code, "expected by the scenario", true)
		case exp.Error != "" || exp.ErrorPrefix != "":
			return failf("step %d (%s): command_failed %q, want %q", i+1, cmd.Kind, code, exp.Error+exp.ErrorPrefix)
		default:
			return failf("step %d (%s): unexpected command_failed %s: %s", i+1, cmd.Kind, code, diagnostic)
		}
		// Operation claims made before the failure are still checked.
		if err := r.checkClaims(ctx, cmd); err != nil {
			return failf("step %d (%s): %v", i+1, cmd.Kind, err)
		}
		return nil
	}
	if exp.Error != "" || exp.ErrorPrefix != "" {
		return failf("step %d (%s): succeeded with %s, want command_failed %s", i+1, cmd.Kind, cmd.Completion.Kind, exp.Error+exp.ErrorPrefix)
	}
	// The broker's word first, then the scenario's expectations. While
	// brokers are paused the observer cannot read; those claims are checked
	// right after the brokers resume.
	if r.paused {
		r.deferred = append(r.deferred, cmd)
	} else if err := r.checkClaims(ctx, cmd); err != nil {
		return failf("step %d (%s): %v", i+1, cmd.Kind, err)
	}
	if err := r.checkExpect(cmd, exp); err != nil {
		return failf("step %d (%s): %v", i+1, cmd.Kind, err)
	}
	return nil
}

// rawStep sends malformed input; the session then ends as the step expects.
func (r *run) rawStep(ctx context.Context, i int, st scenario.Step) error {
	raw := st.Raw
	exp := st.Expect
	if exp == nil {
		exp = &scenario.Expect{Exit: "nonzero"}
	}
	var b []byte
	switch {
	case raw.OversizeBytes > 0:
		b = make([]byte, raw.OversizeBytes)
		copy(b, `{"protocol_version":34,"command_id":"`+judge.CommandID(r.n+1)+`","kind":"create_client","client_id":"`)
		for j := len(`{"protocol_version":34,"command_id":"`) + 16 + len(`","kind":"create_client","client_id":"`); j < len(b); j++ {
			b[j] = 'x'
		}
		b = append(b, '\n')
	case raw.ProtocolVersion != nil:
		r.n++
		id := judge.CommandID(r.n)
		payload, _ := r.exp.Value(raw.Command).(map[string]any)
		if payload == nil {
			payload = map[string]any{"kind": "create_client", "client_id": "client-v"}
		}
		env := map[string]any{"protocol_version": *raw.ProtocolVersion, "command_id": id}
		for k, v := range payload {
			env[k] = v
		}
		var err error
		if b, err = json.Marshal(env); err != nil {
			return invalidf("step %d: encoding the raw command: %v", i+1, err)
		}
		var norm map[string]any
		if err := json.Unmarshal(b, &norm); err != nil {
			return invalidf("step %d: re-reading the raw command: %v", i+1, err)
		}
		r.sess.Begin(id, payload["kind"].(string), norm)
		b = append(b, '\n')
	default:
		line := r.exp.String(raw.Line)
		line = strings.ReplaceAll(line, "${next_command_id}", judge.CommandID(r.n+1))
		if strings.Contains(raw.Line, "${next_command_id}") {
			r.n++
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) == nil {
				kind, _ := m["kind"].(string)
				r.sess.Begin(judge.CommandID(r.n), kind, m)
			}
		}
		b = []byte(line)
		if !raw.NoNewline {
			b = append(b, '\n')
		}
	}
	text := string(b)
	if len(text) > 300 {
		text = text[:300] + fmt.Sprintf("... (%d bytes)", len(b))
	}
	r.ev.Transcript = append(r.ev.Transcript, TranscriptLine{Millis: r.ms(), Dir: "raw", Text: text})
	if err := r.proc.write(b); err != nil && exp.Exit != "nonzero" {
		return invalidf("subject_exited_early: writing raw line: %v", err)
	}
	if raw.NoNewline {
		r.proc.closeStdin()
	}
	// Read what the adapter says until stdout ends.
	rctx, cancel := context.WithTimeout(ctx, r.cfg.CommandTimeout)
	defer cancel()
	var events []*judge.Event
	for {
		l, err := r.proc.next(rctx)
		if err != nil {
			return failf("step %d: adapter neither answered nor exited after malformed input", i+1)
		}
		if l.err == io.EOF {
			break
		}
		if l.data != nil {
			r.ev.Transcript = append(r.ev.Transcript, TranscriptLine{Millis: r.ms(), Dir: "event", Line: rawOrText(l.data)})
		}
		if l.err != nil {
			return invalidf("%v", l.err)
		}
		ev, _, ferr := r.sess.Feed(l.data)
		var p *judge.Problem
		if ferr != nil && !(errors.As(ferr, &p) && p.Code == "adapter_fatal") {
			return invalidf("step %d: %v", i+1, ferr)
		}
		events = append(events, ev)
	}
	r.proc.closeStdin()
	code, ok := r.proc.wait(rctx)
	r.ev.ExitStatus = &code
	if !ok {
		return failf("step %d: adapter did not exit", i+1)
	}
	if exp.NoEvents && len(events) > 0 {
		return failf("step %d: malformed input answered with %s, want no event", i+1, events[0].Kind)
	}
	if exp.Fatal != "" {
		if len(events) != 1 || events[0].Kind != "fatal" || fatalCode(events[0]) != exp.Fatal {
			return failf("step %d: want exactly one fatal %s, got %d events %v", i+1, exp.Fatal, len(events), kinds(events))
		}
		r.fact("", "fatal "+exp.Fatal, "adapter reported it", true)
	}
	switch exp.Exit {
	case "", "nonzero":
		if code == 0 {
			return failf("step %d: adapter exited 0 after malformed input, want non-zero", i+1)
		}
	case "zero":
		if code != 0 {
			return failf("step %d: adapter exited %d, want 0", i+1, code)
		}
	}
	r.fact("", fmt.Sprintf("exit status %d", code), "process status", true)
	return nil
}

// failure returns the code and diagnostic of a command_failed or fatal
// event ("" for other kinds).
func failure(ev *judge.Event) (code, diagnostic string) {
	switch p := ev.Payload.(type) {
	case *judge.CommandFailed:
		return p.Code, p.Diagnostic
	case *judge.Fatal:
		return p.Code, p.Diagnostic
	}
	return "", ""
}

func fatalCode(ev *judge.Event) string {
	code, _ := failure(ev)
	return code
}

func kinds(evs []*judge.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Kind)
	}
	return out
}

func rawOrText(b []byte) json.RawMessage {
	if json.Valid(b) {
		return append(json.RawMessage{}, b...)
	}
	q, _ := json.Marshal(string(b))
	return q
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// envAction performs an environment step.
func (r *run) envAction(ctx context.Context, a *scenario.EnvAction) error {
	r.ev.Transcript = append(r.ev.Transcript, TranscriptLine{Millis: r.ms(), Dir: "env", Text: a.Action})
	c := r.cluster
	var err error
	switch a.Action {
	case "stop_broker":
		err = c.StopBroker(ctx, a.Broker)
		r.down = a.Broker
	case "kill_broker":
		err = c.KillBroker(ctx, a.Broker)
		r.down = a.Broker
	case "kill_leader", "stop_leader":
		topic := r.exp.String(a.Topic)
		var leader int32
		leader, err = r.obs.Leader(ctx, topic, a.Partition)
		if err == nil {
			r.fact("", fmt.Sprintf("leader of %s[%d]", topic, a.Partition), fmt.Sprintf("broker %d", leader), true)
			if a.Action == "kill_leader" {
				err = c.KillBroker(ctx, leader)
			} else {
				err = c.StopBroker(ctx, leader)
			}
			r.down = leader
		}
	case "restart_broker":
		id := a.Broker
		if id == 0 {
			id = r.down
		}
		err = c.RestartBroker(ctx, id)
	case "pause_broker", "resume_broker":
		ids := []int32{a.Broker}
		if a.Broker == 0 {
			ids = c.BrokerIDs()
		}
		for _, id := range ids {
			if a.Action == "pause_broker" {
				err = errors.Join(err, c.PauseBroker(ctx, id))
			} else {
				err = errors.Join(err, c.ResumeBroker(ctx, id))
			}
		}
	case "acl", "config":
		main := map[string]string{"acl": "org.apache.kafka.tools.AclCommand", "config": "org.apache.kafka.tools.ConfigCommand"}[a.Action]
		args := []string{"--bootstrap-server", strings.Join(c.Bootstrap(kafkatest.Plaintext), ",")}
		for _, s := range a.Args {
			args = append(args, r.exp.String(s))
		}
		var out string
		out, err = c.RunTool(ctx, main, args...)
		r.ev.Transcript = append(r.ev.Transcript, TranscriptLine{Millis: r.ms(), Dir: "env", Text: out})
		if err == nil && a.Action == "acl" && containsStr(a.Args, "--add") {
			err = r.waitACLs(ctx, a)
		}
	case "produce":
		err = r.produce(ctx, a.Records)
	case "fault", "unfault":
		err = r.faultStep(a)
	default:
		return invalidf("unknown environment action %q", a.Action)
	}
	if err != nil {
		return invalidf("environment action %s: %v", a.Action, err)
	}
	r.fact("", "environment "+a.Action, "done", true)
	switch a.Action {
	case "pause_broker":
		r.paused = true
	case "resume_broker":
		r.paused = false
		for _, cmd := range r.deferred {
			if err := r.checkClaims(ctx, cmd); err != nil {
				return failf("%s (%s, checked after the brokers resumed): %v", cmd.ID, cmd.Kind, err)
			}
		}
		r.deferred = nil
	}
	return nil
}

// waitACLs waits until a broker lists the principals an acl --add granted.
// In KRaft CreateAcls is answered after the controller commits, but brokers
// apply the ACL from the metadata log a moment later; DescribeAcls
// (AclCommand --list) is answered from the broker's own authorizer.
func (r *run) waitACLs(ctx context.Context, a *scenario.EnvAction) error {
	var principals, filter []string
	for i := 0; i+1 < len(a.Args); i++ {
		switch a.Args[i] {
		case "--allow-principal", "--deny-principal":
			principals = append(principals, r.exp.String(a.Args[i+1]))
		case "--topic", "--group", "--transactional-id":
			filter = append(filter, a.Args[i], r.exp.String(a.Args[i+1]))
		}
	}
	wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	for {
		args := append([]string{"--bootstrap-server", strings.Join(r.cluster.Bootstrap(kafkatest.Plaintext), ","), "--list"}, filter...)
		out, err := r.cluster.RunTool(wctx, "org.apache.kafka.tools.AclCommand", args...)
		if err == nil {
			all := true
			for _, p := range principals {
				all = all && strings.Contains(out, "principal="+p)
			}
			if all {
				r.fact("", "acl granted to "+strings.Join(principals, ","), "listed by the broker", true)
				return nil
			}
		}
		if wctx.Err() != nil {
			return fmt.Errorf("ACLs for %v not visible on the broker: %v", principals, wctx.Err())
		}
	}
}

var _ = os.Getenv
