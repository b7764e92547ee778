// Package consumercheck proves gregor's directly assigned consumer against
// the real Kafka of the test bed: every record it delivers is compared with
// what an independent producer (franz-go) wrote.
package consumercheck
