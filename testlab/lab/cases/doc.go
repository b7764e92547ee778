// Package cases holds the reliability lab's eight cases (issue 22), one file
// each, registered in the lab's order. The lab runs them as subtests of
// TestLab (file lab_test.go, build tag "lab", so `go test ./...` does not
// start the lab's cluster) on one 1 controller + 3 broker KRaft cluster;
// each subtest prints exactly one observation line,
// "gregor-lab <name>=PASS" or "gregor-lab <name>=FAIL (<why>)".
//
// Adding a case is one file: a function with the Run signature and an init
// that calls register with the case's name and its place in the lab's order.
// Cases that need what the client does not have yet return NotBuilt.
package cases
