// Package secretscan finds the test bed's known secrets (the kafkatest
// users' passwords, unsecured OAUTHBEARER tokens, the test CA's and client
// certificates' private keys) in files the test suite and `make run` write:
// evidence, logs and captured output. Its test fails on any hit.
package secretscan
