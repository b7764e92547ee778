// Package client owns every socket gregor opens. It connects to brokers (TCP,
// TLS, SASL PLAIN and SCRAM-SHA-256/512), negotiates API versions with
// ApiVersions, pipelines requests with correlation IDs over one connection
// per broker, keeps a metadata cache (brokers, controller, cluster ID, topics
// with IDs and partitions with leaders and epochs), finds coordinators with
// FindCoordinator, and routes requests to a broker, a partition leader, the
// controller or a coordinator. Every call takes a context.Context whose
// deadline bounds the whole operation, retries included.
//
// Higher layers (producer, consumer, admin) use a *Client and never see a
// net.Conn. Failures are typed: broker error codes are *wire.KafkaError
// values, client-side failures are the Err values of this package wrapped in
// *RequestError with a Certainty (NotSent or PossiblySent).
package client
