module github.com/irdiv/irdiv

go 1.26.0

require (
	github.com/beevik/etree v1.8.1
	github.com/x448/float16 v0.8.4
	golang.org/x/sys v0.49.0
)

require google.golang.org/protobuf v1.36.12
