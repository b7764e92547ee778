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
		ClassResetOffset:      {1},
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

// TestActionTable pins the "what now" of every error code: the codes of
// each non-fatal action are listed, every other code is fatal. A change of
// the classification that changes a decision shows up here.
func TestActionTable(t *testing.T) {
	want := map[Action][]int16{
		ActionRetry:           {2, 7, 9, 13, 14, 19, 20, 51, 70, 71, 72, 78, 80, 83, 84, 88, 89, 106, 122, 123, 133},
		ActionRefreshMetadata: {3, 5, 6, 41, 56, 74, 75, 100, 103},
		ActionFindCoordinator: {15, 16},
		ActionRejoin:          {22, 25, 27, 79, 110},
		ActionResetOffset:     {1},
	}
	got := map[Action][]int16{}
	for code := range errorsByCode {
		a := ClassOf(code).Action()
		got[a] = append(got[a], code)
	}
	for a, codes := range got {
		slices.Sort(codes)
		if a == ActionFatal {
			for _, c := range codes {
				if errorsByCode[c].Retriable {
					t.Errorf("%s is retriable but its action is fatal", errorsByCode[c].Name)
				}
			}
			continue
		}
		if !slices.Equal(codes, want[a]) {
			t.Errorf("%s: codes %v, want %v", a, codes, want[a])
		}
	}
	for a, codes := range want {
		if len(got[a]) == 0 {
			t.Errorf("%s: no codes, want %v", a, codes)
		}
	}
	if ClassOf(0).Action() != ActionFatal || ClassOf(30000).Action() != ActionFatal {
		t.Error("NONE and unknown codes have no class, so the fatal action")
	}
	// Call sites rely on these: a code that needs a metadata refresh or a
	// coordinator lookup is also retriable, so asking Retriable covers it.
	for code, e := range errorsByCode {
		if c := ClassOf(code); (c.Has(ClassStaleMetadata) || c.Has(ClassCoordinator)) && !e.Retriable {
			t.Errorf("%s needs a refresh or a coordinator lookup but is not retriable", e.Name)
		}
	}
}

func TestRetriableFatal(t *testing.T) {
	cases := []struct {
		err              error
		retriable, fatal bool
	}{
		{nil, false, false},
		{fmt.Errorf("plain"), false, false},
		{fmt.Errorf("p0: %w", ErrNotLeaderOrFollower), true, false},
		{fmt.Errorf("p0: %w", ErrTopicAuthorizationFailed), false, true},
		{ErrorForCode(30000), false, true}, // a code this client does not know
		{ErrUnknownServerError, false, true},
	}
	for _, c := range cases {
		if Retriable(c.err) != c.retriable || Fatal(c.err) != c.fatal {
			t.Errorf("%v: Retriable %v Fatal %v, want %v %v", c.err, Retriable(c.err), Fatal(c.err), c.retriable, c.fatal)
		}
	}
}
