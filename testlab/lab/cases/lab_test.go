//go:build lab

package cases

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
)

// caseTimeout bounds one case.
const caseTimeout = 4 * time.Minute

var versionRE = regexp.MustCompile(`Kafka version: (\S+)`)

// TestLab starts the lab's 1+3 cluster, prints the versions it actually uses
// (gregor-lab-env), and runs every registered case as a subtest that prints
// its observation line exactly once, also when the case fails the test.
// The cluster is closed (brokers TERM, then KILL of their process groups) at
// the end; a failed close fails the test.
func TestLab(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cluster, err := kafkatest.Start(ctx, kafkatest.Options{Shape: kafkatest.ThreeBrokers, Log: t.Logf,
		// retention (case 6) deletes segments within a second of their expiry.
		BrokerConfig: map[string]string{"log.retention.check.interval.ms": "1000"}})
	if err != nil {
		t.Fatalf("the lab's 1+3 cluster did not start: %v", err)
	}
	t.Cleanup(func() {
		if err := cluster.Close(); err != nil {
			t.Errorf("closing the lab's cluster: %v", err)
		}
	})
	var kafka []string
	for _, n := range cluster.State().Nodes {
		data, _ := os.ReadFile(n.Log)
		v := "unknown"
		if m := versionRE.FindSubmatch(data); m != nil {
			v = string(m[1])
		}
		kafka = append(kafka, v)
	}
	fmt.Printf("gregor-lab-env kafka=%s go=%s\n", strings.Join(kafka, ","), runtime.Version())
	bed := labtest.On(t, cluster.Bootstrap(kafkatest.Plaintext))
	for _, c := range All() {
		t.Run(c.Name, func(t *testing.T) {
			printed := false
			defer func() {
				if !printed {
					fmt.Println(Observation(c.Name, fmt.Errorf("the case stopped its test: see the log")))
				}
			}()
			cctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
			defer cancel()
			err := c.Run(cctx, &Env{T: t, Cluster: cluster, Bed: bed.For(t)})
			fmt.Println(Observation(c.Name, err))
			printed = true
			if err != nil {
				t.Error(err)
			}
		})
		if err := heal(cluster); err != nil {
			t.Fatalf("restarting brokers %s left stopped: %v", c.Name, err)
		}
	}
}

// heal restarts every broker a case left stopped, so the next case starts on
// the full cluster.
func heal(c *kafkatest.Cluster) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	live := map[string]bool{}
	for _, a := range c.Bootstrap(kafkatest.Plaintext) {
		live[a] = true
	}
	for _, id := range c.BrokerIDs() {
		if !live[c.BrokerAddr(id, kafkatest.Plaintext)] {
			if err := c.RestartBroker(ctx, id); err != nil {
				return err
			}
		}
	}
	return nil
}
