// Command secret-scan fails when any file under its arguments (files or
// directories) holds a secret of the test bed whose state file -state
// names (secretscan.BedSecrets): `make run` and `make test` run it over
// everything they wrote (captured output, the bed's logs, the evidence)
// before the bed's directory is removed.
//
//	secret-scan -state .kafka/state.json DIR_OR_FILE...
//
// It prints the number of files scanned and each hit as "secret-scan: <name
// of the secret> found in <file>" (never the secret) and exits 1 on a hit,
// 2 on a usage or read error.
package main
