// Command gregor is a command-line Kafka tool built on gregor's client:
// produce, consume, and administer topics, consumer groups and the cluster.
//
//	gregor produce  -b HOST:PORT [flags] TOPIC          records from stdin or a file
//	gregor consume  -b HOST:PORT [flags] TOPIC          records to stdout (text or JSON)
//	gregor consume  -b HOST:PORT --group G [flags] TOPIC  the same as a group member, committing
//	gregor topic    create | list | describe | alter-configs | delete
//	gregor group    list | describe | offsets | reset-offsets | delete
//	gregor cluster  describe | features
//
// Every command takes the connection flags (-b, -F, --client-id, --tls,
// --ca-file, --cert-file, --key-file, --sasl-mechanism, --sasl-user,
// --sasl-password, -X key=value, --timeout) and prints its usage with
// --help. Connection settings come, lowest precedence first, from a
// Java-style properties file (-F or GREGOR_CONFIG, read by package
// properties), the environment (GREGOR_BOOTSTRAP, GREGOR_CLIENT_ID,
// GREGOR_SASL_MECHANISM, GREGOR_SASL_USER, GREGOR_SASL_PASSWORD,
// GREGOR_CA_FILE) and the flags; -X sets any property last.
//
// GREGOR_LOG_LEVEL (DEBUG, INFO, WARN or ERROR; unset: no log) writes the
// client's log/slog records at that level and above to stderr as text:
// connections at DEBUG, group assignment changes and topic ID changes at
// INFO. Stdout carries records only, whatever the level.
//
// A failure prints one line, "gregor <command>: <reason>", on stderr and
// exits with status 1; --help exits 0.
package main
