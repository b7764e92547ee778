// Command gregor-adapter is the testctl control-protocol v34 adapter for
// gregor: it reads JSON Lines commands on stdin, writes events on stdout
// (protocol lines only) and diagnostics on stderr, and exits 0 after finish
// or abort, non-zero after a fatal event or unusable input.
package main

import (
	"os"

	"github.com/gregor-kafka/gregor/adapter"
)

func main() {
	os.Exit(adapter.NewSession(adapter.Gregor{}, os.Stdout, os.Stderr).Run(os.Stdin))
}
