// Command testlab runs testlab scenarios against an adapter binary and
// prints a verdict table:
//
//	testlab -adapter bin/gregor-adapter [-scenarios testlab/scenarios] [-evidence testlab/evidence] [-run REGEXP]
//	testlab -list [-scenarios testlab/scenarios] [-run REGEXP]
//
// -list prints the ids of the selected scenarios and exits without Kafka or
// an adapter; `make run` uses it to reject a -run pattern that matches no
// scenario before it starts Kafka.
//
// It uses the Kafka cluster named by $GREGOR_KAFKA_STATE (or
// <repo>/.kafka/state.json); without one it starts a single node for the
// run. Scenarios that need 1 controller + 3 brokers get a cluster testlab
// starts and stops itself. The exit status is 1 when any scenario failed or
// was invalid, 2 on a usage or set-up error.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/testlab/runner"
)

func main() {
	adapter := flag.String("adapter", "", "adapter binary (required)")
	dir := flag.String("scenarios", "testlab/scenarios", "scenario directory")
	evidence := flag.String("evidence", "testlab/evidence", "evidence directory")
	filter := flag.String("run", "", "only scenarios whose id matches this regexp")
	verbose := flag.Bool("v", false, "log progress")
	list := flag.Bool("list", false, "print the selected scenario ids and exit (no Kafka, no adapter)")
	flag.Parse()
	scs, err := selectScenarios(*dir, *filter)
	if err != nil {
		fmt.Fprintf(os.Stderr, "testlab: %v\n", err)
		os.Exit(2)
	}
	if *list {
		for _, s := range scs {
			fmt.Println(s.ID)
		}
		return
	}
	if *adapter == "" {
		fmt.Fprintln(os.Stderr, "testlab: -adapter is required")
		os.Exit(2)
	}
	logf := func(string, ...any) {}
	if *verbose {
		logf = func(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...) }
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	bed := &runner.Bed{Log: logf}
	single, owned, err := singleCluster(ctx, logf)
	if err != nil {
		fmt.Fprintf(os.Stderr, "testlab: no Kafka: %v\n", err)
		os.Exit(2)
	}
	bed.Single = single
	defer func() {
		_ = bed.Close()
		if owned {
			_ = single.Close()
		}
	}()
	cfg := runner.Config{Adapter: *adapter, EvidenceDir: *evidence, Bed: bed, Log: logf}

	fmt.Printf("testlab: %s, adapter %s, Kafka %v\n\n", plural(len(scs), "scenario"), *adapter, single.Bootstrap(kafkatest.Plaintext))
	fmt.Printf("%-44s %-10s %8s  %s\n", "SCENARIO", "VERDICT", "SECONDS", "FIRST FAILURE")
	counts := map[string]int{}
	for _, s := range scs {
		if ctx.Err() != nil {
			break
		}
		res := runner.Run(ctx, cfg, s)
		counts[res.Verdict]++
		reason := res.Reason
		if len(reason) > 160 {
			reason = reason[:160] + "..."
		}
		fmt.Printf("%-44s %-10s %8.1f  %s\n", s.ID, res.Verdict, res.Duration.Seconds(), reason)
	}
	fmt.Printf("\n%d passed, %d failed", counts[runner.Passed], counts[runner.Failed])
	if counts[runner.Invalid] > 0 {
		fmt.Printf(", %d invalid", counts[runner.Invalid])
	}
	if counts[runner.Ineligible] > 0 {
		fmt.Printf(", %d ineligible", counts[runner.Ineligible])
	}
	fmt.Printf(" (evidence in %s)\n", *evidence)
	if counts[runner.Failed]+counts[runner.Invalid] > 0 || ctx.Err() != nil {
		os.Exit(1)
	}
}

// singleCluster attaches to the state file's cluster, or starts one.
func singleCluster(ctx context.Context, logf func(string, ...any)) (*kafkatest.Cluster, bool, error) {
	path := os.Getenv(kafkatest.EnvState)
	if path == "" {
		if p, err := kafkatest.DefaultStatePath(); err == nil {
			if _, err := os.Stat(p); err == nil {
				path = p
			}
		}
	}
	if path != "" {
		c, err := kafkatest.Attach(path)
		if err != nil {
			return nil, false, err
		}
		pctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		if _, err := c.Metadata(pctx, c.BrokerIDs()[0]); err != nil {
			return nil, false, fmt.Errorf("cluster in %s does not answer: %v", path, err)
		}
		return c, false, nil
	}
	c, err := kafkatest.Start(ctx, kafkatest.Options{Log: logf})
	return c, true, err
}
