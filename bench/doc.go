// Package bench holds benchmarks that set gregor beside peer clients
// (franz-go) on the same broker and settings.
package bench
