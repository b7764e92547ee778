// Package admincheck holds integration tests of gregor's admin package
// against the shared test bed, each claim checked by an independent
// observer: franz-go's kadm (and kgo for producing and group membership),
// never gregor's own word.
package admincheck
