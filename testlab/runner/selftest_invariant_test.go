package runner

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/testlab/scenario"
)

// TestRunnerChecksInvariants: a run whose every claim the broker confirms
// still fails when its history breaks an invariant (here one producer's
// order: sent v1 then v2, acknowledged at 1 and 0). Faithful histories pass
// (TestRunnerAgainstFakeAdapter's faithful script, every make run scenario).
func TestRunnerChecksInvariants(t *testing.T) {
	cluster := kafkatest.Shared(t)
	fake := filepath.Join(t.TempDir(), "fakeadapter")
	if out, err := exec.Command("go", "build", "-o", fake, "../cmd/fakeadapter").CombinedOutput(); err != nil {
		t.Fatalf("building the fake adapter: %v\n%s", err, out)
	}
	sc, err := scenario.LoadFile("testdata/fake-order.json")
	if err != nil {
		t.Fatal(err)
	}
	turns := func(off1, off2 int) [][]string {
		send := func(op string, off int) []string {
			return []string{ev + `"kind":"operation_accepted","operation_id":"` + op + `"}`,
				ev + `"kind":"operation_terminal","operation_id":"` + op + `","status":"acknowledged","code":null,"offset":` + strconv.Itoa(off) + `}`}
		}
		return [][]string{
			{ev + `"kind":"ready","descriptor":{"id":"fake","implementation":"fake adapter","version":"0","protocol_version":34,"capabilities":["producer"]}}`},
			{ev + `"kind":"client_created","client_id":"c1"}`},
			{ev + `"kind":"producer_created","producer_id":"p1"}`},
			send("op-1", off1),
			send("op-2", off2),
			{ev + `"kind":"producer_closed","producer_id":"p1"}`},
			{ev + `"kind":"client_shutdown","client_id":"c1"}`},
			{ev + `"kind":"finished"}`},
		}
	}
	script, _ := json.Marshal(map[string]any{"turns": turns(1, 0), "exit": 0})
	sp := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(sp, script, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res := Run(ctx, Config{Adapter: fake, ExtraEnv: []string{"FAKE_ADAPTER_SCRIPT=" + sp}, EvidenceDir: t.TempDir(),
		Bed: &Bed{Single: cluster, Log: t.Logf}, CommandTimeout: 20 * time.Second}, sc)
	if res.Verdict != Failed || !strings.Contains(res.Reason, "producer_order") {
		t.Fatalf("verdict %s (%s), want failed naming producer_order", res.Verdict, res.Reason)
	}
	t.Logf("%s %s", res.Verdict, res.Reason)
}
