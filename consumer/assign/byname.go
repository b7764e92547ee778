package assign

// ByName returns the assignor with the given protocol name ("range",
// "roundrobin", "sticky", "cooperative-sticky"), and false for any other
// name.
func ByName(name string) (Assignor, bool) {
	switch name {
	case "range":
		return Range(), true
	case "roundrobin":
		return RoundRobin(), true
	case "sticky":
		return Sticky(), true
	case "cooperative-sticky":
		return CooperativeSticky(), true
	}
	return nil, false
}
