module github.com/gregor-kafka/gregor/bench

go 1.26

replace github.com/gregor-kafka/gregor => ../
