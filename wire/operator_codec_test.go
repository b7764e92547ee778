package wire

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The operator admin APIs (reassignments, elections, log dirs, ACLs, SCRAM,
// quotas, producers and transactions, features, quorum) join adminCases, so
// TestAdminRoundTrip, TestAdminKeysAndPairs and the fuzz targets cover them.
// Their samples are filled by reflection: every field non-zero and distinct,
// two elements per array, nullable values present, unknown tags in flexible
// versions; encoding at v and decoding gives the sample as version v carries
// it. The independent check is testlab/wirecheck's TestAdminCrossCheckKmsg
// (franz-go's kmsg, both directions, every version).

type operatorCase struct {
	key     APIKey
	newReq  func() codec
	newResp func() codec
}

var operatorCases = []operatorCase{
	{KeyAlterPartitionReassignments, func() codec { return new(AlterPartitionReassignmentsRequest) }, func() codec { return new(AlterPartitionReassignmentsResponse) }},
	{KeyListPartitionReassignments, func() codec { return new(ListPartitionReassignmentsRequest) }, func() codec { return new(ListPartitionReassignmentsResponse) }},
	{KeyElectLeaders, func() codec { return new(ElectLeadersRequest) }, func() codec { return new(ElectLeadersResponse) }},
	{KeyDescribeTopicPartitions, func() codec { return new(DescribeTopicPartitionsRequest) }, func() codec { return new(DescribeTopicPartitionsResponse) }},
	{KeyDescribeLogDirs, func() codec { return new(DescribeLogDirsRequest) }, func() codec { return new(DescribeLogDirsResponse) }},
	{KeyAlterReplicaLogDirs, func() codec { return new(AlterReplicaLogDirsRequest) }, func() codec { return new(AlterReplicaLogDirsResponse) }},
	{KeyDescribeAcls, func() codec { return new(DescribeAclsRequest) }, func() codec { return new(DescribeAclsResponse) }},
	{KeyCreateAcls, func() codec { return new(CreateAclsRequest) }, func() codec { return new(CreateAclsResponse) }},
	{KeyDeleteAcls, func() codec { return new(DeleteAclsRequest) }, func() codec { return new(DeleteAclsResponse) }},
	{KeyDescribeUserScramCredentials, func() codec { return new(DescribeUserScramCredentialsRequest) }, func() codec { return new(DescribeUserScramCredentialsResponse) }},
	{KeyAlterUserScramCredentials, func() codec { return new(AlterUserScramCredentialsRequest) }, func() codec { return new(AlterUserScramCredentialsResponse) }},
	{KeyDescribeClientQuotas, func() codec { return new(DescribeClientQuotasRequest) }, func() codec { return new(DescribeClientQuotasResponse) }},
	{KeyAlterClientQuotas, func() codec { return new(AlterClientQuotasRequest) }, func() codec { return new(AlterClientQuotasResponse) }},
	{KeyDescribeProducers, func() codec { return new(DescribeProducersRequest) }, func() codec { return new(DescribeProducersResponse) }},
	{KeyDescribeTransactions, func() codec { return new(DescribeTransactionsRequest) }, func() codec { return new(DescribeTransactionsResponse) }},
	{KeyListTransactions, func() codec { return new(ListTransactionsRequest) }, func() codec { return new(ListTransactionsResponse) }},
	{KeyWriteTxnMarkers, func() codec { return new(WriteTxnMarkersRequest) }, func() codec { return new(WriteTxnMarkersResponse) }},
	{KeyUpdateFeatures, func() codec { return new(UpdateFeaturesRequest) }, func() codec { return new(UpdateFeaturesResponse) }},
	{KeyDescribeQuorum, func() codec { return new(DescribeQuorumRequest) }, func() codec { return new(DescribeQuorumResponse) }},
}

func init() {
	for _, c := range operatorCases {
		adminCases = append(adminCases, adminCase{c.key,
			func(v int16) codec { return sampleAt(v, c.newReq) }, func(v int16) codec { return sampleAt(v, c.newResp) },
			c.newReq, c.newResp})
	}
}

// sampleAt fills a message and returns it as version v carries it.
func sampleAt(v int16, newMsg func() codec) codec {
	m := newMsg()
	seed := 0
	fillSample(reflect.ValueOf(m).Elem(), &seed)
	out := newMsg()
	if err := out.DecodeFrom(NewReader(m.AppendTo(nil, v)), v); err != nil {
		panic(fmt.Sprintf("%T v%d: %v", m, v, err))
	}
	return out
}

var taggedFieldsType = reflect.TypeOf([]TaggedField(nil))

// fillSample sets every exported field of v, recursively, to distinct
// non-zero values.
func fillSample(v reflect.Value, seed *int) {
	*seed++
	n := *seed
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() {
				if f.Type == taggedFieldsType {
					v.Field(i).Set(reflect.ValueOf([]TaggedField{{Tag: uint32(40 + n%20), Data: []byte{byte(n)}}}))
					continue
				}
				fillSample(v.Field(i), seed)
			}
		}
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(n%100 + 2))
	case reflect.Uint8, reflect.Uint16:
		v.SetUint(uint64(n%200 + 1))
	case reflect.Float64:
		v.SetFloat(float64(n) + 0.25)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fillSample(v.Index(i), seed)
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillSample(v.Elem(), seed)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := 0; i < 2; i++ {
			fillSample(s.Index(i), seed)
		}
		v.Set(s)
	default:
		panic("fillSample: unhandled kind " + v.Kind().String())
	}
}

func FuzzAlterPartitionReassignmentsResponse(f *testing.F) {
	fuzzAdminResponse(f, KeyAlterPartitionReassignments)
}
func FuzzListPartitionReassignmentsResponse(f *testing.F) {
	fuzzAdminResponse(f, KeyListPartitionReassignments)
}
func FuzzElectLeadersResponse(f *testing.F) { fuzzAdminResponse(f, KeyElectLeaders) }
func FuzzDescribeTopicPartitionsResponse(f *testing.F) {
	fuzzAdminResponse(f, KeyDescribeTopicPartitions)
}
func FuzzDescribeLogDirsResponse(f *testing.F)     { fuzzAdminResponse(f, KeyDescribeLogDirs) }
func FuzzAlterReplicaLogDirsResponse(f *testing.F) { fuzzAdminResponse(f, KeyAlterReplicaLogDirs) }
func FuzzDescribeAclsResponse(f *testing.F)        { fuzzAdminResponse(f, KeyDescribeAcls) }
func FuzzCreateAclsResponse(f *testing.F)          { fuzzAdminResponse(f, KeyCreateAcls) }
func FuzzDeleteAclsResponse(f *testing.F)          { fuzzAdminResponse(f, KeyDeleteAcls) }
func FuzzDescribeUserScramCredentialsResponse(f *testing.F) {
	fuzzAdminResponse(f, KeyDescribeUserScramCredentials)
}
func FuzzAlterUserScramCredentialsResponse(f *testing.F) {
	fuzzAdminResponse(f, KeyAlterUserScramCredentials)
}
func FuzzDescribeClientQuotasResponse(f *testing.F) { fuzzAdminResponse(f, KeyDescribeClientQuotas) }
func FuzzAlterClientQuotasResponse(f *testing.F)    { fuzzAdminResponse(f, KeyAlterClientQuotas) }
func FuzzDescribeProducersResponse(f *testing.F)    { fuzzAdminResponse(f, KeyDescribeProducers) }
func FuzzDescribeTransactionsResponse(f *testing.F) { fuzzAdminResponse(f, KeyDescribeTransactions) }
func FuzzListTransactionsResponse(f *testing.F)     { fuzzAdminResponse(f, KeyListTransactions) }
func FuzzWriteTxnMarkersResponse(f *testing.F)      { fuzzAdminResponse(f, KeyWriteTxnMarkers) }
func FuzzUpdateFeaturesResponse(f *testing.F)       { fuzzAdminResponse(f, KeyUpdateFeatures) }
func FuzzDescribeQuorumResponse(f *testing.F)       { fuzzAdminResponse(f, KeyDescribeQuorum) }

func FuzzAlterPartitionReassignmentsRequest(f *testing.F) {
	fuzzAdminRequest(f, KeyAlterPartitionReassignments)
}
func FuzzDescribeTopicPartitionsRequest(f *testing.F) {
	fuzzAdminRequest(f, KeyDescribeTopicPartitions)
}
func FuzzCreateAclsRequest(f *testing.F) { fuzzAdminRequest(f, KeyCreateAcls) }
func FuzzDeleteAclsRequest(f *testing.F) { fuzzAdminRequest(f, KeyDeleteAcls) }
func FuzzAlterUserScramCredentialsRequest(f *testing.F) {
	fuzzAdminRequest(f, KeyAlterUserScramCredentials)
}
func FuzzAlterClientQuotasRequest(f *testing.F) { fuzzAdminRequest(f, KeyAlterClientQuotas) }
func FuzzWriteTxnMarkersRequest(f *testing.F)   { fuzzAdminRequest(f, KeyWriteTxnMarkers) }
func FuzzListTransactionsRequest(f *testing.F)  { fuzzAdminRequest(f, KeyListTransactions) }

// TestScramUpsertionRedacted pins that printing a request never shows the
// salt or the salted password.
func TestScramUpsertionRedacted(t *testing.T) {
	m := &AlterUserScramCredentialsRequest{Upsertions: []AlterUserScramCredentialsScramCredentialUpsertion{
		{Name: "alice", Mechanism: 1, Iterations: 4096, Salt: []byte("SALTSALT"), SaltedPassword: []byte("SECRETPW")}}}
	for _, f := range []string{"%v", "%+v", "%#v", "%s"} {
		s := fmt.Sprintf(f, m)
		if !strings.Contains(s, "alice") || strings.Contains(s, "SALTSALT") || strings.Contains(s, "SECRETPW") ||
			strings.Contains(s, fmt.Sprint([]byte("SECRETPW"))) {
			t.Fatalf("%s printed %s", f, s)
		}
	}
}
