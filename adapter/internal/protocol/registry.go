package protocol

import (
	"context"
	"crypto/tls"
	"time"

	"github.com/gregor-kafka/gregor/client"
)

// helloState is what hello resolved: endpoints and security material.
type helloState struct {
	endpoints []string
	tls       *tls.Config
	sasl      *client.SASL
}

type clientEntry struct {
	client KafkaClient
}

type producerEntry struct {
	clientID ID
	producer Producer
}

type consumerEntry struct {
	clientID ID
	consumer AssignedConsumer
	// owner is the concurrency id of the actor group that owns the
	// consumer until join, or "".
	owner ID
}

func (s *Session) needHello() error {
	if s.hello == nil {
		return stateErr("command before hello")
	}
	return nil
}

func (s *Session) clientOf(id ID) (*clientEntry, error) {
	if err := s.needHello(); err != nil {
		return nil, err
	}
	c, ok := s.clients[id]
	if !ok {
		return nil, stateErr("unknown client %q", id)
	}
	return c, nil
}

func (s *Session) producerOf(id ID) (*producerEntry, error) {
	if err := s.needHello(); err != nil {
		return nil, err
	}
	p, ok := s.producers[id]
	if !ok {
		return nil, stateErr("unknown producer %q", id)
	}
	return p, nil
}

// consumerOf returns a consumer the main loop may use (not owned by an
// actor group).
func (s *Session) consumerOf(id ID) (*consumerEntry, error) {
	if err := s.needHello(); err != nil {
		return nil, err
	}
	c, ok := s.consumers[id]
	if !ok {
		return nil, stateErr("unknown consumer %q", id)
	}
	if c.owner != "" {
		return nil, stateErr("consumer %q is owned by concurrent actors %q until join", id, c.owner)
	}
	return c, nil
}

func (s *Session) childrenOf(id ID) int {
	n := 0
	for _, p := range s.producers {
		if p.clientID == id {
			n++
		}
	}
	for _, c := range s.consumers {
		if c.clientID == id {
			n++
		}
	}
	for _, g := range s.groups {
		if g.clientID == id && !g.shut {
			n++
		}
	}
	for _, p := range s.txns {
		if p.clientID == id {
			n++
		}
	}
	return n + s.shareChildrenOf(id)
}

// openGroups counts group consumers neither closed nor shut down.
func (s *Session) openGroups() int {
	n := 0
	for _, g := range s.groups {
		if !g.shut {
			n++
		}
	}
	return n
}

func closeProducerQuietly(p Producer) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return p.Close(ctx)
}

// timeout returns a context bounded by ms milliseconds (the whole
// operation's deadline, §4).
func timeoutDur(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}

func timeout(ms uint64) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), time.Duration(ms)*time.Millisecond)
}
