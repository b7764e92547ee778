package kafkatest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"time"
)

// javaRuntime is the JDK the test bed runs Kafka with.
type javaRuntime struct {
	Path    string // absolute path of the java binary
	Version int    // feature release, e.g. 17
}

var javaVersionRE = regexp.MustCompile(`version "(\d+)(?:\.(\d+))?`)

// findJava locates java ($JAVA_HOME/bin/java, else PATH) and checks that it is
// at least 17, the minimum for Kafka 4.x brokers.
func findJava(ctx context.Context) (javaRuntime, error) {
	path := ""
	if h := os.Getenv("JAVA_HOME"); h != "" {
		p := filepath.Join(h, "bin", "java")
		if _, err := os.Stat(p); err == nil {
			path = p
		}
	}
	if path == "" {
		p, err := exec.LookPath("java")
		if err != nil {
			return javaRuntime{}, classErrorf(ErrNoJDK, "kafkatest: no JDK: java is not on PATH and JAVA_HOME is unset (install JDK 17+, e.g. apt-get install -y openjdk-17-jdk-headless)")
		}
		path = p
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "-version").CombinedOutput()
	if err != nil {
		return javaRuntime{}, classErrorf(ErrNoJDK, "kafkatest: %s -version: %v: %s", path, err, out)
	}
	m := javaVersionRE.FindSubmatch(out)
	if m == nil {
		return javaRuntime{}, classErrorf(ErrNoJDK, "kafkatest: cannot parse java version from %q", out)
	}
	v, _ := strconv.Atoi(string(m[1]))
	if v == 1 && len(m[2]) > 0 { // "1.8.0_x"
		v, _ = strconv.Atoi(string(m[2]))
	}
	if v < 17 {
		return javaRuntime{}, classErrorf(ErrNoJDK, "kafkatest: %s is Java %d; Kafka 4.4 needs Java 17 or newer", path, v)
	}
	return javaRuntime{Path: path, Version: v}, nil
}

// commonFlags are JVM flags every Kafka JVM gets.
func (j javaRuntime) commonFlags() []string {
	f := []string{"-XX:-UsePerfData"}
	if j.Version >= 24 {
		// silences restricted-method warnings from zstd-jni, snappy-java, lz4-java
		f = append(f, "--enable-native-access=ALL-UNNAMED")
	}
	return f
}
