package sqlext

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// JSON_OBJECTAGG(k, v) OVER (...) is a window function in MySQL. The
// engine's planner takes only its own list of window functions, which
// leaves JSON_OBJECTAGG out: the OVER clause was dropped and the
// statement failed. When the statement is parsed, such a call is written
// as sqlearn_object_of_pairs(JSON_ARRAYAGG(JSON_ARRAY(k, v)) OVER (...)):
// the engine's windowed JSON_ARRAYAGG gathers the frame's pairs in the
// frame's order, and the object is built from them as JSON_OBJECTAGG
// builds it, the last value of a key kept and a NULL key refused. Over
// no rows, or a frame without rows, either aggregate is NULL, as an
// aggregate of no rows is; the engine's JSON_ARRAYAGG answered [] there,
// so each is read through sqlearn_nonempty_array.

const (
	objectOfPairsFunc = "sqlearn_object_of_pairs"
	nonemptyArrayFunc = "sqlearn_nonempty_array"
)

// jsonAggregates rewrites each JSON_OBJECTAGG ... OVER and each
// JSON_ARRAYAGG of st.
func jsonAggregates(st ast.Statement) {
	var calls []*ast.FuncExpr
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if f, ok := n.(*ast.FuncExpr); ok && !f.Distinct && f.Qualifier.IsEmpty() {
			calls = append(calls, f)
		}
		return true, nil
	}, st)
	for _, f := range calls {
		switch {
		case strings.EqualFold(f.Name.String(), "json_objectagg") && len(f.Exprs) == 2 && f.Over != nil:
			pair := &ast.FuncExpr{Name: ast.NewColIdent("json_array"), Exprs: f.Exprs}
			gathered := &ast.FuncExpr{Name: ast.NewColIdent("json_arrayagg"), Exprs: ast.SelectExprs{&ast.AliasedExpr{Expr: pair}}, Over: f.Over}
			f.Name, f.Exprs, f.Over = ast.NewColIdent(objectOfPairsFunc), ast.SelectExprs{&ast.AliasedExpr{Expr: gathered}}, nil
		case strings.EqualFold(f.Name.String(), "json_arrayagg") && len(f.Exprs) == 1:
			gathered := *f
			f.Name, f.Exprs, f.Over = ast.NewColIdent(nonemptyArrayFunc), ast.SelectExprs{&ast.AliasedExpr{Expr: &gathered}}, nil
		}
	}
}

var (
	objectOfPairsFunction = scalar(objectOfPairsFunc, 1, 1, fixedType(types.JSON), objectOfPairs)
	nonemptyArrayFunction = scalar(nonemptyArrayFunc, 1, 1, fixedType(types.JSON), nonemptyArray)
)

// nonemptyArray is a JSON array, NULL when it is empty.
func nonemptyArray(_ *sql.Context, v []any) (any, error) {
	pairs, err := jsonArrayOf(v[0])
	if err != nil || len(pairs) == 0 {
		return nil, err
	}
	return v[0], nil
}

// jsonArrayOf is the elements of the JSON array v.
func jsonArrayOf(v any) ([]any, error) {
	doc, ok := v.(sql.JSONWrapper)
	if !ok {
		return nil, sql.ErrInvalidArgument.New(nonemptyArrayFunc)
	}
	arr, err := doc.ToInterface()
	if err != nil {
		return nil, err
	}
	elems, ok := arr.([]any)
	if !ok {
		return nil, sql.ErrInvalidArgument.New(nonemptyArrayFunc)
	}
	return elems, nil
}

// errNullMemberName is MySQL's ER_JSON_DOCUMENT_NULL_KEY.
var errNullMemberName = mysql.NewSQLError(3158, "22032", "JSON documents may not contain NULL member names")

// objectOfPairs is the JSON object of a JSON array of [key, value] pairs.
func objectOfPairs(ctx *sql.Context, v []any) (any, error) {
	pairs, err := jsonArrayOf(v[0])
	if err != nil || len(pairs) == 0 {
		return nil, err
	}
	obj := make(map[string]any, len(pairs))
	for _, p := range pairs {
		pair, ok := p.([]any)
		if !ok || len(pair) != 2 {
			return nil, sql.ErrInvalidArgument.New(objectOfPairsFunc)
		}
		if pair[0] == nil {
			return nil, errNullMemberName
		}
		key, ok := pair[0].(string)
		if !ok {
			k, _, err := types.LongText.Convert(ctx, pair[0])
			if err != nil {
				return nil, err
			}
			key, _ = k.(string)
		}
		obj[key] = pair[1]
	}
	return types.JSONDocument{Val: obj}, nil
}
