package adapter

// dispatch runs one decoded command.
func (s *Session) dispatch(cmd *Command) error {
	if cmd.Payload == nil {
		return fatalf("adapter_unsupported", "command %q is not implemented by this adapter", cmd.Kind)
	}
	switch cmd.Kind {
	case "hello":
		return s.doHello(cmd.Payload.(*Hello))
	case "abort":
		if err := s.emit(Aborted{}); err != nil {
			return err
		}
		return errSessionEnd
	case "finish":
		return s.doFinish()
	}
	if err := s.needHello(); err != nil {
		return err
	}
	switch p := cmd.Payload.(type) {
	case *CreateClient:
		return s.doCreateClient(p.ClientID, nil)
	case *CreateConfiguredClient:
		return s.doCreateClient(p.ClientID, &p.Configuration)
	case *AwaitClientReady:
		return s.doAwaitReady(p)
	case *ObserveClientMetrics:
		return s.doMetrics(p)
	case *CreateProducer:
		return s.doCreateProducer(p)
	case *Send:
		return s.doSend(p)
	case *CancelProducerSend:
		return s.doCancelSend(p)
	case *SendBatch:
		return s.doSendBatch(p)
	case *Flush:
		return s.doFlush(p)
	case *CloseProducer:
		return s.doCloseProducer(p)
	case *StartConcurrentActors:
		return s.doStartActors(p)
	case *JoinConcurrentActors:
		return s.doJoinActors(p)
	case *CreateAssignedConsumer:
		return s.doCreateConsumer(p)
	case *AssignBeginning:
		return s.doAssignBeginning(p)
	case *AssignBeginningBatch:
		return s.doAssignBeginningBatch(p)
	case *ControlAssignedConsumer:
		return s.doControl(p)
	case *Receive:
		return s.doReceive(p)
	case *CloseAssignedConsumer:
		return s.doCloseConsumer(p)
	case *CreateGroupConsumer:
		return s.doCreateGroupConsumer(p)
	case *GroupReceive:
		return s.doGroupReceive(p)
	case *ObserveGroupAssignments:
		return s.doObserveGroupAssignments(p)
	case *GroupReceiveSet:
		return s.doGroupReceiveSet(p)
	case *ControlGroupConsumer:
		return s.doControlGroupConsumer(p)
	case *ShutdownGroupConsumer:
		return s.doShutdownGroupConsumer(p)
	case *CloseGroupConsumer:
		return s.doCloseGroupConsumer(p)
	case *ShutdownClient:
		return s.doShutdownClient(p)
	case *CreateTransactionalProducer:
		return s.doCreateTxnProducer(p)
	case *ExecuteTransaction:
		return s.doExecuteTransaction(p)
	case *ExecuteTransactionalTransform:
		return s.doExecuteTransactionalTransform(p)
	case *FenceTransaction:
		return s.doFenceTransaction(p)
	case *CloseTransactionalProducer:
		return s.doCloseTxnProducer(p)
	}
	if handled, err := s.dispatchShare(cmd); handled {
		return err
	}
	return s.dispatchAdmin(cmd)
}

func (s *Session) doFinish() error {
	if err := s.needHello(); err != nil {
		return err
	}
	switch {
	case s.group != nil:
		return stateErr("finish with unjoined concurrent actors %q", s.group.id)
	case len(s.producers) > 0:
		return stateErr("finish with %d open producer(s)", len(s.producers))
	case len(s.txns) > 0:
		return stateErr("finish with %d open transactional producer(s)", len(s.txns))
	case len(s.consumers) > 0:
		return stateErr("finish with %d open consumer(s)", len(s.consumers))
	case s.openGroups() > 0:
		return stateErr("finish with %d open group consumer(s)", s.openGroups())
	case len(s.shares) > 0:
		return stateErr("finish with %d open share consumer(s)", len(s.shares))
	case len(s.clients) > 0:
		return stateErr("finish with %d live client(s)", len(s.clients))
	}
	if err := s.emit(Finished{}); err != nil {
		return err
	}
	return errSessionEnd
}

func unexpectedPayload(kind string) error {
	return fatalf("adapter_internal", "no handler for command %q", kind)
}
