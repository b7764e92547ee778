package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/testlab/scenario"
)

const ev = `{"protocol_version":34,"command_id":"${id}",`

// baseTurns are the fake adapter's answers to fake-send-receive.json, one
// turn per command (hello first, finish last).
func baseTurns() [][]string {
	return [][]string{
		{ev + `"kind":"ready","descriptor":{"id":"fake","implementation":"fake adapter","version":"0","protocol_version":34,"capabilities":["producer","assigned_consumer"]}}`},
		{ev + `"kind":"client_created","client_id":"c1"}`},
		{ev + `"kind":"producer_created","producer_id":"p1"}`},
		{ev + `"kind":"operation_accepted","operation_id":"op-1"}`,
			ev + `"kind":"operation_terminal","operation_id":"op-1","status":"acknowledged","code":null,"offset":0}`},
		{ev + `"kind":"assigned_consumer_created","consumer_id":"k1"}`},
		{ev + `"kind":"assignment_completed","consumer_id":"k1"}`},
		{ev + `"kind":"receive_completed","receive_id":"r1","records":[{"topic":"${assign_beginning.topic}","partition":0,"offset":0,"timestamp_millis":null,"key":null,"value":{"encoding":"hex","data":"7631"},"headers":[{"name":"h","value":null},{"name":"h","value":{"encoding":"hex","data":""}}]}]}`},
		{ev + `"kind":"assigned_consumer_closed","consumer_id":"k1"}`},
		{ev + `"kind":"producer_closed","producer_id":"p1"}`},
		{ev + `"kind":"client_shutdown","client_id":"c1"}`},
		{ev + `"kind":"finished"}`},
	}
}

// TestRunnerAgainstFakeAdapter drives the runner against a scripted fake
// adapter: the faithful script passes, and every script with one defect is
// judged failed or invalid.
func TestRunnerAgainstFakeAdapter(t *testing.T) {
	cluster := kafkatest.Shared(t)
	dir := t.TempDir()
	fake := filepath.Join(dir, "fakeadapter")
	if out, err := exec.Command("go", "build", "-o", fake, "../cmd/fakeadapter").CombinedOutput(); err != nil {
		t.Fatalf("building the fake adapter: %v\n%s", err, out)
	}
	sc, err := scenario.LoadFile("testdata/fake-send-receive.json")
	if err != nil {
		t.Fatal(err)
	}
	type tc struct {
		name    string
		edit    func(turns [][]string) [][]string
		exit    int
		require []string
		want    string
		reason  string
	}
	replace := func(turn, line int, old, new string) func([][]string) [][]string {
		return func(ts [][]string) [][]string {
			if !strings.Contains(ts[turn][line], old) {
				panic(fmt.Sprintf("turn %d line %d lacks %q", turn, line, old))
			}
			ts[turn][line] = strings.Replace(ts[turn][line], old, new, 1)
			return ts
		}
	}
	cases := []tc{
		{name: "faithful", want: Passed},
		{name: "missing null key", edit: replace(3, 1, `"code":null,`, ``), want: Invalid, reason: "missing keys [code]"},
		{name: "extra key", edit: replace(3, 1, `"code":null,`, `"code":null,"partition":0,`), want: Invalid, reason: "unknown keys [partition]"},
		{name: "wrong offset", edit: replace(3, 1, `"offset":0`, `"offset":7`), want: Failed, reason: "broker has no record there"},
		{name: "record the broker lacks", edit: replace(6, 0, `"data":"7631"`, `"data":"7632"`), want: Failed, reason: "broker has"},
		{name: "null key claimed as empty", edit: replace(6, 0, `"key":null`, `"key":{"encoding":"hex","data":""}`), want: Failed, reason: "key \"\", broker has null"},
		{name: "unknown command id", edit: replace(4, 0, `"${id}"`, `"command-00000099"`), want: Invalid, reason: "command_id_unknown"},
		{name: "65th event", edit: func(ts [][]string) [][]string {
			acc := ts[3][0]
			for i := 0; i < 64; i++ {
				ts[3] = append([]string{acc}, ts[3]...)
			}
			return ts
		}, want: Invalid},
		{name: "non-zero exit", exit: 1, want: Invalid, reason: "exit status 1"},
		{name: "fatal", edit: replace(4, 0, `"kind":"assigned_consumer_created","consumer_id":"k1"`, `"kind":"fatal","code":"adapter_state","diagnostic":"x"`), want: Invalid, reason: "adapter_fatal"},
		{name: "wrong identity", edit: replace(2, 0, `"producer_id":"p1"`, `"producer_id":"p2"`), want: Invalid, reason: "event_identity_mismatch"},
		{name: "terminal before acceptance", edit: func(ts [][]string) [][]string {
			ts[3][0], ts[3][1] = ts[3][1], ts[3][0]
			return ts
		}, want: Invalid},
		// Malformed events (the judge's strict decode): invalid, naming the
		// event kind and the field.
		{name: "offset as a string", edit: replace(3, 1, `"offset":0`, `"offset":"0"`), want: Invalid, reason: "operation_terminal.offset"},
		{name: "status not a TerminalStatus", edit: replace(3, 1, `"status":"acknowledged"`, `"status":"delivered"`), want: Invalid, reason: "operation_terminal.status"},
		{name: "unknown key in a record", edit: replace(6, 0, `"timestamp_millis":null,`, `"timestamp_millis":null,"leader_epoch":0,`), want: Invalid, reason: "unknown keys [leader_epoch]"},
		{name: "null receive id", edit: replace(6, 0, `"receive_id":"r1"`, `"receive_id":null`), want: Invalid, reason: "receive_completed.receive_id"},
		{name: "missing capability", require: []string{"share_consumer"}, edit: func(ts [][]string) [][]string {
			return [][]string{ts[0], {ev + `"kind":"aborted"}`}}
		}, want: Ineligible},
	}
	bed := &Bed{Single: cluster, Log: t.Logf}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			turns := baseTurns()
			if c.edit != nil {
				turns = c.edit(turns)
			}
			script, _ := json.Marshal(map[string]any{"turns": turns, "exit": c.exit})
			sp := filepath.Join(t.TempDir(), "script.json")
			if err := os.WriteFile(sp, script, 0o644); err != nil {
				t.Fatal(err)
			}
			s := *sc
			if c.require != nil {
				s.Requires = c.require
			}
			evDir := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res := Run(ctx, Config{Adapter: fake, ExtraEnv: []string{"FAKE_ADAPTER_SCRIPT=" + sp}, EvidenceDir: evDir,
				Bed: bed, CommandTimeout: 20 * time.Second}, &s)
			if res.Verdict != c.want || !strings.Contains(res.Reason, c.reason) {
				t.Fatalf("verdict %s (%s), want %s containing %q; evidence %s", res.Verdict, res.Reason, c.want, c.reason, res.Evidence)
			}
			t.Logf("%s: %s %s", c.name, res.Verdict, res.Reason)
			var e Evidence
			data, err := os.ReadFile(res.Evidence)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &e); err != nil {
				t.Fatal(err)
			}
			if e.Status != "final" || e.Verdict != c.want || len(e.Transcript) == 0 {
				t.Fatalf("evidence status %s verdict %s, %d transcript lines", e.Status, e.Verdict, len(e.Transcript))
			}
			if c.want == Passed && len(e.Facts) < 3 {
				t.Fatalf("passed with only %d observer facts", len(e.Facts))
			}
		})
	}
}
