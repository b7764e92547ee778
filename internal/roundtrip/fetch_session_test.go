package roundtrip

import (
	"testing"

	"github.com/gregor-kafka/gregor/wire"
)

// TestFetchSessionEveryVersion drives a KIP-227 fetch session with every
// Fetch version that has one (v7+): a full fetch creating the session, an
// incremental fetch with no changes, one forgetting the partition, and a
// final fetch closing the session.
func TestFetchSessionEveryVersion(t *testing.T) {
	e := newEnv(t)
	tp := e.createTopic("rt-session", 1)
	batch, err := wire.NewBatchEncoder(nil).AppendBatch(nil, &wire.BatchHeader{ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1},
		[]wire.Record{{Value: []byte("one")}})
	if err != nil {
		t.Fatal(err)
	}
	pr := request[*wire.ProduceResponse](e, tp.leader, &wire.ProduceRequest{Acks: -1, TimeoutMs: 30000, TopicData: []wire.ProduceRequestTopic{
		{Name: tp.name, PartitionData: []wire.ProduceRequestPartition{{Index: 0, Records: batch}}}}}, min(12, e.brokerRange(wire.KeyProduce)[1]))
	if code := pr.Responses[0].PartitionResponses[0].ErrorCode; code != 0 {
		t.Fatalf("Produce: error %d", code)
	}
	for _, v := range e.versions(wire.KeyFetch) {
		if v < 7 {
			continue
		}
		topicOf := func() wire.FetchTopic {
			if v >= 13 {
				return wire.FetchTopic{TopicID: tp.id}
			}
			return wire.FetchTopic{Topic: tp.name}
		}
		fetch := func(sessionID, epoch int32, topics []wire.FetchTopic, forgotten []wire.FetchForgottenTopic) *wire.FetchResponse {
			var req wire.FetchRequest
			req.Default()
			req.MaxWaitMs, req.MinBytes, req.MaxBytes = 10, 0, 1<<20
			req.SessionID, req.SessionEpoch, req.Topics, req.ForgottenTopicsData = sessionID, epoch, topics, forgotten
			r := request[*wire.FetchResponse](e, tp.leader, &req, v)
			if r.ErrorCode != 0 {
				t.Fatalf("v%d session %d epoch %d: error %d", v, sessionID, epoch, r.ErrorCode)
			}
			return r
		}
		var fp wire.FetchPartition
		fp.Default()
		fp.PartitionMaxBytes = 1 << 20
		fp.FetchOffset = 1 // the log end: later fetches in the session have nothing new
		ft := topicOf()
		ft.Partitions = []wire.FetchPartition{fp}

		full := fetch(0, 0, []wire.FetchTopic{ft}, nil) // epoch 0: create a session
		if full.SessionID == 0 || len(full.Responses) != 1 || full.Responses[0].Partitions[0].HighWatermark != 1 {
			t.Fatalf("v%d: full fetch: session %d, %d topics", v, full.SessionID, len(full.Responses))
		}
		id := full.SessionID

		// Incremental, nothing changed, no new data: the partition is omitted.
		if inc := fetch(id, 1, nil, nil); inc.SessionID != id || len(inc.Responses) != 0 {
			t.Fatalf("v%d: incremental fetch: session %d, %d topics", v, inc.SessionID, len(inc.Responses))
		}
		// Forget the partition: the session is left empty, so the broker
		// drops it and answers sessionless (SessionID 0).
		fg := wire.FetchForgottenTopic{Topic: tp.name, Partitions: []int32{0}}
		if v >= 13 {
			fg = wire.FetchForgottenTopic{TopicID: tp.id, Partitions: []int32{0}}
		}
		if r := fetch(id, 2, nil, []wire.FetchForgottenTopic{fg}); r.SessionID != 0 || len(r.Responses) != 0 {
			t.Fatalf("v%d: forget: session %d, %d topics", v, r.SessionID, len(r.Responses))
		}
		// Close the session (epoch -1 with its ID): a sessionless full fetch.
		if r := fetch(id, -1, []wire.FetchTopic{ft}, nil); r.SessionID != 0 || len(r.Responses) != 1 {
			t.Fatalf("v%d: close: session %d, %d topics", v, r.SessionID, len(r.Responses))
		}
	}
}
