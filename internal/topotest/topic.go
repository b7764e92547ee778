package topotest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/wire"
)

// retryEvery is how often Create asks again while the broker is still
// completing an earlier deletion of the same name.
const retryEvery = 50 * time.Millisecond

// Topic is one topic a test creates, deletes and recreates by name.
type Topic struct {
	Admin *admin.Admin
	Name  string
}

// Create creates the topic with partitions (replication factor 1) and
// waits until the metadata shows it. While a deletion of the same name is
// still under way the broker answers TOPIC_ALREADY_EXISTS: Create asks
// again until ctx ends. Any other error fails the test.
func (tp Topic) Create(ctx context.Context, t testing.TB, partitions int32) {
	t.Helper()
	tick := time.NewTicker(retryEvery)
	defer tick.Stop()
	for {
		err := tp.createOnce(ctx, partitions)
		if err == nil {
			return
		}
		if !errors.Is(err, wire.ErrTopicAlreadyExists) {
			t.Fatalf("CreateTopics %s: %v", tp.Name, err)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("CreateTopics %s: the earlier deletion did not complete: %v (%v)", tp.Name, err, ctx.Err())
		case <-tick.C:
		}
	}
}

func (tp Topic) createOnce(ctx context.Context, partitions int32) error {
	res, err := tp.Admin.CreateTopics(ctx, []admin.NewTopic{{Name: tp.Name, Partitions: partitions, ReplicationFactor: 1}}, admin.TopicOptions{WaitVisible: true})
	if err == nil {
		err = res[0].Err
	}
	return err
}

// Remove deletes the topic and waits until every broker's metadata lost it.
func (tp Topic) Remove(ctx context.Context, t testing.TB) {
	t.Helper()
	res, err := tp.Admin.DeleteTopics(ctx, []admin.TopicRef{{Name: tp.Name}}, admin.TopicOptions{WaitVisible: true})
	if err == nil {
		err = res[0].Err
	}
	if err != nil {
		t.Fatalf("DeleteTopics %s: %v", tp.Name, err)
	}
}
