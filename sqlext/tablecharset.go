package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// A table's character set and collation change as in MySQL:
//
//   - ALTER TABLE t [DEFAULT] CHARACTER SET cs [COLLATE co], and ALTER
//     TABLE t COLLATE co, give the table a new default, which columns
//     added later without one of their own take; its columns keep theirs.
//   - ALTER TABLE t CONVERT TO CHARACTER SET cs [COLLATE co] also moves
//     every text column (CHAR, VARCHAR, the TEXTs, ENUM, SET) to it,
//     checking each value as MODIFY does and each unique key under the
//     new collation, in one log command (a rebuild of the table). A TEXT
//     moved to a character set of wider characters takes the next larger
//     TEXT type, so that it holds as many characters as before.
//
// The engine refused all three ("cannot have its collation altered"),
// and the parser refused CHARSET for CHARACTER SET in them, which
// rewriteAlterCharset writes out. The parser reads CONVERT TO as the
// first form, so the statement's text says which one ran
// (noteConvertCharset).

// rewriteAlterCharset writes CHARSET as CHARACTER SET in an ALTER TABLE,
// which the parser reads only in CREATE TABLE.
func rewriteAlterCharset(q string) (string, bool) {
	toks := sqlTokens(q)
	if len(toks) < 2 || !toks[0].word || !strings.EqualFold(toks[0].text, "ALTER") || !strings.EqualFold(toks[1].text, "TABLE") {
		return q, false
	}
	var b strings.Builder
	last := 0
	for _, tk := range toks[2:] {
		if tk.word && strings.EqualFold(tk.text, "CHARSET") {
			b.WriteString(q[last:tk.start])
			b.WriteString("CHARACTER SET")
			last = tk.end
		}
	}
	if last == 0 {
		return q, false
	}
	b.WriteString(q[last:])
	return b.String(), true
}

// noteConvertCharset marks the session's ALTER TABLE as CONVERT TO
// CHARACTER SET, which the parser reads as a change of the default.
func noteConvertCharset(s *Session, st sqlparser.Statement, text string) {
	s.converting = false
	if _, ok := st.(*sqlparser.AlterTable); !ok {
		return
	}
	toks := sqlTokens(text)
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].word && strings.EqualFold(toks[i].text, "CONVERT") && strings.EqualFold(toks[i+1].text, "TO") &&
			(strings.EqualFold(toks[i+2].text, "CHARACTER") || strings.EqualFold(toks[i+2].text, "CHARSET")) {
			s.converting = true
			return
		}
	}
}

// alterCollation runs ALTER TABLE ... CHARACTER SET, COLLATE or CONVERT TO
// CHARACTER SET on one of our tables.
func alterCollation(ctx *sql.Context, n *plan.AlterTableCollation) (sql.RowIter, error) {
	t, err := alteredBy(ctx, n)
	if t == nil || err != nil {
		return nil, err
	}
	converting := false
	if s, ok := ctx.Session.(*Session); ok {
		converting, s.converting = s.converting, false
	}
	if !converting {
		if err := commitPending(ctx); err != nil {
			return nil, err
		}
		m := t.currentMeta()
		m.Collation = n.Collation.Name()
		if err := t.setMeta(ctx, m); err != nil {
			return nil, err
		}
		return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), nil
	}
	if keyed, err := textForeignKeys(ctx, t); keyed || err != nil {
		if err == nil {
			err = mysql.NewSQLError(erNotSupportedYet, "42000", "This version of MySQL doesn't yet support 'CONVERT TO CHARACTER SET of a table whose foreign keys hold text columns'")
		}
		return nil, err
	}
	d, err := draftOf(ctx, t, nil)
	if err != nil {
		return nil, err
	}
	if err := d.convertTo(ctx, n.Collation); err != nil {
		return nil, err
	}
	if err := d.rebuild(ctx, t); err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(0))), nil
}

// textForeignKeys says whether a foreign key of t, or one that names t as
// its parent, holds a text column of t, which a conversion would move to
// another collation than its other side's. Keys of numbers and dates
// convert with the table, as in MySQL.
func textForeignKeys(ctx *sql.Context, t *Table) (bool, error) {
	declared, err := t.GetDeclaredForeignKeys(ctx)
	if err != nil {
		return false, err
	}
	referenced, err := t.GetReferencedForeignKeys(ctx)
	if err != nil {
		return false, err
	}
	text := func(cols []string) bool {
		for _, c := range cols {
			if i := t.sch.Schema.IndexOfColName(c); i >= 0 {
				if typ := t.sch.Schema[i].Type; types.IsTextOnly(typ) || types.IsEnum(typ) || types.IsSet(typ) {
					return true
				}
			}
		}
		return false
	}
	for _, fk := range declared {
		if text(fk.Columns) || fk.IsSelfReferential() && text(fk.ParentColumns) {
			return true, nil
		}
	}
	for _, fk := range referenced {
		if text(fk.ParentColumns) {
			return true, nil
		}
	}
	return false, nil
}

// convertTo moves the draft's text columns, and its default, to coll.
func (d *draft) convertTo(ctx *sql.Context, coll sql.CollationID) error {
	for i, col := range d.sch {
		ct, ok := col.Type.(sql.TypeWithCollation)
		if !ok || !types.IsTextOnly(col.Type) && !types.IsEnum(col.Type) && !types.IsSet(col.Type) {
			continue
		}
		typ, err := ct.WithNewCollation(coll)
		if err != nil {
			return err
		}
		typ = widerText(typ, ct.Collation(), coll)
		nc := *col
		nc.Type = typ
		for r, row := range d.rows {
			v, err := modifiedValue(ctx, &nc, row[i], r+1)
			if err != nil {
				return err
			}
			row[i] = v
		}
		d.sch[i] = &nc
		for _, k := range d.keys {
			if k.unique && hasName(k.cols, col.Name) {
				if err := d.unique(ctx, k); err != nil {
					return err
				}
			}
		}
	}
	d.collation = coll
	d.meta.Collation = coll.Name()
	d.rewrites = true
	return nil
}

// widerText is a TEXT type moved from one collation's character set to
// another's: the next larger TEXT when the new set's characters may take
// more bytes, so that the column holds as many characters as before.
func widerText(typ sql.Type, from, to sql.CollationID) sql.Type {
	st, ok := typ.(sql.StringType)
	if !ok || typ.Type() != sqltypes.Text || to.CharacterSet().MaxLength() <= from.CharacterSet().MaxLength() {
		return typ
	}
	next := map[int64]int64{types.TinyTextBlobMax: types.TextBlobMax, types.TextBlobMax: types.MediumTextBlobMax, types.MediumTextBlobMax: types.LongTextBlobMax}
	bytes, ok := next[st.MaxByteLength()]
	if !ok {
		return typ
	}
	wider, err := types.CreateString(st.Type(), bytes/to.CharacterSet().MaxLength(), to)
	if err != nil {
		return typ
	}
	return wider
}
