package protocol

// The command table: every v34 command kind, each row naming its payload
// type and its handler. decode.go reads a row's payload and dispatch.go runs
// its handler; nothing else routes commands. Each feature family declares
// its rows beside its handlers (session_<core>.go or <family>_session.go, admin_handlers.go) and
// commandFamilies lists the families.

// command is one row: a command kind, the payload it decodes to and the
// session method that handles it.
type command struct {
	kind string
	// payload returns a new, empty payload; nil marks a kind this adapter
	// recognises but does not implement (answered with adapter_unsupported).
	payload func() any
	// run handles a decoded payload of this row's type.
	run func(s *Session, payload any) error
	// beforeHello marks the kinds accepted before hello (hello, abort).
	beforeHello bool
}

// handledBy returns the row of kind, whose payload is a *P handled by run.
func handledBy[P any](kind string, run func(*Session, *P) error) command {
	return command{
		kind:    kind,
		payload: func() any { return new(P) },
		run: func(s *Session, payload any) error {
			p, ok := payload.(*P)
			if !ok {
				return unexpectedPayload(kind)
			}
			return run(s, p)
		},
	}
}

// beforeHello marks row as accepted before hello.
func beforeHello(row command) command {
	row.beforeHello = true
	return row
}

// commandFamilies is every feature family's rows.
var commandFamilies = [][]command{
	sessionCommands, producerCommands, actorCommands, consumerCommands,
	groupCommands, txnCommands, shareCommands, adminCommands,
}

// commandTable is the command table by kind.
var commandTable = indexCommands(commandFamilies)

func indexCommands(families [][]command) map[string]command {
	table := map[string]command{}
	for _, rows := range families {
		for _, row := range rows {
			table[row.kind] = row
		}
	}
	return table
}

// unexpectedPayload reports a payload whose type does not fit its kind's
// row (the adapter's own bug).
func unexpectedPayload(kind string) error {
	return fatalf("adapter_internal", "no handler for command %q", kind)
}
