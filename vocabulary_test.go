package gregor

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gregor-kafka/gregor/internal/generrors"
	"github.com/gregor-kafka/gregor/wire"
)

// Every *wire.KafkaError is re-exported here as the same pointer, so
// errors.Is matches either way.
func TestKafkaErrorsComplete(t *testing.T) {
	mine := map[*KafkaError]bool{}
	for _, e := range kafkaErrors {
		mine[e] = true
	}
	known := 0
	for code := -1; code <= 1000; code++ {
		err := wire.ErrorForCode(int16(code))
		var ke *wire.KafkaError
		if err == nil || !errors.As(err, &ke) || strings.HasPrefix(ke.Name, "UNKNOWN_CODE_") {
			continue
		}
		known++
		if !mine[ke] {
			t.Errorf("%s (code %d) is not re-exported by package gregor", ke.Name, code)
		}
		wrapped := fmt.Errorf("ctx: %w", ke)
		for _, e := range kafkaErrors {
			if e.Code == ke.Code && (!errors.Is(wrapped, e) || !errors.Is(fmt.Errorf("x: %w", e), ke)) {
				t.Errorf("%s: errors.Is does not match across packages", ke.Name)
			}
		}
	}
	if known != len(kafkaErrors) || known < 100 {
		t.Fatalf("wire knows %d codes, gregor re-exports %d", known, len(kafkaErrors))
	}
	if ErrNotLeaderOrFollower != wire.ErrNotLeaderOrFollower || ErrMessageTooLarge != wire.ErrMessageTooLarge {
		t.Fatal("re-exported values are not wire's")
	}
}

// errors_kafka.go is what the generator writes from wire/error_codes.go.
func TestKafkaErrorsGenerated(t *testing.T) {
	src, err := os.ReadFile("wire/error_codes.go")
	if err != nil {
		t.Fatal(err)
	}
	want, err := generrors.Generate(src)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("errors_kafka.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("errors_kafka.go is stale: run go generate . (go run ./internal/generrors/cmd/generrors)")
	}
}

type written bool

func (w written) Error() string            { return "record failed" }
func (w written) MayHaveBeenWritten() bool { return bool(w) }

// terminal is an error that declares whether a retry can cure it.
type terminal struct {
	retriable bool
	cause     error
}

func (e terminal) Error() string   { return "gave up: " + e.cause.Error() }
func (e terminal) Unwrap() error   { return e.cause }
func (e terminal) Retriable() bool { return e.retriable }

func TestQuestions(t *testing.T) {
	cases := []struct {
		err              error
		retriable, maybe bool
	}{
		{nil, false, false},
		{errors.New("some failure"), false, true},
		{fmt.Errorf("produce: %w", ErrNotLeaderOrFollower), true, false},
		{fmt.Errorf("produce: %w", ErrRequestTimedOut), true, true},
		{ErrMessageTooLarge, false, false},
		{fmt.Errorf("x: %w", written(false)), false, false},
		{fmt.Errorf("x: %w", written(true)), false, true},
		{fmt.Errorf("%w: %w", written(false), ErrRequestTimedOut), true, false},
		{fmt.Errorf("x: %w", terminal{false, ErrUnknownTopicOrPartition}), false, false}, // issue 36
		{terminal{true, ErrNotLeaderOrFollower}, true, false},
	}
	for _, c := range cases {
		if got := IsRetriable(c.err); got != c.retriable {
			t.Errorf("IsRetriable(%v) = %v", c.err, got)
		}
		if got := MayHaveBeenWritten(c.err); got != c.maybe {
			t.Errorf("MayHaveBeenWritten(%v) = %v", c.err, got)
		}
	}
	if s := (TopicPartition{Topic: "orders", Partition: 3}).String(); s != "orders/3" {
		t.Fatal(s)
	}
}
