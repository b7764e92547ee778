package kafkatest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var featureRE = regexp.MustCompile(`Feature:\s*(\S+)\s+SupportedMinVersion:\s*\S+\s+SupportedMaxVersion:\s*\S+\s+FinalizedVersionLevel:\s*(\S+)`)

// Features returns the finalized feature levels as Kafka's FeatureCommand
// describe reports them: "group.version": "1", "metadata.version": "4.4-IV2".
func (c *Cluster) Features(ctx context.Context) (map[string]string, error) {
	out, err := c.RunTool(ctx, "org.apache.kafka.tools.FeatureCommand",
		"--bootstrap-server", strings.Join(c.Bootstrap(Plaintext), ","), "describe")
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, f := range featureRE.FindAllStringSubmatch(out, -1) {
		m[f[1]] = f[2]
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("kafkatest: no features in FeatureCommand output:\n%s", out)
	}
	return m, nil
}

// CreateTopic creates topic with the given partitions and replication factor
// (rf <= 0: the cluster default) and optional "key=value" configs, with
// Kafka's TopicCommand (a JVM start, about 2s), and waits until every
// broker's metadata shows each partition with a leader. For test set-up
// when gregor's admin client is not the thing under test.
func (c *Cluster) CreateTopic(ctx context.Context, topic string, partitions, rf int, configs ...string) error {
	args := []string{"--bootstrap-server", strings.Join(c.Bootstrap(Plaintext), ","), "--create",
		"--topic", topic, "--partitions", strconv.Itoa(partitions)}
	if rf > 0 {
		args = append(args, "--replication-factor", strconv.Itoa(rf))
	}
	for _, kv := range configs {
		args = append(args, "--config", kv)
	}
	if _, err := c.RunTool(ctx, "org.apache.kafka.tools.TopicCommand", args...); err != nil {
		return err
	}
	return c.waitTopicLed(ctx, topic, partitions)
}

// UniqueName returns prefix + "-" + a sanitized test name + "-" + 8 random
// hex digits: a topic or group name no other test (or run) uses.
func UniqueName(t testing.TB, prefix string) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, t.Name())
	if len(name) > 100 {
		name = name[:100]
	}
	return prefix + "-" + name + "-" + hex.EncodeToString(b[:])
}
