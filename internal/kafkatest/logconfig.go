package kafkatest

import (
	"os"
	"path/filepath"
)

// serverLog4j sends everything a node logs to <kafka.logs.dir>/server.log.
const serverLog4j = `status = warn
name = gregor-kafkatest-server
property.logDir = ${sys:kafka.logs.dir:-.}
property.pattern = [%d] %p %m (%c)%n
appender.file.type = File
appender.file.name = FILE
appender.file.fileName = ${logDir}/server.log
appender.file.append = true
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = ${pattern}
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = FILE
logger.request.name = kafka.request.logger
logger.request.level = WARN
logger.reqchan.name = kafka.network.RequestChannel$
logger.reqchan.level = WARN
logger.authz.name = kafka.authorizer.logger
logger.authz.level = INFO
`

// toolsLog4j sends CLI warnings to stderr, as Kafka's tools-log4j2.yaml does.
const toolsLog4j = `status = warn
appender.err.type = Console
appender.err.name = STDERR
appender.err.target = SYSTEM_ERR
appender.err.layout.type = PatternLayout
appender.err.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.err.ref = STDERR
`

// writeLogConfigs writes both log4j2 configurations into dir.
func writeLogConfigs(dir string) (server, tools string, err error) {
	server = filepath.Join(dir, "log4j2-server.properties")
	tools = filepath.Join(dir, "log4j2-tools.properties")
	if err := os.WriteFile(server, []byte(serverLog4j), 0o644); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(tools, []byte(toolsLog4j), 0o644); err != nil {
		return "", "", err
	}
	return server, tools, nil
}
