package wire

// Client telemetry API keys (KIP-714).
const (
	KeyGetTelemetrySubscriptions APIKey = 71
	KeyPushTelemetry             APIKey = 72
)

// telemetryAPIs are the client telemetry APIs of KIP-714. A broker
// advertises them only when a metrics reporter that receives client
// telemetry is configured.
var telemetryAPIs = []APIInfo{
	{Key: KeyGetTelemetrySubscriptions, Name: "GetTelemetrySubscriptions", MinVersion: 0, MaxVersion: 0, Flexible: 0},
	{Key: KeyPushTelemetry, Name: "PushTelemetry", MinVersion: 0, MaxVersion: 0, Flexible: 0},
}
