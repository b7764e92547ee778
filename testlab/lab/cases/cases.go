package cases

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
)

// Env is what a case gets: its subtest, the lab's cluster and a Bed (franz-go
// observer clients and helpers) on it.
type Env struct {
	T       *testing.T
	Cluster *kafkatest.Cluster
	Bed     *labtest.Bed
}

// Case is one lab case. Run returns nil when every promise of the case held,
// or an error saying which did not.
type Case struct {
	Name  string
	Order int
	Run   func(ctx context.Context, e *Env) error
}

var registry []Case

// register adds c; names and orders must be unique.
func register(c Case) {
	for _, o := range registry {
		if o.Name == c.Name || o.Order == c.Order {
			panic(fmt.Sprintf("cases: %s registered twice (or order %d)", c.Name, c.Order))
		}
	}
	registry = append(registry, c)
	slices.SortFunc(registry, func(a, b Case) int { return a.Order - b.Order })
}

// All returns the registered cases in the lab's order.
func All() []Case { return slices.Clone(registry) }

// Names returns the registered case names in the lab's order.
func Names() []string {
	var out []string
	for _, c := range registry {
		out = append(out, c.Name)
	}
	return out
}

// NotBuilt is the error of a case whose client feature does not exist yet.
type NotBuilt struct {
	// Needs names the missing feature.
	Needs string
}

// Error returns "not built: needs <Needs>".
func (e *NotBuilt) Error() string { return "not built: needs " + e.Needs }

// Observation returns the case's observation line for err.
func Observation(name string, err error) string {
	if err == nil {
		return "gregor-lab " + name + "=PASS"
	}
	return fmt.Sprintf("gregor-lab %s=FAIL (%v)", name, err)
}
