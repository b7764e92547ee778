package faultcheck

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// javaTools starts Apache's Java test clients (VerifiableProducer,
// VerifiableConsumer) from the release's jars, the ones the cluster runs,
// as long-lived processes whose JSON events are read line by line.
// kafkatest's RunTool waits for a tool's exit; these run for the whole load.
type javaTools struct {
	java      string // the java binary
	classpath string // <jar dir>/*
	log4j     string // the cluster's tools log4j2 config (warnings to stderr)
	dir       string // where config files and stderr logs go
}

// newJavaTools runs the tools with the cluster's log4j config, their config
// files and stderr logs in dir (outside the cluster's directory, which
// Close removes: the logs are evidence of what a failed run's Java clients
// saw).
func newJavaTools(clusterDir, dir string) (*javaTools, error) {
	java, err := exec.LookPath("java")
	if err != nil {
		return nil, fmt.Errorf("java tools: %w", err)
	}
	lib, err := kafkatest.JarDir()
	if err != nil {
		return nil, err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &javaTools{java: java, classpath: filepath.Join(lib, "*"), log4j: filepath.Join(clusterDir, "etc", "log4j2-tools.properties"), dir: dir}, nil
}

// writeProps writes a client properties file named name and returns its path.
func (jt *javaTools) writeProps(name string, props map[string]string) (string, error) {
	var b strings.Builder
	for k, v := range props {
		fmt.Fprintf(&b, "%s=%s\n", k, v)
	}
	p := filepath.Join(jt.dir, name+".properties")
	return p, os.WriteFile(p, []byte(b.String()), 0o644)
}

// javaProc is one running Java client.
type javaProc struct {
	name string
	cmd  *exec.Cmd
	done chan struct{} // closed once stdout was read to its end and the JVM reaped
	err  error         // Wait's result, valid after done
}

// start runs mainClass (a class name, or a .java file for java's source-file
// mode) with args; every stdout line that is a JSON object
// goes to onEvent (from one goroutine, in order), stderr to <name>.err.
// The JVM is in a process group of its own and gets SIGKILL if the test
// binary dies.
func (jt *javaTools) start(name, mainClass string, onEvent func(javaEvent), args ...string) (*javaProc, error) {
	jargs := append([]string{"-XX:-UsePerfData", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
		"-Djava.io.tmpdir=" + jt.dir, "-Dlog4j2.configurationFile=" + jt.log4j, "-cp", jt.classpath, mainClass}, args...)
	cmd := exec.Command(jt.java, jargs...)
	cmd.Dir = jt.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	errf, err := os.Create(filepath.Join(jt.dir, name+".err"))
	if err != nil {
		return nil, err
	}
	cmd.Stderr = errf
	out, err := cmd.StdoutPipe()
	if err != nil {
		errf.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		errf.Close()
		return nil, fmt.Errorf("java tools: start %s: %w", name, err)
	}
	p := &javaProc{name: name, cmd: cmd, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		defer errf.Close()
		readJavaEvents(out, onEvent)
		p.err = cmd.Wait()
	}()
	return p, nil
}

// stop sends SIGTERM (the tools' shutdown hooks close the client: the
// producer flushes, the consumer leaves its group) and waits up to grace
// for the JVM to exit, then SIGKILLs its process group.
func (p *javaProc) stop(grace time.Duration) error {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
		return fmt.Errorf("java %s: no exit %v after SIGTERM; killed", p.name, grace)
	}
	var ee *exec.ExitError
	// 143: the JVM's exit status after SIGTERM with the hooks run.
	if p.err != nil && !(errors.As(p.err, &ee) && (ee.ExitCode() == 143 || ee.ExitCode() == 0)) {
		return fmt.Errorf("java %s: %w", p.name, p.err)
	}
	return nil
}

// javaEvent is one JSON line of VerifiableProducer or VerifiableConsumer
// (tools/src/main/java/org/apache/kafka/tools/Verifiable*.java): every
// event has "timestamp" (ms since the epoch) and "name"; the other fields
// depend on the name.
type javaEvent struct {
	Timestamp int64  `json:"timestamp"`
	Name      string `json:"name"`
	// producer_send_success, producer_send_error, record_data
	Key       *string `json:"key"`
	Value     string  `json:"value"`
	Topic     string  `json:"topic"`
	Partition int32   `json:"partition"`
	Offset    int64   `json:"offset"`
	// producer_send_error
	Exception string `json:"exception"`
	Message   string `json:"message"`
	// tool_data (the producer's summary at shutdown)
	Sent  int64 `json:"sent"`
	Acked int64 `json:"acked"`
	// records_consumed: count and per-partition summaries;
	// partitions_assigned, partitions_revoked: topic and partition only.
	Count      int64          `json:"count"`
	Partitions []javaPartSpan `json:"partitions"`
	// offsets_committed
	Offsets []javaPartSpan `json:"offsets"`
	Success bool           `json:"success"`
	Error   string         `json:"error"`
}

// javaPartSpan is a partition in a consumer event, with the fields of
// RecordSetSummary (count, minOffset, maxOffset) or CommitData (offset).
type javaPartSpan struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Count     int64  `json:"count"`
	MinOffset int64  `json:"minOffset"`
	MaxOffset int64  `json:"maxOffset"`
	Offset    int64  `json:"offset"`
}

// At is the event's timestamp.
func (e javaEvent) At() time.Time { return time.UnixMilli(e.Timestamp) }

// readJavaEvents calls onEvent for every line of r that is a JSON object
// with a name; other lines (log output, "Bad data can't be written as
// json") are skipped, as the tools' docs advise.
func readJavaEvents(r io.Reader, onEvent func(javaEvent)) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var e javaEvent
		if json.Unmarshal(line, &e) != nil || e.Name == "" {
			continue
		}
		onEvent(e)
	}
	_, _ = io.Copy(io.Discard, r)
}
