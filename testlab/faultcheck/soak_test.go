//go:build soak

package faultcheck

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// TestSoak is `make soak`: SOAK_DURATION (default 15m) of load (3
// idempotent producers, a group of 3 members with one replaced every 30s,
// the transactional copier, the transactional queue of 3 members, the
// quorum observer, Apache's VerifiableProducer on the topic and a
// VerifiableConsumer in the group) on a 1+3 cluster under chaos (controller
// pauses among them), at least 50 broker disruptions and 20 network faults
// (fewer in proportion when SOAK_DURATION is under 15m);
// SOAK_SEED fixes the schedule. Its figures go to
// testlab/evidence/soak-<time>.json (and by hand to testlab/RESULTS.md).
func TestSoak(t *testing.T) {
	load := 15 * time.Minute
	if s := os.Getenv("SOAK_DURATION"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("SOAK_DURATION: %v", err)
		}
		load = d
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("SOAK_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	// A shorter run (a proof of a change) needs proportionally fewer.
	minD, minN := 50, 20
	if load < 15*time.Minute {
		minD, minN = max(5, int(50*load/(15*time.Minute))), max(5, int(20*load/(15*time.Minute)))
	}
	runSoak(t, soakConfig{Name: "soak", Load: load, Producers: 3, Partitions: 6, MinDisruptions: minD, MinNetFaults: minN, Seed: seed,
		Members: 3, Churn: 30 * time.Second, Copier: true, QueueWorkers: 3, PauseMin: 4500 * time.Millisecond, PauseMax: 6 * time.Second, Mix: [3]int{2, 1, 7},
		JavaProducers: 1, JavaMembers: 1, JavaCopier: true, ControllerWeight: 1})
}
