package admin

import (
	"context"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"errors"
	"fmt"
	"slices"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// ScramMechanism is a SCRAM mechanism as Kafka numbers it (KIP-554).
type ScramMechanism int8

// The SCRAM mechanisms.
const (
	ScramSHA256 ScramMechanism = 1
	ScramSHA512 ScramMechanism = 2
)

// ScramCredentialInfo is one credential of a user: its mechanism and
// iteration count (Kafka never reveals salts or keys).
type ScramCredentialInfo struct {
	// Mechanism is the SCRAM mechanism.
	Mechanism ScramMechanism
	// Iterations is the PBKDF2 iteration count.
	Iterations int32
}

// UserScramCredentials is the answer for one user of
// DescribeUserScramCredentials.
type UserScramCredentials struct {
	// User is the user name.
	User string
	// Credentials are the user's credentials.
	Credentials []ScramCredentialInfo
	// Err is nil, wire.ErrResourceNotFound for a user without credentials,
	// or another Kafka error, possibly in *BrokerError.
	Err error
}

// DescribeUserScramCredentials describes the SCRAM credentials of users
// (DescribeUserScramCredentials v0, any broker) and returns one answer per
// user in request order; nil users lists every user with credentials,
// sorted by name. The batch is rejected with a *BatchError before sending
// for an empty or repeated user name.
func (a *Admin) DescribeUserScramCredentials(ctx context.Context, users []string) ([]UserScramCredentials, error) {
	for i, u := range users {
		if u == "" {
			return nil, invalid(i, "empty user name")
		}
	}
	if err := checkUnique(len(users), func(i int) string { return users[i] }); err != nil {
		return nil, err
	}
	req := &wire.DescribeUserScramCredentialsRequest{}
	if users != nil {
		req.Users = []wire.DescribeUserScramCredentialsUserName{}
		for _, u := range users {
			req.Users = append(req.Users, wire.DescribeUserScramCredentialsUserName{Name: u})
		}
	}
	var got []UserScramCredentials
	err := a.anyBrokerOnce(ctx, req, func(resp wire.Response) error {
		r := resp.(*wire.DescribeUserScramCredentialsResponse)
		if err := codeErr(r.ErrorCode, r.ErrorMessage); err != nil {
			return err
		}
		got = got[:0]
		for _, res := range r.Results {
			u := UserScramCredentials{User: res.User, Err: codeErr(res.ErrorCode, res.ErrorMessage)}
			for _, c := range res.CredentialInfos {
				u.Credentials = append(u.Credentials, ScramCredentialInfo{ScramMechanism(c.Mechanism), c.Iterations})
			}
			got = append(got, u)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if users == nil {
		slices.SortFunc(got, func(x, y UserScramCredentials) int { return compareStrings(x.User, y.User) })
		return got, nil
	}
	out := make([]UserScramCredentials, len(users))
	for i, u := range users {
		if r := answerFor(got, func(r *UserScramCredentials) bool { return r.User == u }); r != nil {
			out[i] = *r
		} else {
			out[i] = UserScramCredentials{User: u, Err: errors.New("admin: broker returned no result for user " + u)}
		}
	}
	return out, nil
}

// compareStrings orders strings.
func compareStrings(x, y string) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// ScramCredentialChange upserts or deletes one SCRAM credential. Its
// String and GoString methods leave the password out, so printing a change
// never reveals it.
type ScramCredentialChange struct {
	// User is the user name.
	User string
	// Mechanism is the SCRAM mechanism.
	Mechanism ScramMechanism
	// Delete removes the user's credential for Mechanism; Iterations and
	// Password are then ignored.
	Delete bool
	// Iterations is the PBKDF2 iteration count, 4096-16384 (Kafka's
	// bounds for both mechanisms).
	Iterations int32
	// Password is the user's password. The client derives the salted
	// password from it (PBKDF2 with a fresh random salt, as RFC 5802's
	// Hi()) and sends only that; the password itself never leaves the
	// process.
	Password string
}

// String describes the change without its password.
func (c ScramCredentialChange) String() string {
	if c.Delete {
		return fmt.Sprintf("{delete %s mechanism %d}", c.User, c.Mechanism)
	}
	return fmt.Sprintf("{upsert %s mechanism %d iterations %d password [redacted]}", c.User, c.Mechanism, c.Iterations)
}

// GoString is String, for %#v.
func (c ScramCredentialChange) GoString() string { return c.String() }

// ScramChangeResult is the outcome of one ScramCredentialChange.
type ScramChangeResult struct {
	// User is the user name.
	User string
	// Mechanism is the SCRAM mechanism.
	Mechanism ScramMechanism
	// Err is nil, or the Kafka error for the user, possibly in
	// *BrokerError: wire.ErrResourceNotFound deleting a missing
	// credential, wire.ErrUnsupportedSaslMechanism...
	Err error
}

// saltedPassword derives RFC 5802's SaltedPassword, Hi(password, salt, i),
// as Kafka's ScramFormatter does (the password's UTF-8 bytes, no SASLprep).
func saltedPassword(m ScramMechanism, password string, salt []byte, iterations int32) ([]byte, error) {
	if m == ScramSHA256 {
		return pbkdf2.Key(sha256.New, password, salt, int(iterations), sha256.Size)
	}
	return pbkdf2.Key(sha512.New, password, salt, int(iterations), sha512.Size)
}

// AlterUserScramCredentials upserts and deletes SCRAM credentials
// (AlterUserScramCredentials v0, any broker, forwarded to the KRaft
// controller) and returns one result per change in request order. The
// salted password is computed here; neither it nor the password is ever
// logged or formatted. The batch is rejected with a *BatchError before
// sending for an empty user, an unknown mechanism, an iteration count
// outside 4096-16384, an empty password, or a user twice (Kafka refuses
// two changes of one user in a request with DUPLICATE_RESOURCE: change a
// user's other mechanism in a second call).
func (a *Admin) AlterUserScramCredentials(ctx context.Context, changes []ScramCredentialChange) ([]ScramChangeResult, error) {
	for i, c := range changes {
		switch {
		case c.User == "":
			return nil, invalid(i, "empty user name")
		case c.Mechanism != ScramSHA256 && c.Mechanism != ScramSHA512:
			return nil, invalid(i, "unknown SCRAM mechanism %d", c.Mechanism)
		case !c.Delete && (c.Iterations < 4096 || c.Iterations > 16384):
			return nil, invalid(i, "iterations %d outside 4096-16384", c.Iterations)
		case !c.Delete && c.Password == "":
			return nil, invalid(i, "empty password")
		}
	}
	if err := checkUnique(len(changes), func(i int) string { return changes[i].User }); err != nil {
		return nil, err
	}
	req := &wire.AlterUserScramCredentialsRequest{}
	for _, c := range changes {
		if c.Delete {
			req.Deletions = append(req.Deletions, wire.AlterUserScramCredentialsScramCredentialDeletion{Name: c.User, Mechanism: int8(c.Mechanism)})
			continue
		}
		salt := make([]byte, 32)
		rand.Read(salt)
		sp, err := saltedPassword(c.Mechanism, c.Password, salt, c.Iterations)
		if err != nil {
			return nil, fmt.Errorf("admin: deriving the salted password: %w", err)
		}
		req.Upsertions = append(req.Upsertions, wire.AlterUserScramCredentialsScramCredentialUpsertion{Name: c.User,
			Mechanism: int8(c.Mechanism), Iterations: c.Iterations, Salt: salt, SaltedPassword: sp})
	}
	out := make([]ScramChangeResult, len(changes))
	for i, c := range changes {
		out[i] = ScramChangeResult{User: c.User, Mechanism: c.Mechanism}
	}
	resp, err := a.cl.Request(ctx, client.AnyBroker, req)
	if err != nil {
		return nil, err
	}
	results := resp.(*wire.AlterUserScramCredentialsResponse).Results
	for i, c := range changes {
		r := answerFor(results, func(r *wire.AlterUserScramCredentialsResult) bool { return r.User == c.User })
		if r == nil {
			out[i].Err = errors.New("admin: broker returned no result for user " + c.User)
			continue
		}
		out[i].Err = codeErr(r.ErrorCode, r.ErrorMessage)
	}
	return out, nil
}
