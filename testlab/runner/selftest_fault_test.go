package runner

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/testlab/scenario"
)

// TestRunnerFaultScenarios: a proxied scenario whose fault is applied and
// removed passes with an honest possibly_sent; a fake adapter that lies about
// certainty (definitely_not_sent for a record the broker has, or
// acknowledged) fails; a fault never removed makes the run invalid. The
// evidence carries the proxies' records.
func TestRunnerFaultScenarios(t *testing.T) {
	cluster := kafkatest.Shared(t)
	dir := t.TempDir()
	fake := filepath.Join(dir, "fakeadapter")
	if out, err := exec.Command("go", "build", "-o", fake, "../cmd/fakeadapter").CombinedOutput(); err != nil {
		t.Fatalf("building the fake adapter: %v\n%s", err, out)
	}
	sc, err := scenario.LoadFile("testdata/fake-fault-lie.json")
	if err != nil {
		t.Fatal(err)
	}
	terminal := func(status, offset string) []string {
		return []string{ev + `"kind":"operation_accepted","operation_id":"op-2"}`,
			ev + `"kind":"operation_terminal","operation_id":"op-2","status":"` + status + `","code":` + map[bool]string{true: `null`, false: `"network:disconnected"`}[status == "acknowledged"] + `,"offset":` + offset + `}`}
	}
	turns := func(op2 []string) [][]string {
		return [][]string{
			{ev + `"kind":"ready","descriptor":{"id":"fake","implementation":"fake adapter","version":"0","protocol_version":34,"capabilities":["producer"]}}`},
			{ev + `"kind":"client_created","client_id":"c1"}`},
			{ev + `"kind":"producer_created","producer_id":"p1"}`},
			op2,
			{ev + `"kind":"producer_closed","producer_id":"p1"}`},
			{ev + `"kind":"client_shutdown","client_id":"c1"}`},
			{ev + `"kind":"finished"}`},
		}
	}
	cases := []struct {
		name, status, offset string
		dropUnfault          bool
		want, reason         string
	}{
		{name: "honest possibly_sent", status: "possibly_sent", offset: "null", want: Passed},
		{name: "lie: definitely_not_sent", status: "definitely_not_sent", offset: "null", want: Failed, reason: "op-2"},
		{name: "lie: acknowledged", status: "acknowledged", offset: "0", want: Failed, reason: "op-2"},
		{name: "fault never removed", status: "possibly_sent", offset: "null", dropUnfault: true, want: Invalid, reason: "never removed: [cut]"},
	}
	bed := &Bed{Single: cluster, Log: t.Logf}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			script, _ := json.Marshal(map[string]any{"turns": turns(terminal(c.status, c.offset))})
			sp := filepath.Join(t.TempDir(), "script.json")
			if err := os.WriteFile(sp, script, 0o644); err != nil {
				t.Fatal(err)
			}
			s := *sc
			if c.dropUnfault {
				s.Steps = nil
				for _, st := range sc.Steps {
					if st.Env == nil || st.Env.Action != "unfault" {
						s.Steps = append(s.Steps, st)
					}
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res := Run(ctx, Config{Adapter: fake, ExtraEnv: []string{"FAKE_ADAPTER_SCRIPT=" + sp}, EvidenceDir: t.TempDir(),
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
			if len(e.Faults) != 1 || e.Faults[0].Fault.Kind != "cut_frame" || e.Faults[0].Removed.IsZero() {
				t.Fatalf("evidence faults %+v, want the cut_frame fault, removed", e.Faults)
			}
		})
	}
}
