package faultcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gregor-kafka/gregor/testlab/invariant"
)

// throughput is the acknowledged non-transactional records (the input
// producers') per second of the load, by completion time from start.
func throughput(sends []invariant.Send, start time.Time) []int {
	var out []int
	for _, s := range sends {
		if !s.Acked || s.Txn != "" || s.Completed.IsZero() || s.Completed.Before(start) {
			continue
		}
		i := int(s.Completed.Sub(start) / time.Second)
		for len(out) <= i {
			out = append(out, 0)
		}
		out[i]++
	}
	return out
}

// recoveries fills each fault's FirstAckMs and AllPartitionsMs from the
// acknowledged non-transactional sends.
func recoveries(faults []FaultEvent, sends []invariant.Send) []FaultEvent {
	per := map[invariant.TP][]time.Time{}
	var all []time.Time
	for _, s := range sends {
		if s.Acked && s.Txn == "" && !s.Completed.IsZero() {
			per[s.TP] = append(per[s.TP], s.Completed)
			all = append(all, s.Completed)
		}
	}
	sortTimes := func(ts []time.Time) { slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) }) }
	sortTimes(all)
	for _, ts := range per {
		sortTimes(ts)
	}
	next := func(ts []time.Time, at time.Time) (time.Time, bool) {
		i := sort.Search(len(ts), func(i int) bool { return !ts[i].Before(at) })
		if i == len(ts) {
			return time.Time{}, false
		}
		return ts[i], true
	}
	for i := range faults {
		f := &faults[i]
		f.FirstAckMs, f.AllPartitionsMs = -1, -1
		if t, ok := next(all, f.At); ok {
			f.FirstAckMs = t.Sub(f.At).Milliseconds()
		}
		for _, ts := range per {
			if t, ok := next(ts, f.At); ok {
				f.AllPartitionsMs = max(f.AllPartitionsMs, t.Sub(f.At).Milliseconds())
			}
		}
	}
	return faults
}

// controllerPID finds the running KRaft controller of the cluster in dir
// (the node whose server.properties has process.roles=controller) and
// returns its node ID and pid. kafkatest's Pause/ResumeBroker refuse a
// controller; the chaos signals it directly.
func controllerPID(dir string) (int32, int, error) {
	confs, _ := filepath.Glob(filepath.Join(dir, "node-*", "server.properties"))
	for _, c := range confs {
		b, err := os.ReadFile(c)
		if err != nil || !strings.Contains(string(b), "process.roles=controller\n") {
			continue
		}
		id, _ := strconv.Atoi(strings.TrimPrefix(filepath.Base(filepath.Dir(c)), "node-"))
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			if err == nil && strings.Contains(string(cmd), c) {
				return int32(id), pid, nil
			}
		}
		return 0, 0, fmt.Errorf("controller %d (%s): no process", id, c)
	}
	return 0, 0, fmt.Errorf("no controller-only node under %s", dir)
}

// signalController sends sig to the controller's process group.
func signalController(dir string, sig syscall.Signal) (int32, error) {
	id, pid, err := controllerPID(dir)
	if err != nil {
		return 0, err
	}
	return id, syscall.Kill(-pid, sig)
}
