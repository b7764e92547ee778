package kafkatest

import (
	"regexp"
	"strings"
)

// passwordArgRE matches a password carried in a tool argument or echoed by
// a tool: StorageTool's --add-scram 'SCRAM-SHA-256=[name=u,password=p]',
// a JAAS password="p".
var passwordArgRE = regexp.MustCompile(`(?i)(password=)("[^"]*"|[^,\]\s'"]*)`)

// redact replaces the bed's passwords, and any password=<value>, in s by
// ***: a tool's argument list and output go into errors and logs, which
// end in the run's evidence (issue 32: a failed format copied the SCRAM
// passwords there).
func redact(s string) string {
	s = passwordArgRE.ReplaceAllString(s, "${1}***")
	for _, secret := range []string{AdminPassword, AlicePassword} {
		s = strings.ReplaceAll(s, secret, "***")
	}
	return s
}

// redactArgs is redact over an argument list, for an error message.
func redactArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = redact(a)
	}
	return out
}
