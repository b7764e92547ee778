package main

import (
	"fmt"
	"regexp"

	"github.com/gregor-kafka/gregor/testlab/scenario"
)

// selectScenarios loads the scenarios of dir and keeps those whose id matches
// filter (all when filter is empty). A bad regexp or a filter that matches no
// scenario id is an error, found before any cluster is started.
func selectScenarios(dir, filter string) ([]*scenario.Scenario, error) {
	scs, err := scenario.Load(dir)
	if err != nil {
		return nil, err
	}
	if filter == "" {
		return scs, nil
	}
	re, err := regexp.Compile(filter)
	if err != nil {
		return nil, fmt.Errorf("-run: %v", err)
	}
	var keep []*scenario.Scenario
	for _, s := range scs {
		if re.MatchString(s.ID) {
			keep = append(keep, s)
		}
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("-run %q matches no scenario id in %s (%d scenarios)", filter, dir, len(scs))
	}
	return keep, nil
}

// plural returns "1 scenario" or "n scenarios".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
