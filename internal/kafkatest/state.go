package kafkatest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// State is the JSON document `kafka-local up` writes and Shared reads: all a
// process needs to use (and later stop) a cluster it did not start.
type State struct {
	Version        int                   `json:"version"`
	KafkaVersion   string                `json:"kafka_version"`
	Shape          Shape                 `json:"shape"`
	ClusterID      string                `json:"cluster_id"`
	Dir            string                `json:"dir"`
	JarDir         string                `json:"jar_dir"`
	Java           string                `json:"java"`
	JavaVersion    int                   `json:"java_version"`
	CAFile         string                `json:"ca_file"`
	Keystore       string                `json:"keystore"`
	ClientCerts    map[string]string     `json:"client_certs"`
	ServerLog4j    string                `json:"server_log4j"`
	ToolsLog4j     string                `json:"tools_log4j"`
	Controller     string                `json:"controller"`
	ControllerPort int                   `json:"controller_port"`
	Bootstrap      map[Listener][]string `json:"bootstrap"`
	Nodes          []NodeState           `json:"nodes"`
	StartedAt      time.Time             `json:"started_at"`
	StartupMillis  int64                 `json:"startup_ms"`
}

// NodeState describes one JVM of a cluster.
type NodeState struct {
	ID     int32            `json:"id"`
	Roles  string           `json:"roles"`
	PID    int              `json:"pid"`
	PGID   int              `json:"pgid"`
	Dir    string           `json:"dir"`
	Config string           `json:"config"`
	Log    string           `json:"log"`
	Ports  map[Listener]int `json:"ports,omitempty"`
	// ProxyPort is the port advertised for the Proxied listener (Ports
	// [Proxied] is the port it binds); 0 in older state files.
	ProxyPort int `json:"proxy_port,omitempty"`
}

// State returns the cluster's state document.
func (c *Cluster) State() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := State{
		Version: 1, KafkaVersion: c.serverVersion(), Shape: c.shape, ClusterID: c.clusterID,
		Dir: c.dir, JarDir: c.libDir, Java: c.java.Path, JavaVersion: c.java.Version,
		CAFile: c.caFile, Keystore: c.keystore, ServerLog4j: c.serverLog4j, ToolsLog4j: c.toolsLog4j,
		Controller: c.ControllerAddr(), ControllerPort: c.controllerPort,
		ClientCerts: map[string]string{AdminUser: c.ClientCertFile(AdminUser), AliceUser: c.ClientCertFile(AliceUser)},
		Bootstrap:   map[Listener][]string{}, StartedAt: time.Now().UTC(), StartupMillis: c.StartupTime.Milliseconds(),
	}
	for _, l := range clientListeners {
		for _, id := range c.BrokerIDs() {
			s.Bootstrap[l] = append(s.Bootstrap[l], c.node(id).addr(l))
		}
	}
	for _, n := range c.nodes {
		s.Nodes = append(s.Nodes, NodeState{ID: n.id, Roles: n.roles, PID: n.pid, PGID: n.pid, Dir: n.dir,
			Config: n.config, Log: n.logFile(), Ports: n.ports, ProxyPort: n.proxyPort})
	}
	return s
}

// WriteState writes the cluster's state to path atomically (temp file, rename).
func (c *Cluster) WriteState(path string) error {
	data, err := json.MarshalIndent(c.State(), "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ReadState reads a state file.
func ReadState(path string) (State, error) {
	var s State
	data, err := os.ReadFile(path)
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("kafkatest: state file %s: %w", path, err)
	}
	if s.Version != 1 {
		return s, fmt.Errorf("kafkatest: state file %s: unknown version %d", path, s.Version)
	}
	return s, nil
}

// Attach returns a Cluster backed by the state file at path. It does not
// check that the JVMs are alive (Shared does). Close on it does nothing;
// StopBroker, KillBroker and RestartBroker are refused.
func Attach(path string) (*Cluster, error) {
	s, err := ReadState(path)
	if err != nil {
		return nil, err
	}
	ca, err := os.ReadFile(s.CAFile)
	if err != nil {
		return nil, fmt.Errorf("kafkatest: state file %s: CA file: %w", path, err)
	}
	c := &Cluster{
		shape: s.Shape, dir: s.Dir, java: javaRuntime{Path: s.Java, Version: s.JavaVersion}, libDir: s.JarDir,
		clusterID: s.ClusterID, keystore: s.Keystore, caFile: s.CAFile, caPEM: ca,
		serverLog4j: s.ServerLog4j, toolsLog4j: s.ToolsLog4j, controllerPort: s.ControllerPort,
		log: func(string, ...any) {}, attached: true, detached: true,
		StartupTime: time.Duration(s.StartupMillis) * time.Millisecond,
	}
	if r, err := parseRelease(s.KafkaVersion); err == nil {
		c.release = r // RestartBroker rewrites no config: only for the record
	}
	for _, ns := range s.Nodes {
		c.nodes = append(c.nodes, &node{id: ns.ID, roles: ns.Roles, dir: ns.Dir, config: ns.Config, ports: ns.Ports, pid: ns.PID, proxyPort: ns.ProxyPort})
	}
	return c, nil
}

// StartDetached starts a cluster whose JVMs outlive the calling process (no
// parent-death signal), for `kafka-local up`. Stop it with StopState.
func StartDetached(ctx context.Context, o Options) (*Cluster, error) {
	return start(ctx, o, true)
}

// StopState stops the cluster described by the state file at path (brokers,
// then controllers; TERM, then KILL after a grace period), removes its
// directory and the state file. Only processes whose command line still names
// the node's own config file are signalled.
func StopState(path string) error {
	c, err := Attach(path)
	if err != nil {
		return err
	}
	c.attached = false
	if err := c.destroy(); err != nil {
		return err
	}
	return os.Remove(path)
}

// DefaultStatePath returns <repo root>/.kafka/state.json, where `make
// kafka-up` puts it; the repo root is the nearest ancestor of the working
// directory whose go.mod declares github.com/gregor-kafka/gregor.
func DefaultStatePath() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && isRootModule(data) {
			return filepath.Join(dir, ".kafka", "state.json"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("kafkatest: not inside the gregor repository")
		}
		dir = parent
	}
}

func isRootModule(gomod []byte) bool {
	const want = "module github.com/gregor-kafka/gregor\n"
	return len(gomod) >= len(want) && string(gomod[:len(want)]) == want
}

// Shared returns the cluster named by the state file in $GREGOR_KAFKA_STATE
// (set by `make test`), or, when that is unset, <repo>/.kafka/state.json
// (written by `make kafka-up`). It fails t, never skips, when there is no
// state file or a broker does not answer a Metadata request. Close on the
// result does nothing; tests that stop, kill or restart brokers must Start
// their own cluster.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	path := os.Getenv(EnvState)
	if path == "" {
		p, err := DefaultStatePath()
		if err != nil {
			t.Fatalf("kafkatest: no Kafka: %s is unset and %v; run `make test`, or `make kafka-up` then export %s=<repo>/.kafka/state.json", EnvState, err, EnvState)
		}
		path = p
	}
	c, err := Attach(path)
	if err != nil {
		t.Fatalf("kafkatest: no Kafka: cannot read cluster state %s: %v; start one with `make kafka-up` (or run `make test`)", path, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for _, id := range c.BrokerIDs() {
		if _, err := c.Metadata(ctx, id); err != nil {
			t.Fatalf("kafkatest: no Kafka: broker %d of the cluster in %s (%s) does not answer: %v; restart it with `make kafka-down kafka-up`",
				id, path, c.BrokerAddr(id, Plaintext), err)
		}
	}
	return c
}
