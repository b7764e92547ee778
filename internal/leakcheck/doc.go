// Package leakcheck is a small goleak-style check for tests: Take
// records the goroutines running now, and Check fails the test when
// goroutines started since are still running once a deadline passes.
// (The root module takes no dependencies, so go.uber.org/goleak is not
// used.)
package leakcheck
