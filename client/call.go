package client

import "github.com/gregor-kafka/gregor/wire"

// Call is a request started with Client.StartCall, for one waiter: Wait
// once, then Release once. Its record is the client's and is reused after
// Release, so neither may be called again, nor the Call kept.
type Call interface {
	// Wait blocks until the response or a failure, or until the context
	// (or deadline) given to StartCall ends: then the request, already
	// written, fails PossiblySent with ErrTimeout or ErrCancelled, and a
	// response that still arrives is discarded. Failures are
	// *RequestError values carrying a Certainty.
	Wait() (wire.Response, error)
	// Release hands the call back to the client, after Wait. The response
	// Wait returned stays the caller's.
	Release()
}

// call is a pooled pending record as a Call.
type call pending

// Wait implements Call.
func (k *call) Wait() (wire.Response, error) {
	p := (*pending)(k)
	p.wait()
	return p.resp, p.err
}

// Release implements Call.
func (k *call) Release() { (*pending)(k).unref() }
