package consumer

import (
	"testing"

	"github.com/gregor-kafka/gregor/consumer/assign"
)

// The mixed groups with package assign's Java-compatible assignors.

// TestGroupIntegrationMixedJavaCooperativeSticky: gregor's
// cooperative-sticky and Java's CooperativeStickyAssignor in one group.
func TestGroupIntegrationMixedJavaCooperativeSticky(t *testing.T) {
	a, ok := assign.ByName("cooperative-sticky")
	if !ok {
		t.Fatal("no cooperative-sticky assignor")
	}
	testMixedGroup(t, "org.apache.kafka.clients.consumer.CooperativeStickyAssignor", a)
}

// TestGroupIntegrationMixedJavaRangeAssignor is the range case with
// assign's range instead of the tests' testRange.
func TestGroupIntegrationMixedJavaRangeAssignor(t *testing.T) {
	a, ok := assign.ByName("range")
	if !ok {
		t.Fatal("no range assignor")
	}
	testMixedGroup(t, "org.apache.kafka.clients.consumer.RangeAssignor", a)
}
