package sqlext

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
)

// EXPLAIN FORMAT=JSON answers one row of one column, EXPLAIN, holding
// MySQL's JSON document of the plan: {"query_block": {"select_id": 1,
// "table": {...}}}, "nested_loop" for a join, "materialized_from_subquery"
// for a derived table, "union_result" for a UNION, each table with the
// access_type, possible_keys, key, ref, rows_examined_per_scan, filtered
// and attached_condition that the traditional table derives (explain.go).
// Cost figures, which the engine's costs do not give as MySQL's, are
// left out.
//
// The parser refuses FORMAT=JSON (JSON is a keyword where it wants a
// name), so rewriteExplainJSON reads it as FORMAT=TREE, whose result is
// the one text column the document goes in; explain then answers the
// document when the statement as sent asks for JSON, and
// explainJSONColumn gives the column MySQL's name, EXPLAIN, on its way
// to the client (the engine names it plan).

// explainJSONFormat is where FORMAT = JSON stands in an EXPLAIN (DESCRIBE,
// DESC) that starts query, and whether it does.
func explainJSONFormat(query string) (start, end int, ok bool) {
	// Every query sent passes here (explainJSONColumn): only an EXPLAIN's
	// text is read whole.
	if lead := leadingText(query); !startsWithFold(lead, "explain") && !startsWithFold(lead, "desc") {
		return 0, 0, false
	}
	toks := sqlTokens(query)
	if len(toks) < 4 || !toks[0].word {
		return 0, 0, false
	}
	switch strings.ToUpper(toks[0].text) {
	case "EXPLAIN", "DESCRIBE", "DESC":
	default:
		return 0, 0, false
	}
	i := 1
	if isWords(toks[i:i+1], "EXTENDED") {
		i++
	}
	if i+2 >= len(toks) || !isWords(toks[i:i+1], "FORMAT") || toks[i+1].text != "=" {
		return 0, 0, false
	}
	format := toks[i+2].text
	if !toks[i+2].word && format[0] != '\'' && format[0] != '"' {
		return 0, 0, false
	}
	if !toks[i+2].word {
		format = unquote(format)
	}
	if !strings.EqualFold(format, "JSON") {
		return 0, 0, false
	}
	return toks[i].start, toks[i+2].end, true
}

// isExplainJSON reports whether the statement query starts with is an
// EXPLAIN FORMAT=JSON.
func isExplainJSON(query string) bool {
	_, _, ok := explainJSONFormat(query)
	return ok
}

// rewriteExplainJSON writes EXPLAIN FORMAT=JSON as EXPLAIN FORMAT=TREE.
func rewriteExplainJSON(query string) (string, bool) {
	start, end, ok := explainJSONFormat(query)
	if !ok {
		return "", false
	}
	return query[:start] + "FORMAT=TREE" + query[end:], true
}

// explainJSONColumn names the one column of an EXPLAIN FORMAT=JSON
// result EXPLAIN, as MySQL does, when query, the statement the result
// answers, is one.
func explainJSONColumn(query string, cb mysql.ResultSpoolFn) mysql.ResultSpoolFn {
	if !isExplainJSON(query) {
		return cb
	}
	return func(res *sqltypes.Result, more bool) error {
		if res != nil && len(res.Fields) == 1 && res.Fields[0].Name == "plan" {
			res.Fields[0].Name = "EXPLAIN"
		}
		return cb(res, more)
	}
}

// The document's parts, in MySQL's order of keys.
type (
	explainDoc struct {
		QueryBlock jsonQueryBlock `json:"query_block"`
	}
	jsonQueryBlock struct {
		SelectID    uint64       `json:"select_id,omitempty"`
		Message     string       `json:"message,omitempty"`
		Table       *jsonTable   `json:"table,omitempty"`
		NestedLoop  []jsonNested `json:"nested_loop,omitempty"`
		UnionResult *jsonSetOp   `json:"union_result,omitempty"`
		Intersect   *jsonSetOp   `json:"intersect_result,omitempty"`
		Except      *jsonSetOp   `json:"except_result,omitempty"`
	}
	jsonNested struct {
		Table *jsonTable `json:"table"`
	}
	jsonTable struct {
		TableName           string        `json:"table_name"`
		AccessType          string        `json:"access_type"`
		PossibleKeys        []string      `json:"possible_keys,omitempty"`
		Key                 string        `json:"key,omitempty"`
		Ref                 []string      `json:"ref,omitempty"`
		RowsExaminedPerScan any           `json:"rows_examined_per_scan,omitempty"`
		Filtered            string        `json:"filtered"`
		AttachedCondition   string        `json:"attached_condition,omitempty"`
		Materialized        *jsonSubquery `json:"materialized_from_subquery,omitempty"`
	}
	jsonSubquery struct {
		UsingTemporaryTable bool           `json:"using_temporary_table"`
		Dependent           bool           `json:"dependent"`
		Cacheable           bool           `json:"cacheable"`
		QueryBlock          jsonQueryBlock `json:"query_block"`
	}
	jsonSetOp struct {
		UsingTemporaryTable bool           `json:"using_temporary_table"`
		TableName           string         `json:"table_name,omitempty"`
		AccessType          string         `json:"access_type,omitempty"`
		Specifications      []jsonSelectOf `json:"query_specifications"`
	}
	jsonSelectOf struct {
		Dependent  bool           `json:"dependent"`
		Cacheable  bool           `json:"cacheable"`
		QueryBlock jsonQueryBlock `json:"query_block"`
	}
)

// explainJSON is the JSON document of the query block b.
func explainJSON(b *queryBlock) (string, error) {
	var out strings.Builder
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false) // attached conditions hold < and >
	enc.SetIndent("", "  ")
	if err := enc.Encode(explainDoc{QueryBlock: b.json()}); err != nil {
		return "", fmt.Errorf("sqlext: EXPLAIN document: %w", err)
	}
	return strings.TrimSuffix(out.String(), "\n"), nil
}

func (b *queryBlock) json() jsonQueryBlock {
	if s := b.setOp; s != nil {
		op := &jsonSetOp{UsingTemporaryTable: s.temporary}
		ids := make([]string, len(s.members))
		for i, m := range s.members {
			ids[i] = fmt.Sprint(m.id)
			op.Specifications = append(op.Specifications, jsonSelectOf{Cacheable: true, QueryBlock: m.json()})
		}
		if s.temporary {
			op.TableName, op.AccessType = "<"+strings.ToLower(s.kind)+strings.Join(ids, ",")+">", "ALL"
		}
		switch s.kind {
		case "INTERSECT":
			return jsonQueryBlock{Intersect: op}
		case "EXCEPT":
			return jsonQueryBlock{Except: op}
		}
		return jsonQueryBlock{UnionResult: op}
	}
	out := jsonQueryBlock{SelectID: b.id}
	switch len(b.reads) {
	case 0:
		out.Message = "No tables used"
	case 1:
		out.Table = b.reads[0].json()
	default:
		for _, r := range b.reads {
			out.NestedLoop = append(out.NestedLoop, jsonNested{Table: r.json()})
		}
	}
	return out
}

func (r *tableRead) json() *jsonTable {
	t := &jsonTable{TableName: r.name, AccessType: r.access, PossibleKeys: r.possible, Key: r.key,
		RowsExaminedPerScan: r.rows, Filtered: "100.00", AttachedCondition: r.condition}
	if r.ref != "" {
		t.Ref = []string{r.ref}
	}
	if r.derived != nil {
		t.Materialized = &jsonSubquery{UsingTemporaryTable: true, Cacheable: true, QueryBlock: r.derived.json()}
	}
	return t
}
