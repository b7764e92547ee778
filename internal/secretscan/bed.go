package secretscan

import (
	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// BedSecrets returns the secrets of the test bed st describes: the test
// users' passwords, the header every unsecured JWS token starts with, and
// the private keys of the broker's key store and of every client
// certificate.
func BedSecrets(st kafkatest.State) ([]Secret, error) {
	files := []string{st.Keystore}
	for _, f := range st.ClientCerts {
		files = append(files, f)
	}
	keys, err := KeySecrets(files...)
	if err != nil {
		return nil, err
	}
	return append(keys,
		Secret{"kafkatest.AdminPassword", []byte(kafkatest.AdminPassword)},
		Secret{"kafkatest.AlicePassword", []byte(kafkatest.AlicePassword)},
		Secret{"unsecured JWS token", []byte(UnsecuredJWSHeader)}), nil
}
