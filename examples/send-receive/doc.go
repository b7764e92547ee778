// Command send-receive creates a topic (waiting until every broker knows
// it), sends records one by one and waits for each outcome, then reads the
// partition back from its beginning up to the end offset it had before
// reading, and prints every record.
//
//	go run ./examples/send-receive -b 127.0.0.1:9092 [-topic greetings] [-n 5]
package main
