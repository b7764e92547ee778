package wire

import "fmt"

// String describes an upsertion without its Salt and SaltedPassword, so a
// request printed with %v or %+v never shows credential material.
func (u AlterUserScramCredentialsScramCredentialUpsertion) String() string {
	return fmt.Sprintf("{Name:%s Mechanism:%d Iterations:%d Salt:[redacted] SaltedPassword:[redacted]}", u.Name, u.Mechanism, u.Iterations)
}

// GoString is String, for %#v.
func (u AlterUserScramCredentialsScramCredentialUpsertion) GoString() string { return u.String() }
