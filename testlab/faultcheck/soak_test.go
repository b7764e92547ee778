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
// quorum observer) on a 1+3 cluster under chaos, at least 50 broker disruptions and 20 network faults;
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
	runSoak(t, soakConfig{Name: "soak", Load: load, Producers: 3, Partitions: 6, MinDisruptions: 50, MinNetFaults: 20, Seed: seed,
		Members: 3, Churn: 30 * time.Second, Copier: true, QueueWorkers: 3, PauseMin: 4500 * time.Millisecond, PauseMax: 6 * time.Second, Mix: [3]int{2, 1, 7}})
}
