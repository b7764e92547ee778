package protocol

import (
	"sync"
	"time"
)

// actorCommands are the concurrent-actor rows of the command table.
var actorCommands = []command{
	handledBy("start_concurrent_actors", (*Session).doStartActors),
	handledBy("join_concurrent_actors", (*Session).doJoinActors),
}

// actorGroup is the one active group of concurrent actors (§4.3).
type actorGroup struct {
	id     ID
	actors []Actor
	recs   []*ProducerRecord // per actor (send actors)
	done   chan struct{}     // closed when every worker has finished
	mu     sync.Mutex
	result []actorResult
}

// actorResult is what one worker observed.
type actorResult struct {
	finished   bool
	rejectCode string
	outcome    DeliveryOutcome
	records    []ConsumedRecord
	err        error
}

func (g *actorGroup) usesProducer(id ID) bool {
	for _, a := range g.actors {
		if a.Kind == ActorProducerSend && a.ProducerID == id {
			return true
		}
	}
	return false
}

// wait waits for the workers up to d (0: no wait) and reports whether all
// finished.
func (g *actorGroup) wait(d time.Duration) bool {
	if d <= 0 {
		select {
		case <-g.done:
			return true
		default:
			return false
		}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-g.done:
		return true
	case <-t.C:
		return false
	}
}

func (s *Session) doStartActors(p *StartConcurrentActors) error {
	if s.group != nil {
		return stateErr("concurrent actors %q are still active", s.group.id)
	}
	if n := len(p.Actors); n < 2 || n > 8 {
		return stateErr("start_concurrent_actors with %d actors (2..=8)", n)
	}
	g := &actorGroup{id: p.ConcurrencyID, actors: p.Actors, done: make(chan struct{}),
		recs: make([]*ProducerRecord, len(p.Actors)), result: make([]actorResult, len(p.Actors))}
	seen := map[ID]bool{}
	owned := map[ID]bool{}
	producers := make([]Producer, len(p.Actors))
	consumers := make([]AssignedConsumer, len(p.Actors))
	ids := make([]ID, len(p.Actors))
	for i := range p.Actors {
		a := &p.Actors[i]
		ids[i] = a.ActorID
		if seen[a.ActorID] {
			return stateErr("duplicate actor id %q", a.ActorID)
		}
		seen[a.ActorID] = true
		switch a.Kind {
		case ActorProducerSend:
			pe, err := s.producerOf(a.ProducerID)
			if err != nil {
				return err
			}
			rec, err := toProducerRecord(&a.Record)
			if err != nil {
				return err
			}
			producers[i], g.recs[i] = pe.producer, rec
		case ActorAssignedReceive:
			if owned[a.ConsumerID] {
				return stateErr("consumer %q used by two receive actors", a.ConsumerID)
			}
			owned[a.ConsumerID] = true
			ce, err := s.consumerOf(a.ConsumerID)
			if err != nil {
				return err
			}
			consumers[i] = ce.consumer
		}
	}
	for id := range owned {
		s.consumers[id].owner = p.ConcurrencyID
	}
	barrier := make(chan struct{})
	var wg sync.WaitGroup
	for i := range p.Actors {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-barrier
			var r actorResult
			a := &p.Actors[i]
			switch a.Kind {
			case ActorProducerSend:
				d, err := producers[i].TrySend(g.recs[i])
				if err != nil {
					r.rejectCode = normalize(err, familyProducer)
				} else {
					<-d.Done()
					r.outcome = d.Outcome()
				}
			case ActorAssignedReceive:
				r.records, r.err = receiveFirst(consumers[i], a.TimeoutMs)
			}
			r.finished = true
			g.mu.Lock()
			g.result[i] = r
			g.mu.Unlock()
		}()
	}
	go func() { wg.Wait(); close(g.done) }()
	s.group = g
	close(barrier)
	return s.emit(ConcurrentActorsStarted{ConcurrencyID: p.ConcurrencyID, ActorIDs: ids})
}

func (s *Session) doJoinActors(p *JoinConcurrentActors) error {
	g := s.group
	if g == nil || g.id != p.ConcurrencyID {
		return stateErr("join_concurrent_actors %q: no such active group", p.ConcurrencyID)
	}
	if !g.wait(time.Duration(p.TimeoutMs) * time.Millisecond) {
		return fatalf("adapter_state", "concurrent actors %q did not all finish within %dms", g.id, p.TimeoutMs)
	}
	s.group = nil
	for _, c := range s.consumers {
		if c.owner == g.id {
			c.owner = ""
		}
	}
	g.mu.Lock()
	results := append([]actorResult(nil), g.result...)
	g.mu.Unlock()
	ids := make([]ID, len(g.actors))
	for i, a := range g.actors {
		ids[i] = a.ActorID
		r := results[i]
		if !r.finished {
			return fatalf("adapter_state", "actor %q left no result", a.ActorID)
		}
		op := a.OperationID
		switch a.Kind {
		case ActorProducerSend:
			if r.rejectCode != "" {
				if err := s.emit(OperationRejected{OperationID: op, Code: r.rejectCode}); err != nil {
					return err
				}
			} else {
				if err := s.emit(OperationAccepted{OperationID: op}); err != nil {
					return err
				}
				if err := s.emit(terminalEvent(op, r.outcome)); err != nil {
					return err
				}
			}
		case ActorAssignedReceive:
			op = a.ReceiveID
			if r.err != nil {
				return r.err
			}
			if err := s.emit(ReceiveCompleted{ReceiveID: a.ReceiveID, Records: r.records}); err != nil {
				return err
			}
		}
		if err := s.emit(ConcurrentActorCompleted{ConcurrencyID: g.id, ActorID: a.ActorID, OperationID: op}); err != nil {
			return err
		}
	}
	return s.emit(ConcurrentActorsCompleted{ConcurrencyID: g.id, ActorIDs: ids})
}
