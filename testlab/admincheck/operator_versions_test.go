package admincheck

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
)

// TestOperatorAPIVersionsRoundTrip checks that gregor implements exactly the
// version range the broker advertises for every operator API (on an older
// release than the one gregor tracks, 4.4: a common range, the broker's
// highest within gregor's; DescribeTopicPartitions absent before 3.8),
// then pins every version both speak and completes a real
// round trip whose answer carries the error code the request must get
// (observer: the broker).
func TestOperatorAPIVersionsRoundTrip(t *testing.T) {
	b := newBed(t)
	cl, err := client.New(client.Config{Bootstrap: b.kc.Bootstrap(kafkatest.Plaintext), ClientID: "opversions"})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	topic := b.observedTopic(1, nil)
	broker := b.kc.BrokerIDs()[0]
	vers, err := cl.BrokerVersions(ctxFor(t, 10*time.Second), broker)
	if err != nil {
		t.Fatal(err)
	}
	fm, err := b.adm.DescribeFeatures(ctxFor(t, 10*time.Second), broker)
	if err != nil {
		t.Fatal(err)
	}
	tv := fm.Finalized["transaction.version"].Max
	missing := b.name("opmissing")
	codeIs := func(want, got int16) error {
		if got != want {
			return fmt.Errorf("error code %d (%v), want %d", got, wire.ErrorForCode(got), want)
		}
		return nil
	}
	str := func(s string) *string { return &s }
	cases := []struct {
		key   wire.APIKey
		req   func(v int16) wire.Request
		check func(v int16, resp wire.Response) error
	}{
		{wire.KeyAlterPartitionReassignments, func(v int16) wire.Request {
			return &wire.AlterPartitionReassignmentsRequest{TimeoutMs: 5000, AllowReplicationFactorChange: true, Topics: []wire.AlterPartitionReassignmentsReassignableTopic{
				{Name: missing, Partitions: []wire.AlterPartitionReassignmentsReassignablePartition{{PartitionIndex: 0, Replicas: []int32{broker}}}}}}
		}, func(v int16, r wire.Response) error {
			return codeIs(3, r.(*wire.AlterPartitionReassignmentsResponse).Responses[0].Partitions[0].ErrorCode)
		}},
		{wire.KeyListPartitionReassignments, func(v int16) wire.Request { return &wire.ListPartitionReassignmentsRequest{TimeoutMs: 5000} },
			func(v int16, r wire.Response) error {
				return codeIs(0, r.(*wire.ListPartitionReassignmentsResponse).ErrorCode)
			}},
		{wire.KeyElectLeaders, func(v int16) wire.Request {
			return &wire.ElectLeadersRequest{TimeoutMs: 5000, TopicPartitions: []wire.ElectLeadersTopicPartitions{{Topic: topic, Partitions: []int32{0}}}}
		}, func(v int16, r wire.Response) error {
			return codeIs(84, r.(*wire.ElectLeadersResponse).ReplicaElectionResults[0].PartitionResult[0].ErrorCode)
		}},
		{wire.KeyDescribeTopicPartitions, func(v int16) wire.Request {
			return &wire.DescribeTopicPartitionsRequest{ResponsePartitionLimit: 10, Topics: []wire.DescribeTopicPartitionsTopicRequest{{Name: missing}}}
		}, func(v int16, r wire.Response) error {
			return codeIs(3, r.(*wire.DescribeTopicPartitionsResponse).Topics[0].ErrorCode)
		}},
		{wire.KeyDescribeLogDirs, func(v int16) wire.Request {
			return &wire.DescribeLogDirsRequest{Topics: []wire.DescribeLogDirsDescribableLogDirTopic{{Topic: topic, Partitions: []int32{0}}}}
		}, func(v int16, r wire.Response) error {
			resp := r.(*wire.DescribeLogDirsResponse)
			if len(resp.Results) == 0 {
				return fmt.Errorf("no log dirs")
			}
			return codeIs(0, resp.Results[0].ErrorCode)
		}},
		{wire.KeyAlterReplicaLogDirs, func(v int16) wire.Request {
			return &wire.AlterReplicaLogDirsRequest{Dirs: []wire.AlterReplicaLogDirsAlterReplicaLogDir{{Path: "/no/such/dir",
				Topics: []wire.AlterReplicaLogDirsAlterReplicaLogDirTopic{{Name: topic, Partitions: []int32{0}}}}}}
		}, func(v int16, r wire.Response) error {
			return codeIs(57, r.(*wire.AlterReplicaLogDirsResponse).Results[0].Partitions[0].ErrorCode)
		}},
		{wire.KeyDescribeAcls, func(v int16) wire.Request {
			return &wire.DescribeAclsRequest{ResourceTypeFilter: 1, PatternTypeFilter: 1, Operation: 1, PermissionType: 1, PrincipalFilter: str("User:" + missing)}
		}, func(v int16, r wire.Response) error { return codeIs(0, r.(*wire.DescribeAclsResponse).ErrorCode) }},
		{wire.KeyCreateAcls, func(v int16) wire.Request {
			// A literal binding for a user that never connects; DeleteAcls
			// removes it below.
			return &wire.CreateAclsRequest{Creations: []wire.CreateAclsAclCreation{{ResourceType: 2, ResourceName: missing, ResourcePatternType: 3,
				Principal: "User:" + missing, Host: "*", Operation: 3, PermissionType: 3}}}
		}, func(v int16, r wire.Response) error {
			return codeIs(0, r.(*wire.CreateAclsResponse).Results[0].ErrorCode)
		}},
		{wire.KeyDeleteAcls, func(v int16) wire.Request {
			return &wire.DeleteAclsRequest{Filters: []wire.DeleteAclsFilter{{ResourceTypeFilter: 1, PatternTypeFilter: 1, Operation: 1, PermissionType: 1,
				PrincipalFilter: str("User:" + missing)}}}
		}, func(v int16, r wire.Response) error {
			return codeIs(0, r.(*wire.DeleteAclsResponse).FilterResults[0].ErrorCode)
		}},
		{wire.KeyDescribeUserScramCredentials, func(v int16) wire.Request {
			return &wire.DescribeUserScramCredentialsRequest{Users: []wire.DescribeUserScramCredentialsUserName{{Name: missing}}}
		}, func(v int16, r wire.Response) error {
			return codeIs(91, r.(*wire.DescribeUserScramCredentialsResponse).Results[0].ErrorCode)
		}},
		{wire.KeyAlterUserScramCredentials, func(v int16) wire.Request {
			return &wire.AlterUserScramCredentialsRequest{Deletions: []wire.AlterUserScramCredentialsScramCredentialDeletion{{Name: missing, Mechanism: 1}}}
		}, func(v int16, r wire.Response) error {
			return codeIs(91, r.(*wire.AlterUserScramCredentialsResponse).Results[0].ErrorCode)
		}},
		{wire.KeyDescribeClientQuotas, func(v int16) wire.Request {
			return &wire.DescribeClientQuotasRequest{Components: []wire.DescribeClientQuotasComponentData{{EntityType: "client-id", MatchType: 0, Match: str(missing)}}}
		}, func(v int16, r wire.Response) error {
			return codeIs(0, r.(*wire.DescribeClientQuotasResponse).ErrorCode)
		}},
		{wire.KeyAlterClientQuotas, func(v int16) wire.Request {
			return &wire.AlterClientQuotasRequest{ValidateOnly: true, Entries: []wire.AlterClientQuotasEntryData{{
				Entity: []wire.AlterClientQuotasEntityData{{EntityType: "client-id", EntityName: str(missing)}},
				Ops:    []wire.AlterClientQuotasOpData{{Key: "no_such_quota", Value: 1}}}}}
		}, func(v int16, r wire.Response) error {
			return codeIs(42, r.(*wire.AlterClientQuotasResponse).Entries[0].ErrorCode)
		}},
		{wire.KeyDescribeProducers, func(v int16) wire.Request {
			return &wire.DescribeProducersRequest{Topics: []wire.DescribeProducersTopicRequest{{Name: topic, PartitionIndexes: []int32{0}}}}
		}, func(v int16, r wire.Response) error {
			return codeIs(0, r.(*wire.DescribeProducersResponse).Topics[0].Partitions[0].ErrorCode)
		}},
		{wire.KeyDescribeTransactions, func(v int16) wire.Request {
			return &wire.DescribeTransactionsRequest{TransactionalIDs: []string{missing}}
		}, func(v int16, r wire.Response) error {
			return codeIs(105, r.(*wire.DescribeTransactionsResponse).TransactionStates[0].ErrorCode)
		}},
		{wire.KeyListTransactions, func(v int16) wire.Request { return &wire.ListTransactionsRequest{DurationFilter: -1} },
			func(v int16, r wire.Response) error { return codeIs(0, r.(*wire.ListTransactionsResponse).ErrorCode) }},
		{wire.KeyWriteTxnMarkers, func(v int16) wire.Request {
			return &wire.WriteTxnMarkersRequest{Markers: []wire.WriteTxnMarkersWritableTxnMarker{{ProducerID: 1, ProducerEpoch: 0, CoordinatorEpoch: 0,
				Topics: []wire.WriteTxnMarkersWritableTxnMarkerTopic{{Name: missing, PartitionIndexes: []int32{0}}}}}}
		}, func(v int16, r wire.Response) error {
			return codeIs(3, r.(*wire.WriteTxnMarkersResponse).Markers[0].Topics[0].Partitions[0].ErrorCode)
		}},
		{wire.KeyUpdateFeatures, func(v int16) wire.Request {
			// The level in force: a no-op (real at v0, which has no
			// ValidateOnly: the client refuses ValidateOnly there).
			return &wire.UpdateFeaturesRequest{TimeoutMs: 5000, ValidateOnly: v >= 1, FeatureUpdates: []wire.UpdateFeaturesFeatureUpdateKey{
				{Feature: "transaction.version", MaxVersionLevel: tv, UpgradeType: 1}}}
		}, func(v int16, r wire.Response) error { return codeIs(0, r.(*wire.UpdateFeaturesResponse).ErrorCode) }},
		{wire.KeyDescribeQuorum, func(v int16) wire.Request {
			return &wire.DescribeQuorumRequest{Topics: []wire.DescribeQuorumTopicData{{TopicName: "__cluster_metadata",
				Partitions: []wire.DescribeQuorumPartitionData{{PartitionIndex: 0}}}}}
		}, func(v int16, r wire.Response) error {
			resp := r.(*wire.DescribeQuorumResponse)
			if err := codeIs(0, resp.ErrorCode); err != nil {
				return err
			}
			return codeIs(0, resp.Topics[0].Partitions[0].ErrorCode)
		}},
	}
	// Requests answered by the transaction coordinator of missing: routed
	// there and retried on coordinator errors as admin does; the function
	// gives the answer's error code.
	txnCoord := map[wire.APIKey]func(wire.Response) int16{
		wire.KeyDescribeTransactions: func(r wire.Response) int16 {
			return r.(*wire.DescribeTransactionsResponse).TransactionStates[0].ErrorCode
		},
	}
	for _, c := range cases {
		info, _ := wire.LookupAPI(c.key)
		bv, ok := vers[c.key]
		exact := ok && bv[0] == info.MinVersion && bv[1] == info.MaxVersion
		lo, hi := max(bv[0], info.MinVersion), min(bv[1], info.MaxVersion)
		older := !b.kc.AtLeast(4, 4) && (ok && lo <= hi && bv[1] <= info.MaxVersion || !ok && c.key == wire.KeyDescribeTopicPartitions && !b.kc.AtLeast(3, 8))
		if !exact && !older {
			t.Errorf("%s: gregor implements v%d-%d, the broker (Kafka %s) advertises %v (ok %v)", info.Name, info.MinVersion, info.MaxVersion, b.kc.Version(), bv, ok)
			continue
		}
		for v := lo; ok && v <= hi; v++ {
			t.Run(fmt.Sprintf("%s/v%d", info.Name, v), func(t *testing.T) {
				ctx := ctxFor(t, 30*time.Second)
				var resp wire.Response
				var err error
				if code := txnCoord[c.key]; code != nil {
					resp, err = atTxnCoordinator(ctx, cl, missing, v, c.req, code)
				} else {
					resp, err = cl.RequestVersion(ctx, broker, c.req(v), v)
				}
				if err != nil {
					t.Fatalf("round trip: %v", err)
				}
				if err := c.check(v, resp); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// atTxnCoordinator sends req(v) to the transaction coordinator of id and
// sends it again, after a new FindCoordinator, while the answer's code
// (from code) is NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS or
// COORDINATOR_NOT_AVAILABLE, as admin does: on a just-started broker
// __transaction_state does not exist (FindCoordinator creates it) or is
// still loading, and any broker but the coordinator answers NOT_COORDINATOR.
func atTxnCoordinator(ctx context.Context, cl *client.Client, id string, v int16, req func(int16) wire.Request, code func(wire.Response) int16) (wire.Response, error) {
	for {
		coord, err := cl.Coordinator(ctx, client.CoordinatorTransaction, id)
		if err != nil {
			return nil, err
		}
		resp, err := cl.RequestVersion(ctx, coord, req(v), v)
		if err != nil {
			return nil, err
		}
		switch code(resp) {
		case wire.ErrNotCoordinator.Code, wire.ErrCoordinatorLoadInProgress.Code, wire.ErrCoordinatorNotAvailable.Code:
			cl.InvalidateCoordinator(client.CoordinatorTransaction, id)
		default:
			return resp, nil
		}
		select { // retry backoff
		case <-ctx.Done():
			return resp, nil // the caller reports the last code
		case <-time.After(100 * time.Millisecond):
		}
	}
}
