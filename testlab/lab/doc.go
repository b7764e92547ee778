// Package lab runs gregor's reliability lab (issue 22) and writes its
// evidence: eight cases (package lab/cases) on a 1 controller + 3 broker
// KRaft cluster the lab starts and stops itself, each printing one
// observation line "gregor-lab <name>=PASS" or "gregor-lab <name>=FAIL (why)".
//
// Run executes the cases as `go test -json -tags lab` in a process group of
// its own (TERM at the deadline, KILL after a bounded grace), with TMPDIR in
// a run directory, so every JVM the cases start can be found by that
// directory afterwards; any found is a failed cleanup (and is killed).
//
// The evidence file (testlab/evidence/lab-<YYYY-MM-DD>.json, UTC date) is
// written with status "running" before anything runs and replaced atomically
// (temp file, rename) by "passed" or "failed" at the end; a later run of the
// same day overwrites it, so a failure replaces an earlier success. It holds
// start and end times, inputs, every command with its exit status, the
// observation lines, the expected and actual Kafka and Go versions, test names
// and counts, the SHA-256 of the source files at start and end, log paths and
// the cleanup result. Decide is the only judge: it says "passed" only when
// every command exited 0, every selected case ran once and passed, every
// observation line is present exactly once and says PASS, no test was skipped,
// the versions match, the source hashes did not change and cleanup succeeded.
package lab
