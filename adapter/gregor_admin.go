package adapter

import (
	"context"
	"errors"

	"github.com/gregor-kafka/gregor/client"
)

// errAdminUnavailable is returned until package admin is wired in.
var errAdminUnavailable = errors.New("admin operations are not available in this build")

func newGregorAdmin(c *client.Client) Admin { return unavailableAdmin{} }

// unavailableAdmin answers every admin call with errAdminUnavailable.
type unavailableAdmin struct{}

func (unavailableAdmin) CreateTopics(context.Context, []TopicSpec, bool) ([]error, error) {
	return nil, errAdminUnavailable
}
func (unavailableAdmin) CreatePartitions(context.Context, string, int32, bool) error {
	return errAdminUnavailable
}
func (unavailableAdmin) DeleteTopic(context.Context, string) error { return errAdminUnavailable }
func (unavailableAdmin) DescribeTopic(context.Context, string) ([]int32, error) {
	return nil, errAdminUnavailable
}
func (unavailableAdmin) ListTopics(context.Context, bool) ([]string, error) {
	return nil, errAdminUnavailable
}
func (unavailableAdmin) ListOffset(context.Context, string, int32, bool) (*int64, error) {
	return nil, errAdminUnavailable
}
func (unavailableAdmin) DeleteRecords(context.Context, string, int32, int64) (int64, error) {
	return 0, errAdminUnavailable
}
func (unavailableAdmin) DescribeTopicConfig(context.Context, string, string) (*string, error) {
	return nil, errAdminUnavailable
}
func (unavailableAdmin) AlterTopicConfig(context.Context, string, string, string, bool) error {
	return errAdminUnavailable
}
func (unavailableAdmin) DescribeCluster(context.Context) (*string, []int32, error) {
	return nil, nil, errAdminUnavailable
}
func (unavailableAdmin) ListConsumerGroups(context.Context) ([]string, []BrokerError, error) {
	return nil, nil, errAdminUnavailable
}
func (unavailableAdmin) DescribeConsumerGroup(context.Context, string) (uint32, error) {
	return 0, errAdminUnavailable
}
func (unavailableAdmin) ListGroupOffsets(context.Context, []GroupPartitions, bool) ([]GroupOffsets, error) {
	return nil, errAdminUnavailable
}
func (unavailableAdmin) AlterGroupOffsets(context.Context, string, []PartitionOffset) ([]error, error) {
	return nil, errAdminUnavailable
}
func (unavailableAdmin) DeleteGroupOffsets(context.Context, string, []TopicPartition) ([]error, error) {
	return nil, errAdminUnavailable
}
func (unavailableAdmin) DeleteConsumerGroup(context.Context, string) error {
	return errAdminUnavailable
}
func (unavailableAdmin) DescribeClassicGroups(context.Context, []string) ([]ClassicGroup, error) {
	return nil, errAdminUnavailable
}
