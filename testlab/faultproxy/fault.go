package faultproxy

import (
	"fmt"
	"strings"
	"time"
)

// Direction is the way a frame travels through the proxy.
type Direction uint8

const (
	// ToBroker carries requests, client to broker.
	ToBroker Direction = iota + 1
	// ToClient carries responses, broker to client.
	ToClient
)

// String returns "to_broker" or "to_client".
func (d Direction) String() string {
	switch d {
	case ToBroker:
		return "to_broker"
	case ToClient:
		return "to_client"
	}
	return fmt.Sprintf("direction(%d)", uint8(d))
}

// MarshalText encodes the direction as String does.
func (d Direction) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText decodes "to_broker" or "to_client".
func (d *Direction) UnmarshalText(b []byte) error {
	switch string(b) {
	case "to_broker":
		*d = ToBroker
	case "to_client":
		*d = ToClient
	default:
		return fmt.Errorf("faultproxy: direction %q", b)
	}
	return nil
}

// Kind names a fault class (see the package documentation).
type Kind string

// The fault classes.
const (
	Delay            Kind = "delay"
	Blackhole        Kind = "blackhole"
	CutAll           Kind = "cut_all"
	CutFrame         Kind = "cut_frame"
	Refuse           Kind = "refuse"
	WrongCorrelation Kind = "wrong_correlation"
	Replay           Kind = "replay"
	Stall            Kind = "stall"
)

// AnyAPI makes a frame-targeted fault match every API. (API key 0 is
// Produce, so a Fault's zero API targets Produce.)
const AnyAPI int16 = -1

// MaxStall bounds Fault.Delay for Delay and Stall faults.
const MaxStall = 5 * time.Minute

// Fault is one fault to apply. Which fields matter depends on Kind: Dir for
// Delay, CutFrame and Stall (WrongCorrelation and Replay act on responses);
// API for CutFrame, WrongCorrelation, Replay and Stall; Bytes for CutFrame;
// Delay for Delay and Stall (0 < Delay ≤ MaxStall); Every for the
// frame-targeted kinds.
type Fault struct {
	Kind Kind      `json:"kind"`
	Dir  Direction `json:"dir,omitempty"`
	// API is the API key a frame-targeted fault matches; AnyAPI matches all.
	// A response's API is that of the request it answers.
	API int16 `json:"api"`
	// Bytes is how much of the matched frame CutFrame forwards before the
	// cut, its 4-byte size prefix included: 0 none, -1 all of it. A value at
	// or above the frame's size forwards it whole.
	Bytes int `json:"bytes,omitempty"`
	// Delay is the hold of a Delay or Stall fault.
	Delay time.Duration `json:"delay_ns,omitempty"`
	// Every makes a frame-targeted fault fire on every matching frame while
	// applied; by default it fires once.
	Every bool `json:"every,omitempty"`
	// SkipClientIDPrefixes spares the connections whose first request's
	// client_id starts with one of them (frame-targeted kinds only).
	SkipClientIDPrefixes []string `json:"skip_client_id_prefixes,omitempty"`
}

// String describes the fault in one line.
func (f Fault) String() string {
	s := string(f.Kind)
	if f.Dir != 0 {
		s += " " + f.Dir.String()
	}
	if f.frameTargeted() {
		if f.API == AnyAPI {
			s += " api=any"
		} else {
			s += fmt.Sprintf(" api=%d", f.API)
		}
	}
	if f.Kind == CutFrame {
		s += fmt.Sprintf(" bytes=%d", f.Bytes)
	}
	if f.Delay > 0 {
		s += " delay=" + f.Delay.String()
	}
	if f.Every {
		s += " every"
	}
	if len(f.SkipClientIDPrefixes) > 0 {
		s += " skip_client_id_prefixes=" + strings.Join(f.SkipClientIDPrefixes, ",")
	}
	return s
}

func (f Fault) frameTargeted() bool {
	switch f.Kind {
	case CutFrame, WrongCorrelation, Replay, Stall:
		return true
	}
	return false
}

// validate reports a fault that cannot be applied.
func (f Fault) validate() error {
	if len(f.SkipClientIDPrefixes) > 0 && !f.frameTargeted() {
		return fmt.Errorf("faultproxy: %s: skip_client_id_prefixes apply to frame-targeted kinds only", f.Kind)
	}
	switch f.Kind {
	case Blackhole, CutAll, Refuse:
	case Delay, Stall:
		if f.Dir != ToBroker && f.Dir != ToClient {
			return fmt.Errorf("faultproxy: %s needs Dir", f.Kind)
		}
		if f.Delay <= 0 || f.Delay > MaxStall {
			return fmt.Errorf("faultproxy: %s delay %v outside (0, %v]", f.Kind, f.Delay, MaxStall)
		}
	case CutFrame:
		if f.Dir != ToBroker && f.Dir != ToClient {
			return fmt.Errorf("faultproxy: %s needs Dir", f.Kind)
		}
		if f.Bytes < -1 {
			return fmt.Errorf("faultproxy: cut_frame bytes %d < -1", f.Bytes)
		}
	case WrongCorrelation, Replay:
		if f.Dir != 0 && f.Dir != ToClient {
			return fmt.Errorf("faultproxy: %s acts on responses only", f.Kind)
		}
	default:
		return fmt.Errorf("faultproxy: unknown fault kind %q", f.Kind)
	}
	return nil
}

// Record is the evidence of one applied fault. Times are wall clock.
type Record struct {
	ID      int       `json:"id"`
	Proxy   string    `json:"proxy"`
	Fault   Fault     `json:"fault"`
	Applied time.Time `json:"applied"`
	// Removed is zero while the fault is applied.
	Removed time.Time `json:"removed"`
	// Fired counts the times the fault acted (frames matched, connections
	// cut or refused).
	Fired int `json:"fired"`
	// Conns counts connections cut or refused by the fault.
	Conns int `json:"conns"`
	// Frames and Bytes count the frames (and their bytes) the fault held,
	// dropped, rewrote, cut or replayed.
	Frames int   `json:"frames"`
	Bytes  int64 `json:"bytes"`
	// MaxHold is the longest a frame was measured to wait under the fault.
	MaxHold time.Duration `json:"max_hold_ns"`
	// Notes say what happened each time it fired (at most 16).
	Notes []string `json:"notes,omitempty"`
	// Around holds the frames of the connection before and after the first
	// firings (at most 32).
	Around []FrameNote `json:"around,omitempty"`
}

// FrameNote describes one frame seen by the proxy.
type FrameNote struct {
	At   time.Time `json:"at"`
	Conn int       `json:"conn"`
	Dir  Direction `json:"dir"`
	// API and Version are the request's (a response's: of its request; -1
	// unknown); Corr is the correlation ID as received.
	API     int16 `json:"api"`
	Version int16 `json:"version"`
	Corr    int32 `json:"corr"`
	Size    int   `json:"size"`
	// Head is the first 64 bytes of the frame (prefix included) in hex.
	Head string `json:"head"`
	// Fault says what the proxy did to this frame ("" forwarded as is).
	Fault string `json:"fault,omitempty"`
}

const (
	maxNotes  = 16
	maxAround = 32
)

func (r *Record) note(s string) {
	if len(r.Notes) < maxNotes {
		r.Notes = append(r.Notes, s)
	}
}
