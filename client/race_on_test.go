//go:build race

package client

// raceEnabled: the race detector adds allocations of its own and makes
// sync.Pool drop items at random, so allocation counts are not measured.
const raceEnabled = true
