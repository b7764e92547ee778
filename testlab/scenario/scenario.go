// Package scenario defines testlab's scenario files: JSON documents in
// testlab/scenarios/ that say what a scenario requires of the adapter, the
// environment it needs, the topics the environment provisions, and ordered
// steps. Expectations stay in the scenario and never cross to the adapter.
package scenario

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Scenario is one scenario file.
type Scenario struct {
	ID          string      `json:"id"`
	Description string      `json:"description"`
	Requires    []string    `json:"requires"`
	Environment Environment `json:"environment"`
	Setup       Setup       `json:"setup"`
	Steps       []Step      `json:"steps"`
	// TimeoutSeconds bounds the whole scenario (default 180).
	TimeoutSeconds int `json:"timeout_seconds,omitempty"`
	// Path is the file the scenario was read from.
	Path string `json:"-"`
}

// Environment is what the scenario needs from the test bed.
type Environment struct {
	// Shape is "single" (default, the shared cluster) or "1+3".
	Shape string `json:"shape,omitempty"`
	// Security is the hello security kind: plaintext (default), tls_custom,
	// sasl_plaintext, sasl_tls.
	Security string `json:"security,omitempty"`
	// Mechanism for SASL: plain, scram_sha256, scram_sha512.
	Mechanism string `json:"mechanism,omitempty"`
	// User is the SASL user: admin (default, super user) or alice.
	User string `json:"user,omitempty"`
	// Password overrides the user's password (to test a wrong one).
	Password string `json:"password,omitempty"`
	// Proxied puts a fault proxy (testlab/faultproxy) in front of every
	// broker: hello's broker_endpoints are the proxies, and the brokers
	// advertise them (kafkatest.Proxied). Plaintext only. Needed by the
	// fault and unfault steps.
	Proxied bool `json:"proxied,omitempty"`
}

// Setup is provisioned by the runner through the observer, not the adapter.
type Setup struct {
	Topics []TopicSpec `json:"topics"`
}

// TopicSpec is a topic the environment creates before the steps run. Name
// may use placeholders (see Expand).
type TopicSpec struct {
	Name              string            `json:"name"`
	Partitions        int32             `json:"partitions"`
	ReplicationFactor int16             `json:"replication_factor,omitempty"`
	Configs           map[string]string `json:"configs,omitempty"`
}

// Step is one adapter command with its scenario-only expectations, an
// environment action, or a raw line for protocol-misuse scenarios.
type Step struct {
	// Command is sent to the adapter (envelope added by the runner).
	Command map[string]any `json:"command,omitempty"`
	Expect  *Expect        `json:"expect,omitempty"`
	// Env is an environment action performed by the runner.
	Env *EnvAction `json:"env,omitempty"`
	// Raw sends bytes that are not a well-formed command; the session must
	// then end as Expect.Exit says.
	Raw *RawLine `json:"raw,omitempty"`
	// Note is a human comment.
	Note string `json:"note,omitempty"`
}

// Expect holds expectations that never reach the adapter.
type Expect struct {
	// Error: the command must end with command_failed with exactly this code
	// (e.g. "broker:broker_36"); the scenario then continues (recovery steps).
	Error string `json:"error,omitempty"`
	// ErrorPrefix: like Error, matching a prefix (e.g. "fenced").
	ErrorPrefix string `json:"error_prefix,omitempty"`
	// Terminals: per operation id, the expected terminal status, or "rejected".
	Terminals map[string]string `json:"terminals,omitempty"`
	// TerminalCodes: per operation id, the expected terminal code.
	TerminalCodes map[string]string `json:"terminal_codes,omitempty"`
	// Offsets: per operation id, the expected acknowledged offset.
	Offsets map[string]int64 `json:"offsets,omitempty"`
	// Records: for receives, the operation ids whose records must be
	// received, in this order, and nothing else.
	Records []string `json:"records,omitempty"`
	// RecordCount: for receives, the exact number of records.
	RecordCount *int `json:"record_count,omitempty"`
	// Event: a partial JSON object the completion event must contain
	// (objects compared recursively by key, arrays element-wise).
	Event map[string]any `json:"event,omitempty"`
	// EventOneOf: the completion event must contain one of these partial objects.
	EventOneOf []map[string]any `json:"event_one_of,omitempty"`
	// MinProduceRecords: client_metrics_observed snapshot.producer.produce_records lower bound.
	MinProduceRecords *uint64 `json:"min_produce_records,omitempty"`
	// Fatal: the adapter must answer with fatal with this code and exit non-zero.
	Fatal string `json:"fatal,omitempty"`
	// Exit: "zero" or "nonzero": the adapter must exit so after this step (the
	// runner sends nothing more).
	Exit string `json:"exit,omitempty"`
	// NoEvents: no event may follow this step (malformed input).
	NoEvents bool `json:"no_events,omitempty"`
}

// EnvAction changes the environment between adapter commands.
type EnvAction struct {
	// Action: stop_broker, kill_broker, kill_leader, stop_leader, restart_broker, pause_broker and
	// resume_broker (SIGSTOP/SIGCONT; broker 0 = every broker), acl (AclCommand args),
	// config (ConfigCommand args), produce (the observer writes records),
	// wait_broker_fenced, wait_brokers_live, fault (apply Fault, named Name,
	// to Broker's proxy or, with broker 0, every proxy) and unfault (remove
	// the fault named Name). Every fault must be removed before the
	// scenario ends.
	Action string `json:"action"`
	// Name identifies a fault between its fault and unfault steps.
	Name string `json:"name,omitempty"`
	// Fault is the fault a fault step applies.
	Fault  *FaultSpec `json:"fault,omitempty"`
	Broker int32      `json:"broker,omitempty"`
	// Topic and Partition select the broker for kill_leader / stop_leader:
	// the partition's current leader (the observer asks the cluster).
	// restart_broker without a broker restarts the last one stopped or killed.
	Topic     string `json:"topic,omitempty"`
	Partition int32  `json:"partition,omitempty"`
	// Args for acl/config (placeholders expanded; --bootstrap-server added).
	Args []string `json:"args,omitempty"`
	// Records for produce: {topic, partition, key, value, headers} in
	// RecordSpec form.
	Records []map[string]any `json:"records,omitempty"`
}

// FaultSpec is a faultproxy.Fault in scenario form.
type FaultSpec struct {
	// Kind: delay, blackhole, cut_all, cut_frame, refuse,
	// wrong_correlation, replay, stall.
	Kind string `json:"kind"`
	// Dir: to_broker (requests) or to_client (responses).
	Dir string `json:"dir,omitempty"`
	// API is the API key matched (absent: any API; 0 is Produce).
	API *int16 `json:"api,omitempty"`
	// Bytes of the matched frame cut_frame forwards (-1: all, 0: none).
	Bytes int `json:"bytes,omitempty"`
	// DelayMillis for delay and stall.
	DelayMillis int64 `json:"delay_ms,omitempty"`
	// Every: fire on every matching frame, not once.
	Every bool `json:"every,omitempty"`
}

// RawLine is a deliberately malformed input.
type RawLine struct {
	// Line is sent verbatim plus "\n" (placeholders expanded).
	Line string `json:"line,omitempty"`
	// OversizeBytes, when > 0, sends a line of that many bytes.
	OversizeBytes int `json:"oversize_bytes,omitempty"`
	// NoNewline sends Line without its newline and closes stdin.
	NoNewline bool `json:"no_newline,omitempty"`
	// SkipHello: send this before the handshake (only valid as first step).
	SkipHello bool `json:"skip_hello,omitempty"`
	// ProtocolVersion, when set, sends Command with this version instead of 34.
	ProtocolVersion *int `json:"protocol_version,omitempty"`
	// Command is the command sent with ProtocolVersion (default create_client).
	Command map[string]any `json:"command,omitempty"`
}

// Load reads every *.json scenario in dir, sorted by file name.
func Load(dir string) ([]*Scenario, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []*Scenario
	ids := map[string]string{}
	for _, f := range files {
		s, err := LoadFile(f)
		if err != nil {
			return nil, err
		}
		if prev, dup := ids[s.ID]; dup {
			return nil, fmt.Errorf("scenario id %q in %s and %s", s.ID, prev, f)
		}
		ids[s.ID] = f
		out = append(out, s)
	}
	return out, nil
}

// LoadFile reads and validates one scenario file.
func LoadFile(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s Scenario
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.Path = path
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}

// Validate checks the scenario's structure.
func (s *Scenario) Validate() error {
	if s.ID == "" {
		return fmt.Errorf("missing id")
	}
	switch s.Environment.Shape {
	case "", "single", "1+3":
	default:
		return fmt.Errorf("unknown shape %q", s.Environment.Shape)
	}
	switch s.Environment.Security {
	case "", "plaintext", "tls_custom":
	case "sasl_plaintext", "sasl_tls":
		switch s.Environment.Mechanism {
		case "plain", "scram_sha256", "scram_sha512":
		default:
			return fmt.Errorf("unknown SASL mechanism %q", s.Environment.Mechanism)
		}
	default:
		return fmt.Errorf("unknown security %q", s.Environment.Security)
	}
	for i, st := range s.Steps {
		n := 0
		if st.Command != nil {
			n++
			if _, ok := st.Command["kind"].(string); !ok {
				return fmt.Errorf("step %d: command without kind", i+1)
			}
			for _, k := range []string{"protocol_version", "command_id"} {
				if _, ok := st.Command[k]; ok {
					return fmt.Errorf("step %d: %s is the runner's to set", i+1, k)
				}
			}
		}
		if st.Env != nil {
			n++
		}
		if st.Raw != nil {
			n++
		}
		if n != 1 {
			return fmt.Errorf("step %d: exactly one of command, env, raw", i+1)
		}
		if st.Raw != nil && st.Raw.SkipHello && i != 0 {
			return fmt.Errorf("step %d: skip_hello only on the first step", i+1)
		}
	}
	return nil
}

// SkipsHello reports whether the scenario's first step is sent before hello.
func (s *Scenario) SkipsHello() bool {
	return len(s.Steps) > 0 && s.Steps[0].Raw != nil && s.Steps[0].Raw.SkipHello
}
