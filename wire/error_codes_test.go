package wire

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorTableComplete(t *testing.T) {
	// Apache Kafka 4.4 defines codes -1 and 1..136 (0 is NONE).
	if got, want := len(allErrors), 137; got != want {
		t.Fatalf("allErrors has %d entries, want %d", got, want)
	}
	if len(errorsByCode) != len(allErrors) {
		t.Fatalf("errorsByCode has %d entries, allErrors %d", len(errorsByCode), len(allErrors))
	}
	seenCode := map[int16]string{}
	seenName := map[string]int16{}
	for _, e := range allErrors {
		if prev, ok := seenCode[e.Code]; ok {
			t.Errorf("code %d used by %s and %s", e.Code, prev, e.Name)
		}
		if prev, ok := seenName[e.Name]; ok {
			t.Errorf("name %s used by codes %d and %d", e.Name, prev, e.Code)
		}
		seenCode[e.Code], seenName[e.Name] = e.Name, e.Code
		if e.Code == 0 || e.Name == "" || e.Message == "" {
			t.Errorf("incomplete entry %+v", e)
		}
		if errorsByCode[e.Code] != e {
			t.Errorf("errorsByCode[%d] is not %s", e.Code, e.Name)
		}
	}
	for c := int16(1); c <= 136; c++ {
		if _, ok := errorsByCode[c]; !ok {
			t.Errorf("code %d missing", c)
		}
	}
}

func TestErrorForCode(t *testing.T) {
	if err := ErrorForCode(0); err != nil {
		t.Fatalf("ErrorForCode(0) = %v, want nil", err)
	}
	for _, e := range allErrors {
		err := fmt.Errorf("produce: %w", ErrorForCode(e.Code))
		if !errors.Is(err, e) {
			t.Errorf("errors.Is(ErrorForCode(%d), %s) is false", e.Code, e.Name)
		}
		var ke *KafkaError
		if !errors.As(err, &ke) || ke.Code != e.Code || ke.Retriable != e.Retriable {
			t.Errorf("errors.As for code %d gave %+v", e.Code, ke)
		}
	}
	// errors.Is matches on the code, not the pointer.
	if !errors.Is(&KafkaError{Code: 6}, ErrNotLeaderOrFollower) {
		t.Error("errors.Is does not match by code")
	}
	if errors.Is(ErrNotLeaderOrFollower, ErrNotCoordinator) {
		t.Error("different codes matched")
	}
	unk := ErrorForCode(30000)
	var ke *KafkaError
	if !errors.As(unk, &ke) || ke.Code != 30000 || ke.Retriable || ke.Name != "UNKNOWN_CODE_30000" {
		t.Fatalf("unknown code gave %#v", unk)
	}
}

func TestErrorRetriability(t *testing.T) {
	// Spot checks against the Java exception hierarchy of Kafka 4.4.
	retriable := []*KafkaError{ErrNotLeaderOrFollower, ErrUnknownTopicOrPartition, ErrLeaderNotAvailable,
		ErrRequestTimedOut, ErrNotCoordinator, ErrCoordinatorLoadInProgress, ErrNotEnoughReplicas,
		ErrCorruptMessage, ErrUnknownTopicID, ErrFencedLeaderEpoch, ErrConcurrentTransactions}
	for _, e := range retriable {
		if !e.Retriable {
			t.Errorf("%s should be retriable", e.Name)
		}
	}
	fatal := []*KafkaError{ErrUnknownServerError, ErrOffsetOutOfRange, ErrTopicAuthorizationFailed,
		ErrProducerFenced, ErrOutOfOrderSequenceNumber, ErrUnsupportedVersion, ErrInvalidProducerEpoch,
		ErrRebalanceInProgress, ErrUnknownMemberID, ErrTransactionAbortable}
	for _, e := range fatal {
		if e.Retriable {
			t.Errorf("%s should not be retriable", e.Name)
		}
	}
	if ErrNotLeaderOrFollower.Code != 6 || ErrUnknownTopicOrPartition.Code != 3 || ErrControllerIDNotRegistered.Code != 136 {
		t.Error("code mismatch")
	}
}
