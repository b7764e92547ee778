package kafkatest

import (
	"net"
	"syscall"
)

func netListen() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }

func portOf(l net.Listener) int { return l.Addr().(*net.TCPAddr).Port }

// toolProcAttr makes a CLI JVM die with the process that started it.
func toolProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
