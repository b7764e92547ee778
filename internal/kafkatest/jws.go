package kafkatest

import (
	"encoding/base64"
	"encoding/json"
	"time"
)

// UnsecuredJWS returns an unsigned JWS (header {"alg":"none"}, empty
// signature) with claims sub, iat (now) and exp (expiry), as Kafka's
// unsecured OAUTHBEARER validator on the OAuth listener accepts. TEST ONLY:
// anyone can mint such a token for any principal.
func UnsecuredJWS(sub string, expiry time.Time) string {
	enc := base64.RawURLEncoding
	claims, _ := json.Marshal(map[string]any{
		"sub": sub,
		"iat": float64(time.Now().UnixMilli()) / 1000,
		"exp": float64(expiry.UnixMilli()) / 1000,
	})
	return enc.EncodeToString([]byte(`{"alg":"none"}`)) + "." + enc.EncodeToString(claims) + "."
}
