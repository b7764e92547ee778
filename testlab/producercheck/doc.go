// Package producercheck holds integration tests of gregor's producer on the
// real test bed, each claim checked by an independent client (franz-go).
package producercheck
