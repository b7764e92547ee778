package wire

// VersionFloorer is implemented by requests with fields that exist only
// from some version on and that change what the broker does when set: a
// broker below that version would never see them and would answer a
// different question (list every transaction instead of those matching a
// pattern, perform a feature upgrade asked to be validated only). The
// client refuses such a request before sending it, NotSent, with an error
// naming the field, where the Java client's request builders throw
// UnsupportedVersionException.
type VersionFloorer interface {
	Request
	// FloorVersion returns the lowest version that carries every field set
	// away from its default, and the name of the field that needs it; -1
	// and "" when any version will do.
	FloorVersion() (int16, string)
}

// floor keeps the highest version any set field needs.
type floor struct {
	v     int16
	field string
}

// need raises f to v for field when set.
func (f *floor) need(set bool, v int16, field string) {
	if set && v > f.v {
		f.v, f.field = v, field
	}
}

func (f floor) get() (int16, string) {
	if f.field == "" {
		return -1, ""
	}
	return f.v, f.field
}

// FloorVersion: DurationFilter needs v1 (KIP-994), TransactionalIDPattern
// v2 (KIP-1152).
func (m *ListTransactionsRequest) FloorVersion() (int16, string) {
	var f floor
	f.need(m.DurationFilter >= 0, 1, "DurationFilter")
	f.need(m.TransactionalIDPattern != nil && *m.TransactionalIDPattern != "", 2, "TransactionalIDPattern")
	return f.get()
}

// FloorVersion: StatesFilter needs v4 (KIP-518), TypesFilter v5 (KIP-848).
func (m *ListGroupsRequest) FloorVersion() (int16, string) {
	var f floor
	f.need(len(m.StatesFilter) > 0, 4, "StatesFilter")
	f.need(len(m.TypesFilter) > 0, 5, "TypesFilter")
	return f.get()
}

// FloorVersion: ValidateOnly needs v1 (KIP-778); without it the broker
// would perform the updates.
func (m *UpdateFeaturesRequest) FloorVersion() (int16, string) {
	var f floor
	f.need(m.ValidateOnly, 1, "ValidateOnly")
	return f.get()
}

// FloorVersion: AllowReplicationFactorChange false needs v1 (KIP-860);
// before it every reassignment may change the replication factor.
func (m *AlterPartitionReassignmentsRequest) FloorVersion() (int16, string) {
	var f floor
	f.need(!m.AllowReplicationFactorChange, 1, "AllowReplicationFactorChange")
	return f.get()
}

// FloorVersion: EndpointType controllers needs v1 (KIP-919),
// IncludeFencedBrokers v2 (KIP-1073).
func (m *DescribeClusterRequest) FloorVersion() (int16, string) {
	var f floor
	f.need(m.EndpointType == EndpointTypeControllers, 1, "EndpointType")
	f.need(m.IncludeFencedBrokers, 2, "IncludeFencedBrokers")
	return f.get()
}

// FloorVersion: the timestamps ListOffsetsMaxTimestamp (v7, KIP-734),
// ListOffsetsEarliestLocal (v8, KIP-405) and ListOffsetsLatestTiered (v9,
// KIP-1005) mean nothing to an older broker.
func (m *ListOffsetsRequest) FloorVersion() (int16, string) {
	var f floor
	for i := range m.Topics {
		for j := range m.Topics[i].Partitions {
			switch m.Topics[i].Partitions[j].Timestamp {
			case ListOffsetsMaxTimestamp:
				f.need(true, 7, "Timestamp ListOffsetsMaxTimestamp")
			case ListOffsetsEarliestLocal:
				f.need(true, 8, "Timestamp ListOffsetsEarliestLocal")
			case ListOffsetsLatestTiered:
				f.need(true, 9, "Timestamp ListOffsetsLatestTiered")
			}
		}
	}
	return f.get()
}
