package admin

import (
	"context"

	"github.com/gregor-kafka/gregor/wire"
)

// groupCall describes a request that names groups and is answered group by
// group, sent once per group coordinator (DescribeGroups, DeleteGroups,
// ConsumerGroupDescribe, ShareGroupDescribe). R is the response's
// per-group answer type.
type groupCall[R any] struct {
	// request builds the request for the groups ids.
	request func(ids []string) wire.Request
	// answers lists the response's per-group answers.
	answers func(wire.Response) []R
	// id, code name an answer's group and its error code and message.
	id   func(*R) string
	code func(*R) (int16, *string)
	// ok records group i's good answer from the coordinator broker.
	ok func(i int, broker int32, r *R)
	// handled, when set, may take group i's Kafka error itself (true)
	// instead of it becoming the group's error.
	handled func(i int, err error) bool
	// requestErr, when set, may take a whole-request failure for the groups
	// idx itself (true: they are done).
	requestErr func(idx []int, err error) bool
	// idempotent allows resending after a request that may have arrived.
	idempotent bool
}

// runGroupCall sends c for groups, one request per coordinator, and calls
// fail once for every group that ends in failure: no answer
// (UNKNOWN_SERVER_ERROR), a Kafka error that neither finding the
// coordinator again nor c.handled cures, or the failure that ended the
// retries. Coordinator errors are retried at the group's new coordinator.
func runGroupCall[R any](ctx context.Context, a *Admin, groups []string, c groupCall[R], fail func(i int, err error)) {
	group := func(i int) string { return groups[i] }
	send := func(ctx context.Context, broker int32, idx []int) (map[int]error, error) {
		ids := make([]string, len(idx))
		for k, i := range idx {
			ids[k] = groups[i]
		}
		resp, err := a.cl.Request(ctx, broker, c.request(ids))
		if err != nil {
			if c.requestErr != nil && c.requestErr(idx, err) {
				return nil, nil
			}
			return nil, err
		}
		retry := map[int]error{}
		rs := c.answers(resp)
		for _, i := range idx {
			r := answerFor(rs, func(r *R) bool { return c.id(r) == groups[i] })
			if r == nil {
				fail(i, wire.ErrUnknownServerError)
				continue
			}
			err := codeErr(c.code(r))
			switch {
			case err == nil:
				c.ok(i, broker, r)
			case a.coordRetry(groups[i], err):
				retry[i] = err
			case c.handled != nil && c.handled(i, err):
			default:
				fail(i, err)
			}
		}
		return retry, nil
	}
	a.runPlan(ctx, resourcePlan{
		resources:     len(groups),
		idempotent:    c.idempotent,
		route:         a.coordRoute(group),
		send:          send,
		onSendFailure: a.forgetCoordinators(group),
		fail:          fail,
	})
}
