package main

import (
	"fmt"
	"os"

	"github.com/gregor-kafka/gregor/internal/generrors"
)

func main() {
	src, err := os.ReadFile("wire/error_codes.go")
	if err == nil {
		var out []byte
		if out, err = generrors.Generate(src); err == nil {
			err = os.WriteFile("errors_kafka.go", out, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "generrors:", err)
		os.Exit(1)
	}
}
