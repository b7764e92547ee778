package kafkatest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Cluster is a running test cluster: either started by this process (Start)
// or attached from a state file written by `kafka-local up` (Shared,
// LoadState). Its methods are safe for concurrent use.
type Cluster struct {
	mu sync.Mutex

	shape          Shape
	dir            string
	java           javaRuntime
	libDir         string
	release        release   // the Kafka release the nodes run (config, quorum, format)
	jarsOnce       sync.Once // loads jars
	jars           jarSet
	jarsErr        error
	clusterID      string
	keystore       string
	caFile         string
	caPEM          []byte
	serverLog4j    string
	toolsLog4j     string
	controllerPort int
	nodes          []*node // controller first when dedicated
	log            func(string, ...any)
	brokerConfig   map[string]string // Options.BrokerConfig
	racks          bool              // Options.Racks (racks.go)
	startTimeout   time.Duration     // Options.StartTimeout, defaulted
	// telemetryClasses holds the compiled telemetry reporter
	// (Options.TelemetryReporter), "" without one.
	telemetryClasses string

	attached bool // from a state file: Close is a no-op, Stop/Kill/Restart refused
	detached bool // JVMs outlive this process (kafka-local up)

	// StartupTime is how long Start took from format to every broker ready.
	StartupTime time.Duration
}

// nodeStartTimeout bounds one node's start, and its format (each unless
// Options.StartTimeout says otherwise).
const nodeStartTimeout = 120 * time.Second

// Start formats and starts a new cluster of the given shape and waits until
// every broker answers a Metadata request that lists all brokers. On a bind
// failure it retries (up to 3 times) with fresh ports. The caller must Close
// the cluster. Errors say what is missing (JDK, Maven, jars, ports) and carry
// the tail of the failing node's logs.
func Start(ctx context.Context, o Options) (*Cluster, error) {
	return start(ctx, o, false)
}

func start(ctx context.Context, o Options, detached bool) (*Cluster, error) {
	if o.Shape == "" {
		o.Shape = SingleNode
	}
	if o.Shape != SingleNode && o.Shape != ThreeBrokers {
		return nil, fmt.Errorf("kafkatest: unknown shape %q", o.Shape)
	}
	logf := o.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	java, err := findJava(ctx)
	if err != nil {
		return nil, err
	}
	if o.Version == "" {
		o.Version = Version()
	}
	rel, err := parseRelease(o.Version)
	if err != nil {
		return nil, classErrorf(ErrStartup, "%v", err)
	}
	lib, err := ensureJars(ctx, o.Version, logf)
	if err != nil {
		return nil, err
	}
	var tele string
	if o.TelemetryReporter {
		if tele, err = compileTelemetryReporter(ctx, java, lib); err != nil {
			return nil, err
		}
	}
	var lastErr error
	for attempt := 1; attempt <= 3; attempt++ {
		c := &Cluster{shape: o.Shape, java: java, libDir: lib, release: rel, log: logf, detached: detached, brokerConfig: o.BrokerConfig,
			racks: o.Racks, startTimeout: cmp.Or(o.StartTimeout, nodeStartTimeout), telemetryClasses: tele}
		err := c.tryStart(ctx, o.Dir)
		if err == nil {
			return c, nil
		}
		c.destroy()
		lastErr = err
		if !errors.Is(err, errBind) {
			break
		}
		logf("kafkatest: attempt %d: %v; retrying with new ports", attempt, err)
	}
	return nil, lastErr
}

func (c *Cluster) tryStart(ctx context.Context, parent string) error {
	t0 := time.Now()
	dir, err := os.MkdirTemp(parent, "gregor-kafka-")
	if err != nil {
		return fmt.Errorf("kafkatest: cluster directory: %w", err)
	}
	c.dir = dir
	etc := filepath.Join(dir, "etc")
	if err := os.MkdirAll(etc, 0o755); err != nil {
		return err
	}
	if c.keystore, c.caFile, c.caPEM, err = writeSelfSignedCert(etc); err != nil {
		return err
	}
	if c.serverLog4j, c.toolsLog4j, err = writeLogConfigs(etc); err != nil {
		return err
	}
	c.clusterID = newKafkaUUID()

	// Pick every port at once, holding them so they differ from each other.
	switch c.shape {
	case SingleNode:
		c.nodes = []*node{{id: 1, roles: "broker,controller"}}
	case ThreeBrokers:
		c.nodes = []*node{{id: 100, roles: "controller"}, {id: 1, roles: "broker"}, {id: 2, roles: "broker"}, {id: 3, roles: "broker"}}
	}
	// Per broker: the client listeners, the Proxied listener and its front.
	ports, err := pickPorts(1 + (len(clientListeners)+2)*len(c.BrokerIDs()))
	if err != nil {
		return err
	}
	c.controllerPort, ports = ports[0], ports[1:]
	for _, n := range c.nodes {
		n.dir = filepath.Join(dir, fmt.Sprintf("node-%d", n.id))
		n.config = filepath.Join(n.dir, "server.properties")
		if err := os.MkdirAll(filepath.Join(n.dir, "logs"), 0o755); err != nil {
			return err
		}
		if n.isBroker() {
			n.ports = map[Listener]int{}
			for _, l := range clientListeners {
				n.ports[l], ports = ports[0], ports[1:]
			}
			n.ports[Proxied], n.proxyPort, ports = ports[0], ports[1], ports[2:]
		}
		if err := c.nodeConfig(n).write(n.config); err != nil {
			return err
		}
	}

	// Format every node in parallel (one JVM each).
	tf := time.Now()
	errs := make([]error, len(c.nodes))
	var wg sync.WaitGroup
	for i, n := range c.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.format(ctx, n)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	c.log("kafkatest: formatted %d node(s) of cluster %s in %s", len(c.nodes), c.clusterID, time.Since(tf).Round(time.Millisecond))

	// Controller(s) first, then brokers; wait for every broker.
	ts := time.Now()
	for _, n := range c.nodes {
		if err := c.startNode(n); err != nil {
			return err
		}
	}
	sctx, cancel := context.WithTimeout(ctx, cmp.Or(c.startTimeout, nodeStartTimeout))
	defer cancel()
	if err := c.waitReady(sctx, c.BrokerIDs()); err != nil {
		return err
	}
	c.StartupTime = time.Since(t0)
	c.log("kafkatest: %s cluster ready: JVMs up in %s, %s in total (Kafka %s, dir %s)",
		c.shape, time.Since(ts).Round(time.Millisecond), c.StartupTime.Round(time.Millisecond), c.serverVersion(), dir)
	return nil
}

// pickPorts returns n distinct free ports on 127.0.0.1.
func pickPorts(n int) ([]int, error) {
	var ports []int
	var closers []func() error
	defer func() {
		for _, c := range closers {
			_ = c()
		}
	}()
	for i := 0; i < n; i++ {
		l, err := netListen()
		if err != nil {
			return nil, fmt.Errorf("kafkatest: no free port on 127.0.0.1: %w", err)
		}
		closers = append(closers, l.Close)
		ports = append(ports, portOf(l))
	}
	return ports, nil
}

// format runs kafka.tools.StorageTool format for n. Controller-role nodes get
// --standalone (3.9+, KIP-853; older releases read controller.quorum.voters)
// and the SCRAM users (only controllers write the bootstrap metadata).
func (c *Cluster) format(ctx context.Context, n *node) error {
	args := []string{"format", "--cluster-id", c.clusterID, "--config", n.config}
	if !n.isBroker() || n.roles == "broker,controller" {
		if c.release.dynamicQuorum() {
			args = append(args, "--standalone")
		}
		for _, mech := range []string{"SCRAM-SHA-256", "SCRAM-SHA-512"} {
			for _, u := range [][2]string{{AdminUser, AdminPassword}, {AliceUser, AlicePassword}} {
				args = append(args, "--add-scram", fmt.Sprintf("%s=[name=%s,password=%s]", mech, u[0], u[1]))
			}
		}
	}
	// Bounded like a node's start (Options.StartTimeout): a fixed 60 s
	// killed the four parallel formats of a 1+3 cluster at load 50.
	fctx, cancel := context.WithTimeout(ctx, cmp.Or(c.startTimeout, nodeStartTimeout))
	defer cancel()
	out, err := c.RunTool(fctx, "kafka.tools.StorageTool", args...)
	if err != nil {
		return fmt.Errorf("kafkatest: format node %d: %w", n.id, err)
	}
	_ = out
	return nil
}

// waitReady waits until every broker in ids has a running JVM, answers
// ApiVersions and Metadata on its PLAINTEXT listener, and is listed there as
// live, and until the first of them lists all of ids.
func (c *Cluster) waitReady(ctx context.Context, ids []int32) error {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	pending := append([]int32(nil), ids...)
	var lastErr error
	start := time.Now()
	note := start.Add(5 * time.Second) // a progress line every 5s of waiting
	for {
		if now := time.Now(); now.After(note) {
			c.log("kafkatest: waiting for broker(s) %v to answer Metadata (%s so far)", pending, now.Sub(start).Round(time.Second))
			note = note.Add(5 * time.Second)
		}
		var still []int32
		for _, id := range pending {
			n := c.node(id)
			if n.exited() {
				if n.bindFailed() {
					return fmt.Errorf("%w: node %d exited at startup%s", errBind, id, n.logTail())
				}
				return classErrorf(ErrStartup, "kafkatest: node %d exited during startup%s", id, n.logTail())
			}
			for _, cn := range c.nodes { // a dead controller means no broker will ever be ready
				if !cn.isBroker() && cn.exited() {
					if cn.bindFailed() {
						return fmt.Errorf("%w: controller %d exited at startup%s", errBind, cn.id, cn.logTail())
					}
					return classErrorf(ErrStartup, "kafkatest: controller %d exited during startup%s", cn.id, cn.logTail())
				}
			}
			pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			md, err := Probe(pctx, n.addr(Plaintext))
			cancel()
			switch {
			case err != nil:
				lastErr = err
				still = append(still, id)
			case !md.HasBroker(id):
				lastErr = fmt.Errorf("%w: broker %d not yet listed in its own Metadata", errNotReady, id)
				still = append(still, id)
			}
		}
		pending = still
		if len(pending) == 0 {
			md, err := c.metadataFrom(ctx, ids[0])
			if err == nil && containsAll(md, ids) {
				return nil
			}
			if err != nil {
				lastErr = err
			} else {
				lastErr = fmt.Errorf("%w: broker %d lists %v", errNotReady, ids[0], md.Brokers)
			}
			pending = ids[:1]
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			var logs string
			for _, id := range pending {
				logs += c.node(id).logTail()
			}
			return classErrorf(ErrStartup, "kafkatest: brokers %v not ready: %v (last: %v)%s", pending, ctx.Err(), lastErr, logs)
		}
	}
}

func containsAll(md *ClusterMetadata, ids []int32) bool {
	for _, id := range ids {
		if !md.HasBroker(id) {
			return false
		}
	}
	return true
}

// Metadata sends a raw Metadata request to broker id's PLAINTEXT listener and
// returns the broker's view of the cluster: an independent check that does
// not use gregor's client.
func (c *Cluster) Metadata(ctx context.Context, id int32) (*ClusterMetadata, error) {
	return c.metadataFrom(ctx, id)
}

func (c *Cluster) metadataFrom(ctx context.Context, id int32) (*ClusterMetadata, error) {
	n := c.node(id)
	if n == nil || !n.isBroker() {
		return nil, classErrorf(ErrUnknownBroker, "kafkatest: no broker %d", id)
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return Probe(pctx, n.addr(Plaintext))
}

func (c *Cluster) node(id int32) *node {
	for _, n := range c.nodes {
		if n.id == id {
			return n
		}
	}
	return nil
}

// addr is the address clients use for listener l: for Proxied, the
// advertised front a fault proxy listens on.
func (n *node) addr(l Listener) string {
	if l == Proxied {
		return "127.0.0.1:" + strconv.Itoa(n.proxyPort)
	}
	return "127.0.0.1:" + strconv.Itoa(n.ports[l])
}

// ProxyFront returns the "127.0.0.1:port" broker id advertises on its Proxied
// listener, where a fault proxy must listen, or "" when there is no such
// broker or the cluster has no Proxied listener (a state file written before
// it existed).
func (c *Cluster) ProxyFront(id int32) string {
	n := c.node(id)
	if n == nil || !n.isBroker() || n.proxyPort == 0 {
		return ""
	}
	return n.addr(Proxied)
}

// ProxyBackend returns the "127.0.0.1:port" broker id's Proxied listener is
// bound to, where a fault proxy forwards, or "" as for ProxyFront.
func (c *Cluster) ProxyBackend(id int32) string {
	n := c.node(id)
	if n == nil || !n.isBroker() || n.ports[Proxied] == 0 {
		return ""
	}
	return "127.0.0.1:" + strconv.Itoa(n.ports[Proxied])
}

var versionRE = regexp.MustCompile(`Kafka version: (\S+)`)

// serverVersion returns the version the first node logged at startup.
func (c *Cluster) serverVersion() string {
	for _, n := range c.nodes {
		if m := versionRE.FindSubmatch(logHead(n.logFile())); m != nil {
			return string(m[1])
		}
	}
	return "unknown"
}

// versionScanBytes is how much of a broker's log serverVersion reads: the
// version line comes with the broker's start, and a log can grow to
// gigabytes (request logging at DEBUG wrote 2.2 GB in an hour, and reading
// it whole in every test that asks the version ran -race runs out of
// memory).
const versionScanBytes = 4 << 20

// logHead returns at most the first versionScanBytes of the file at path
// (nil when it cannot be read).
func logHead(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, versionScanBytes))
	return data
}

// Shape returns the cluster's layout.
func (c *Cluster) Shape() Shape { return c.shape }

// Dir returns the cluster's directory (node dirs, certificates, configs).
func (c *Cluster) Dir() string { return c.dir }

// Bootstrap returns "127.0.0.1:port" of every running broker on listener l,
// in node ID order.
func (c *Cluster) Bootstrap(l Listener) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, id := range c.BrokerIDs() {
		n := c.node(id)
		if c.attached || n.running() {
			out = append(out, n.addr(l))
		}
	}
	return out
}

// BrokerAddr returns broker id's "127.0.0.1:port" on listener l, running or
// not, or "" when there is no such broker.
func (c *Cluster) BrokerAddr(id int32, l Listener) string {
	n := c.node(id)
	if n == nil || !n.isBroker() {
		return ""
	}
	return n.addr(l)
}

// CAFile is the path of the PEM certificate the SSL listeners present (it is
// self-signed, so it is also the CA to trust).
func (c *Cluster) CAFile() string { return c.caFile }

// ClientCertFile is the path of user's client certificate for the MTLS
// listener (AdminUser or AliceUser): an unencrypted PKCS#8 key followed by
// the certificate (CN=<user>, signed by the cluster's CA), for
// tls.LoadX509KeyPair(f, f) or Java's ssl.keystore.type=PEM. SECRET: the
// file holds a private key; never print its content.
func (c *Cluster) ClientCertFile(user string) string {
	return clientCertFile(filepath.Dir(c.caFile), user)
}

// CAPEM is the content of CAFile.
func (c *Cluster) CAPEM() []byte { return append([]byte(nil), c.caPEM...) }

// ClusterID is the KRaft cluster ID the cluster was formatted with.
func (c *Cluster) ClusterID() string { return c.clusterID }

// BrokerIDs lists the broker node IDs in ascending order.
func (c *Cluster) BrokerIDs() []int32 {
	var ids []int32
	for _, n := range c.nodes {
		if n.isBroker() {
			ids = append(ids, n.id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// ControllerAddr returns the controller listener "127.0.0.1:port", for
// MetadataQuorumCommand --bootstrap-controller.
func (c *Cluster) ControllerAddr() string { return "127.0.0.1:" + strconv.Itoa(c.controllerPort) }

// errShared refuses disruptive actions on a cluster attached from a state file.
var errShared = classErrorf(ErrAttached, "kafkatest: the shared cluster cannot be stopped, killed or restarted by a test; start your own with Start")

func (c *Cluster) brokerNode(id int32) (*node, error) {
	if c.attached {
		return nil, errShared
	}
	n := c.node(id)
	if n == nil || !n.isBroker() {
		return nil, classErrorf(ErrUnknownBroker, "kafkatest: no broker %d (brokers: %v)", id, c.BrokerIDs())
	}
	return n, nil
}

// StopBroker sends SIGTERM to broker id (a controlled shutdown), waits up to
// 30s, then SIGKILLs it; it returns once the JVM has exited.
func (c *Cluster) StopBroker(ctx context.Context, id int32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.brokerNode(id)
	if err != nil {
		return err
	}
	return n.stop(ctx, 30*time.Second)
}

// KillBroker sends SIGKILL to broker id's process group and waits until the
// JVM has exited. The controller fences it after broker.session.timeout.ms
// (4s here).
func (c *Cluster) KillBroker(ctx context.Context, id int32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.brokerNode(id)
	if err != nil {
		return err
	}
	return n.kill(ctx)
}

// RestartBroker starts a stopped or killed broker again with the same
// configuration, ports and data, and waits until it is listed as live.
// Restarting a running broker is an error.
func (c *Cluster) RestartBroker(ctx context.Context, id int32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.brokerNode(id)
	if err != nil {
		return err
	}
	if n.running() {
		return classErrorf(ErrBrokerRunning, "kafkatest: broker %d is running; stop or kill it first", id)
	}
	t0 := time.Now()
	if err := c.startNode(n); err != nil {
		return err
	}
	sctx, cancel := context.WithTimeout(ctx, cmp.Or(c.startTimeout, nodeStartTimeout))
	defer cancel()
	if err := c.waitReady(sctx, []int32{id}); err != nil {
		return err
	}
	c.log("kafkatest: broker %d restarted in %s", id, time.Since(t0).Round(time.Millisecond))
	return nil
}

// Close stops every broker (SIGTERM, 20s, then SIGKILL of its process group),
// then the controller, and removes the cluster's directory. On a cluster
// attached from a state file it does nothing: the owner of the state file
// (make test, kafka-local down) stops it.
func (c *Cluster) Close() error {
	if c.attached {
		return nil
	}
	return c.destroy()
}

// destroy stops all nodes, brokers before controllers, and removes the dir.
func (c *Cluster) destroy() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	ctx := context.Background()
	stopAll := func(brokers bool) error {
		var wg sync.WaitGroup
		errs := make([]error, len(c.nodes))
		for i, n := range c.nodes {
			if n.isBroker() != brokers {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = n.stop(ctx, 20*time.Second)
			}()
		}
		wg.Wait()
		return errors.Join(errs...)
	}
	err := errors.Join(stopAll(true), stopAll(false))
	if c.dir != "" && err == nil {
		if rerr := os.RemoveAll(c.dir); rerr != nil {
			err = rerr
		}
	}
	return err
}

// RunTool runs one of Kafka's CLI main classes (e.g.
// "org.apache.kafka.tools.TopicCommand") with args in a JVM of its own and
// returns its combined stdout and stderr. A non-zero exit is an error that
// includes the arguments and the output, passwords replaced by ***. A class
// the release's jars lack is replaced by the one of the same simple name
// they have (ConfigCommand is kafka.admin.ConfigCommand up to 4.1). Each
// call costs a JVM start (about 1-2s).
func (c *Cluster) RunTool(ctx context.Context, mainClass string, args ...string) (string, error) {
	cmd, err := c.ToolCommand(ctx, mainClass, []string{"-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"}, args...)
	if err != nil {
		return "", err
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		// Never the secrets among args (--add-scram) or echoed by the tool.
		return redact(string(out)), fmt.Errorf("kafkatest: %s %v: %w\n%s", cmd.Args[len(cmd.Args)-len(args)-1], redactArgs(args), err, redact(tail(out, 4000)))
	}
	return string(out), nil
}

// ToolCommand returns, not started, the command RunTool runs for one of
// Kafka's CLI main classes, with jvmFlags (heap, GC, JIT) in place of
// RunTool's start-up-tuned ones: for a caller that needs the process
// itself, e.g. its resource usage (cmd.ProcessState.SysUsage) after a
// performance tool ran.
func (c *Cluster) ToolCommand(ctx context.Context, mainClass string, jvmFlags []string, args ...string) (*exec.Cmd, error) {
	js, err := c.jarSet()
	if err != nil {
		return nil, err
	}
	mainClass = js.toolClass(mainClass)
	tmp := filepath.Join(c.dir, "tmp")
	_ = os.MkdirAll(tmp, 0o755)
	jargs := append(c.java.commonFlags(), jvmFlags...)
	jargs = append(jargs,
		"-Djava.io.tmpdir="+tmp,
		"-Dlog4j2.configurationFile="+c.toolsLog4j,
		"-cp", js.classpath,
		mainClass)
	jargs = append(jargs, args...)
	cmd := exec.CommandContext(ctx, c.java.Path, jargs...)
	cmd.Dir = tmp
	cmd.SysProcAttr = toolProcAttr()
	cmd.WaitDelay = 5 * time.Second
	return cmd, nil
}

// jarSet returns the classpath and tool index of the cluster's jars,
// read once.
func (c *Cluster) jarSet() (jarSet, error) {
	c.jarsOnce.Do(func() { c.jars, c.jarsErr = loadJars(c.libDir) })
	return c.jars, c.jarsErr
}

// Version returns the Kafka release the cluster runs, as its first node
// logged it at startup ("unknown" when no log says).
func (c *Cluster) Version() string { return c.serverVersion() }

// PauseBroker stops broker id's JVM with SIGSTOP: its sockets stay open but
// nothing is answered, so requests already written stay in flight. Resume it
// with ResumeBroker. Refused on the shared cluster.
func (c *Cluster) PauseBroker(ctx context.Context, id int32) error {
	return c.signalBroker(id, syscall.SIGSTOP)
}

// ResumeBroker continues a broker paused by PauseBroker (SIGCONT).
func (c *Cluster) ResumeBroker(ctx context.Context, id int32) error {
	return c.signalBroker(id, syscall.SIGCONT)
}

func (c *Cluster) signalBroker(id int32, sig syscall.Signal) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.brokerNode(id)
	if err != nil {
		return err
	}
	if !n.running() {
		return classErrorf(ErrBrokerNotRunning, "kafkatest: broker %d is not running", id)
	}
	return n.signal(sig)
}
