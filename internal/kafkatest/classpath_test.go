package kafkatest

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestLoadJars: for the release Version selects, the classpath has the
// log4j2 binding and not slf4j-reload4j (3.x), and the tools the bed and
// the scenarios name (4.4's classes) resolve to classes the jars hold
// (ConfigCommand is kafka.admin.ConfigCommand up to 4.1).
func TestLoadJars(t *testing.T) {
	lib, err := EnsureJars(context.Background(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	js, err := loadJars(lib)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(js.classpath, "slf4j-reload4j") || !strings.Contains(js.classpath, "log4j-slf4j-impl") {
		t.Fatalf("classpath bindings wrong: %s", js.classpath)
	}
	for _, c := range []string{"org.apache.kafka.tools.ConfigCommand", "org.apache.kafka.tools.AclCommand", "org.apache.kafka.tools.TopicCommand",
		"org.apache.kafka.tools.FeatureCommand", "org.apache.kafka.tools.MetadataQuorumCommand", "kafka.tools.StorageTool",
		"org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"} {
		got := js.toolClass(c)
		simple := c[strings.LastIndexByte(c, '.')+1:]
		if !slices.Contains(js.tools[simple], got) {
			t.Errorf("%s -> %s, not among the jars' %v", c, got, js.tools[simple])
		}
		t.Logf("Kafka %s: %s -> %s", Version(), c, got)
	}
}
