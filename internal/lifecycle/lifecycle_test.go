package lifecycle_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/consumer/share"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/internal/leakcheck"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/txn"
	"github.com/gregor-kafka/gregor/wire"
)

// bound is how long any call may take to end once its object or client is
// closed (the calls themselves carry a 30s deadline: a hang fails here).
const bound = 5 * time.Second

// order is who is closed first.
type order string

const (
	objectFirst order = "object-then-client"
	clientFirst order = "client-then-object"
	twice       order = "object-twice"
)

// state is what the object is doing when it is closed.
type state string

const (
	idle      state = "idle"
	pending   state = "pending"   // records pending / a call waiting (a Fetch long poll in flight for consumers)
	inFlight  state = "in-flight" // a request in flight at the broker
	rebalance state = "rebalance" // a join in progress (group)
)

// bed is one case's cluster, client and topic; hold withholds the
// broker's answers to requests written after it is armed.
type bed struct {
	cluster *kafkatest.Cluster
	cl      *client.Client
	topic   string
	hold    *hold
}

// object is one public object under test.
type object interface {
	// start puts the object in st and returns the pending call's outcome
	// channel (nil when st has none).
	start(ctx context.Context, t testing.TB, st state) <-chan error
	// after makes a call after the close and returns its error.
	after(ctx context.Context) error
	// close closes the object.
	close(ctx context.Context) error
}

// subject is one row of the matrix: how to build the object, the states it
// has, and the outcome its pending call must have under each order.
type subject struct {
	name   string
	states []state
	build  func(ctx context.Context, t testing.TB, b *bed) object
	// pendingOK checks the pending call's outcome.
	pendingOK func(o order, st state, err error) error
	// closeOK checks the first Close's error.
	closeOK func(o order, st state, err error) error
	// toDeadline reports the cases whose first Close is expected to run
	// to its context's end (a request left unanswered at the broker):
	// they get a 1s close context.
	toDeadline func(o order, st state) bool
}

// closedErr checks that err is of the ErrClosed family.
func closedErr(err error) error {
	if !errors.Is(err, client.ErrClosed) {
		return fmt.Errorf("want an error matching client.ErrClosed, got %v", err)
	}
	return nil
}

// notSent checks a closed error whose certainty is NotSent.
func notSent(err error) error {
	if e := closedErr(err); e != nil {
		return e
	}
	if gregor.MayHaveBeenWritten(err) {
		return fmt.Errorf("want certainty NotSent, got MayHaveBeenWritten for %v", err)
	}
	return nil
}

// nilOrClosed: Close returns nil, or (client closed first) an ErrClosed error.
func nilOrClosed(o order, _ state, err error) error {
	if err == nil || (o == clientFirst && errors.Is(err, client.ErrClosed)) {
		return nil
	}
	return fmt.Errorf("Close: %v", err)
}

func TestLifecycleMatrix(t *testing.T) {
	cluster := kafkatest.Shared(t)
	for _, s := range subjects() {
		for _, o := range []order{objectFirst, clientFirst, twice} {
			for _, st := range s.states {
				t.Run(s.name+"/"+string(o)+"/"+string(st), func(t *testing.T) {
					runCase(t, cluster, s, o, st)
				})
			}
		}
	}
}

func runCase(t testing.TB, cluster *kafkatest.Cluster, s subject, o order, st state) {
	snap := leakcheck.Take()
	// Registered first, so run last, also when the case fails with
	// t.Fatal (in build, start or below): after the object and the
	// client are closed (the cleanups below), every goroutine the case
	// started must end. A failed case so never leaves its client and
	// object running, whose later goroutines (a group's fetch worker and
	// its connection, say) the next case's check would count as its own.
	t.Cleanup(func() {
		leakCtx, leakCancel := context.WithTimeout(context.Background(), bound)
		defer leakCancel()
		snap.Check(leakCtx, t)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	h := newHold()
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext), Dialer: h.dial})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close(context.Background()) })
	b := &bed{cluster: cluster, cl: cl, topic: kafkatest.UniqueName(t, "life"), hold: h}
	if err := cluster.CreateTopic(ctx, b.topic, 1, 1); err != nil {
		t.Fatal(err)
	}
	visible(ctx, t, b)
	obj := s.build(ctx, t, b)
	t.Cleanup(func() { // a second close is harmless; the first may not have run
		closeCtx, closeCancel := context.WithTimeout(context.Background(), bound)
		defer closeCancel()
		_ = obj.close(closeCtx)
	})
	callCtx, callCancel := context.WithTimeout(ctx, 30*time.Second)
	defer callCancel()
	pend := obj.start(callCtx, t, st)

	closeBound, toDeadline := bound, s.toDeadline != nil && s.toDeadline(o, st)
	if toDeadline {
		closeBound = time.Second
	}
	closeCtx, closeCancel := context.WithTimeout(ctx, closeBound)
	defer closeCancel()
	var closeErr error
	t0 := time.Now()
	switch o {
	case objectFirst:
		closeErr = obj.close(closeCtx)
		cl.Close(closeCtx)
	case clientFirst:
		cl.Close(closeCtx)
		closeErr = obj.close(closeCtx)
	case twice:
		closeErr = obj.close(closeCtx)
		if err := obj.close(closeCtx); err != nil && !errors.Is(err, client.ErrClosed) {
			t.Errorf("second Close: want nil or an ErrClosed error, got %v", err)
		}
	}
	if closeCtx.Err() != nil && !toDeadline {
		t.Errorf("Close took %v, the bound is %v", time.Since(t0), bound)
	}
	if err := s.closeOK(o, st, closeErr); err != nil {
		t.Error(err)
	}
	if pend != nil {
		select {
		case err := <-pend:
			if e := s.pendingOK(o, st, err); e != nil {
				t.Errorf("pending call: %v", e)
			}
		case <-time.After(bound):
			t.Fatalf("pending call still waiting %v after the close", bound)
		}
	}
	afterCtx, afterCancel := context.WithTimeout(ctx, bound)
	defer afterCancel()
	if err := obj.after(afterCtx); afterCtx.Err() != nil {
		t.Errorf("call after close ran to its deadline: %v", err)
	} else if e := closedErr(err); e != nil {
		t.Errorf("call after close: %v", e)
	}
	cl.Close(ctx)
	if err := cl.Close(ctx); err != nil { // twice for the client too
		t.Errorf("second client Close: %v", err)
	}
}

// visible returns metadata showing the bed's new topic with its partition
// (the topic may reach this client's broker after CreateTopic returns).
func visible(ctx context.Context, t testing.TB, b *bed) *client.Metadata {
	for {
		md, err := b.cl.Metadata(ctx, []string{b.topic})
		if err == nil && len(md.Topics[b.topic].Partitions) > 0 && md.Topics[b.topic].Partitions[0].Leader >= 0 {
			return md
		}
		if ctx.Err() != nil {
			t.Fatalf("topic %s not in metadata: %v", b.topic, err)
		}
		b.cl.InvalidateMetadata()
	}
}

// goAsync runs f in a goroutine and returns its outcome channel.
func goAsync(f func() error) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- f() }()
	return ch
}

func subjects() []subject {
	return []subject{clientSubject(), producerSubject(), consumerSubject(), groupSubject(), shareSubject(), txnSubject(), adminSubject()}
}

// clientObj: the client itself; its pending call is a Fetch long poll (a
// request in flight at the broker for up to 20s).
type clientObj struct{ b *bed }

func clientSubject() subject {
	return subject{
		name: "client", states: []state{idle, inFlight},
		build: func(ctx context.Context, t testing.TB, b *bed) object { return &clientObj{b} },
		pendingOK: func(o order, st state, err error) error {
			if e := closedErr(err); e != nil {
				return e
			}
			if client.CertaintyOf(err) != client.PossiblySent {
				return fmt.Errorf("a written request closed: want PossiblySent, got %v", client.CertaintyOf(err))
			}
			return nil
		},
		closeOK: func(o order, st state, err error) error { return err },
	}
}

func (c *clientObj) start(ctx context.Context, t testing.TB, st state) <-chan error {
	md := c.b.cl.CachedMetadata() // runCase waited until it shows the topic
	if st != inFlight {
		return nil
	}
	leader := md.Topics[c.b.topic].Partitions[0].Leader
	req := &wire.FetchRequest{ReplicaID: -1, ReplicaState: wire.FetchReplicaState{ReplicaID: -1, ReplicaEpoch: -1}, MaxWaitMs: 20000, MinBytes: 1, MaxBytes: 1 << 20, SessionEpoch: -1,
		Topics: []wire.FetchTopic{{Topic: c.b.topic, TopicID: md.Topics[c.b.topic].ID,
			Partitions: []wire.FetchPartition{{Partition: 0, FetchOffset: 0, LogStartOffset: -1, PartitionMaxBytes: 1 << 20, CurrentLeaderEpoch: -1, LastFetchedEpoch: -1}}}}}
	p, err := c.b.cl.Enqueue(ctx, leader, req) // returns once written
	if err != nil {
		t.Fatal(err)
	}
	return goAsync(func() error {
		select {
		case <-p.Done():
		case <-ctx.Done():
			return ctx.Err()
		}
		_, err := p.Result()
		return err
	})
}

func (c *clientObj) after(ctx context.Context) error {
	_, err := c.b.cl.Metadata(ctx, []string{c.b.topic})
	return err
}

func (c *clientObj) close(ctx context.Context) error { return c.b.cl.Close(ctx) }

// producerObj: the idempotent producer; pending records linger (Linger
// 1h) until Flush or Close sends them.
type producerObj struct {
	b *bed
	p *producer.Producer
}

func producerSubject() subject {
	return subject{
		name: "producer", states: []state{idle, pending, inFlight},
		build: func(ctx context.Context, t testing.TB, b *bed) object {
			p, err := producer.New(b.cl, producer.Config{Linger: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			return &producerObj{b: b, p: p}
		},
		pendingOK: func(o order, st state, err error) error {
			switch {
			case st == inFlight:
				// Written, never answered: closed either way with the
				// certainty PossiblySent.
				if e := closedErr(err); e != nil {
					return e
				}
				if !gregor.MayHaveBeenWritten(err) {
					return fmt.Errorf("a written record reports NotSent: %v", err)
				}
				return nil
			case o == clientFirst:
				return notSent(err) // failed at once, never sent
			}
			return err // Close flushed it
		},
		closeOK: func(o order, st state, err error) error {
			switch {
			case o == clientFirst:
				return closedErr(err)
			case st == inFlight:
				if !errors.Is(err, client.ErrTimeout) {
					return fmt.Errorf("Close with a record unanswered: want its context's end (ErrTimeout), got %v", err)
				}
				return nil
			}
			return err
		},
		toDeadline: func(o order, st state) bool { return st == inFlight && o != clientFirst },
	}
}

func (p *producerObj) start(ctx context.Context, t testing.TB, st state) <-chan error {
	// One record through first: the producer has its ID and metadata.
	if _, err := p.p.Send(ctx, &producer.Record{Topic: p.b.topic, Value: []byte("first")}); err != nil {
		t.Fatal(err)
	}
	if err := p.p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if st == idle {
		return nil
	}
	if st == inFlight {
		p.b.hold.arm()
	}
	d, err := p.p.Send(ctx, &producer.Record{Topic: p.b.topic, Value: []byte("pending")})
	if err != nil {
		t.Fatal(err)
	}
	if st == inFlight {
		flushed := goAsync(func() error { return p.p.Flush(ctx) }) // sends the lingering batch
		select {
		case <-p.b.hold.written:
		case err := <-flushed:
			t.Fatalf("Flush ended before the request was written: %v", err)
		}
	}
	return goAsync(func() error { _, err := d.Wait(ctx); return err })
}

func (p *producerObj) after(ctx context.Context) error {
	_, err := p.p.Produce(ctx, producer.Record{Topic: p.b.topic, Value: []byte("after")})
	if err != nil && gregor.MayHaveBeenWritten(err) {
		return fmt.Errorf("a refused record reports MayHaveBeenWritten: %w", err)
	}
	return err
}

func (p *producerObj) close(ctx context.Context) error { return p.p.Close(ctx) }

// consumerObj: the assigned consumer; its pending call is a Receive at the
// end of an empty partition (a Fetch long poll in flight).
type consumerObj struct {
	b *bed
	c *consumer.Consumer
}

func consumerSubject() subject {
	return subject{
		name: "consumer", states: []state{idle, pending},
		build: func(ctx context.Context, t testing.TB, b *bed) object {
			c, err := consumer.New(b.cl, consumer.Config{MaxWait: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			return &consumerObj{b: b, c: c}
		},
		pendingOK: func(o order, st state, err error) error { return closedErr(err) },
		closeOK:   nilOrClosed,
	}
}

func (c *consumerObj) start(ctx context.Context, t testing.TB, st state) <-chan error {
	tp := gregor.TopicPartition{Topic: c.b.topic, Partition: 0}
	if err := c.c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	if st != pending {
		return nil
	}
	return goAsync(func() error { _, err := c.c.Receive(ctx); return err })
}

func (c *consumerObj) after(ctx context.Context) error {
	_, err := c.c.Receive(ctx)
	return err
}

func (c *consumerObj) close(ctx context.Context) error { return c.c.Close(ctx) }

// groupObj: the group consumer. idle: joined, nothing pending; pending: a
// Receive waiting after the join; rebalance: a Receive waiting while the
// first join is in progress.
type groupObj struct {
	b *bed
	g *consumer.Group
}

func groupSubject() subject {
	return subject{
		name: "group", states: []state{idle, pending, rebalance},
		build: func(ctx context.Context, t testing.TB, b *bed) object {
			g, err := consumer.NewGroup(b.cl, consumer.GroupConfig{GroupID: kafkatest.UniqueName(t, "life-group"), Topics: []string{b.topic},
				Config: consumer.Config{MaxWait: 10 * time.Second}})
			if err != nil {
				t.Fatal(err)
			}
			return &groupObj{b: b, g: g}
		},
		pendingOK: func(o order, st state, err error) error { return closedErr(err) },
		closeOK:   nilOrClosed,
	}
}

func (g *groupObj) start(ctx context.Context, t testing.TB, st state) <-chan error {
	if st == rebalance {
		return goAsync(func() error { _, err := g.g.Receive(ctx); return err })
	}
	// Joined: one record produced and received proves the assignment.
	p, err := producer.New(g.b.cl, producer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Produce(ctx, producer.Record{Topic: g.b.topic, Value: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if recs, err := g.g.Receive(ctx); err != nil || len(recs) != 1 {
		t.Fatalf("Receive after the join: %d records, %v", len(recs), err)
	}
	if st != pending {
		return nil
	}
	return goAsync(func() error { _, err := g.g.Receive(ctx); return err })
}

func (g *groupObj) after(ctx context.Context) error {
	_, err := g.g.Receive(ctx)
	return err
}

func (g *groupObj) close(ctx context.Context) error { return g.g.Close(ctx) }

// shareObj: the share consumer; its pending call is a Receive on an empty
// topic (ShareFetch long polls).
type shareObj struct {
	b *bed
	c *share.Consumer
}

func shareSubject() subject {
	return subject{
		name: "share", states: []state{idle, pending},
		build: func(ctx context.Context, t testing.TB, b *bed) object {
			c, err := share.New(b.cl, share.Config{GroupID: kafkatest.UniqueName(t, "life-share"), Topics: []string{b.topic}, MaxWait: 2 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			return &shareObj{b: b, c: c}
		},
		pendingOK: func(o order, st state, err error) error { return closedErr(err) },
		closeOK:   nilOrClosed,
	}
}

func (s *shareObj) start(ctx context.Context, t testing.TB, st state) <-chan error {
	if st != pending {
		return nil
	}
	return goAsync(func() error { _, err := s.c.Receive(ctx); return err })
}

func (s *shareObj) after(ctx context.Context) error {
	_, err := s.c.Receive(ctx)
	return err
}

func (s *shareObj) close(ctx context.Context) error { return s.c.Close(ctx) }

// txnObj: the transactional producer. idle: initialized, no transaction;
// pending: a transaction open with a record lingering in it.
type txnObj struct {
	b *bed
	p *txn.Producer
}

func txnSubject() subject {
	return subject{
		name: "txn", states: []state{idle, pending},
		build: func(ctx context.Context, t testing.TB, b *bed) object {
			p, err := txn.New(b.cl, txn.Config{TransactionalID: kafkatest.UniqueName(t, "life-txn"), Producer: producer.Config{Linger: time.Hour}})
			if err != nil {
				t.Fatal(err)
			}
			return &txnObj{b: b, p: p}
		},
		pendingOK: func(o order, st state, err error) error {
			if o == clientFirst {
				return notSent(err)
			}
			if !errors.Is(err, txn.ErrAborted) || gregor.MayHaveBeenWritten(err) {
				return fmt.Errorf("Close aborts the transaction: want ErrAborted, NotSent; got %v", err)
			}
			return nil
		},
		closeOK: nilOrClosed,
	}
}

func (x *txnObj) start(ctx context.Context, t testing.TB, st state) <-chan error {
	if err := x.p.InitTransactions(ctx); err != nil {
		t.Fatal(err)
	}
	if st != pending {
		return nil
	}
	if err := x.p.Begin(); err != nil {
		t.Fatal(err)
	}
	d, err := x.p.Send(ctx, &producer.Record{Topic: x.b.topic, Value: []byte("pending")})
	if err != nil {
		t.Fatal(err)
	}
	return goAsync(func() error { _, err := d.Wait(ctx); return err })
}

func (x *txnObj) after(ctx context.Context) error { return x.p.Begin() }

func (x *txnObj) close(ctx context.Context) error { return x.p.Close(ctx) }

// adminObj: the admin client has no Close of its own; closing it is
// closing its client. Its in-flight call is a ListTopics whose Metadata
// request the broker never answers (hold).
type adminObj struct {
	b *bed
	a *admin.Admin
}

func adminSubject() subject {
	return subject{
		name: "admin", states: []state{idle, inFlight},
		build: func(ctx context.Context, t testing.TB, b *bed) object {
			return &adminObj{b: b, a: admin.New(b.cl, admin.Config{})}
		},
		pendingOK: func(o order, st state, err error) error { return closedErr(err) },
		closeOK:   func(o order, st state, err error) error { return err },
	}
}

func (a *adminObj) start(ctx context.Context, t testing.TB, st state) <-chan error {
	if _, err := a.a.ListTopics(ctx, false); err != nil {
		t.Fatal(err)
	}
	if st != inFlight {
		return nil
	}
	a.b.hold.arm()
	listed := goAsync(func() error { _, err := a.a.ListTopics(ctx, false); return err })
	select {
	case <-a.b.hold.written:
	case err := <-listed:
		t.Fatalf("ListTopics ended before its request was written: %v", err)
	}
	return listed
}

func (a *adminObj) after(ctx context.Context) error {
	_, err := a.a.ListTopics(ctx, false)
	return err
}

func (a *adminObj) close(ctx context.Context) error { return a.b.cl.Close(ctx) }

// hold wraps the client's connections: once armed, the next write is
// signalled on written, and from then on no answer reaches the client (its
// reads block until the connection is closed), so that request stays in
// flight at the broker until a close.
type hold struct {
	armed   atomic.Bool
	signal  sync.Once
	written chan struct{}
}

func newHold() *hold { return &hold{written: make(chan struct{})} }

func (h *hold) arm() { h.armed.Store(true) }

func (h *hold) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &holdConn{Conn: nc, h: h, closed: make(chan struct{})}, nil
}

type holdConn struct {
	net.Conn
	h         *hold
	closeOnce sync.Once
	closed    chan struct{}
}

func (c *holdConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	if c.h.armed.Load() {
		c.h.signal.Do(func() { close(c.h.written) })
	}
	return n, err
}

func (c *holdConn) Read(b []byte) (int, error) {
	if !c.h.armed.Load() {
		n, err := c.Conn.Read(b)
		if !c.h.armed.Load() || err != nil {
			return n, err
		}
	}
	<-c.closed // armed: the answer is withheld until the close
	return 0, net.ErrClosed
}

func (c *holdConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Conn.Close()
}
