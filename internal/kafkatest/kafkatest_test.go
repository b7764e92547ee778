package kafkatest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestNewKafkaUUID(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		id := newKafkaUUID()
		if len(id) != 22 || strings.HasPrefix(id, "-") || seen[id] {
			t.Fatalf("bad or repeated id %q", id)
		}
		b, err := base64.RawURLEncoding.DecodeString(id)
		if err != nil || len(b) != 16 {
			t.Fatalf("id %q does not decode to 16 bytes: %v", id, err)
		}
		seen[id] = true
	}
}

func TestSelfSignedCertVerifiesLoopback(t *testing.T) {
	dir := t.TempDir()
	ks, caFile, caPEM, err := writeSelfSignedCert(dir)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(ks)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "-----BEGIN PRIVATE KEY-----") || !strings.Contains(string(data), "BEGIN CERTIFICATE") {
		t.Fatalf("keystore is not PKCS#8 key + certificate:\n%s", data)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		t.Fatal("CA PEM does not parse")
	}
	cert, err := tls.LoadX509KeyPair(ks, ks)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cert.Leaf.Verify(x509.VerifyOptions{Roots: pool, DNSName: "127.0.0.1"}); err != nil {
		t.Fatalf("certificate does not verify for 127.0.0.1: %v", err)
	}
	if filepath.Base(caFile) != "ca.pem" {
		t.Fatalf("CA file %s", caFile)
	}
}

// TestJarCache checks the §1.3 items of the recipe on the cached jars.
func TestJarCache(t *testing.T) {
	t0 := time.Now()
	dir, err := EnsureJars(context.Background(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("jars in %s (ready in %s)", dir, time.Since(t0).Round(time.Millisecond))
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	all := strings.Join(names, " ")
	v := Version()
	for _, must := range []string{"kafka_2.13-" + v + ".jar", "kafka-server-" + v + ".jar", "kafka-tools-" + v + ".jar", "kafka-clients-" + v + ".jar",
		"scala-library-2.13.18.jar", "log4j-slf4j-impl-2.25.5.jar", "log4j-core-2.25.5.jar", "slf4j-api-1.7.36.jar"} {
		if !strings.Contains(all, must) {
			t.Errorf("missing %s in %s", must, dir)
		}
	}
	if m := regexp.MustCompile(`slf4j-api-2|log4j-slf4j2|jetty|connect-runtime`).FindString(all); m != "" {
		t.Errorf("unwanted jar %q in %s", m, dir)
	}
	base := map[string]string{}
	strip := regexp.MustCompile(`-[0-9][^-]*(-[a-z-]+)?\.jar$`)
	for _, n := range names {
		b := strip.ReplaceAllString(n, "")
		if prev, ok := base[b]; ok && b != "metrics-core" {
			// Kafka 3.x ships two metrics-core artifacts of different
			// groups (com.yammer.metrics 2.2.0, io.dropwizard.metrics 4.x).
			t.Errorf("two versions of %s: %s and %s", b, prev, n)
		}
		base[b] = n
	}
	t.Logf("%d jars", len(names))
}

// startCluster starts a cluster of shape for this test and closes it at the end.
func startCluster(t *testing.T, shape Shape) *Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	c, err := Start(ctx, Options{Shape: shape, Log: t.Logf})
	if err != nil {
		t.Fatalf("Start(%s): %v", shape, err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		for _, n := range c.nodes {
			if n.pid != 0 && pidAlive(n.pid) {
				t.Errorf("node %d (pid %d) still alive after Close", n.id, n.pid)
			}
		}
	})
	return c
}

func TestSingleNodeStartsAndAnswers(t *testing.T) {
	c := startCluster(t, SingleNode)
	t.Logf("STARTUP single node: %s", c.StartupTime.Round(time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	md, err := c.Metadata(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if md.ClusterID != c.ClusterID() || !md.HasBroker(1) || len(md.Brokers) != 1 {
		t.Fatalf("metadata %+v, want cluster %s with broker 1", md, c.ClusterID())
	}
	if v := c.serverVersion(); v != Version() {
		t.Fatalf("server logged version %q, want %s", v, Version())
	}
	f, err := c.Features(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Kafka %s features: %v", c.serverVersion(), f)
	// The levels a fresh cluster finalizes by release: none but
	// metadata.version on 3.x; group.version 1 and transaction.version 2
	// from 4.0; share.version from 4.2 (a preview, off, on 4.0 and 4.1).
	for k, since := range map[string]release{"group.version": {4, 0}, "transaction.version": {4, 0}, "share.version": {4, 2}} {
		lvl, _ := strconv.Atoi(f[k])
		if want := c.AtLeast(since.major, since.minor); want != (lvl >= 1) {
			t.Errorf("%s = %q on Kafka %s, want enabled %v", k, f[k], c.Version(), want)
		}
	}
	if lvl, _ := strconv.Atoi(f["transaction.version"]); c.AtLeast(4, 0) && lvl < 2 {
		t.Errorf("transaction.version = %q, want 2 (KIP-890 part 2)", f["transaction.version"])
	}
	// Stop and restart the single broker (combined node): the data survives.
	if err := c.StopBroker(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if got := c.Bootstrap(Plaintext); len(got) != 0 {
		t.Fatalf("Bootstrap after stop = %v, want none", got)
	}
	if err := c.RestartBroker(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Metadata(ctx, 1); err != nil {
		t.Fatalf("after restart: %v", err)
	}
}

func TestThreeBrokersKillFenceRestart(t *testing.T) {
	c := startCluster(t, ThreeBrokers)
	t.Logf("STARTUP 1 controller + 3 brokers: %s", c.StartupTime.Round(time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if got := c.BrokerIDs(); len(got) != 3 {
		t.Fatalf("BrokerIDs = %v", got)
	}
	md, err := c.Metadata(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !containsAll(md, []int32{1, 2, 3}) || md.ControllerID == 100 {
		// Metadata reports a random live broker as "controller" in KRaft, never the KRaft controller.
		t.Fatalf("metadata before kill: %+v", md)
	}
	if err := c.KillBroker(ctx, 2); err != nil {
		t.Fatal(err)
	}
	tk := time.Now()
	waitFor(t, ctx, "broker 2 fenced (absent from broker 1's Metadata)", func() (bool, string) {
		md, err := c.Metadata(ctx, 1)
		if err != nil {
			return false, err.Error()
		}
		return !md.HasBroker(2) && md.HasBroker(3), formatBrokers(md)
	})
	t.Logf("broker 2 fenced %s after SIGKILL", time.Since(tk).Round(time.Millisecond))
	// Kafka's own view: MetadataQuorumCommand lists observers; broker 2's
	// registration is fenced and it is no longer heartbeating.
	out, err := c.RunTool(ctx, "org.apache.kafka.tools.MetadataQuorumCommand",
		"--bootstrap-controller", c.ControllerAddr(), "describe", "--status")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "LeaderId:") || !strings.Contains(out, "100") {
		t.Fatalf("MetadataQuorumCommand output:\n%s", out)
	}
	if err := c.RestartBroker(ctx, 2); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "broker 2 back in broker 1's Metadata", func() (bool, string) {
		md, err := c.Metadata(ctx, 1)
		if err != nil {
			return false, err.Error()
		}
		return containsAll(md, []int32{1, 2, 3}), formatBrokers(md)
	})
	if len(c.Bootstrap(Plaintext)) != 3 {
		t.Fatalf("Bootstrap = %v", c.Bootstrap(Plaintext))
	}
}

func formatBrokers(md *ClusterMetadata) string {
	var ids []string
	for _, b := range md.Brokers {
		ids = append(ids, strconv.Itoa(int(b.NodeID)))
	}
	return "live brokers [" + strings.Join(ids, ",") + "]"
}

// waitFor polls cond until it holds or ctx ends.
func waitFor(t *testing.T, ctx context.Context, what string, cond func() (bool, string)) {
	t.Helper()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	last := ""
	for {
		ok, info := cond()
		if ok {
			return
		}
		last = info
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %s; last: %s", what, last)
		}
	}
}

func TestSharedClusterAnswers(t *testing.T) {
	c := Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	md, err := c.Metadata(ctx, c.BrokerIDs()[0])
	if err != nil {
		t.Fatal(err)
	}
	if md.ClusterID != c.ClusterID() {
		t.Fatalf("cluster id %q, want %q", md.ClusterID, c.ClusterID())
	}
	if err := c.KillBroker(ctx, c.BrokerIDs()[0]); err == nil {
		t.Fatal("KillBroker on the shared cluster was not refused")
	}
	t.Logf("shared %s cluster %s, started in %s; bootstrap %v", c.Shape(), c.ClusterID(), c.StartupTime, c.Bootstrap(Plaintext))
}

func TestSSLListenerVerifiesWithCA(t *testing.T) {
	c := Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(c.CAPEM()) {
		t.Fatal("CA does not parse")
	}
	addr := c.Bootstrap(SSL)[0]
	// Go's TLS verifies the broker as 127.0.0.1 with the CA, then speaks Kafka.
	conn, err := (&tls.Dialer{Config: &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}}).DialContext(ctx, "tcp", addr)
	if err != nil {
		t.Fatalf("TLS with the CA: %v", err)
	}
	md, err := probeConn(ctx, conn)
	conn.Close()
	if err != nil || md.ClusterID != c.ClusterID() {
		t.Fatalf("Metadata over TLS: %+v, %v", md, err)
	}
	// Without the CA the handshake must fail.
	conn, err = (&tls.Dialer{Config: &tls.Config{ServerName: "127.0.0.1"}}).DialContext(ctx, "tcp", addr)
	if err == nil {
		conn.Close()
		t.Fatal("TLS without the CA succeeded")
	}
	// Kafka's own client over SSL trusting the PEM CA.
	props, err := c.WriteClientProperties(SSL, "", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.RunTool(ctx, "org.apache.kafka.tools.TopicCommand", "--bootstrap-server", addr, "--list", "--command-config", props); err != nil {
		t.Fatalf("TopicCommand over SSL: %v", err)
	}
}

func TestSASLPlainRawHandshake(t *testing.T) {
	c := Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(c.CAPEM())
	dial := map[Listener]func() (net.Conn, error){
		SASLPlaintext: func() (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "tcp", c.Bootstrap(SASLPlaintext)[0])
		},
		SASLSSL: func() (net.Conn, error) {
			return (&tls.Dialer{Config: &tls.Config{RootCAs: pool}}).DialContext(ctx, "tcp", c.Bootstrap(SASLSSL)[0])
		},
	}
	for _, l := range []Listener{SASLPlaintext, SASLSSL} {
		for _, tc := range []struct {
			user, pass string
			ok         bool
		}{{AdminUser, AdminPassword, true}, {AliceUser, AlicePassword, true}, {AliceUser, "wrong", false}, {"mallory", AlicePassword, false}} {
			conn, err := dial[l]()
			if err != nil {
				t.Fatalf("%s: dial: %v", l, err)
			}
			err = saslPlain(ctx, conn, tc.user, tc.pass)
			if tc.ok {
				if err != nil {
					t.Errorf("%s PLAIN %s/%s: %v", l, tc.user, tc.pass, err)
				} else if md, err := probeConn(ctx, conn); err != nil || md.ClusterID != c.ClusterID() {
					t.Errorf("%s: Metadata after PLAIN auth: %+v %v", l, md, err)
				}
			} else if err == nil || !strings.Contains(err.Error(), "error code 58") {
				t.Errorf("%s PLAIN %s/%s: got %v, want SASL_AUTHENTICATION_FAILED (58)", l, tc.user, tc.pass, err)
			}
			conn.Close()
		}
	}
}

func TestSASLScramWithKafkaCLI(t *testing.T) {
	c := Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for _, tc := range []struct {
		l          Listener
		mech, pass string
		ok         bool
	}{
		{SASLPlaintext, "SCRAM-SHA-256", AlicePassword, true},
		{SASLPlaintext, "SCRAM-SHA-512", AlicePassword, true},
		{SASLPlaintext, "SCRAM-SHA-256", "wrong", false},
		{SASLSSL, "SCRAM-SHA-512", "wrong", false},
		{SASLSSL, "SCRAM-SHA-512", AlicePassword, true},
	} {
		props, err := c.WriteClientProperties(tc.l, tc.mech, AliceUser, tc.pass)
		if err != nil {
			t.Fatal(err)
		}
		out, err := c.RunTool(ctx, "org.apache.kafka.tools.TopicCommand",
			"--bootstrap-server", c.Bootstrap(tc.l)[0], "--list", "--command-config", props)
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s %s alice/%s: %v", tc.l, tc.mech, tc.pass, err)
		case !tc.ok && err == nil:
			t.Errorf("%s %s alice/%s: accepted, want rejected", tc.l, tc.mech, tc.pass)
		case !tc.ok && !strings.Contains(out, "Authentication failed"):
			t.Errorf("%s %s alice/%s: failed without an authentication error:\n%s", tc.l, tc.mech, tc.pass, out)
		}
	}
}

// TestSecureListenersWithJavaClient: Kafka's own client lists topics on the
// MTLS listener with admin's client certificate and on the OAUTH listener
// with an unsecured JWS for admin (ClientProperties), and is refused on
// MTLS without a certificate.
func TestSecureListenersWithJavaClient(t *testing.T) {
	c := Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, l := range []Listener{MTLS, OAuth} {
		props, err := c.WriteClientProperties(l, "", AdminUser, "")
		if err != nil {
			t.Fatal(err)
		}
		if out, err := c.RunTool(ctx, "org.apache.kafka.tools.TopicCommand", "--bootstrap-server", c.Bootstrap(l)[0], "--list", "--command-config", props); err != nil {
			t.Fatalf("TopicCommand over %s: %v\n%s", l, err, out)
		}
	}
	props, err := c.WriteClientProperties(SSL, "", "", "") // trusts the CA, presents no certificate
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.RunTool(ctx, "org.apache.kafka.tools.TopicCommand", "--bootstrap-server", c.Bootstrap(MTLS)[0], "--list", "--command-config", props); err == nil {
		t.Fatal("TopicCommand over MTLS without a certificate succeeded")
	}
}
