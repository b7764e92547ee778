//go:build !race

package client

// raceEnabled reports whether the test binary runs under the race detector.
const raceEnabled = false
