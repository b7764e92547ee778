package kafkatest

import "fmt"

// Error classes of the test bed, for errors.Is. Each error keeps its own
// message (what is missing, the failing node's log tail); the class only
// says which kind of failure it is.
var (
	// ErrNoJDK: no java on PATH or in JAVA_HOME, or one older than 17.
	ErrNoJDK = errorClass("kafkatest: no usable JDK")
	// ErrNoJars: the Kafka jars are not cached and Maven is missing or the
	// download failed.
	ErrNoJars = errorClass("kafkatest: Kafka jars unavailable")
	// ErrStartup: a node exited while starting, or the brokers did not
	// become ready in time.
	ErrStartup = errorClass("kafkatest: cluster did not start")
	// ErrUnknownBroker: no broker has the given node ID.
	ErrUnknownBroker = errorClass("kafkatest: no such broker")
	// ErrBrokerRunning: RestartBroker of a broker that is running.
	ErrBrokerRunning = errorClass("kafkatest: broker is running")
	// ErrBrokerNotRunning: PauseBroker or ResumeBroker of a stopped broker.
	ErrBrokerNotRunning = errorClass("kafkatest: broker is not running")
	// ErrAttached: stopping, killing or restarting a broker of a cluster
	// this process did not start (Shared, Attach).
	ErrAttached = errorClass("kafkatest: cluster attached from a state file")
)

// errorClass is a sentinel error value.
type errorClass string

func (e errorClass) Error() string { return string(e) }

// classified is an error with its own message that belongs to class.
type classified struct {
	class error
	msg   string
}

func (e *classified) Error() string { return e.msg }
func (e *classified) Unwrap() error { return e.class }

// classErrorf formats an error whose errors.Is matches class; the message is
// format's alone.
func classErrorf(class error, format string, args ...any) error {
	return &classified{class: class, msg: fmt.Sprintf(format, args...)}
}
