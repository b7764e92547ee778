package producer

import (
	"math"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// identity is the producer ID and epoch the producer writes under (KIP-98),
// its local epoch bumps (KIP-360), and the state of obtaining one
// (InitProducerId, or package txn's SetIdentity). Guarded by Producer.mu;
// deadline is moreover written and read only by the sender goroutine.
// Each partition adopts it when idle (assignSequenceLocked: partState.hasID,
// pid, epoch).
type identity struct {
	have  bool // pid and epoch are valid
	pid   int64
	epoch int16

	err      error     // the last InitProducerId failure; nil after a success
	errAt    time.Time // when err was observed (its answer arrived)
	backoff  time.Time // no InitProducerId before this
	deadline time.Time // earliest deadline of a batch waiting for an ID (sender goroutine)
}

// set installs an identity obtained by InitProducerId or from package txn.
func (id *identity) set(pid int64, epoch int16) {
	id.have, id.pid, id.epoch, id.err = true, pid, epoch, nil
}

// failed records an InitProducerId failure observed at now; the next
// attempt waits backoff (at least 50ms).
func (id *identity) failed(err error, now time.Time, backoff time.Duration) {
	id.err, id.errAt = err, now
	id.backoff = now.Add(max(backoff, 50*time.Millisecond))
}

// bump moves to the next epoch, as KIP-360 lets an idempotent producer do
// locally. At epoch exhaustion it drops the identity instead (a new
// producer ID is requested) and reports false.
func (id *identity) bump() bool {
	if id.epoch == math.MaxInt16 {
		id.have = false
		return false
	}
	id.epoch++
	return true
}

// current reports whether a partition's sequence identity (pid, epoch) is
// this identity, not an older epoch of it.
func (id *identity) current(pid int64, epoch int16) bool {
	return id.have && pid == id.pid && epoch >= id.epoch
}

// adopted reports whether a partition's sequence identity (pid, epoch) is
// exactly this one.
func (id *identity) adopted(pid int64, epoch int16) bool {
	return pid == id.pid && epoch == id.epoch
}

// fatalFor returns the InitProducerId failure that dooms a batch whose
// records were all admitted by lastAdmit: a non-retriable one observed
// after them, while no identity is held. A record admitted later gets a
// fresh attempt first (see Producer.fatalForLocked).
func (id *identity) fatalFor(lastAdmit time.Time) error {
	if !id.have && wire.Fatal(id.err) && !lastAdmit.After(id.errAt) {
		return id.err
	}
	return nil
}

// lastErr is the InitProducerId failure to name in a delivery timeout while
// no identity is held, or nil.
func (id *identity) lastErr() error {
	if id.have {
		return nil
	}
	return id.err
}
