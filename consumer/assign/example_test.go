package assign_test

import (
	"fmt"
	"log"

	"github.com/gregor-kafka/gregor/consumer/assign"
)

// Example computes the assignment a group leader sends in SyncGroup: two
// members subscribed to a topic with five partitions, under Java's
// "range" assignor (the first member gets the extra partition) and
// "cooperative-sticky".
func Example() {
	members := []assign.Member{
		{MemberID: "consumer-a", Topics: []string{"orders"}, Generation: -1},
		{MemberID: "consumer-b", Topics: []string{"orders"}, Generation: -1},
	}
	topics := map[string][]assign.Partition{
		"orders": {{ID: 0}, {ID: 1}, {ID: 2}, {ID: 3}, {ID: 4}},
	}
	for _, name := range []string{"range", "cooperative-sticky"} {
		a, ok := assign.ByName(name)
		if !ok {
			log.Fatalf("no assignor %q", name)
		}
		out, err := a.Assign(members, topics)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(a.Name(), out["consumer-a"], out["consumer-b"])
	}
	// Output:
	// range [{orders [0 1 2]}] [{orders [3 4]}]
	// cooperative-sticky [{orders [0 2 4]}] [{orders [1 3]}]
}
