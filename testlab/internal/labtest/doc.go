// Package labtest holds the test-bed plumbing the testlab check packages
// (consumercheck, producercheck) share: a Bed on the shared cluster or on a
// cluster of a test's own, franz-go clients as the independent observer, a
// uniquely named topic and a ready gregor client, each closed at the test's
// cleanup. Checks themselves stay in their packages.
package labtest
