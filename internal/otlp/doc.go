// Package otlp writes the OpenTelemetry metrics payload of KIP-714's
// PushTelemetry: an OTLP MetricsData v1 protobuf message, with a small
// hand-written protobuf writer (the root module takes no protobuf
// dependency). It writes only what gregor's client telemetry needs: one
// ResourceMetrics with one ScopeMetrics of Gauge and Sum metrics whose data
// points carry double values and string attributes.
//
// The field numbers are those of opentelemetry-proto v1
// (opentelemetry/proto/metrics/v1/metrics.proto, .../common/v1/common.proto,
// .../resource/v1/resource.proto), cited on each writer below. The writer
// is proved against the decoder Apache Kafka ships (the shaded
// opentelemetry-proto classes in kafka-clients) by the client's telemetry
// integration test, and against an independent wire-format reader in this
// package's tests.
package otlp
