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
//
// It also writes client-<user>.pem (key and certificate, signed by the CA,
// subject CN=<user>,O=gregor) for AdminUser and AliceUser, the MTLS
// listener's client certificates.
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
	caCert, err := x509.ParseCertificate(der)
	if err != nil {
		return "", "", nil, err
	}
	for _, user := range []string{AdminUser, AliceUser} {
		pemBytes, err := SignedCert(caCert, key, pkix.Name{CommonName: user, Organization: []string{"gregor"}})
		if err != nil {
			return "", "", nil, err
		}
		if err := os.WriteFile(clientCertFile(dir, user), pemBytes, 0o600); err != nil {
			return "", "", nil, err
		}
	}
	return keystore, caFile, caPEM, nil
}

// clientCertFile is where writeSelfSignedCert puts user's client certificate.
func clientCertFile(dir, user string) string { return filepath.Join(dir, "client-"+user+".pem") }

// SignedCert generates a P-256 key and a client certificate for subject
// signed by ca (with caKey), valid for a day, and returns the key (PKCS#8
// "PRIVATE KEY") and certificate as PEM, for tls.X509KeyPair(b, b) and
// Java's ssl.keystore.type=PEM. With ca nil the certificate is self-signed
// (a certificate of another CA, for refusal tests).
func SignedCert(ca *x509.Certificate, caKey *ecdsa.PrivateKey, subject pkix.Name) ([]byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      subject,
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.AddDate(0, 0, 1),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	parent, signer := ca, caKey
	if ca == nil {
		parent, signer = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, signer)
	if err != nil {
		return nil, fmt.Errorf("kafkatest: client certificate: %w", err)
	}
	pk8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	return append(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pk8}),
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})...), nil
}
