// Package javarecords holds integration tests proving that gregor's record
// batch reader (wire.BatchReader) decodes what the Apache Kafka Java producer
// writes through a real broker: every compression codec (snappy in the xerial
// framing snappy-java writes), and transaction control batches.
package javarecords
