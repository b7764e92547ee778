package client

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// TestVersionFloorRefusedNotSent: a request setting a field that the
// broker's highest version lacks (wire.VersionFloorer) fails before it is
// written, NotSent, with gregor.ErrUnsupportedFeature naming the field and
// wrapping ErrUnsupportedVersion; the broker would have ignored the field
// and answered another question (every transaction instead of those
// matching the pattern, a feature upgrade performed instead of validated).
// At the floor version the same request is sent. Without the check each
// request below is sent at the lower version with the field dropped.
func TestVersionFloorRefusedNotSent(t *testing.T) {
	pattern := "^tx-"
	cases := []struct {
		name  string
		req   wire.Request
		floor int16
		field string
	}{
		{"ListTransactions pattern", &wire.ListTransactionsRequest{DurationFilter: -1, TransactionalIDPattern: &pattern}, 2, "TransactionalIDPattern"},
		{"ListTransactions duration", &wire.ListTransactionsRequest{DurationFilter: 3600000}, 1, "DurationFilter"},
		{"ListGroups types", &wire.ListGroupsRequest{TypesFilter: []string{"consumer"}}, 5, "TypesFilter"},
		{"ListGroups states", &wire.ListGroupsRequest{StatesFilter: []string{"Stable"}}, 4, "StatesFilter"},
		{"UpdateFeatures validate only", &wire.UpdateFeaturesRequest{TimeoutMs: 1000, ValidateOnly: true}, 1, "ValidateOnly"},
		{"AlterPartitionReassignments keep replication factor", &wire.AlterPartitionReassignmentsRequest{TimeoutMs: 1000}, 1, "AllowReplicationFactorChange"},
		{"DescribeCluster controllers", &wire.DescribeClusterRequest{EndpointType: wire.EndpointTypeControllers}, 1, "EndpointType"},
		{"DescribeCluster fenced", &wire.DescribeClusterRequest{EndpointType: wire.EndpointTypeBrokers, IncludeFencedBrokers: true}, 2, "IncludeFencedBrokers"},
		{"ListOffsets max timestamp", &wire.ListOffsetsRequest{ReplicaID: -1, Topics: []wire.ListOffsetsTopic{{Name: "t", Partitions: []wire.ListOffsetsPartition{{Timestamp: wire.ListOffsetsLatest}, {Timestamp: wire.ListOffsetsMaxTimestamp}}}}}, 7, "ListOffsetsMaxTimestamp"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := c.req.Key()
			info, _ := wire.LookupAPI(key)
			fc, cl := floorCluster(t, key, info.MinVersion, c.floor-1)
			_, err := cl.Request(testCtx(t, 10*time.Second), 1, c.req)
			var ufe *gregor.UnsupportedFeatureError
			if !errors.As(err, &ufe) || !errors.Is(err, ErrUnsupportedVersion) || CertaintyOf(err) != NotSent {
				t.Fatalf("below v%d: %v (certainty %v), want gregor.ErrUnsupportedFeature wrapping ErrUnsupportedVersion, NotSent", c.floor, err, CertaintyOf(err))
			}
			if !strings.Contains(ufe.Feature, c.field) {
				t.Fatalf("feature %q does not name the field %s", ufe.Feature, c.field)
			}
			if got := fc.requests(key); len(got) != 0 {
				t.Fatalf("%d %s requests written, want none", len(got), info.Name)
			}

			fc2, cl2 := floorCluster(t, key, info.MinVersion, c.floor)
			if _, err := cl2.Request(testCtx(t, 10*time.Second), 1, c.req); err != nil {
				t.Fatalf("at v%d: %v", c.floor, err)
			}
			if got := fc2.requests(key); len(got) != 1 || got[0].hdr.Version != c.floor {
				t.Fatalf("at the floor: %d requests written, want one at v%d", len(got), c.floor)
			}
		})
	}
}

// floorCluster is a one-broker fake advertising key at versions lo-hi
// that answers it with an empty response, and a client of it.
func floorCluster(t *testing.T, key wire.APIKey, lo, hi int16) (*fakeCluster, *Client) {
	fc := newFakeCluster(t, 1)
	fc.versions[key] = [2]int16{lo, hi}
	fc.setHandle(func(fcn *fakeConn, r *fakeReq) bool {
		if r.hdr.Key != key {
			return false
		}
		fcn.respond(r, r.req.ResponseFor().(wire.ResponseEncoder))
		return true
	})
	return fc, newTestClient(t, fc.config())
}

// TestVersionFloorUnsetFieldsAnyVersion: with every floored field at its
// default a request goes out at the lowest version too.
func TestVersionFloorUnsetFieldsAnyVersion(t *testing.T) {
	for _, req := range []wire.VersionFloorer{
		&wire.ListTransactionsRequest{DurationFilter: -1},
		&wire.ListTransactionsRequest{DurationFilter: -1, TransactionalIDPattern: new(string)},
		&wire.ListGroupsRequest{},
		&wire.UpdateFeaturesRequest{},
		&wire.AlterPartitionReassignmentsRequest{AllowReplicationFactorChange: true},
		&wire.DescribeClusterRequest{EndpointType: wire.EndpointTypeBrokers},
		&wire.ListOffsetsRequest{Topics: []wire.ListOffsetsTopic{{Partitions: []wire.ListOffsetsPartition{{Timestamp: wire.ListOffsetsEarliest}, {Timestamp: 1700000000000}}}}},
	} {
		if v, field := req.FloorVersion(); v != -1 || field != "" {
			t.Errorf("%T: floor v%d for %q, want none", req, v, field)
		}
	}
}
