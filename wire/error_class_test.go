package wire

import (
	"fmt"
	"slices"
	"testing"
)

// TestErrorClassTable pins every class to its exact set of codes: a change
// to the classification shows up here as a diff of code lists, and every
// package that asks ClassOf changes with it.
func TestErrorClassTable(t *testing.T) {
	want := map[ErrorClass][]int16{
		ClassStaleMetadata:    {3, 5, 6, 41, 56, 74, 75, 100, 103},
		ClassCoordinator:      {14, 15, 16},
		ClassNotAppended:      {2, 3, 5, 6, 10, 17, 18, 19, 21, 29, 31, 32, 35, 42, 43, 45, 47, 59, 74, 76, 87, 90, 100, 103},
		ClassAuthorization:    {29, 30, 31, 53},
		ClassProducerFenced:   {47, 90},
		ClassInvalidRecord:    {2, 10, 18, 32, 87},
		ClassRejoin:           {22, 25, 27, 79, 110},
		ClassCoordinatorMoved: {15, 16},
	}
	for class, codes := range want {
		var got []int16
		for code := range errorsByCode {
			if ClassOf(code).Has(class) {
				got = append(got, code)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, codes) {
			t.Errorf("class %#x: codes %v, want %v", class, got, codes)
		}
	}
	for code, e := range errorsByCode {
		if ClassOf(code).Has(ClassRetriable) != e.Retriable {
			t.Errorf("%s: ClassRetriable %v, KafkaError.Retriable %v", e.Name, ClassOf(code).Has(ClassRetriable), e.Retriable)
		}
	}
	seen := map[int16]bool{}
	for _, r := range classRows {
		if seen[r.code] || r.reason == "" || r.class == 0 || r.class.Has(ClassRetriable) || errorsByCode[r.code] == nil {
			t.Errorf("row %d: duplicate, unknown code, no reason, no class, or a retriable flag that belongs to the error table", r.code)
		}
		seen[r.code] = true
	}
}

func TestClassifyWrapped(t *testing.T) {
	err := fmt.Errorf("partition 3: %w", ErrNotLeaderOrFollower)
	if c := Classify(err); !c.Has(ClassStaleMetadata|ClassNotAppended|ClassRetriable) || c.Has(ClassCoordinator) {
		t.Fatalf("Classify(wrapped NOT_LEADER_OR_FOLLOWER) = %#x", c)
	}
	if Classify(nil) != 0 || Classify(fmt.Errorf("plain")) != 0 || ClassOf(0) != 0 || ClassOf(-2) != 0 || ClassOf(30000) != 0 {
		t.Fatal("no Kafka error must have no class")
	}
	if ClassOf(-1) != 0 { // UNKNOWN_SERVER_ERROR: not retriable, no row
		t.Fatalf("ClassOf(-1) = %#x", ClassOf(-1))
	}
	if (ErrorClass(0)).Has(0) {
		t.Fatal("Has(0) must be false")
	}
}
