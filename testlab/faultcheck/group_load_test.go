package faultcheck

import (
	"context"
	"errors"
	"fmt"
	"github.com/gregor-kafka/gregor"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
	"github.com/gregor-kafka/gregor/testlab/invariant"
)

// groupLoad is a consumer group of `members` gregor members (consumer.NewGroup,
// default protocol, manual commits), each on a client of its own through the
// proxies, reading the soak topic. Every churn one member (at random) closes
// and a new one joins, so handovers happen beside the chaos's. After the load
// it drains: it consumes and commits until its committed offsets reach the
// input's end offsets (read by the observer once the producers are done).
//
// What it records (a member is one incarnation, "g3"):
//   - ownership: an interval per member and partition from its Assigned
//     event to the return of its Revoking callback (the handover: commits of
//     revoked partitions are accepted until it returns, and nothing of them
//     is delivered after), or to its Lost event (fenced by the coordinator);
//   - every delivered offset with its member and instant, and each
//     Receive per partition as a Read (Continues unless an assignment
//     event of the partition came between) for the poll rules;
//   - every commit the coordinator accepted, with its member and the instant
//     the call began.
type groupLoad struct {
	group      string
	topic      string
	partitions int32
	members    int
	churn      time.Duration
	seed       uint64 // picks the member each churn replaces
	boot       []string
	inputDone  <-chan struct{} // closed once the producers finished
	bed        *labtest.Bed    // the observer: end offsets for the drain
	logf       func(string, ...any)
	// javaMembers VerifiableConsumers (javaMember) join the group beside
	// gregor's members for the whole run, started with tools.
	javaMembers int
	tools       *javaTools

	mu        sync.Mutex       // guards everything below
	seq       int              // members started
	reads     []invariant.Read // every Receive, per partition
	ivs       []ownership
	open      map[string]map[invariant.TP]int // member → partition → index in ivs
	commits   []groupCommit
	delivered map[invariant.TP]map[int64]int // offset → deliveries
	early     []earlyDelivery                // delivered below an accepted commit
	hw        map[invariant.TP]int64         // highest accepted commit
	events    map[consumer.AssignmentEventKind]int
	commitErr int // commits refused or failed (rebalances, faults)
	closeErr  []string
	started   int
	closed    int
	// The Java members: started, records delivered to them.
	javaStarted, javaDelivered int
}

type ownership struct {
	member string
	tp     invariant.TP
	start  time.Time
	end    time.Time // zero: still owned
	lost   bool      // ended by a Lost event
}

type groupCommit struct {
	member string
	tp     invariant.TP
	offset int64
	at     time.Time
}

type earlyDelivery struct {
	member   string
	tp       invariant.TP
	offset   int64
	at       time.Time
	accepted int64
}

// gmember is one running member.
type gmember struct {
	name string
	cl   *client.Client
	g    *consumer.Group
	stop context.CancelFunc
	done chan struct{}

	mu  sync.Mutex // guards pos, cont
	pos map[gregor.TopicPartition]int64
	// cont holds the partitions read since their last assignment event.
	cont map[invariant.TP]bool
}

func (gl *groupLoad) Run(ctx context.Context, drain time.Duration) error {
	gl.open = map[string]map[invariant.TP]int{}
	gl.delivered = map[invariant.TP]map[int64]int{}
	gl.hw = map[invariant.TP]int64{}
	gl.events = map[consumer.AssignmentEventKind]int{}
	// The members run until the drain is over (or the drain's bound).
	mctx, stopAll := context.WithCancel(context.Background())
	defer stopAll()
	var ms []*gmember
	for range gl.members {
		m, err := gl.start(mctx)
		if err != nil {
			return err
		}
		ms = append(ms, m)
	}
	var jms []*javaMember
	for i := range gl.javaMembers {
		jm, err := gl.startJava(javaName(i))
		if err != nil {
			return err
		}
		jms = append(jms, jm)
	}
	defer func() {
		for _, jm := range jms {
			gl.stopJava(jm)
		}
	}()
	rng := rand.New(rand.NewPCG(gl.seed, 7))
	churn := time.NewTicker(gl.churn)
	defer churn.Stop()
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-churn.C:
		}
		i := rng.IntN(len(ms))
		gl.stopMember(ms[i])
		m, err := gl.start(mctx)
		if err != nil {
			ms = append(ms[:i], ms[i+1:]...)
			gl.logf("group: a new member did not start: %v", err)
			if len(ms) == 0 {
				return err
			}
			continue
		}
		ms[i] = m
	}
	// Drain: once the producers are done, consume until every partition's
	// accepted commit reaches the input's end offset.
	dctx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	var derr error
	select {
	case <-gl.inputDone:
		derr = gl.drainTo(dctx)
	case <-dctx.Done():
		derr = errors.New("group drain: the producers did not finish")
	}
	for _, m := range ms {
		gl.stopMember(m)
	}
	return derr
}

// drainTo waits until the highest accepted commit of every partition is the
// topic's end offset.
func (gl *groupLoad) drainTo(ctx context.Context) error {
	ends, err := gl.bed.Adm.ListEndOffsets(ctx, gl.topic)
	if err != nil {
		return fmt.Errorf("group drain: end offsets: %w", err)
	}
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		behind := ""
		gl.mu.Lock()
		for p := range gl.partitions {
			e, _ := ends.Lookup(gl.topic, p)
			if c := gl.hw[invariant.TP{Topic: gl.topic, Partition: p}]; c < e.Offset {
				behind += fmt.Sprintf(" %d: %d<%d", p, c, e.Offset)
			}
		}
		gl.mu.Unlock()
		if behind == "" {
			return nil
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return fmt.Errorf("group drain: commits behind the end offsets:%s", behind)
		}
	}
}

func (gl *groupLoad) start(ctx context.Context) (*gmember, error) {
	gl.mu.Lock()
	gl.seq++
	name := fmt.Sprintf("g%d", gl.seq)
	gl.mu.Unlock()
	cl, err := client.New(client.Config{Bootstrap: gl.boot, ClientID: name, RequestTimeout: 5 * time.Second, DialTimeout: 3 * time.Second})
	if err != nil {
		return nil, err
	}
	m := &gmember{name: name, cl: cl, done: make(chan struct{}), pos: map[gregor.TopicPartition]int64{}, cont: map[invariant.TP]bool{}}
	g, err := consumer.NewGroup(cl, consumer.GroupConfig{
		Config:            consumer.Config{MaxWait: 200 * time.Millisecond},
		GroupID:           gl.group,
		Topics:            []string{gl.topic},
		DisableAutoCommit: true,
		OnAssignment:      func(ctx context.Context, ev consumer.AssignmentEvent) { gl.onEvent(ctx, m, ev) },
	})
	if err != nil {
		cl.Close(context.Background())
		return nil, err
	}
	m.g = g
	mctx, stop := context.WithCancel(ctx)
	m.stop = stop
	gl.mu.Lock()
	gl.started++
	gl.mu.Unlock()
	go gl.consume(mctx, m)
	return m, nil
}

// stopMember ends m's loop, closes its Group (leaving the group: a
// handover) and its client.
func (gl *groupLoad) stopMember(m *gmember) {
	m.stop()
	<-m.done
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := m.g.Close(ctx)
	m.cl.Close(context.Background())
	gl.mu.Lock()
	defer gl.mu.Unlock()
	gl.closed++
	if err != nil {
		gl.closeErr = append(gl.closeErr, fmt.Sprintf("%s: %v", m.name, err))
	}
	// A member closed without its Revoking (Close timed out) owns nothing
	// after its close returned.
	for _, i := range gl.open[m.name] {
		gl.ivs[i].end = time.Now()
	}
	delete(gl.open, m.name)
}

// onEvent records m's ownership changes. Revoking commits m's delivered
// positions of the revoked partitions; the interval ends when it returns.
func (gl *groupLoad) onEvent(ctx context.Context, m *gmember, ev consumer.AssignmentEvent) {
	m.mu.Lock()
	for _, tp := range ev.Partitions {
		delete(m.cont, invariant.TP{Topic: tp.Topic, Partition: tp.Partition})
	}
	m.mu.Unlock()
	if ev.Kind == consumer.Revoking {
		offs := map[gregor.TopicPartition]int64{}
		m.mu.Lock()
		for _, tp := range ev.Partitions {
			if o, ok := m.pos[tp]; ok {
				offs[tp] = o
			}
		}
		m.mu.Unlock()
		if len(offs) > 0 {
			gl.commit(ctx, m, offs)
		}
	}
	at := ev.Time
	if ev.Kind == consumer.Revoking {
		at = time.Now()
	}
	gl.mu.Lock()
	defer gl.mu.Unlock()
	gl.events[ev.Kind]++
	own := gl.open[m.name]
	if own == nil {
		own = map[invariant.TP]int{}
		gl.open[m.name] = own
	}
	for _, tp := range ev.Partitions {
		itp := invariant.TP{Topic: tp.Topic, Partition: tp.Partition}
		if ev.Kind == consumer.Assigned {
			own[itp] = len(gl.ivs)
			gl.ivs = append(gl.ivs, ownership{member: m.name, tp: itp, start: ev.Time})
		} else if i, ok := own[itp]; ok {
			gl.ivs[i].end, gl.ivs[i].lost = at, ev.Kind == consumer.Lost
			delete(own, itp)
		}
	}
}

// consume receives, records every delivery and commits the positions.
func (gl *groupLoad) consume(ctx context.Context, m *gmember) {
	defer close(m.done)
	for ctx.Err() == nil {
		rctx, cancel := context.WithTimeout(ctx, time.Second)
		invoked := time.Now()
		recs, err := m.g.Receive(rctx)
		cancel()
		at := time.Now()
		if err != nil && len(recs) == 0 {
			continue // timeouts, and errors the group reports and recovers from
		}
		m.mu.Lock()
		reads, _ := readsOf(recs, invariant.Read{Reader: m.name, Invoked: invoked, Completed: at}, m.cont)
		m.mu.Unlock()
		next := map[gregor.TopicPartition]int64{}
		gl.mu.Lock()
		gl.reads = append(gl.reads, reads...)
		for _, r := range recs {
			tp := invariant.TP{Topic: r.Topic, Partition: r.Partition}
			d := gl.delivered[tp]
			if d == nil {
				d = map[int64]int{}
				gl.delivered[tp] = d
			}
			d[r.Offset]++
			if hw := gl.hw[tp]; r.Offset < hw {
				gl.early = append(gl.early, earlyDelivery{member: m.name, tp: tp, offset: r.Offset, at: at, accepted: hw})
			}
			next[gregor.TopicPartition{Topic: r.Topic, Partition: r.Partition}] = r.Offset + 1
		}
		gl.mu.Unlock()
		m.mu.Lock()
		for tp, o := range next {
			m.pos[tp] = o
		}
		m.mu.Unlock()
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		gl.commit(cctx, m, next)
		cancel()
	}
}

// commit commits offs for m and records the partitions the coordinator
// accepted.
func (gl *groupLoad) commit(ctx context.Context, m *gmember, offs map[gregor.TopicPartition]int64) {
	at := time.Now()
	err := m.g.Commit(ctx, offs)
	var ce *consumer.CommitError
	refused := map[gregor.TopicPartition]bool{}
	switch {
	case err == nil:
	case errors.As(err, &ce):
		for tp := range ce.Partitions {
			refused[tp] = true
		}
	default:
		gl.mu.Lock()
		gl.commitErr++ // outcome unknown: not recorded as accepted
		gl.mu.Unlock()
		return
	}
	gl.mu.Lock()
	defer gl.mu.Unlock()
	if len(refused) > 0 {
		gl.commitErr++
	}
	for tp, o := range offs {
		if refused[tp] {
			continue
		}
		itp := invariant.TP{Topic: tp.Topic, Partition: tp.Partition}
		gl.commits = append(gl.commits, groupCommit{member: m.name, tp: itp, offset: o, at: at})
		if o > gl.hw[itp] {
			gl.hw[itp] = o
		}
	}
}

// zombieAt reports whether member's ownership of tp that held at at ended
// by Lost: the member was fenced by then, though not yet told (a Java
// member, one process for the whole run, can be fenced more than once).
// gl.mu is held.
func (gl *groupLoad) zombieAt(member string, tp invariant.TP, at time.Time) bool {
	for _, iv := range gl.ivs {
		if iv.lost && iv.member == member && iv.tp == tp && !at.Before(iv.start) && !at.After(iv.end) {
			return true
		}
	}
	return false
}

// Record adds the group's history: ownership intervals that ended by a
// handover or were still open (the ones ended by Lost are judged in
// judgeGroup), and the accepted commits.
func (gl *groupLoad) Record(h *invariant.History, f *Figures) {
	gl.mu.Lock()
	defer gl.mu.Unlock()
	for _, iv := range gl.ivs {
		if !iv.lost {
			h.Assignments = append(h.Assignments, invariant.Assignment{Group: gl.group, Member: iv.member, TP: iv.tp, Start: iv.start, End: iv.end})
		}
	}
	h.Reads = append(h.Reads, gl.reads...)
	for _, c := range gl.commits {
		h.Commits = append(h.Commits, invariant.Commit{Group: gl.group, TP: c.tp, Offset: c.offset, At: c.at, Member: c.member})
	}
	f.GroupMembers = gl.started
	f.Rebalances = gl.events[consumer.Revoking] + gl.events[consumer.Lost]
	f.AssignedEvents, f.RevokingEvents, f.LostEvents = gl.events[consumer.Assigned], gl.events[consumer.Revoking], gl.events[consumer.Lost]
	f.GroupCommits, f.GroupCommitFailures = len(gl.commits), gl.commitErr
	f.JavaMembers, f.JavaDelivered = gl.javaStarted, gl.javaDelivered
	for _, e := range gl.closeErr {
		f.Details = append(f.Details, "group member close: "+e)
	}
}

// judge checks the group against the final logs (after Record):
//   - every record of the final log below the group's final accepted commit
//     was delivered to a member (GroupNotDelivered, 0);
//   - a record delivered below the group's highest accepted commit of its
//     partition counts against the group (DeliveredBelowCommit, 0) unless
//     the member's ownership it was delivered in ended by Lost (a zombie:
//     ZombieDeliveries);
//   - every accepted commit began inside its member's ownership interval
//     (CommitsOutsideOwnership, 0);
//   - an interval that ended by Lost overlapping another member's interval
//     is a zombie overlap (the protocol allows it: the fenced member's
//     commits are refused); other overlaps are double ownerships, counted by
//     the invariant checker's RuleOwnership.
func (gl *groupLoad) judge(h *invariant.History, f *Figures) {
	gl.mu.Lock()
	defer gl.mu.Unlock()
	for _, l := range h.Logs {
		if l.Topic != gl.topic {
			continue
		}
		d := gl.delivered[l.TP]
		hw := gl.hw[l.TP]
		for _, r := range l.Records {
			if r.Offset >= hw {
				break
			}
			switch n := d[r.Offset]; {
			case n == 0:
				f.GroupNotDelivered++
				if f.GroupNotDelivered <= 5 {
					f.Details = append(f.Details, fmt.Sprintf("group: %s offset %d (%q) below the accepted commit %d was never delivered", l.TP, r.Offset, r.ID, hw))
				}
			case n > 1:
				f.GroupRedelivered += n - 1
			}
			f.GroupDelivered += min(d[r.Offset], 1)
		}
	}
	for _, e := range gl.early {
		if gl.zombieAt(e.member, e.tp, e.at) {
			f.ZombieDeliveries++
			continue
		}
		f.DeliveredBelowCommit++
		if f.DeliveredBelowCommit <= 5 {
			f.Details = append(f.Details, fmt.Sprintf("group: %s delivered %s offset %d at %s below the accepted commit %d", e.member, e.tp, e.offset, e.at.Format("15:04:05.000"), e.accepted))
		}
	}
	for _, c := range gl.commits {
		inside := false
		for _, iv := range gl.ivs {
			if iv.member == c.member && iv.tp == c.tp && !c.at.Before(iv.start) && (iv.end.IsZero() || c.at.Before(iv.end)) {
				inside = true
				break
			}
		}
		if !inside {
			f.CommitsOutsideOwnership++
			if f.CommitsOutsideOwnership <= 5 {
				f.Details = append(f.Details, fmt.Sprintf("group: %s's commit of %s at %d (began %s) is outside its ownership", c.member, c.tp, c.offset, c.at.Format("15:04:05.000")))
			}
		}
	}
	for i, a := range gl.ivs {
		for j := i + 1; j < len(gl.ivs); j++ {
			b := gl.ivs[j]
			if (a.lost || b.lost) && a.tp == b.tp && a.member != b.member &&
				(b.end.IsZero() || a.start.Before(b.end)) && (a.end.IsZero() || b.start.Before(a.end)) {
				f.ZombieOverlaps++
			}
		}
	}
}
