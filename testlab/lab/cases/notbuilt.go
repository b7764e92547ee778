package cases

import "context"

// The cases below need the classic group consumer (consumer.NewGroup) or the
// transactional producer (txn/), which are being built elsewhere. Each is
// registered so that the lab's evidence honestly says failed until it exists;
// its file then replaces its line here.
func init() {
	for _, c := range []struct {
		name  string
		order int
		needs string
	}{
		{"transactionVisibility", 2, "the transactional producer"},
		{"eosOffsets", 3, "the group consumer/transactional producer"},
		{"offsetReplay", 4, "the group consumer"},
		{"cooperativeRebalance", 5, "the group consumer"},
		{"producerFencing", 7, "the transactional producer"},
	} {
		register(Case{Name: c.name, Order: c.order, Run: func(context.Context, *Env) error {
			return &NotBuilt{Needs: c.needs}
		}})
	}
}
