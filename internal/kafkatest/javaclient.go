package kafkatest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// JavaClientKnows reports whether the release's Java clients define the
// configuration name config (a string constant of a *Config class in
// kafka-clients, e.g. partitioner.rack.aware: KIP-1123, not in 3.x).
// Interop tests compare gregor with Apache's client, whose tools run from
// the cluster's release, only where that client has the feature.
func (c *Cluster) JavaClientKnows(config string) (bool, error) {
	jars, err := filepath.Glob(filepath.Join(c.libDir, "kafka-clients-*.jar"))
	if err != nil || len(jars) == 0 {
		return false, fmt.Errorf("kafkatest: no kafka-clients jar in %s (%v)", c.libDir, err)
	}
	zr, err := zip.OpenReader(jars[0])
	if err != nil {
		return false, fmt.Errorf("kafkatest: %s: %w", jars[0], err)
	}
	defer zr.Close()
	want := []byte(config)
	for _, f := range zr.File {
		if !strings.HasPrefix(f.Name, "org/apache/kafka/clients/") || !strings.HasSuffix(f.Name, "Config.class") {
			continue
		}
		r, err := f.Open()
		if err != nil {
			return false, fmt.Errorf("kafkatest: %s in %s: %w", f.Name, jars[0], err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return false, fmt.Errorf("kafkatest: %s in %s: %w", f.Name, jars[0], err)
		}
		if bytes.Contains(b, want) {
			return true, nil
		}
	}
	return false, nil
}
