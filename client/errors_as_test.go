package client

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// asHook is an error with its own As method: it claims to be any
// *RequestError target.
type asHook struct{ re *RequestError }

func (e asHook) Error() string { return "as hook" }
func (e asHook) As(target any) bool {
	if p, ok := target.(**RequestError); ok {
		*p = e.re
		return true
	}
	return false
}

// errorAs finds what errors.As finds, in the same order, through single
// and multiple unwrapping and errors with their own As method.
func TestErrorAsMatchesErrorsAs(t *testing.T) {
	first := &RequestError{API: "Fetch", Certainty: NotSent, Err: errors.New("x")}
	second := &RequestError{API: "Produce", Certainty: PossiblySent, Err: errors.New("y")}
	hooked := &RequestError{API: "Metadata", Certainty: NotSent}
	cases := map[string]error{
		"nil":          nil,
		"plain":        errors.New("plain"),
		"direct":       first,
		"wrapped":      fmt.Errorf("outer: %w", first),
		"joined":       errors.Join(errors.New("a"), fmt.Errorf("b: %w", second), first),
		"multi %w":     fmt.Errorf("%w and %w", second, first),
		"classified":   withClass(classConnect, fmt.Errorf("c: %w", first)),
		"as method":    fmt.Errorf("h: %w", asHook{re: hooked}),
		"as then real": errors.Join(asHook{re: hooked}, first),
		"ctx":          ctxError(context.Canceled),
	}
	for name, err := range cases {
		var want *RequestError
		wantOK := errors.As(err, &want)
		got, ok := errorAs[*RequestError](err)
		if got != want || ok != wantOK {
			t.Errorf("%s: errorAs = %v, %v; errors.As = %v, %v", name, got, ok, want, wantOK)
		}
		var wantC *classified
		wantCOK := errors.As(err, &wantC)
		if gotC, ok := errorAs[*classified](err); gotC != wantC || ok != wantCOK {
			t.Errorf("%s: errorAs[*classified] = %v, %v; errors.As = %v, %v", name, gotC, ok, wantC, wantCOK)
		}
	}
}

// ctxError keeps both sentinels in the chain; for the context package's
// own errors, and CertaintyOf on a request error, nothing is allocated.
func TestCtxErrorAndCertaintyOfAllocs(t *testing.T) {
	for _, c := range []struct{ in, want error }{
		{context.Canceled, ErrCancelled}, {context.DeadlineExceeded, ErrTimeout},
		{fmt.Errorf("w: %w", context.DeadlineExceeded), ErrTimeout},
	} {
		got := ctxError(c.in)
		if !errors.Is(got, c.want) || !errors.Is(got, c.in) {
			t.Errorf("ctxError(%v) = %v: want errors.Is %v and %v", c.in, got, c.want, c.in)
		}
	}
	re := reqErr(1, "Fetch", NotSent, ctxError(context.Canceled))
	var sink error
	var cert Certainty
	if n := testing.AllocsPerRun(100, func() {
		sink = ctxError(context.Canceled)
		cert = CertaintyOf(re)
		_ = classOf(re)
	}); n != 0 {
		t.Errorf("ctxError + CertaintyOf + classOf: %v allocations, want 0", n)
	}
	if sink == nil || cert != NotSent {
		t.Errorf("ctxError = %v, CertaintyOf = %v", sink, cert)
	}
}
