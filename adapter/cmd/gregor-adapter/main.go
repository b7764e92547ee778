package main

import (
	"os"

	"github.com/gregor-kafka/gregor/adapter"
)

func main() {
	os.Exit(adapter.NewSession(adapter.Gregor{}, os.Stdout, os.Stderr).Run(os.Stdin))
}
