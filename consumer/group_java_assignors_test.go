//go:build assignors

package consumer

import (
	"testing"

	"github.com/gregor-kafka/gregor/consumer/assign"
)

// The mixed groups with package assign's Java-compatible assignors. Built
// with -tags assignors until the assignors (assign.ByName) are merged; then
// drop the build tag.

// TestGroupIntegrationMixedJavaCooperativeSticky: gregor's
// cooperative-sticky and Java's CooperativeStickyAssignor in one group.
func TestGroupIntegrationMixedJavaCooperativeSticky(t *testing.T) {
	a, err := assign.ByName("cooperative-sticky")
	if err != nil {
		t.Fatal(err)
	}
	testMixedGroup(t, "org.apache.kafka.clients.consumer.CooperativeStickyAssignor", a)
}

// TestGroupIntegrationMixedJavaRangeAssignor is the range case with
// assign's range instead of the tests' testRange.
func TestGroupIntegrationMixedJavaRangeAssignor(t *testing.T) {
	a, err := assign.ByName("range")
	if err != nil {
		t.Fatal(err)
	}
	testMixedGroup(t, "org.apache.kafka.clients.consumer.RangeAssignor", a)
}
