// Package featuretest holds real-broker tests of what gregor does on a
// Kafka release that lacks a feature (issue 32): each feature fails within
// seconds with gregor.ErrUnsupportedFeature, nothing retried and nothing
// left running. The tests start their own cluster of the oldest release
// the test bed supports (kafkatest.SupportedVersions[0]). The package has
// no non-test code.
package featuretest
