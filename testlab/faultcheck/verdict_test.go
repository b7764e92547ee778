package faultcheck

import (
	"testing"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/testlab/invariant"
)

// TestJudge: one honest and one lying claim per rule, without a broker.
func TestJudge(t *testing.T) {
	l := invariant.Log{TP: invariant.TP{Topic: "t"}, Start: 0, End: 2, Records: []invariant.LogRecord{{Offset: 0, ID: "a"}, {Offset: 1, ID: "b"}}}
	for _, tc := range []struct {
		name   string
		c      Claim
		honest bool
	}{
		{"acked at its offset", Claim{ID: "a", Acked: true, Offset: 0}, true},
		{"acked, offset unknown", Claim{ID: "b", Acked: true, Offset: -1}, true},
		{"acked but absent", Claim{ID: "c", Acked: true, Offset: 2}, false},
		{"acked at another record's offset", Claim{ID: "b", Acked: true, Offset: 0}, false},
		{"not sent and absent", Claim{ID: "c", Offset: -1, Certainty: client.NotSent}, true},
		{"not sent but present", Claim{ID: "b", Offset: -1, Certainty: client.NotSent}, false},
		{"not sent but forwarded", Claim{ID: "c", Offset: -1, Certainty: client.NotSent, Forwarded: true}, false},
		{"possibly sent, present", Claim{ID: "a", Offset: -1, Certainty: client.PossiblySent, Forwarded: true}, true},
		{"possibly sent, absent", Claim{ID: "c", Offset: -1, Certainty: client.PossiblySent}, true},
		{"failed without certainty", Claim{ID: "c", Offset: -1}, false},
	} {
		err := Judge(tc.c, l)
		if (err == nil) != tc.honest {
			t.Errorf("%s: Judge = %v, want honest=%v", tc.name, err, tc.honest)
		}
	}
}
