package kafkatest

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// KafkaVersion is the Apache Kafka release the test bed runs by default
// (pom.xml's); Version returns the one selected by KAFKA_VERSION.
const KafkaVersion = "4.4.0"

//go:embed pom.xml
var pomXML []byte

// EnvCacheDir overrides the parent directory of the jar cache (default
// ${XDG_CACHE_HOME:-$HOME/.cache}/gregor).
const EnvCacheDir = "GREGOR_KAFKA_CACHE"

// pomFor returns pom.xml for Kafka release v: the embedded file, with its
// kafka.version replaced when v is not KafkaVersion (so the default's
// cache directory, named after the file's hash, never changes).
func pomFor(v string) []byte {
	if v == KafkaVersion {
		return pomXML
	}
	return bytes.Replace(pomXML, []byte("<kafka.version>"+KafkaVersion+"</kafka.version>"), []byte("<kafka.version>"+v+"</kafka.version>"), 1)
}

// JarDir returns the directory that holds (or will hold) the jars of the
// Kafka release Version selects: <cache>/kafka-<first 16 hex of
// sha256(pom.xml for that release)>/lib.
func JarDir() (string, error) { return jarDirFor(Version()) }

// jarDirFor is JarDir for release version.
func jarDirFor(version string) (string, error) {
	base := os.Getenv(EnvCacheDir)
	if base == "" {
		c := os.Getenv("XDG_CACHE_HOME")
		if c == "" {
			h, err := os.UserHomeDir()
			if err != nil {
				return "", fmt.Errorf("kafkatest: no cache directory: %w", err)
			}
			c = filepath.Join(h, ".cache")
		}
		base = filepath.Join(c, "gregor")
	}
	sum := sha256.Sum256(pomFor(version))
	return filepath.Join(base, "kafka-"+hex.EncodeToString(sum[:8]), "lib"), nil
}

// EnsureJars returns the jar directory of the release Version selects, downloading the jars with Maven
// (`mvn -q dependency:copy-dependencies`) when the cache lacks them. The
// download goes to a temporary sibling directory that is renamed into place,
// so a crash never leaves a half-filled cache; concurrent callers may both
// download, and the loser discards its copy. log may be nil.
func EnsureJars(ctx context.Context, log func(string, ...any)) (string, error) {
	return ensureJars(ctx, Version(), log)
}

// ensureJars is EnsureJars for release version.
func ensureJars(ctx context.Context, version string, log func(string, ...any)) (string, error) {
	if log == nil {
		log = func(string, ...any) {}
	}
	if _, err := parseRelease(version); err != nil {
		return "", classErrorf(ErrNoJars, "%v", err)
	}
	dir, err := jarDirFor(version)
	if err != nil {
		return "", err
	}
	marker := filepath.Join(dir, "kafka_2.13-"+version+".jar")
	if _, err := os.Stat(marker); err == nil {
		return dir, nil
	}
	mvn, err := exec.LookPath("mvn")
	if err != nil {
		return "", classErrorf(ErrNoJars, "kafkatest: Kafka jars are not cached in %s and Maven (mvn) is not on PATH: install maven (apt-get install -y maven)", dir)
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("kafkatest: jar cache: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, "download-")
	if err != nil {
		return "", fmt.Errorf("kafkatest: jar cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	pom := filepath.Join(tmp, "pom.xml")
	if err := os.WriteFile(pom, pomFor(version), 0o644); err != nil {
		return "", err
	}
	lib := filepath.Join(tmp, "lib")
	log("kafkatest: downloading Kafka %s jars with Maven into %s", version, dir)
	start := time.Now()
	cmd := exec.CommandContext(ctx, mvn, "-q", "-B", "-f", pom, "dependency:copy-dependencies", "-DoutputDirectory="+lib)
	cmd.Dir = tmp
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", classErrorf(ErrNoJars, "kafkatest: mvn dependency:copy-dependencies failed (is Maven Central reachable?): %v\n%s", err, tail(out, 4000))
	}
	if _, err := os.Stat(filepath.Join(lib, "kafka_2.13-"+version+".jar")); err != nil {
		return "", classErrorf(ErrNoJars, "kafkatest: Maven finished but kafka_2.13-%s.jar is missing from %s", version, lib)
	}
	if err := os.Rename(lib, dir); err != nil {
		if _, serr := os.Stat(marker); serr == nil {
			return dir, nil // another process won the race
		}
		return "", fmt.Errorf("kafkatest: jar cache: %w", err)
	}
	log("kafkatest: jars downloaded in %s", time.Since(start).Round(time.Millisecond))
	return dir, nil
}

// tail returns at most the last n bytes of b as a string.
func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
