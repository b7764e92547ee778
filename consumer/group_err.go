package consumer

// Err returns the error that stopped the group's membership for good (the
// one Receive returns: e.g. wire.ErrFencedInstanceID, a group authorization
// failure, or gregor.ErrUnsupportedFeature when the coordinator lacks the
// configured protocol), nil while the membership runs. It does not wait.
// Once it is not nil the group owns no partition: their Lost event was
// emitted before.
func (g *Group) Err() error { return g.fatalErr() }
