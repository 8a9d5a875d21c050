package sqlext

import (
	"context"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// procedureParser is the parser the engine loads a stored procedure with
// (the global one, which it uses wherever it is given none), which gives
// it the procedure with an empty body (see parseProcedure). It keeps no
// state, so one serves every server in the process.
type procedureParser struct {
	sql.Parser
}

func init() {
	sql.GlobalParser = procedureParser{Parser: sql.GlobalParser}
}

func (p procedureParser) ParseWithOptions(ctx context.Context, query string, delim rune, multi bool, opts ast.ParserOptions) (ast.Statement, string, string, error) {
	if st, pre, rest, ok, err := parseProcedure(query, func(q string) (ast.Statement, string, string, error) {
		return p.Parser.ParseWithOptions(ctx, q, delim, multi, opts)
	}, nil, ""); ok {
		return st, pre, rest, err
	}
	return p.Parser.ParseWithOptions(ctx, query, delim, multi, opts)
}
