module github.com/gregor-kafka/gregor

go 1.26
