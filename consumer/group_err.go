package consumer

// Err returns the error that stopped the group's membership for good (the
// one Receive returns: e.g. wire.ErrFencedInstanceID, a group authorization
// failure, or gregor.ErrUnsupportedFeature when the coordinator lacks the
// configured protocol), nil while the membership runs. It does not wait.
func (g *Group) Err() error { return g.fatalErr() }
