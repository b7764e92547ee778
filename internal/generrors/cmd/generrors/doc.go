// Command generrors regenerates errors_kafka.go at the repository root from
// wire/error_codes.go. Run it from the repository root:
//
//	go run ./internal/generrors/cmd/generrors
package main
