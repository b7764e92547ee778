package wire

// errorsByCode maps every error code Apache Kafka 4.4 defines to its value.
// (Filled in by the error-table work: one exported Err... per code.)
var errorsByCode = map[int16]*KafkaError{}
