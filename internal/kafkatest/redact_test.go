package kafkatest

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestRedact: the bed's passwords and any password=<value> are replaced.
func TestRedact(t *testing.T) {
	in := `--add-scram SCRAM-SHA-512=[name=alice,password=` + AlicePassword + `] password="x y" ` + AdminPassword
	got := redact(in)
	for _, secret := range []string{AlicePassword, AdminPassword, `"x y"`} {
		if strings.Contains(got, secret) {
			t.Fatalf("redact(%q) = %q still holds %q", in, got, secret)
		}
	}
	if !strings.Contains(got, "[name=alice,password=***]") {
		t.Fatalf("redact(%q) = %q", in, got)
	}
}

// TestFailingToolCarriesNoSecret: a StorageTool format that fails (its
// config file does not exist) with the SCRAM users on its command line
// returns an error, and output, that name the arguments but not the
// passwords (issue 32: a failed format copied them into the evidence).
func TestFailingToolCarriesNoSecret(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	java, err := findJava(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := EnsureJars(ctx, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	_, tools, err := writeLogConfigs(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{dir: dir, java: java, libDir: lib, toolsLog4j: tools}
	out, err := c.RunTool(ctx, "kafka.tools.StorageTool", "format", "--cluster-id", newKafkaUUID(),
		"--config", dir+"/missing/server.properties",
		"--add-scram", "SCRAM-SHA-256=[name="+AliceUser+",password="+AlicePassword+"]",
		"--add-scram", "SCRAM-SHA-512=[name="+AdminUser+",password="+AdminPassword+"]")
	if err == nil {
		t.Fatalf("format with a missing config succeeded: %s", out)
	}
	for _, s := range []string{err.Error(), out} {
		if strings.Contains(s, AlicePassword) || strings.Contains(s, AdminPassword) {
			t.Fatalf("a secret in the tool's error or output:\n%s", s)
		}
	}
	if !strings.Contains(err.Error(), "password=***") {
		t.Fatalf("error does not show the (redacted) arguments: %v", err)
	}
}
