package secretscan

import (
	"bytes"
	"encoding/pem"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Hit is one secret found in one file.
type Hit struct {
	// Path is the file.
	Path string
	// Secret names the secret (never the secret itself).
	Secret string
}

// Secret is a byte string that must not appear in output, with a name to
// report it by.
type Secret struct {
	// Name names it in reports, e.g. "kafkatest.AdminPassword".
	Name string
	// Value is the secret's bytes.
	Value []byte
}

// UnsecuredJWSHeader is the base64url encoding of {"alg":"none"}, the first
// segment of every unsecured OAUTHBEARER token kafkatest.UnsecuredJWS makes.
const UnsecuredJWSHeader = "eyJhbGciOiJub25lIn0"

// KeySecrets reads the PEM files given and returns, for each PRIVATE KEY
// block, its first 48 base64 characters as a Secret: enough to identify
// the key, as it would appear in a leaked PEM.
func KeySecrets(files ...string) ([]Secret, error) {
	var out []Secret
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for {
			var blk *pem.Block
			blk, b = pem.Decode(b)
			if blk == nil {
				break
			}
			if !strings.Contains(blk.Type, "PRIVATE KEY") {
				continue
			}
			enc := pem.EncodeToMemory(&pem.Block{Type: blk.Type, Bytes: blk.Bytes})
			lines := bytes.Split(enc, []byte("\n"))
			if len(lines) > 1 && len(lines[1]) >= 48 {
				out = append(out, Secret{Name: "private key of " + filepath.Base(f), Value: lines[1][:48]})
			}
		}
	}
	return out, nil
}

// Skipped reports files that are the test bed's inputs, which hold secrets
// by design (broker properties with JAAS passwords, key stores, client
// properties) or are Kafka's data, not output.
func Skipped(path string, d fs.DirEntry) bool {
	name := d.Name()
	if d.IsDir() {
		return name == "data" || name == "metadata" // log segments of nodes
	}
	return strings.HasSuffix(name, ".properties") || strings.HasSuffix(name, ".pem") || strings.HasSuffix(name, ".jks")
}

// Scan walks roots (files or directories; missing ones are ignored) and
// returns every file, other than Skipped ones, that contains a secret.
func Scan(roots []string, secrets []Secret) ([]Hit, int, error) {
	var hits []Hit
	files := 0
	for _, root := range roots {
		if _, err := os.Stat(root); err != nil {
			continue
		}
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // vanished while walking (a test bed still running)
			}
			if path != root && Skipped(path, d) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return nil
			}
			files++
			for _, s := range secrets {
				if bytes.Contains(b, s.Value) {
					hits = append(hits, Hit{Path: path, Secret: s.Name})
				}
			}
			return nil
		})
		if err != nil {
			return hits, files, err
		}
	}
	return hits, files, nil
}
