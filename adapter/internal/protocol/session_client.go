package protocol

import (
	"crypto/tls"
	"crypto/x509"
	"time"

	"github.com/gregor-kafka/gregor/client"
)

// sessionCommands are the lifecycle and client rows of the command table
// (§4.1, §4.2).
var sessionCommands = []command{
	beforeHello(handledBy("hello", (*Session).doHello)),
	beforeHello(handledBy("abort", (*Session).doAbort)),
	handledBy("finish", (*Session).doFinish),
	handledBy("create_client", func(s *Session, p *CreateClient) error { return s.doCreateClient(p.ClientID, nil) }),
	handledBy("create_configured_client", func(s *Session, p *CreateConfiguredClient) error {
		return s.doCreateClient(p.ClientID, &p.Configuration)
	}),
	handledBy("await_client_ready", (*Session).doAwaitReady),
	handledBy("observe_client_metrics", (*Session).doMetrics),
	handledBy("shutdown_client", (*Session).doShutdownClient),
}

// readyTimeout bounds await_client_ready (the command has no timeout of its
// own; testctl repeats the probe).
const readyTimeout = 15 * time.Second

func (s *Session) doHello(h *Hello) error {
	if s.hello != nil {
		return stateErr("second hello")
	}
	st := &helloState{endpoints: h.BrokerEndpoints}
	sec := h.Security
	if sec.Kind == SecurityTLSCustom || sec.Kind == SecuritySASLTLS {
		path, err := s.env(sec.CAPEMEnvironment)
		if err != nil {
			return err
		}
		pem, rerr := s.ReadFile(path)
		if rerr != nil {
			return stateErr("reading CA PEM named by %s: %v", sec.CAPEMEnvironment, rerr)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return stateErr("no certificate in the CA PEM named by %s", sec.CAPEMEnvironment)
		}
		st.tls = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	if sec.Kind == SecuritySASLPlaintext || sec.Kind == SecuritySASLTLS {
		user, err := s.env(sec.UsernameEnvironment)
		if err != nil {
			return err
		}
		pass, err := s.env(sec.PasswordEnvironment)
		if err != nil {
			return err
		}
		mech := map[SASLMechanism]client.SASLMechanism{
			"plain": client.SASLPlain, "scram_sha256": client.SASLScramSHA256, "scram_sha512": client.SASLScramSHA512,
		}[sec.Mechanism]
		st.sasl = &client.SASL{Mechanism: mech, Username: user, Password: pass}
	}
	s.hello = st
	return s.emit(Ready{Descriptor: Descriptor{
		ID: AdapterID, Implementation: AdapterImplementation, Version: AdapterVersion,
		ProtocolVersion: ProtocolVersion, Capabilities: append([]string{}, Capabilities...),
	}})
}

// env reads the environment variable named by hello; its absence is an
// adapter failure (§2.1). The value is never logged.
func (s *Session) env(name string) (string, error) {
	v, ok := s.LookupEnv(name)
	if !ok {
		return "", stateErr("environment variable %q named by hello is not set", name)
	}
	return v, nil
}

func (s *Session) doCreateClient(id ID, pc *ProducerConfiguration) error {
	if _, dup := s.clients[id]; dup {
		return stateErr("duplicate client %q", id)
	}
	c, err := s.backend.NewClient(ClientConfig{
		ClientID: id, Endpoints: s.hello.endpoints, TLS: s.hello.tls, SASL: s.hello.sasl, Producer: pc,
	})
	if err != nil {
		return failed(err, familyAdmin)
	}
	s.clients[id] = &clientEntry{client: c}
	return s.emit(ClientCreated{ClientID: id})
}

func (s *Session) doAwaitReady(p *AwaitClientReady) error {
	c, err := s.clientOf(p.ClientID)
	if err != nil {
		return err
	}
	ctx, cancel := timeoutDur(readyTimeout)
	defer cancel()
	if err := c.client.Ready(ctx); err != nil {
		return failed(err, familyAdmin)
	}
	return s.emit(ClientReady{ClientID: p.ClientID})
}

func (s *Session) doMetrics(p *ObserveClientMetrics) error {
	c, err := s.clientOf(p.ClientID)
	if err != nil {
		return err
	}
	return s.emit(ClientMetricsObserved{
		ClientID: p.ClientID, OperationID: p.OperationID, Snapshot: SnapshotFrom(c.client.Metrics()),
	})
}

func (s *Session) doShutdownClient(p *ShutdownClient) error {
	c, err := s.clientOf(p.ClientID)
	if err != nil {
		return err
	}
	if n := s.childrenOf(p.ClientID); n > 0 {
		return stateErr("shutdown_client %q with %d open producer(s)/consumer(s)", p.ClientID, n)
	}
	delete(s.clients, p.ClientID)
	if err := c.client.Close(); err != nil {
		return failed(err, familyAdmin)
	}
	return s.emit(ClientShutdown{ClientID: p.ClientID})
}

func (s *Session) doAbort(*Abort) error {
	if err := s.emit(Aborted{}); err != nil {
		return err
	}
	return errSessionEnd
}

func (s *Session) doFinish(*Finish) error {
	switch {
	case s.group != nil:
		return stateErr("finish with unjoined concurrent actors %q", s.group.id)
	case len(s.producers) > 0:
		return stateErr("finish with %d open producer(s)", len(s.producers))
	case len(s.txns) > 0:
		return stateErr("finish with %d open transactional producer(s)", len(s.txns))
	case len(s.consumers) > 0:
		return stateErr("finish with %d open consumer(s)", len(s.consumers))
	case s.openGroups() > 0:
		return stateErr("finish with %d open group consumer(s)", s.openGroups())
	case len(s.shares) > 0:
		return stateErr("finish with %d open share consumer(s)", len(s.shares))
	case len(s.clients) > 0:
		return stateErr("finish with %d live client(s)", len(s.clients))
	}
	if err := s.emit(Finished{}); err != nil {
		return err
	}
	return errSessionEnd
}
