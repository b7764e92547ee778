// Package topotest holds the topology changes the integration tests make
// to a real broker: create a topic (again, after a deletion), delete it
// and wait until it is gone. The consumer's and the producer's topology
// suites share it.
package topotest
