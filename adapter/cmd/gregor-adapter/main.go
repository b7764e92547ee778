package main

import (
	"os"

	"github.com/gregor-kafka/gregor/adapter/internal/protocol"
)

func main() {
	os.Exit(protocol.NewSession(protocol.Gregor{}, os.Stdout, os.Stderr).Run(os.Stdin))
}
