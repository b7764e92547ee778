package client

import "time"

// MetadataMaxAge returns the client's Config.MetadataMaxAge (defaulted):
// also how long a consumer reads a partition from the preferred read
// replica a leader named (KIP-392), as the Java client does with
// metadata.max.age.ms.
func (c *Client) MetadataMaxAge() time.Duration { return c.cfg.MetadataMaxAge }
