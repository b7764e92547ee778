module github.com/gregor-kafka/gregor/testlab

go 1.26

replace github.com/gregor-kafka/gregor => ../
