package wirecheck

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// coreOurMsg is a gregor message usable in both directions.
type coreOurMsg interface {
	AppendTo(dst []byte, v int16) []byte
	DecodeFrom(r *wire.Reader, v int16) error
}

// coreKmsgMsg is a kmsg request or response.
type coreKmsgMsg interface {
	SetVersion(int16)
	AppendTo([]byte) []byte
	ReadFrom([]byte) error
}

// pair couples one of our message types with kmsg's.
type corePair struct {
	name   string
	key    wire.APIKey
	ours   func() coreOurMsg
	theirs func() coreKmsgMsg
	// fix adjusts a randomly filled message (ours or kmsg's) to a shape both
	// encoders accept, e.g. avoiding ApiVersions error 35 (v0 body).
	fix func(m any)
}

var corePairs = []corePair{
	{"ApiVersionsRequest", wire.KeyApiVersions, func() coreOurMsg { return new(wire.ApiVersionsRequest) }, func() coreKmsgMsg { return kmsg.NewPtrApiVersionsRequest() }, nil},
	{"ApiVersionsResponse", wire.KeyApiVersions, func() coreOurMsg { return new(wire.ApiVersionsResponse) }, func() coreKmsgMsg { return kmsg.NewPtrApiVersionsResponse() }, coreFixApiVersionsResponse},
	{"MetadataRequest", wire.KeyMetadata, func() coreOurMsg { return new(wire.MetadataRequest) }, func() coreKmsgMsg { return kmsg.NewPtrMetadataRequest() }, nil},
	{"MetadataResponse", wire.KeyMetadata, func() coreOurMsg { return new(wire.MetadataResponse) }, func() coreKmsgMsg { return kmsg.NewPtrMetadataResponse() }, nil},
	{"SaslHandshakeRequest", wire.KeySaslHandshake, func() coreOurMsg { return new(wire.SaslHandshakeRequest) }, func() coreKmsgMsg { return kmsg.NewPtrSASLHandshakeRequest() }, nil},
	{"SaslHandshakeResponse", wire.KeySaslHandshake, func() coreOurMsg { return new(wire.SaslHandshakeResponse) }, func() coreKmsgMsg { return kmsg.NewPtrSASLHandshakeResponse() }, nil},
	{"SaslAuthenticateRequest", wire.KeySaslAuthenticate, func() coreOurMsg { return new(wire.SaslAuthenticateRequest) }, func() coreKmsgMsg { return kmsg.NewPtrSASLAuthenticateRequest() }, nil},
	{"SaslAuthenticateResponse", wire.KeySaslAuthenticate, func() coreOurMsg { return new(wire.SaslAuthenticateResponse) }, func() coreKmsgMsg { return kmsg.NewPtrSASLAuthenticateResponse() }, nil},
	{"FindCoordinatorRequest", wire.KeyFindCoordinator, func() coreOurMsg { return new(wire.FindCoordinatorRequest) }, func() coreKmsgMsg { return kmsg.NewPtrFindCoordinatorRequest() }, nil},
	{"FindCoordinatorResponse", wire.KeyFindCoordinator, func() coreOurMsg { return new(wire.FindCoordinatorResponse) }, func() coreKmsgMsg { return kmsg.NewPtrFindCoordinatorResponse() }, nil},
	{"InitProducerIdRequest", wire.KeyInitProducerId, func() coreOurMsg { return new(wire.InitProducerIdRequest) }, func() coreKmsgMsg { return kmsg.NewPtrInitProducerIDRequest() }, nil},
	{"InitProducerIdResponse", wire.KeyInitProducerId, func() coreOurMsg { return new(wire.InitProducerIdResponse) }, func() coreKmsgMsg { return kmsg.NewPtrInitProducerIDResponse() }, nil},
	{"ProduceRequest", wire.KeyProduce, func() coreOurMsg { return new(wire.ProduceRequest) }, func() coreKmsgMsg { return kmsg.NewPtrProduceRequest() }, nil},
	{"ProduceResponse", wire.KeyProduce, func() coreOurMsg { return new(wire.ProduceResponse) }, func() coreKmsgMsg { return kmsg.NewPtrProduceResponse() }, nil},
	{"ListOffsetsRequest", wire.KeyListOffsets, func() coreOurMsg { return new(wire.ListOffsetsRequest) }, func() coreKmsgMsg { return kmsg.NewPtrListOffsetsRequest() }, nil},
	{"ListOffsetsResponse", wire.KeyListOffsets, func() coreOurMsg { return new(wire.ListOffsetsResponse) }, func() coreKmsgMsg { return kmsg.NewPtrListOffsetsResponse() }, nil},
	{"FetchRequest", wire.KeyFetch, func() coreOurMsg { return new(wire.FetchRequest) }, func() coreKmsgMsg { return kmsg.NewPtrFetchRequest() }, nil},
	{"FetchResponse", wire.KeyFetch, func() coreOurMsg { return new(wire.FetchResponse) }, func() coreKmsgMsg { return kmsg.NewPtrFetchResponse() }, nil},
	{"OffsetForLeaderEpochRequest", wire.KeyOffsetForLeaderEpoch, func() coreOurMsg { return new(wire.OffsetForLeaderEpochRequest) }, func() coreKmsgMsg { return kmsg.NewPtrOffsetForLeaderEpochRequest() }, nil},
	{"OffsetForLeaderEpochResponse", wire.KeyOffsetForLeaderEpoch, func() coreOurMsg { return new(wire.OffsetForLeaderEpochResponse) }, func() coreKmsgMsg { return kmsg.NewPtrOffsetForLeaderEpochResponse() }, nil},
}

func coreFixApiVersionsResponse(m any) {
	switch m := m.(type) {
	case *wire.ApiVersionsResponse:
		if m.ErrorCode == 35 {
			m.ErrorCode = 0
		}
	case *kmsg.ApiVersionsResponse:
		if m.ErrorCode == 35 {
			m.ErrorCode = 0
		}
	}
}

// coreSeedsPerVersion is how many random messages each direction tries per version.
const coreSeedsPerVersion = 25

func TestCoreCrossCheck(t *testing.T) {
	for _, p := range corePairs {
		info, ok := wire.LookupAPI(p.key)
		if !ok {
			t.Fatalf("%s: API %d not in gregor's table", p.name, p.key)
		}
		for v := info.MinVersion; v <= info.MaxVersion; v++ {
			t.Run(fmt.Sprintf("%s/v%d", p.name, v), func(t *testing.T) {
				for seed := range uint64(coreSeedsPerVersion) {
					rng := rand.New(rand.NewPCG(uint64(p.key)<<32|uint64(v)<<16, seed))
					if !coreForward(t, p, v, &coreFiller{rng}) || !coreReverse(t, p, v, &coreFiller{rng}) {
						return
					}
				}
			})
		}
	}
}

// forward encodes a random message of ours, decodes it with kmsg and with
// ours, compares the two decodings field by field, and checks kmsg
// re-encodes the same bytes.
func coreForward(t *testing.T, p corePair, v int16, f *coreFiller) bool {
	t.Helper()
	g := p.ours()
	f.fill(reflect.ValueOf(g).Elem())
	if p.fix != nil {
		p.fix(g)
	}
	b := g.AppendTo(nil, v)
	gd := p.ours()
	r := wire.NewReader(b)
	if err := gd.DecodeFrom(r, v); err != nil || r.Complete() != nil {
		t.Errorf("ours -> ours: decode failed: %v %v", err, r.Complete())
		return false
	}
	kd := p.theirs()
	kd.SetVersion(v)
	if err := kd.ReadFrom(b); err != nil {
		t.Errorf("ours -> kmsg: ReadFrom failed: %v\n%x", err, b)
		return false
	}
	coreShapeKmsg(kd, v)
	if diffs := coreCompare(p.name, reflect.ValueOf(gd).Elem(), reflect.ValueOf(kd).Elem()); len(diffs) > 0 {
		t.Errorf("ours -> kmsg differs:\n%s", strings.Join(diffs, "\n"))
		return false
	}
	if kb := kd.AppendTo(nil); !bytes.Equal(kb, b) {
		t.Errorf("ours -> kmsg -> kmsg bytes differ:\nours %x\nkmsg %x", b, kb)
		return false
	}
	return true
}

// reverse encodes a random kmsg message, decodes it with ours and with
// kmsg, compares field by field, and checks ours re-encodes the same bytes.
func coreReverse(t *testing.T, p corePair, v int16, f *coreFiller) bool {
	t.Helper()
	k := p.theirs()
	f.fill(reflect.ValueOf(k).Elem())
	if p.fix != nil {
		p.fix(k)
	}
	k.SetVersion(v)
	coreShapeKmsg(k, v)
	kb := k.AppendTo(nil)
	kd := p.theirs()
	kd.SetVersion(v)
	if err := kd.ReadFrom(kb); err != nil {
		t.Errorf("kmsg -> kmsg: ReadFrom failed: %v", err)
		return false
	}
	coreShapeKmsg(kd, v)
	gd := p.ours()
	r := wire.NewReader(kb)
	if err := gd.DecodeFrom(r, v); err != nil || r.Complete() != nil {
		t.Errorf("kmsg -> ours: decode failed: %v %v\n%x", err, r.Complete(), kb)
		return false
	}
	if diffs := coreCompare(p.name, reflect.ValueOf(gd).Elem(), reflect.ValueOf(kd).Elem()); len(diffs) > 0 {
		t.Errorf("kmsg -> ours differs:\n%s", strings.Join(diffs, "\n"))
		return false
	}
	if gb := gd.AppendTo(nil, v); !bytes.Equal(gb, kb) {
		t.Errorf("kmsg -> ours -> ours bytes differ:\nkmsg %x\nours %x", kb, gb)
		return false
	}
	return true
}
