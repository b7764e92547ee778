package protocol

// dispatch runs one decoded command through its row of the command table.
func (s *Session) dispatch(cmd *Command) error {
	row, ok := commandTable[cmd.Kind]
	if !ok {
		return unexpectedPayload(cmd.Kind)
	}
	if cmd.Payload == nil || row.payload == nil {
		return fatalf("adapter_unsupported", "command %q is not implemented by this adapter", cmd.Kind)
	}
	if !row.beforeHello {
		if err := s.needHello(); err != nil {
			return err
		}
	}
	return row.run(s, cmd.Payload)
}
