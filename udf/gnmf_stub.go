package udf

import "github.com/dolthub/go-mysql-server/sql"

func (l *lib) gnmfProcedures() []sql.ExternalStoredProcedureDetails { return nil }
