package kafkatest

import (
	"archive/zip"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// jarSet is what the bed needs to know of a release's jars: the
// classpath and where Kafka's command-line tools live.
type jarSet struct {
	classpath string
	// tools maps a tool's simple class name (ConfigCommand) to its full
	// names in these jars (kafka.admin.ConfigCommand on 4.0 and earlier,
	// org.apache.kafka.tools.ConfigCommand on 4.1+).
	tools map[string][]string
}

// loadJars reads lib: every jar goes on the classpath except the SLF4J
// binding to reload4j that Kafka 3.x depends on (slf4j-reload4j), which
// would otherwise win over the bed's log4j2 binding (log4j-slf4j-impl,
// from pom.xml) and leave the nodes without server.log. The tool index
// lists the classes named *Command, *Tool or Console* in Kafka's own jars.
func loadJars(lib string) (jarSet, error) {
	ents, err := os.ReadDir(lib)
	if err != nil {
		return jarSet{}, fmt.Errorf("kafkatest: jar directory: %w", err)
	}
	hasLog4j2Binding := false
	for _, e := range ents {
		hasLog4j2Binding = hasLog4j2Binding || strings.HasPrefix(e.Name(), "log4j-slf4j-impl-")
	}
	js := jarSet{tools: map[string][]string{}}
	var cp []string
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".jar") || hasLog4j2Binding && strings.HasPrefix(name, "slf4j-reload4j-") {
			continue
		}
		cp = append(cp, filepath.Join(lib, name))
		if strings.HasPrefix(name, "kafka") {
			if err := indexTools(filepath.Join(lib, name), js.tools); err != nil {
				return jarSet{}, err
			}
		}
	}
	sort.Strings(cp)
	js.classpath = strings.Join(cp, string(os.PathListSeparator))
	return js, nil
}

// indexTools adds the jar's top-level *Command, *Tool and Console* classes
// (ConsoleConsumer: kafka.tools on 3.x, org.apache.kafka.tools.consumer on
// 4.x) to tools (simple name -> full class names).
func indexTools(jar string, tools map[string][]string) error {
	zr, err := zip.OpenReader(jar)
	if err != nil {
		return fmt.Errorf("kafkatest: %s: %w", jar, err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		base := path.Base(f.Name)
		if !strings.HasSuffix(base, ".class") || strings.Contains(base, "$") {
			continue
		}
		simple := strings.TrimSuffix(base, ".class")
		if !strings.HasSuffix(simple, "Command") && !strings.HasSuffix(simple, "Tool") && !strings.HasPrefix(simple, "Console") {
			continue
		}
		full := strings.ReplaceAll(strings.TrimSuffix(f.Name, ".class"), "/", ".")
		tools[simple] = append(tools[simple], full)
	}
	return nil
}

// toolClass returns the main class to run for mainClass in these jars:
// mainClass itself when present (or when no class has its simple name),
// else the class of the same simple name, one in org.apache.kafka.tools
// first (callers name the 4.4 class; 3.x and 4.0 have e.g. ConfigCommand
// in kafka.admin).
func (js jarSet) toolClass(mainClass string) string {
	simple := mainClass[strings.LastIndexByte(mainClass, '.')+1:]
	found := js.tools[simple]
	if len(found) == 0 || slices.Contains(found, mainClass) {
		return mainClass
	}
	for _, f := range found {
		if strings.HasPrefix(f, "org.apache.kafka.tools.") {
			return f
		}
	}
	return found[0]
}
