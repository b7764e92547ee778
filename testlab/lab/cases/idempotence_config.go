package cases

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/producer"
)

func init() { register(Case{Name: "idempotenceConfig", Order: 8, Run: idempotenceConfig}) }

// idempotenceConfig (case 8): every producer setting that would weaken
// idempotence or acks=all is rejected by producer.New with an error that
// wraps producer.ErrConfig and names the setting; the strongest legal
// settings are accepted. acks=0 cannot be asked for: Config.Acks 0 is the
// zero value, documented as the default acks=all.
func idempotenceConfig(ctx context.Context, e *Env) error {
	cl, err := client.New(client.Config{Bootstrap: e.Bed.Boot})
	if err != nil {
		return err
	}
	defer cl.Close(context.Background())
	off := false
	on := true
	weak := []struct {
		what, names string
		cfg         producer.Config
	}{
		{"acks=1", "acks", producer.Config{Acks: 1}},
		{"acks=2", "acks", producer.Config{Acks: 2}},
		{"acks=-2", "acks", producer.Config{Acks: -2}},
		{"enable.idempotence=false", "idempotence", producer.Config{Idempotence: &off}},
		{"max.in.flight.requests.per.connection=6", "MaxInFlightPerBroker", producer.Config{MaxInFlightPerBroker: 6}},
		{"max.in.flight.requests.per.connection=100", "MaxInFlightPerBroker", producer.Config{MaxInFlightPerBroker: 100}},
	}
	var problems []string
	for _, w := range weak {
		p, err := producer.New(cl, w.cfg)
		switch {
		case err == nil:
			p.Close(ctx)
			problems = append(problems, w.what+" accepted")
		case !errors.Is(err, producer.ErrConfig):
			problems = append(problems, fmt.Sprintf("%s: error %v does not wrap ErrConfig", w.what, err))
		case !strings.Contains(err.Error(), w.names):
			problems = append(problems, fmt.Sprintf("%s: error %q does not name %s", w.what, err, w.names))
		default:
			e.T.Logf("%s rejected: %v", w.what, err)
		}
	}
	for _, ok := range []producer.Config{{}, {Acks: -1, Idempotence: &on, MaxInFlightPerBroker: 5}} {
		p, err := producer.New(cl, ok)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%+v rejected: %v", ok, err))
			continue
		}
		if err := p.Close(ctx); err != nil {
			problems = append(problems, fmt.Sprintf("closing a producer: %v", err))
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}
