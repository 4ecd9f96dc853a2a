module github.com/websearch-mcp/websearch-mcp

go 1.25.0

require (
	github.com/PuerkitoBio/goquery v1.13.0
	github.com/andybalholm/cascadia v1.3.4
	github.com/stretchr/testify v1.12.1
	golang.org/x/net v0.58.0
	gopkg.in/dnaeon/go-vcr.v3 v3.2.0
)

require (
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
