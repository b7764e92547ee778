package faultcheck

import (
	"fmt"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/testlab/invariant"
)

// Claim is what the client reported for one record, with what the test bed
// knows independently of it.
type Claim struct {
	// ID is the record's value, unique within its partition's test.
	ID string `json:"id"`
	// Acked and Offset: the record was acknowledged at Offset (-1 unknown).
	Acked  bool  `json:"acked"`
	Offset int64 `json:"offset"`
	// Certainty is the client's certainty for a failed record.
	Certainty client.Certainty `json:"certainty"`
	// Forwarded is true when the proxy forwarded at least one byte of a
	// Produce request between the record's hand-over and its outcome.
	Forwarded bool `json:"forwarded"`
}

// Truth returns the offset of id in l and whether it is there at all.
func Truth(l invariant.Log, id string) (int64, bool) {
	for _, r := range l.Records {
		if r.ID == id {
			return r.Offset, true
		}
	}
	return -1, false
}

// Judge returns nil when c is honest given the final log l, else why not.
func Judge(c Claim, l invariant.Log) error {
	off, present := Truth(l, c.ID)
	switch {
	case c.Acked:
		if !present {
			return fmt.Errorf("%s: acknowledged at offset %d but absent from %s", c.ID, c.Offset, l.TP)
		}
		if c.Offset >= 0 {
			for _, r := range l.Records {
				if r.Offset == c.Offset && r.ID != c.ID {
					return fmt.Errorf("%s: acknowledged at offset %d, which holds %s (%s is at %d)", c.ID, c.Offset, r.ID, c.ID, off)
				}
			}
		}
		return nil
	case c.Certainty == client.NotSent:
		if present {
			return fmt.Errorf("%s: reported not sent but %s holds it at offset %d", c.ID, l.TP, off)
		}
		if c.Forwarded {
			return fmt.Errorf("%s: reported not sent but the proxy forwarded Produce bytes meanwhile", c.ID)
		}
		return nil
	case c.Certainty == client.PossiblySent:
		return nil
	}
	return fmt.Errorf("%s: failed with no certainty (%d)", c.ID, c.Certainty)
}
