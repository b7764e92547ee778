package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Problem is a protocol violation that makes a run invalid. Code is testctl's
// name for it (§9.4) where one exists.
type Problem struct {
	Code   string
	Detail string
}

func (p *Problem) Error() string { return p.Code + ": " + p.Detail }

func problem(code, format string, args ...any) *Problem {
	return &Problem{Code: code, Detail: fmt.Sprintf(format, args...)}
}

// Event is one decoded event line.
type Event struct {
	Kind      string
	CommandID string
	// Payload is the strictly decoded payload: a pointer to the struct of
	// Kind (events.go), e.g. *OperationTerminal for operation_terminal.
	Payload any
	// Fields are the payload's raw values by key (envelope removed), already
	// checked by the strict decode; used for identity comparisons with the
	// command and for evidence.
	Fields map[string]json.RawMessage
	Raw    []byte
}

// Command is one command the runner issued and what the adapter has said about it.
type Command struct {
	ID      string
	Kind    string
	Payload map[string]any
	Events  []*Event
	// Completion is the event that completed the command (nil while active).
	Completion *Event
	// Failed is set when Completion is command_failed.
	Failed bool

	// per-operation bookkeeping for sends, batches, transactions, actors
	ops       []string
	admitted  map[string]string // op -> "accepted" | "rejected"
	terminals map[string]*OperationTerminal
	nAdmitted int
	sawReject bool
	nTerminal int
	actorIdx  int
	actorDone bool
	replaced  bool
}

// Terminal returns the operation_terminal of op, if any.
func (c *Command) Terminal(op string) *OperationTerminal { return c.terminals[op] }

// Admission returns "accepted", "rejected" or "" for op.
func (c *Command) Admission(op string) string { return c.admitted[op] }

// Session judges one adapter session.
type Session struct {
	issued  map[string]*Command
	order   []*Command
	active  *Command
	actors  map[string][]map[string]any // concurrency_id -> actors of start_concurrent_actors
	counted int                         // events read while the active command is active
}

// NewSession returns an empty session.
func NewSession() *Session {
	return &Session{issued: map[string]*Command{}, actors: map[string][]map[string]any{}}
}

// CommandID returns testctl's id for the n-th command (1-based).
func CommandID(n int) string { return fmt.Sprintf("command-%08d", n) }

// Begin registers the command about to be sent (payload without the
// envelope) and makes it active. The previous command must be complete.
func (s *Session) Begin(id, kind string, payload map[string]any) *Command {
	c := &Command{ID: id, Kind: kind, Payload: payload, admitted: map[string]string{}, terminals: map[string]*OperationTerminal{}}
	switch kind {
	case "send", "cancel_producer_send":
		c.ops = []string{str(payload["operation_id"])}
	case "send_batch", "execute_transaction", "execute_transactional_transform":
		for _, o := range list(payload["operations"]) {
			c.ops = append(c.ops, str(obj(o)["operation_id"]))
		}
	case "fence_transaction":
		c.ops = []string{str(obj(payload["operation"])["operation_id"])}
	case "start_concurrent_actors":
		var acts []map[string]any
		for _, a := range list(payload["actors"]) {
			acts = append(acts, obj(a))
		}
		s.actors[str(payload["concurrency_id"])] = acts
	}
	s.issued[id] = c
	s.order = append(s.order, c)
	s.active = c
	s.counted = 0
	return c
}

// Active returns the active command, or nil when the last one completed.
func (s *Session) Active() *Command { return s.active }

// Commands returns every issued command in order.
func (s *Session) Commands() []*Command { return s.order }

// Feed judges one event line (without its newline). It returns the decoded
// event and whether it completed the active command, or a Problem that
// makes the run invalid.
func (s *Session) Feed(line []byte) (*Event, bool, error) {
	ev, perr := decodeEvent(line)
	if perr != nil {
		return nil, false, perr
	}
	if ev.Kind == "fatal" {
		if _, ok := s.issued[ev.CommandID]; !ok {
			return ev, false, problem("command_id_unknown", "fatal for unknown command id %q", ev.CommandID)
		}
		f := ev.Payload.(*Fatal)
		return ev, false, problem("adapter_fatal", "fatal %s: %s", f.Code, f.Diagnostic)
	}
	c, ok := s.issued[ev.CommandID]
	if !ok {
		return ev, false, problem("command_id_unknown", "event %s for command id %q that was never sent", ev.Kind, ev.CommandID)
	}
	if s.active != nil {
		s.counted++
		if s.counted > MaxEventsPerCommand {
			return ev, false, problem("event_limit_exceeded", "more than %d events for %s", MaxEventsPerCommand, s.active.ID)
		}
	}
	if c != s.active {
		// A late event of an earlier command: it must be one that command could
		// still produce; it never completes the active command.
		return ev, false, problem("unexpected_event_kind", "event %s for %s, which already completed with %s", ev.Kind, c.ID, c.Completion.Kind)
	}
	c.Events = append(c.Events, ev)
	done, p := s.step(c, ev)
	if p != nil {
		return ev, false, p
	}
	if done {
		c.Completion = ev
		c.Failed = ev.Kind == "command_failed"
		s.active = nil
	}
	return ev, done, nil
}

// decodeEvent parses one event line: the envelope, then the payload
// strictly into the struct of its kind (strict.go). Any decode error is a
// Problem naming the kind and the field.
func decodeEvent(line []byte) (*Event, *Problem) {
	if len(line)+1 > MaxLineBytes {
		return nil, problem("adapter_output_invalid", "event line of %d bytes exceeds 4 MiB", len(line)+1)
	}
	if !json.Valid(line) {
		return nil, problem("adapter_output_invalid", "not one JSON value: %.200q", line)
	}
	m, err := objectFields(bytes.TrimSpace(line), "event")
	if err != nil {
		return nil, problem("adapter_output_invalid", "%v: %.200q", err, line)
	}
	var ver uint16
	if raw, ok := m["protocol_version"]; !ok {
		return nil, problem("adapter_output_invalid", "protocol_version missing: %.200q", line)
	} else if err := decodeStrict(raw, &ver, "protocol_version"); err != nil {
		return nil, problem("adapter_output_invalid", "%v: %.200q", err, line)
	}
	if ver != ProtocolVersion {
		return nil, problem("protocol_version_mismatch", "event protocol_version %d, want 34", ver)
	}
	var id ID
	if raw, ok := m["command_id"]; !ok {
		return nil, problem("adapter_output_invalid", "command_id missing: %.200q", line)
	} else if err := decodeStrict(raw, &id, "command_id"); err != nil {
		return nil, problem("adapter_output_invalid", "%v: %.200q", err, line)
	}
	ev := &Event{CommandID: string(id), Fields: map[string]json.RawMessage{}, Raw: line}
	if raw, ok := m["kind"]; !ok {
		return nil, problem("adapter_output_invalid", "kind missing: %.200q", line)
	} else if err := decodeStrict(raw, &ev.Kind, "kind"); err != nil {
		return nil, problem("adapter_output_invalid", "%v: %.200q", err, line)
	}
	mk, known := eventTypes[ev.Kind]
	if !known {
		return nil, problem("unexpected_event_kind", "unknown event kind %q", ev.Kind)
	}
	for k, v := range m {
		if k != "protocol_version" && k != "command_id" && k != "kind" {
			ev.Fields[k] = v
		}
	}
	ev.Payload = mk()
	if err := decodeFields(ev.Fields, reflect.ValueOf(ev.Payload).Elem(), ev.Kind); err != nil {
		code := "adapter_output_invalid"
		if ev.Kind == "ready" {
			code = "handshake_event_invalid"
		}
		return nil, problem(code, "%v", err)
	}
	if v, ok := ev.Payload.(validator); ok {
		if err := v.validate(); err != nil {
			return nil, problem("adapter_output_invalid", "%s: %v", ev.Kind, err)
		}
	}
	return ev, nil
}

// ValidID reports whether s satisfies the identifier rule of §1.4.
func ValidID(s string) bool {
	if len(s) < 1 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		alnum := b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
		if !alnum && (i == 0 || !strings.ContainsRune("-_.:", rune(b))) {
			return false
		}
	}
	return true
}

// step applies the completion rules of §7 to event ev of the active command c.
func (s *Session) step(c *Command, ev *Event) (bool, *Problem) {
	if ev.Kind == "command_failed" {
		if c.Kind == "hello" {
			return false, problem("handshake_event_invalid", "hello answered with command_failed")
		}
		return true, nil
	}
	switch c.Kind {
	case "send", "send_batch", "execute_transaction", "execute_transactional_transform", "fence_transaction", "cancel_producer_send":
		return s.stepOps(c, ev)
	case "join_concurrent_actors":
		return s.stepJoin(c, ev)
	case "start_concurrent_actors":
		if ev.Kind != "concurrent_actors_started" {
			return false, unexpected(c, ev)
		}
		if p := sameID(c, ev, "concurrency_id"); p != nil {
			return false, p
		}
		if !slices.Equal(ev.Payload.(*ConcurrentActorsStarted).ActorIDs, actorIDs(s.actors[str(c.Payload["concurrency_id"])])) {
			return false, problem("event_identity_mismatch", "actor_ids %s, want caller order", ev.Fields["actor_ids"])
		}
		return true, nil
	}
	sc, ok := singleCompletion[c.Kind]
	if !ok {
		return false, problem("unexpected_event_kind", "no completion rule for command %s", c.Kind)
	}
	want := sc.event
	if v, ok := c.Payload["validate_only"].(bool); ok && v {
		if alt, ok := validateOnlyCompletion[c.Kind]; ok {
			want = alt
		}
	}
	if ev.Kind != want {
		if c.Kind == "hello" {
			return false, problem("handshake_event_invalid", "first reply is %s, not ready", ev.Kind)
		}
		return false, unexpected(c, ev)
	}
	for _, k := range sc.ids {
		if p := sameID(c, ev, k); p != nil {
			return false, p
		}
	}
	if ctl, ok := c.Payload["control"].(map[string]any); ok {
		if controlOf(ev) != str(ctl["kind"]) {
			return false, problem("event_identity_mismatch", "control %s, want %q", ev.Fields["control"], ctl["kind"])
		}
	}
	if c.Kind == "hello" {
		return true, checkDescriptor(ev)
	}
	return true, nil
}

// stepOps handles commands whose operations are admitted and then terminate.
func (s *Session) stepOps(c *Command, ev *Event) (bool, *Problem) {
	op := operationIDOf(ev)
	switch ev.Kind {
	case "operation_accepted", "operation_rejected":
		if c.nAdmitted >= len(c.ops) || c.ops[c.nAdmitted] != op {
			return false, problem("event_identity_mismatch", "%s for operation %q; next admission expected for %q", ev.Kind, op, next(c.ops, c.nAdmitted))
		}
		if c.Kind == "send_batch" && c.nTerminal > 0 {
			return false, problem("unexpected_event_kind", "admission after a terminal in send_batch")
		}
		if ev.Kind == "operation_accepted" && c.sawReject && c.Kind == "send_batch" {
			return false, problem("unexpected_event_kind", "send_batch: accepted %q after a rejection (accepted prefix, rejected suffix)", op)
		}
		if c.Kind != "send_batch" && c.nAdmitted > c.nTerminal+countRejected(c) {
			return false, problem("unexpected_event_kind", "admission of %q before the previous operation's terminal", op)
		}
		c.nAdmitted++
		if ev.Kind == "operation_rejected" {
			c.admitted[op] = "rejected"
			c.sawReject = true
			return c.Kind == "send", nil
		}
		c.admitted[op] = "accepted"
		return false, nil
	case "operation_terminal":
		if c.admitted[op] != "accepted" || c.terminals[op] != nil {
			return false, problem("event_identity_mismatch", "operation_terminal for %q, which is not an accepted operation awaiting its terminal", op)
		}
		if c.Kind == "send_batch" {
			if c.nAdmitted != len(c.ops) {
				return false, problem("unexpected_event_kind", "send_batch: terminal before all admissions")
			}
			if want := nthAccepted(c, c.nTerminal); want != op {
				return false, problem("event_identity_mismatch", "send_batch: terminal for %q, want %q (input order)", op, want)
			}
		}
		c.terminals[op] = ev.Payload.(*OperationTerminal)
		c.nTerminal++
		return c.Kind == "send", nil
	case "producer_cancellation_completed":
		if c.Kind != "cancel_producer_send" || op != c.ops[0] || c.terminals[op] == nil {
			return false, unexpected(c, ev)
		}
		return true, nil
	case "batch_completed":
		if c.Kind != "send_batch" {
			return false, unexpected(c, ev)
		}
		if p := sameID(c, ev, "producer_id"); p != nil {
			return false, p
		}
		if c.nAdmitted != len(c.ops) || c.nTerminal != len(c.ops)-countRejected(c) {
			return false, problem("unexpected_event_kind", "batch_completed before every admission and terminal (%d/%d admitted, %d terminals)", c.nAdmitted, len(c.ops), c.nTerminal)
		}
		return true, nil
	case "transaction_completed", "transactional_transform_completed", "transaction_fence_completed":
		want := map[string]string{"execute_transaction": "transaction_completed",
			"execute_transactional_transform": "transactional_transform_completed",
			"fence_transaction":               "transaction_fence_completed"}[c.Kind]
		if ev.Kind != want {
			return false, unexpected(c, ev)
		}
		if p := sameID(c, ev, "transaction_id"); p != nil {
			return false, p
		}
		if c.Kind != "fence_transaction" {
			if p := sameID(c, ev, "disposition"); p != nil {
				return false, p
			}
		}
		return true, nil
	case "transactional_producer_created":
		if c.Kind != "fence_transaction" || string(ev.Payload.(*TransactionalProducerCreated).ProducerID) != str(c.Payload["replacement_producer_id"]) || c.replaced {
			return false, unexpected(c, ev)
		}
		c.replaced = true
		return false, nil
	}
	return false, unexpected(c, ev)
}

func countRejected(c *Command) int {
	n := 0
	for _, v := range c.admitted {
		if v == "rejected" {
			n++
		}
	}
	return n
}

func nthAccepted(c *Command, n int) string {
	for _, op := range c.ops {
		if c.admitted[op] == "accepted" {
			if n == 0 {
				return op
			}
			n--
		}
	}
	return ""
}

// stepJoin handles join_concurrent_actors: per actor in declared order its
// operation events, then concurrent_actor_completed; finally
// concurrent_actors_completed.
func (s *Session) stepJoin(c *Command, ev *Event) (bool, *Problem) {
	cid := str(c.Payload["concurrency_id"])
	acts, ok := s.actors[cid]
	if !ok {
		return false, problem("event_identity_mismatch", "join of unknown concurrency group %q", cid)
	}
	if ev.Kind == "concurrent_actors_completed" {
		if c.actorIdx != len(acts) {
			return false, problem("unexpected_event_kind", "concurrent_actors_completed after %d of %d actors", c.actorIdx, len(acts))
		}
		done := ev.Payload.(*ConcurrentActorsCompleted)
		if string(done.ConcurrencyID) != cid || !slices.Equal(done.ActorIDs, actorIDs(acts)) {
			return false, problem("event_identity_mismatch", "concurrent_actors_completed %s", ev.Raw)
		}
		return true, nil
	}
	if c.actorIdx >= len(acts) {
		return false, unexpected(c, ev)
	}
	a := acts[c.actorIdx]
	opID := str(a["operation_id"])
	if str(a["kind"]) == "assigned_receive" {
		opID = str(a["receive_id"])
	}
	switch ev.Kind {
	case "concurrent_actor_completed":
		done := ev.Payload.(*ConcurrentActorCompleted)
		if string(done.ConcurrencyID) != cid || string(done.ActorID) != str(a["actor_id"]) || string(done.OperationID) != opID {
			return false, problem("event_identity_mismatch", "concurrent_actor_completed %s, want actor %s operation %s", ev.Raw, a["actor_id"], opID)
		}
		if !c.actorDone {
			return false, problem("unexpected_event_kind", "concurrent_actor_completed for %s before its operation result", a["actor_id"])
		}
		c.actorIdx++
		c.actorDone = false
		return false, nil
	case "receive_completed":
		rid := string(ev.Payload.(*ReceiveCompleted).ReceiveID)
		if str(a["kind"]) != "assigned_receive" || rid != opID || c.actorDone {
			return false, problem("event_identity_mismatch", "receive_completed %s for actor %s", rid, a["actor_id"])
		}
		c.actorDone = true
		return false, nil
	case "operation_accepted", "operation_rejected", "operation_terminal":
		if op := operationIDOf(ev); str(a["kind"]) != "producer_send" || op != opID || c.actorDone {
			return false, problem("event_identity_mismatch", "%s for %q during actor %s", ev.Kind, op, a["actor_id"])
		}
		switch ev.Kind {
		case "operation_accepted":
			if c.admitted[opID] != "" {
				return false, problem("unexpected_event_kind", "second admission of %s", opID)
			}
			c.admitted[opID] = "accepted"
		case "operation_rejected":
			if c.admitted[opID] != "" {
				return false, problem("unexpected_event_kind", "second admission of %s", opID)
			}
			c.admitted[opID] = "rejected"
			c.actorDone = true
		case "operation_terminal":
			if c.admitted[opID] != "accepted" {
				return false, problem("unexpected_event_kind", "terminal of %s without acceptance", opID)
			}
			c.terminals[opID] = ev.Payload.(*OperationTerminal)
			c.actorDone = true
		}
		return false, nil
	}
	return false, unexpected(c, ev)
}

// checkDescriptor checks what the strict decode of ready cannot: the
// descriptor's protocol version.
func checkDescriptor(ev *Event) *Problem {
	d := ev.Payload.(*Ready).Descriptor
	if d.ProtocolVersion != ProtocolVersion {
		return problem("descriptor_version_mismatch", "descriptor protocol_version %d", d.ProtocolVersion)
	}
	return nil
}

// operationIDOf returns the operation_id of the producer operation events
// ("" for other kinds).
func operationIDOf(ev *Event) string {
	switch p := ev.Payload.(type) {
	case *OperationAccepted:
		return string(p.OperationID)
	case *OperationRejected:
		return string(p.OperationID)
	case *OperationTerminal:
		return string(p.OperationID)
	case *ProducerCancellationCompleted:
		return string(p.OperationID)
	}
	return ""
}

// controlOf returns the control kind of a control completion ("" for other
// kinds).
func controlOf(ev *Event) string {
	switch p := ev.Payload.(type) {
	case *AssignedConsumerControlCompleted:
		return string(p.Control)
	case *GroupConsumerControlCompleted:
		return string(p.Control)
	}
	return ""
}

func unexpected(c *Command, ev *Event) *Problem {
	return problem("unexpected_event_kind", "event %s does not answer %s (%s)", ev.Kind, c.Kind, c.ID)
}

func sameID(c *Command, ev *Event, key string) *Problem {
	want, err := json.Marshal(c.Payload[key])
	if err != nil {
		return problem("event_identity_mismatch", "%s: the command's %s cannot be encoded: %v", ev.Kind, key, err)
	}
	if !jsonEqual(ev.Fields[key], want) {
		return problem("event_identity_mismatch", "%s: %s is %s, want %s", ev.Kind, key, ev.Fields[key], want)
	}
	return nil
}

func actorIDs(acts []map[string]any) []ID {
	var ids []ID
	for _, a := range acts {
		ids = append(ids, ID(str(a["actor_id"])))
	}
	return ids
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func next(xs []string, i int) string {
	if i < len(xs) {
		return xs[i]
	}
	return "(none)"
}

func str(v any) string { s, _ := v.(string); return s }
func list(v any) []any { l, _ := v.([]any); return l }
func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
