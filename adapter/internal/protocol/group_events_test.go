package protocol

import (
	"encoding/json"
	"testing"
)

// TestGroupEpochJSON: a GroupMembershipEpoch carries only its protocol's
// epoch field (§3.9).
func TestGroupEpochJSON(t *testing.T) {
	for _, c := range []struct {
		sn   GroupSnapshot
		want string
	}{
		{GroupSnapshot{Protocol: "classic", Generation: 3}, `{"kind":"classic","generation_id":3}`},
		{GroupSnapshot{Protocol: "consumer", Generation: 5}, `{"kind":"consumer","member_epoch":5}`},
	} {
		sn, want := c.sn, c.want
		b, err := json.Marshal(groupEpoch(sn))
		if err != nil || string(b) != want {
			t.Fatalf("%+v: %s %v, want %s", sn, b, err, want)
		}
	}
}
