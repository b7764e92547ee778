package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"syscall"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	cmd := os.Args[1]
	fl := flag.NewFlagSet(cmd, flag.ExitOnError)
	statePath := fl.String("state", "", "state file (default <repo>/.kafka/state.json)")
	shape := fl.String("shape", string(kafkatest.SingleNode), "cluster shape for up: single or 1+3")
	dir := fl.String("dir", "", "parent directory of the cluster directory for up (default $TMPDIR)")
	features := fl.Bool("features", true, "up: print feature levels (FeatureCommand describe)")
	_ = fl.Parse(os.Args[2:])
	if *statePath == "" {
		p, err := kafkatest.DefaultStatePath()
		if err != nil {
			fail(err)
		}
		*statePath = p
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch cmd {
	case "up":
		up(ctx, *statePath, kafkatest.Shape(*shape), *dir, *features)
	case "down":
		err := kafkatest.StopState(*statePath)
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Printf("kafka-local: no cluster (%s absent)\n", *statePath)
			return
		}
		if err != nil {
			fail(err)
		}
		fmt.Printf("kafka-local: cluster stopped (%s removed)\n", *statePath)
	case "status":
		if !status(ctx, *statePath) {
			os.Exit(1)
		}
	default:
		usage()
	}
}

func up(ctx context.Context, path string, shape kafkatest.Shape, dir string, features bool) {
	if _, err := os.Stat(path); err == nil {
		if status(ctx, path) {
			fmt.Printf("kafka-local: already running (state %s)\n", path)
			return
		}
		fmt.Printf("kafka-local: stale state %s; stopping what remains of it\n", path)
		if err := kafkatest.StopState(path); err != nil {
			fmt.Fprintf(os.Stderr, "kafka-local: %v\n", err)
			_ = os.Remove(path)
		}
	}
	logf := func(format string, args ...any) { fmt.Printf(format+"\n", args...) }
	c, err := kafkatest.StartDetached(ctx, kafkatest.Options{Shape: shape, Dir: dir, Log: logf})
	if err != nil {
		fail(err)
	}
	if err := c.WriteState(path); err != nil {
		_ = c.Close()
		fail(err)
	}
	printCluster(c, path)
	if features {
		fctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		f, err := c.Features(fctx)
		if err != nil {
			fmt.Fprintf(os.Stderr, "kafka-local: FeatureCommand describe failed: %v\n", err)
			return
		}
		printFeatures(f)
	}
}

func printCluster(c *kafkatest.Cluster, path string) {
	s := c.State()
	fmt.Printf("Kafka %s %s cluster %s, started in %s\n", s.KafkaVersion, s.Shape, s.ClusterID, time.Duration(s.StartupMillis)*time.Millisecond)
	for _, l := range []kafkatest.Listener{kafkatest.Plaintext, kafkatest.SASLPlaintext, kafkatest.SSL, kafkatest.SASLSSL, kafkatest.OAuth, kafkatest.MTLS} {
		fmt.Printf("  %-15s %v\n", l, s.Bootstrap[l])
	}
	var fronts, backs []string
	for _, id := range c.BrokerIDs() {
		fronts, backs = append(fronts, c.ProxyFront(id)), append(backs, c.ProxyBackend(id))
	}
	fmt.Printf("  %-15s %v (advertised for a fault proxy; the broker binds %v)\n", kafkatest.Proxied, fronts, backs)
	fmt.Printf("  %-15s %s\n", "CONTROLLER", s.Controller)
	fmt.Printf("  CA file         %s\n", s.CAFile)
	fmt.Printf("  users           %s (super user), %s (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512; passwords: kafkatest.AdminPassword, kafkatest.AlicePassword)\n",
		kafkatest.AdminUser, kafkatest.AliceUser)
	fmt.Printf("  OAUTH           OAUTHBEARER, unsecured JWS validator (TEST ONLY): any unsigned JWS with sub=<user>, exp (kafkatest.UnsecuredJWS)\n")
	fmt.Printf("  MTLS            ssl.client.auth=required, principal = certificate CN; client certificates %v\n", s.ClientCerts)
	fmt.Printf("  state           %s (export %s=%s)\n", path, kafkatest.EnvState, path)
}

func printFeatures(f map[string]string) {
	names := make([]string, 0, len(f))
	for k := range f {
		names = append(names, k)
	}
	sort.Strings(names)
	fmt.Print("  features       ")
	for _, k := range names {
		fmt.Printf(" %s=%s", k, f[k])
	}
	fmt.Println()
	for _, k := range []string{"group.version", "transaction.version", "share.version"} {
		if lvl, _ := strconv.Atoi(f[k]); lvl < 1 {
			fmt.Fprintf(os.Stderr, "kafka-local: WARNING: %s is not enabled\n", k)
		}
	}
}

// status prints the state file and probes every broker; it reports whether
// all of them answered.
func status(ctx context.Context, path string) bool {
	c, err := kafkatest.Attach(path)
	if err != nil {
		fmt.Printf("kafka-local: not running (%v)\n", err)
		return false
	}
	printCluster(c, path)
	ok := true
	for _, id := range c.BrokerIDs() {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		md, err := c.Metadata(pctx, id)
		cancel()
		if err != nil {
			fmt.Printf("  broker %d: DOWN (%v)\n", id, err)
			ok = false
			continue
		}
		fmt.Printf("  broker %d: up, sees live brokers %v\n", id, md.Brokers)
	}
	return ok
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: kafka-local up|down|status [-state file] [-shape single|1+3] [-dir parent]")
	os.Exit(2)
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "kafka-local: %v\n", err)
	os.Exit(1)
}
