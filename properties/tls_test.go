package properties

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// selfSigned returns a PEM certificate and its PEM (PKCS#8) key.
func selfSigned(t *testing.T) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "gregor test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder})
}

func TestKeystores(t *testing.T) {
	certPEM, keyPEM := selfSigned(t)
	dir := t.TempDir()
	both := filepath.Join(dir, "client.pem")
	if err := os.WriteFile(both, append(append([]byte{}, certPEM...), keyPEM...), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]map[string]string{
		"location": {"ssl.keystore.type": "PEM", "ssl.keystore.location": both},
		"inline":   {"ssl.keystore.certificate.chain": string(certPEM), "ssl.keystore.key": string(keyPEM)},
	} {
		p["bootstrap.servers"], p["security.protocol"], p["ssl.truststore.certificates"] = "h:1", "SSL", string(certPEM)
		cfg, err := Client(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if cfg.TLS == nil || len(cfg.TLS.Certificates) != 1 || cfg.TLS.RootCAs == nil {
			t.Fatalf("%s: TLS %+v", name, cfg.TLS)
		}
	}
	_, err := Client(map[string]string{"bootstrap.servers": "h:1", "security.protocol": "SSL",
		"ssl.keystore.certificate.chain": string(certPEM), "ssl.keystore.key": "-----BEGIN PRIVATE KEY-----\nc2VjcmV0\n-----END PRIVATE KEY-----\n"})
	if !errors.Is(err, ErrInvalidValue) || strings.Contains(err.Error(), "c2VjcmV0") {
		t.Fatalf("bad key: %v", err)
	}
}

// TestIntegrationEndpointIdentification connects to the SSL listener under
// a host name its certificate does not carry: refused by default, accepted
// with ssl.endpoint.identification.algorithm empty, and still refused then
// when the chain does not verify against the truststore.
func TestIntegrationEndpointIdentification(t *testing.T) {
	cluster := kafkatest.Shared(t)
	addr := cluster.Bootstrap(kafkatest.SSL)[0]
	_, port, _ := net.SplitHostPort(addr)
	otherCA, _ := selfSigned(t)
	connect := func(p map[string]string) error {
		p["bootstrap.servers"], p["security.protocol"] = "kafka.invalid:"+port, "SSL"
		cfg, err := Client(p)
		if err != nil {
			t.Fatal(err)
		}
		// The name does not resolve: dial the listener's address instead.
		cfg.Dialer = func(ctx context.Context, network, a string) (net.Conn, error) {
			if strings.HasPrefix(a, "kafka.invalid:") {
				a = addr
			}
			var d net.Dialer
			return d.DialContext(ctx, network, a)
		}
		cl, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close(context.Background())
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		return cl.Ready(ctx)
	}
	ca := cluster.CAFile()
	if err := connect(map[string]string{"ssl.truststore.type": "PEM", "ssl.truststore.location": ca}); err == nil || !strings.Contains(err.Error(), "kafka.invalid") {
		t.Fatalf("host name check: got %v, want a certificate error naming kafka.invalid", err)
	}
	if err := connect(map[string]string{"ssl.truststore.location": ca, "ssl.endpoint.identification.algorithm": ""}); err != nil {
		t.Fatalf("without the host name check: %v", err)
	}
	if err := connect(map[string]string{"ssl.truststore.certificates": string(otherCA), "ssl.endpoint.identification.algorithm": ""}); err == nil {
		t.Fatal("a chain that does not verify was accepted")
	}
}
