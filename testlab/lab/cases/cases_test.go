package cases

import (
	"errors"
	"slices"
	"testing"
)

// TestRegistry: the eight cases of issue 22, once each, in the order.
func TestRegistry(t *testing.T) {
	want := []string{"minIsr", "transactionVisibility", "eosOffsets", "offsetReplay",
		"cooperativeRebalance", "retention", "producerFencing", "idempotenceConfig"}
	if got := Names(); !slices.Equal(got, want) {
		t.Errorf("cases %v, want %v", got, want)
	}
}

// TestObservation checks the observation line's exact form.
func TestObservation(t *testing.T) {
	if got := Observation("minIsr", nil); got != "gregor-lab minIsr=PASS" {
		t.Errorf("pass line %q", got)
	}
	got := Observation("eosOffsets", &NotBuilt{Needs: "the group consumer"})
	if want := "gregor-lab eosOffsets=FAIL (not built: needs the group consumer)"; got != want {
		t.Errorf("fail line %q, want %q", got, want)
	}
	if got := Observation("x", errors.New("boom")); got != "gregor-lab x=FAIL (boom)" {
		t.Errorf("fail line %q", got)
	}
}
