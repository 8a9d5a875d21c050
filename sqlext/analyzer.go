package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql/analyzer"
)

// analyzerFor builds the analyzer over the provider. Later rules (matrix
// expression optimisation) are added here.
func analyzerFor(p *Provider) *analyzer.Analyzer {
	return analyzer.NewBuilder(p).Build()
}
