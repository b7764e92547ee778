module github.com/gregor-kafka/gregor

go 1.26

require (
	github.com/golang/snappy v1.0.0
	github.com/klauspost/compress v1.20.4
	github.com/pierrec/lz4/v4 v4.1.33
	github.com/xdg-go/scram v1.4.0
)

require (
	github.com/xdg-go/stringprep v1.0.4 // indirect
	golang.org/x/text v0.3.8 // indirect
)
