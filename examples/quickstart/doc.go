// Command quickstart is the README's library quick start, as one program:
// it creates two topics, produces three records, reads them back with a
// group consumer and commits, then copies them to the second topic in one
// transaction.
//
//	go run ./examples/quickstart -b 127.0.0.1:9092 [-topic greetings]
//
// The README shows main.go verbatim; a test keeps the two the same.
package main
