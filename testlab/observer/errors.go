package observer

import "github.com/twmb/franz-go/pkg/kerr"

var kerrUnknownTopic = kerr.UnknownTopicOrPartition
