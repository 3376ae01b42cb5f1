module github.com/axiomcore/acore

go 1.26
