package runner

import (
	"fmt"
	"testing"

	"github.com/gregor-kafka/gregor/testlab/judge"
)

func TestCheckCancellation(t *testing.T) {
	run := func(status, code, outcomes string) error {
		s := judge.NewSession()
		id := judge.CommandID(1)
		cmd := s.Begin(id, "cancel_producer_send", map[string]any{"producer_id": "p", "operation_id": "op", "record": map[string]any{}})
		for _, l := range []string{
			`"kind":"operation_accepted","operation_id":"op"`,
			fmt.Sprintf(`"kind":"operation_terminal","operation_id":"op","status":%q,"code":%s,"offset":null`, status, code),
			fmt.Sprintf(`"kind":"producer_cancellation_completed","operation_id":"op","outcomes":%s`, outcomes),
		} {
			// The judge refuses some malformed completions (one outcome)
			// before checkCancellation sees them: a rejection all the same.
			if _, _, err := s.Feed([]byte(fmt.Sprintf(`{"protocol_version":34,"command_id":%q,%s}`, id, l))); err != nil {
				return err
			}
		}
		return checkCancellation(cmd)
	}
	for _, ok := range [][3]string{
		{"definitely_not_sent", `"cancelled"`, `["cancelled_not_sent","already_terminal"]`},
		{"possibly_sent", `"timeout"`, `["too_late","too_late"]`},
		{"possibly_sent", `"timeout"`, `["too_late","already_terminal"]`},
		{"possibly_sent", `"timeout"`, `["already_terminal","already_terminal"]`},
	} {
		if err := run(ok[0], ok[1], ok[2]); err != nil {
			t.Errorf("%v: %v", ok, err)
		}
	}
	for _, bad := range [][3]string{
		{"definitely_not_sent", `"timeout"`, `["cancelled_not_sent","already_terminal"]`},
		{"definitely_not_sent", `"cancelled"`, `["cancelled_not_sent","too_late"]`},
		{"definitely_not_sent", `"cancelled"`, `["too_late","too_late"]`},
		{"possibly_sent", `"timeout"`, `["too_late","cancelled_not_sent"]`},
		{"possibly_sent", `"timeout"`, `["too_late"]`},
	} {
		if err := run(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("%v: accepted", bad)
		}
	}
}
