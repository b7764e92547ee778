// Command backpressure offers records as fast as the producer admits them
// with TrySend: when its bounds are reached (InFlightRecords, RetainedBytes)
// TrySend refuses with client.ErrBackpressure, and the program waits for its
// oldest outstanding record before it tries again, so memory stays bounded
// and nothing is lost. It prints how many records were written and how often
// the producer pushed back.
//
//	go run ./examples/backpressure -b 127.0.0.1:9092 [-topic events] [-n 200000]
package main
