// Package wirecheck cross-checks gregor's wire codecs against an independent
// encoder, franz-go's kmsg: for every API and version gregor implements, a
// message encoded by one side is decoded by the other and compared field by
// field. It holds tests only.
package wirecheck
