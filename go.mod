module github.com/irdiv/irdiv

go 1.26.0

require (
	github.com/beevik/etree v1.8.1
	github.com/x448/float16 v0.8.4
	golang.org/x/sys v0.49.0
)

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	google.golang.org/protobuf v1.36.12
)

require golang.org/x/text v0.14.0 // indirect
