package runner

import (
	"fmt"
	"sort"
	"time"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/testlab/faultproxy"
	"github.com/gregor-kafka/gregor/testlab/scenario"
)

// startProxies puts a fault proxy in front of every broker of c for a
// scenario with environment.proxied and returns hello's endpoints.
func (r *run) startProxies(c *kafkatest.Cluster, listener kafkatest.Listener) ([]string, error) {
	if listener != kafkatest.Plaintext {
		return nil, fmt.Errorf("proxied needs plaintext security, not %s", listener)
	}
	set, err := faultproxy.StartSet(c, faultproxy.Options{ListenWait: 2 * time.Minute})
	if err != nil {
		return nil, err
	}
	r.proxies, r.faults = set, map[string]*faultproxy.Group{}
	return set.Bootstrap(), nil
}

// toFault converts a scenario's fault spec.
func toFault(s *scenario.FaultSpec) (faultproxy.Fault, error) {
	if s == nil {
		return faultproxy.Fault{}, fmt.Errorf("fault step without a fault")
	}
	f := faultproxy.Fault{Kind: faultproxy.Kind(s.Kind), API: faultproxy.AnyAPI, Bytes: s.Bytes,
		Delay: time.Duration(s.DelayMillis) * time.Millisecond, Every: s.Every}
	switch s.Dir {
	case "":
	case "to_broker":
		f.Dir = faultproxy.ToBroker
	case "to_client":
		f.Dir = faultproxy.ToClient
	default:
		return f, fmt.Errorf("fault dir %q", s.Dir)
	}
	if s.API != nil {
		f.API = *s.API
	}
	return f, nil
}

// faultStep applies a named fault (fault) or removes it (unfault); the
// proxies' record of it becomes a fact.
func (r *run) faultStep(a *scenario.EnvAction) error {
	if r.proxies == nil {
		return fmt.Errorf("%s needs environment.proxied", a.Action)
	}
	if a.Name == "" {
		return fmt.Errorf("%s without a name", a.Action)
	}
	if a.Action == "fault" {
		if _, dup := r.faults[a.Name]; dup {
			return fmt.Errorf("fault %s applied twice", a.Name)
		}
		f, err := toFault(a.Fault)
		if err != nil {
			return err
		}
		var ids []int32
		if a.Broker != 0 {
			ids = []int32{a.Broker}
		}
		g, err := r.proxies.Apply(f, ids...)
		if err != nil {
			return err
		}
		r.faults[a.Name] = g
		r.fact("", "fault "+a.Name+" applied", f.String(), true)
		return nil
	}
	g, ok := r.faults[a.Name]
	if !ok {
		return fmt.Errorf("unfault %s: no such fault applied", a.Name)
	}
	delete(r.faults, a.Name)
	recs, err := g.Remove()
	if err != nil {
		return err
	}
	fired, conns, frames := 0, 0, 0
	for _, rec := range recs {
		fired, conns, frames = fired+rec.Fired, conns+rec.Conns, frames+rec.Frames
	}
	r.fact("", "fault "+a.Name+" removed", fmt.Sprintf("fired %d times (%d connections, %d frames)", fired, conns, frames), true)
	return nil
}

// closeProxies closes the proxies, puts their records in the evidence and
// returns a reason when a fault was never removed or a proxy stayed open.
func (r *run) closeProxies() string {
	if r.proxies == nil {
		return ""
	}
	var open []string
	for name, g := range r.faults {
		open = append(open, name)
		_, _ = g.Remove()
	}
	sort.Strings(open)
	err := r.proxies.Close()
	r.ev.Faults = r.proxies.Records()
	r.proxies = nil
	switch {
	case len(open) > 0:
		return fmt.Sprintf("faults applied but never removed: %v", open)
	case err != nil:
		return "fault proxies: " + err.Error()
	}
	return ""
}
