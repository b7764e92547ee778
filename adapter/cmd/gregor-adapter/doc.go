// Command gregor-adapter is the testctl control-protocol v34 adapter for
// gregor: it reads JSON Lines commands on stdin, writes events on stdout
// (protocol lines only) and diagnostics on stderr, and exits 0 after finish
// or abort, non-zero after a fatal event or unusable input.
package main
