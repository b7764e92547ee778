// Package testlab plays testctl's role for gregor: it runs scenario files
// through the adapter binary against real Kafka and checks every claim with an
// independent observer (franz-go), writing evidence and a verdict per scenario.
package testlab
