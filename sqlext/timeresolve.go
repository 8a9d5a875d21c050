package sqlext

import (
	"context"
	"reflect"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// The parser every statement and every stored routine, trigger and
// foreign key is read with (processParser) gives TIME its precision and
// marks the tables of multiple-table UPDATEs (joinupdate.go): the engine
// reads a routine's and a trigger's text with the process's parser, not
// with a server's (statementParser, which wraps it).
func init() {
	sql.GlobalParser = processParser{sql.GlobalParser}
}

// processParser is a parser whose statements have passed
// resolveTimeTypes and markJoinTables. A statement it refuses is parsed
// to nothing: the engine's handler goes on with the statement of a
// multi-statement parse that failed.
type processParser struct {
	sql.Parser
}

func (p processParser) Parse(ctx *sql.Context, query string, multi bool) (ast.Statement, string, string, error) {
	st, pre, rest, err := p.Parser.Parse(ctx, query, multi)
	if err == nil {
		if err = prepared(ctx, query, st); err != nil {
			return nil, "", "", err
		}
	}
	return st, pre, rest, err
}

func (p processParser) ParseWithOptions(ctx context.Context, query string, delim rune, multi bool, opts ast.ParserOptions) (ast.Statement, string, string, error) {
	st, pre, rest, err := p.Parser.ParseWithOptions(ctx, query, delim, multi, opts)
	if err == nil {
		if err = prepared(ctx, query, st); err != nil {
			return nil, "", "", err
		}
	}
	return st, pre, rest, err
}

func (p processParser) ParseOneWithOptions(ctx context.Context, query string, opts ast.ParserOptions) (ast.Statement, int, error) {
	st, n, err := p.Parser.ParseOneWithOptions(ctx, query, opts)
	if err == nil {
		if err = prepared(ctx, query, st); err != nil {
			return nil, 0, err
		}
	}
	return st, n, err
}

// prepared readies st, parsed from query, for the planner.
func prepared(ctx context.Context, query string, st ast.Statement) error {
	if err := resolveTimeTypes(query, st); err != nil {
		return err
	}
	if sctx, ok := ctx.(*sql.Context); ok {
		if s, ok := sctx.Session.(*Session); ok && s.p != nil {
			s.p.markJoinTables(sctx, st)
		}
	}
	return nil
}

// resolveTimeTypes hands each TIME column type of st (of a table's
// column, a routine's parameter or variable) to the planner as the
// TIME(n) it names, and writes each CAST(x AS TIME(n)) as
// sqlearn_time_cast(x, n) (timeCastFunc). More fractional digits than
// six for a TIME, DATETIME or TIMESTAMP are MySQL's error 1426, where
// the engine's refusal was no MySQL error. The parser's walk visits
// nodes but cannot replace one in its parent, nor reaches a table's
// columns: the statement is walked by reflection (timeResolver), and
// only when it may name such a type: a definition whose text names TIME,
// DATETIME or TIMESTAMP, or another statement that also has a CAST, a
// CONVERT or a JSON_TABLE (a long INSERT into a table with a DATE column
// is not walked).
func resolveTimeTypes(query string, st ast.Statement) error {
	if !hasTypedLiteralWord(query) {
		return nil
	}
	switch st.(type) {
	case *ast.DDL, *ast.AlterTable:
	default:
		if !containsFold(query, "cast") && !containsFold(query, "convert") && !containsFold(query, "json_table") {
			return nil
		}
	}
	r := timeResolver{seen: map[uintptr]bool{}}
	r.walk(reflect.ValueOf(st))
	return r.err
}

// timeResolver walks a statement's nodes for resolveTimeTypes.
type timeResolver struct {
	seen map[uintptr]bool // the nodes walked
	name string           // of the column or variable whose type comes next
	err  error
}

// astPackage is the package of the parser's nodes.
var astPackage = reflect.TypeOf(ast.Select{}).PkgPath()

func (r *timeResolver) walk(v reflect.Value) {
	if r.err != nil {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || r.seen[v.Pointer()] {
			return
		}
		r.seen[v.Pointer()] = true
		r.walk(v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		if c, ok := v.Interface().(*ast.ConvertExpr); ok && c.Type != nil && v.CanSet() {
			if to := r.cast(c); to != nil {
				v.Set(reflect.ValueOf(to))
			}
		}
		r.walk(v.Elem())
	case reflect.Struct:
		if v.Type().PkgPath() != astPackage {
			return
		}
		if v.CanAddr() {
			switch x := v.Addr().Interface().(type) {
			case *ast.ColumnDefinition:
				r.name = x.Name.String()
			case *ast.ColumnTypeSpec:
				r.name = x.Column.String()
			case *ast.ProcedureParam:
				r.name = x.Name
			case *ast.DeclareVariables:
				if len(x.Names) > 0 {
					r.name = x.Names[0].String()
				}
			case *ast.ColumnType:
				if r.err = resolveColumnTime(r.name, x); r.err != nil {
					return
				}
			}
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				r.walk(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			r.walk(v.Index(i))
		}
	}
}

// cast is what a CAST of x stands for: sqlearn_time_cast(x, n) for a
// CAST to TIME(n), or nil; it refuses more than six fractional digits
// in a CAST to a temporal type.
func (r *timeResolver) cast(c *ast.ConvertExpr) ast.Expr {
	kind := strings.ToLower(c.Type.Type)
	if kind != "time" && kind != "datetime" && kind != "timestamp" {
		return nil
	}
	fsp := 0
	if c.Type.Length != nil {
		if fsp, r.err = castDigits(c.Type.Length); r.err != nil {
			return nil
		}
	}
	if kind != "time" {
		return nil
	}
	return &ast.FuncExpr{Name: ast.NewColIdent(timeCastFunc), Exprs: ast.SelectExprs{
		&ast.AliasedExpr{Expr: c.Expr},
		&ast.AliasedExpr{Expr: ast.NewIntVal([]byte(strconv.Itoa(fsp)))},
	}}
}

// castDigits is the fractional digits a CAST names, at most six.
func castDigits(length *ast.SQLVal) (int, error) {
	n, err := strconv.Atoi(string(length.Val))
	if err != nil || n > maxTimeDigits {
		return 0, tooBigPrecision(string(length.Val), "CAST")
	}
	return n, nil
}

// resolveColumnTime gives a TIME column type its TIME(n), and refuses
// more than six fractional digits for a TIME, DATETIME or TIMESTAMP.
func resolveColumnTime(name string, ct *ast.ColumnType) error {
	kind := strings.ToLower(ct.Type)
	if kind != "time" && kind != "datetime" && kind != "timestamp" {
		return nil
	}
	fsp := 0
	if ct.Length != nil {
		n, err := strconv.Atoi(string(ct.Length.Val))
		if err != nil || n > maxTimeDigits {
			return tooBigPrecision(string(ct.Length.Val), name)
		}
		fsp = n
	}
	if kind == "time" {
		ct.ResolvedType = timeType{fsp: fsp}
	}
	return nil
}

// containsFold reports whether s holds word, lower case, in any case.
func containsFold(s, word string) bool { return indexFold(s, word) >= 0 }

// indexFold is where s first holds word, lower case, in any case; -1
// where it does not.
func indexFold(s, word string) int {
	for i := 0; i+len(word) <= len(s); i++ {
		if s[i]|0x20 == word[0] && strings.EqualFold(s[i:i+len(word)], word) {
			return i
		}
	}
	return -1
}
