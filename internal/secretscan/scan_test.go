package secretscan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// EnvExtra lists more files or directories to scan, separated by the OS
// path list separator: captured `go test -v` and `make run` output (make
// secret-scan sets it).
const EnvExtra = "GREGOR_SECRET_SCAN"

func TestScanFindsPlanted(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "out.log"), []byte("x "+kafkatest.AlicePassword+" y"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "server.properties"), []byte(kafkatest.AlicePassword), 0o644)) // an input: skipped
	must(os.WriteFile(filepath.Join(dir, "clean.log"), []byte("nothing"), 0o644))
	hits, files, err := Scan([]string{dir}, []Secret{{"alice", []byte(kafkatest.AlicePassword)}})
	if err != nil || files != 2 || len(hits) != 1 || filepath.Base(hits[0].Path) != "out.log" {
		t.Fatalf("hits %+v in %d files, err %v", hits, files, err)
	}
}

// TestNoSecretsInOutput scans the shared test bed's directory (broker
// logs, tool output; not its input files), testlab/evidence and the files
// in $GREGOR_SECRET_SCAN for the test users' passwords, unsecured JWS
// tokens and the private keys of the bed's certificates: zero hits.
func TestNoSecretsInOutput(t *testing.T) {
	cl := kafkatest.Shared(t)
	secrets, err := BedSecrets(cl.State())
	if err != nil || len(secrets) != 6 {
		t.Fatalf("reading the bed's secrets: %d secrets, %v", len(secrets), err)
	}
	roots := []string{cl.Dir(), filepath.Join("..", "..", "testlab", "evidence")}
	if extra := os.Getenv(EnvExtra); extra != "" {
		roots = append(roots, filepath.SplitList(extra)...)
	}
	hits, files, err := Scan(roots, secrets)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("scanned %d files under %s", files, strings.Join(roots, ", "))
	for _, h := range hits {
		t.Errorf("%s found in %s", h.Secret, h.Path)
	}
}
