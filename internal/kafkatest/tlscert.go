package kafkatest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// writeSelfSignedCert generates a self-signed certificate (its own CA) for
// 127.0.0.1 and localhost and writes two files into dir:
//   - keystore.pem: an unencrypted PKCS#8 "PRIVATE KEY" block followed by the
//     certificate, for Kafka's ssl.keystore.type=PEM;
//   - ca.pem: the certificate alone, for clients' trust stores (Go RootCAs,
//     Java ssl.truststore.type=PEM).
func writeSelfSignedCert(dir string) (keystore, caFile string, caPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return "", "", nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "gregor kafkatest", Organization: []string{"gregor"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(10, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return "", "", nil, fmt.Errorf("kafkatest: certificate: %w", err)
	}
	pk8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return "", "", nil, err
	}
	caPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	ks := append(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pk8}), caPEM...)
	keystore = filepath.Join(dir, "keystore.pem")
	caFile = filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(keystore, ks, 0o600); err != nil {
		return "", "", nil, err
	}
	if err := os.WriteFile(caFile, caPEM, 0o644); err != nil {
		return "", "", nil, err
	}
	return keystore, caFile, caPEM, nil
}
