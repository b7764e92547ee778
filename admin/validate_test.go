package admin

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// TestBatchValidation checks that invalid batches fail with a *BatchError
// naming the offending resource before anything is sent: the client's only
// bootstrap address refuses connections, so a send would fail otherwise.
func TestBatchValidation(t *testing.T) {
	a := newTestAdmin(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	tp := func(topic string, p int32) gregor.TopicPartition {
		return gregor.TopicPartition{Topic: topic, Partition: p}
	}
	lit := ACL{ACLResourceTopic, "t", PatternLiteral, "User:alice", "*", ACLOperationRead, ACLPermissionAllow}
	noType := lit
	noType.Principal = "alice"
	anyFilter := ACLFilter{ACLResourceAny, nil, PatternAny, nil, nil, ACLOperationAny, ACLPermissionAny}
	badFilter := anyFilter
	badFilter.Operation = 0
	user := "u"
	cases := []struct {
		name  string
		index int
		want  string
		call  func() error
	}{
		{"reassign duplicate", 1, "duplicates", func() error {
			_, err := a.AlterPartitionReassignments(ctx, []Reassignment{{tp("t", 0), []int32{1}}, {tp("t", 0), []int32{2}}})
			return err
		}},
		{"reassign empty replicas", 0, "empty replica list", func() error {
			_, err := a.AlterPartitionReassignments(ctx, []Reassignment{{tp("t", 0), []int32{}}})
			return err
		}},
		{"reassign repeated broker", 0, "listed twice", func() error {
			_, err := a.AlterPartitionReassignments(ctx, []Reassignment{{tp("t", 0), []int32{1, 1}}})
			return err
		}},
		{"reassign bad topic", 1, "illegal character", func() error {
			_, err := a.AlterPartitionReassignments(ctx, []Reassignment{{tp("t", 0), nil}, {tp("a/b", 0), nil}})
			return err
		}},
		{"elect negative partition", 0, "negative partition", func() error {
			_, err := a.ElectLeaders(ctx, ElectPreferred, []gregor.TopicPartition{tp("t", -1)})
			return err
		}},
		{"describe partitions duplicate", 2, "duplicates", func() error {
			_, err := a.DescribeTopicPartitions(ctx, []string{"a", "b", "a"}, DescribeTopicPartitionsOptions{})
			return err
		}},
		{"log dirs negative broker", 1, "negative broker", func() error {
			_, err := a.DescribeLogDirs(ctx, []int32{1, -1}, nil)
			return err
		}},
		{"log dirs broker twice", 2, "duplicates", func() error {
			_, err := a.DescribeLogDirs(ctx, []int32{1, 2, 1}, nil)
			return err
		}},
		{"replica move twice", 1, "duplicates", func() error {
			_, err := a.AlterReplicaLogDirs(ctx, []ReplicaMove{{1, tp("t", 0), "/d"}, {1, tp("t", 0), "/e"}})
			return err
		}},
		{"acl principal", 0, "Type:name", func() error { _, err := a.CreateACLs(ctx, []ACL{noType}); return err }},
		{"acl duplicate", 1, "duplicates", func() error { _, err := a.CreateACLs(ctx, []ACL{lit, lit}); return err }},
		{"acl filter enum", 1, "unknown operation", func() error {
			_, err := a.DeleteACLs(ctx, []ACLFilter{anyFilter, badFilter})
			return err
		}},
		{"scram iterations", 0, "iterations", func() error {
			_, err := a.AlterUserScramCredentials(ctx, []ScramCredentialChange{{User: "u", Mechanism: ScramSHA256, Iterations: 10, Password: "p"}})
			return err
		}},
		{"scram duplicate", 1, "duplicates", func() error {
			_, err := a.AlterUserScramCredentials(ctx, []ScramCredentialChange{{User: "u", Mechanism: ScramSHA256, Delete: true},
				{User: "u", Mechanism: ScramSHA512, Iterations: 4096, Password: "p"}})
			return err
		}},
		{"quota negative", 0, "negative quota", func() error {
			_, err := a.AlterClientQuotas(ctx, []QuotaAlteration{{Entity: QuotaEntity{{QuotaUser, &user}}, Set: map[string]float64{"producer_byte_rate": -1}}}, false)
			return err
		}},
		{"quota entity twice", 1, "duplicates", func() error {
			e := QuotaEntity{{QuotaUser, &user}}
			_, err := a.AlterClientQuotas(ctx, []QuotaAlteration{{Entity: e}, {Entity: e}}, false)
			return err
		}},
		{"txn empty id", 1, "empty transactional ID", func() error {
			_, err := a.DescribeTransactions(ctx, []string{"x", ""})
			return err
		}},
		{"list txns negative duration", 0, "negative", func() error {
			_, err := a.ListTransactions(ctx, ListTransactionsOptions{MinDuration: -time.Second})
			return err
		}},
		{"abort negative producer", 0, "negative producer", func() error {
			_, err := a.AbortTransactions(ctx, []AbortSpec{{tp("t", 0), -1, 0, 0}})
			return err
		}},
		{"features duplicate", 1, "duplicates", func() error {
			_, err := a.UpdateFeatures(ctx, []FeatureUpdate{{Feature: "f", Level: 1}, {Feature: "f", Level: 2}}, true)
			return err
		}},
	}
	for _, c := range cases {
		err := c.call()
		var be *BatchError
		if !errors.Is(err, ErrInvalidBatch) || !errors.As(err, &be) || be.Index != c.index || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a *BatchError for resource %d mentioning %q", c.name, err, c.index, c.want)
		}
	}
}

// TestSaltedPassword pins the SCRAM derivation to RFC 7677's example
// (SCRAM-SHA-256, user "user", password "pencil", 4096 iterations): the
// server signature computed from our SaltedPassword matches the RFC's.
func TestSaltedPassword(t *testing.T) {
	salt, _ := base64.StdEncoding.DecodeString("W22ZaJ0SNY7soEsUEjb6gQ==")
	sp, err := saltedPassword(ScramSHA256, "pencil", salt, 4096)
	if err != nil {
		t.Fatal(err)
	}
	hm := func(key []byte, msg string) []byte {
		h := hmac.New(sha256.New, key)
		h.Write([]byte(msg))
		return h.Sum(nil)
	}
	auth := "n=user,r=rOprNGfwEbeRWgbNEkqO," +
		"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096," +
		"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"
	if got := base64.StdEncoding.EncodeToString(hm(hm(sp, "Server Key"), auth)); got != "6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=" {
		t.Fatalf("server signature %s", got)
	}
	if sp512, _ := saltedPassword(ScramSHA512, "pencil", salt, 4096); len(sp512) != 64 {
		t.Fatalf("SHA-512 salted password of %d bytes", len(sp512))
	}
}

// TestScramChangeRedacted pins that printing a change never shows the
// password.
func TestScramChangeRedacted(t *testing.T) {
	c := ScramCredentialChange{User: "alice", Mechanism: ScramSHA512, Iterations: 8192, Password: "hunter2-secret"}
	for _, s := range []string{fmt.Sprintf("%v", c), fmt.Sprintf("%+v", &c), fmt.Sprintf("%#v", []ScramCredentialChange{c}), fmt.Sprint(c)} {
		if strings.Contains(s, "hunter2") || !strings.Contains(s, "alice") {
			t.Fatalf("printed %s", s)
		}
	}
}

// TestRetriableAnswer pins which per-resource answers a controller call
// retries: Kafka marks UNKNOWN_TOPIC_OR_PARTITION and the election errors
// retriable, but they are final answers (a mixed reassignment batch on
// the 1+3 cluster waited out its whole deadline before this rule).
func TestRetriableAnswer(t *testing.T) {
	for err, want := range map[error]bool{
		wire.ErrNotController: true, wire.ErrThrottlingQuotaExceeded: true,
		wire.ErrUnknownTopicOrPartition: false, wire.ErrElectionNotNeeded: false, wire.ErrPreferredLeaderNotAvailable: false,
		wire.ErrEligibleLeadersNotAvailable: false, wire.ErrRequestTimedOut: false, wire.ErrInvalidReplicaAssignment: false,
	} {
		if got := retriableAnswer(err); got != want {
			t.Errorf("%v: retriable %v, want %v", err, got, want)
		}
	}
}
