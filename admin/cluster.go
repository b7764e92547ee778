package admin

import (
	"context"
	"errors"
	"slices"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// ClusterBroker is one broker of DescribeCluster.
type ClusterBroker struct {
	// ID is the broker (node) ID.
	ID int32
	// Host is the broker's advertised host.
	Host string
	// Port is the broker's port.
	Port int32
	// Rack is the broker's rack (broker.rack), or nil.
	Rack *string
}

// ClusterDescription describes the cluster.
type ClusterDescription struct {
	// ClusterID is the KRaft cluster ID.
	ClusterID string
	// ControllerID is the controller the answering broker reports (in KRaft
	// a broker ID it forwards to), -1 when unknown.
	ControllerID int32
	// Brokers are the live (unfenced) brokers, sorted by ID.
	Brokers []ClusterBroker
}

// BrokerIDs returns the IDs of Brokers, sorted.
func (d *ClusterDescription) BrokerIDs() []int32 {
	ids := make([]int32, len(d.Brokers))
	for i, b := range d.Brokers {
		ids[i] = b.ID
	}
	return ids
}

// DescribeCluster asks any broker for the cluster ID, controller and brokers
// (DescribeCluster v0-2, KIP-700), retrying transport failures within ctx.
func (a *Admin) DescribeCluster(ctx context.Context) (*ClusterDescription, error) {
	for try := 0; ; try++ {
		resp, err := a.cl.Request(ctx, client.AnyBroker, &wire.DescribeClusterRequest{EndpointType: wire.EndpointTypeBrokers})
		if err == nil {
			r := resp.(*wire.DescribeClusterResponse)
			err = codeErr(r.ErrorCode, r.ErrorMessage)
			if err == nil {
				d := &ClusterDescription{ClusterID: r.ClusterID, ControllerID: r.ControllerID}
				for _, b := range r.Brokers {
					d.Brokers = append(d.Brokers, ClusterBroker{ID: b.BrokerID, Host: b.Host, Port: b.Port, Rack: b.Rack})
				}
				slices.SortFunc(d.Brokers, func(x, y ClusterBroker) int { return int(x.ID) - int(y.ID) })
				return d, nil
			}
		}
		if transient(ctx, err, true) && a.wait(ctx, try) {
			continue
		}
		return nil, err
	}
}

// isUnknownTopic reports UNKNOWN_TOPIC_OR_PARTITION and UNKNOWN_TOPIC_ID,
// which Kafka marks retriable but admin operations report at once: a
// missing topic is an answer, not a transient state (use WaitVisible after
// creating).
func isUnknownTopic(err error) bool {
	return errors.Is(err, wire.ErrUnknownTopicOrPartition) || errors.Is(err, wire.ErrUnknownTopicID)
}
