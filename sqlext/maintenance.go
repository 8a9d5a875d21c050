package sqlext

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/sqlearn/sqlearn/storage"
)

// CHECK TABLE, OPTIMIZE TABLE, REPAIR TABLE and CHECKSUM TABLE, which
// administration tools and scripts send, were syntax errors. The parser
// refuses them, so rewriteMaintenance writes each as a call of a system
// procedure with the tables named, qualified by the current database:
//
//   - CHECK TABLE checks each table's bookkeeping (storage.Store.Check:
//     rows where their identities say, one index entry per row) and
//     answers status OK, or the error it found;
//   - OPTIMIZE rewrites the table's storage (storage.OpOptimize: deleted
//     rows folded away, every row in an Arrow batch) and answers status
//     OK; REPAIR answers, as MySQL does for an engine without it, a note
//     that the table does not support the operation;
//   - CHECKSUM TABLE answers a checksum of each table's rows that does not
//     depend on their order (the sum of each row's CRC-32, as MySQL's
//     checksum sums per-row checksums), NULL for a table that does not
//     exist.
//
// A missing table gets MySQL's Error row and "Operation failed".
const (
	maintenanceProcedure = "sqlearn_table_maintenance"
	checksumProcedure    = "sqlearn_table_checksum"
)

// maintenanceOps are the statements rewritten, by their first word.
var maintenanceOps = map[string]string{"CHECK": "check", "OPTIMIZE": "optimize", "REPAIR": "repair", "CHECKSUM": "checksum"}

// rewriteMaintenance writes a table-maintenance statement as a CALL.
func rewriteMaintenance(ctx *sql.Context, query string) (string, bool) {
	toks := sqlTokens(strings.TrimRight(strings.TrimSpace(query), ";"))
	if len(toks) < 3 || !toks[0].word {
		return "", false
	}
	op, ok := maintenanceOps[strings.ToUpper(toks[0].text)]
	if !ok {
		return "", false
	}
	i := 1
	if op == "optimize" || op == "repair" {
		if t := strings.ToUpper(toks[i].text); toks[i].word && (t == "NO_WRITE_TO_BINLOG" || t == "LOCAL") {
			i++
		}
	}
	if i >= len(toks) || !toks[i].word || !strings.EqualFold(toks[i].text, "TABLE") {
		return "", false
	}
	var names [][2]string
	for i++; i < len(toks); {
		db, name := ctx.GetCurrentDatabase(), unquoteIdent(toks[i].text)
		if d, n, dotted := strings.Cut(toks[i].text, "."); dotted && toks[i].word {
			db, name = d, n // the tokenizer keeps db.name together
		} else if i+2 < len(toks) && toks[i+1].text == "." {
			db, name = name, unquoteIdent(toks[i+2].text)
			i += 2
		}
		names = append(names, [2]string{db, name})
		i++
		if i < len(toks) && toks[i].text == "," {
			i++
			continue
		}
		break
	}
	for ; i < len(toks); i++ { // options: QUICK, EXTENDED, FOR UPGRADE, ...
		if !toks[i].word {
			return "", false
		}
	}
	if len(names) == 0 {
		return "", false
	}
	js, _ := json.Marshal(names)
	arg := quoteString(string(js))
	if op == "checksum" {
		return "CALL " + SystemDatabase + "." + checksumProcedure + "(" + arg + ")", true
	}
	return "CALL " + SystemDatabase + "." + maintenanceProcedure + "('" + op + "', " + arg + ")", true
}

// unquoteIdent is an identifier as sqlTokens gave it, without backquotes.
func unquoteIdent(s string) string {
	if len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`' {
		return strings.ReplaceAll(s[1:len(s)-1], "``", "`")
	}
	return s
}

// maintenanceExtensions are the procedures the rewritten statements call.
func maintenanceExtensions(p *Provider) Extensions {
	text := func(name string) *sql.Column { return &sql.Column{Name: name, Type: types.LongText, Nullable: true} }
	// tables reads the list the rewrite passes; each table must be
	// readable by the user, as MySQL asks.
	tables := func(ctx *sql.Context, arg string) ([][2]string, error) {
		var names [][2]string
		if err := json.Unmarshal([]byte(arg), &names); err != nil {
			return nil, fmt.Errorf("table list: %w", err)
		}
		for _, n := range names {
			if n[0] == "" {
				return nil, sql.ErrNoDatabaseSelected.New()
			}
			if !p.HasPrivilege(ctx, n[0], n[1], sql.PrivilegeType_Select) {
				c := ctx.Session.Client()
				return nil, mysql.NewSQLError(erTableAccessDenied, "42000", "SELECT command denied to user '%s'@'%s' for table '%s'", c.User, c.Address, n[1])
			}
		}
		return names, nil
	}
	maintain := func(ctx *sql.Context, op, arg string) (sql.RowIter, error) {
		names, err := tables(ctx, arg)
		if err != nil {
			return nil, err
		}
		var rows []sql.Row
		for _, n := range names {
			qualified := n[0] + "." + n[1]
			info, err := p.store.Table(n[0], n[1])
			if err != nil || isTempName(n[1]) {
				rows = append(rows,
					sql.Row{qualified, op, "Error", fmt.Sprintf("Table '%s' doesn't exist", qualified)},
					sql.Row{qualified, op, "status", "Operation failed"})
				continue
			}
			qualified = info.DB + "." + n[1]
			switch op {
			case "check":
				if err := p.store.Check(info.DB, info.Name); err != nil {
					rows = append(rows, sql.Row{qualified, op, "error", err.Error()},
						sql.Row{qualified, op, "error", "Corrupt"})
					continue
				}
				rows = append(rows, sql.Row{qualified, op, "status", "OK"})
			case "optimize":
				if !p.HasPrivilege(ctx, info.DB, info.Name, sql.PrivilegeType_Insert) {
					c := ctx.Session.Client()
					return nil, mysql.NewSQLError(erTableAccessDenied, "42000", "INSERT command denied to user '%s'@'%s' for table '%s'", c.User, c.Address, n[1])
				}
				if err := p.propose(ctx, storage.Op{Kind: storage.OpOptimize, DB: info.DB, Table: info.Name}); err != nil {
					return nil, err
				}
				rows = append(rows, sql.Row{qualified, op, "status", "OK"})
			default:
				rows = append(rows, sql.Row{qualified, op, "note", fmt.Sprintf("The storage engine for the table doesn't support %s", op)})
			}
		}
		return sql.RowsToRowIter(rows...), nil
	}
	checksum := func(ctx *sql.Context, arg string) (sql.RowIter, error) {
		names, err := tables(ctx, arg)
		if err != nil {
			return nil, err
		}
		var rows []sql.Row
		for _, n := range names {
			sum, err := tableChecksum(p, n[0], n[1])
			if errors.Is(err, storage.ErrTableNotFound) || isTempName(n[1]) {
				rows = append(rows, sql.Row{n[0] + "." + n[1], nil})
				continue
			}
			if err != nil {
				return nil, err
			}
			rows = append(rows, sql.Row{n[0] + "." + n[1], sum})
		}
		return sql.RowsToRowIter(rows...), nil
	}
	return Extensions{Procedures: []sql.ExternalStoredProcedureDetails{
		{Name: maintenanceProcedure, Schema: sql.Schema{text("Table"), text("Op"), text("Msg_type"), text("Msg_text")}, Function: maintain},
		{Name: checksumProcedure, Schema: sql.Schema{text("Table"), {Name: "Checksum", Type: types.Int64, Nullable: true}}, Function: checksum},
	}}
}

// tableChecksum is the sum of the CRC-32 of each of a table's rows, as
// storage encodes them, so that it does not depend on their order.
func tableChecksum(p *Provider, db, table string) (int64, error) {
	cursors, err := p.store.ScanTable(db, table)
	if err != nil {
		return 0, err
	}
	var sum uint64
	for _, c := range cursors {
		for r, _, ok := c.Next(); ok; r, _, ok = c.Next() {
			sum += uint64(crc32.ChecksumIEEE([]byte(storage.EncodeKey(r))))
		}
		c.Close()
	}
	return int64(sum), nil
}
