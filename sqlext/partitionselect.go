package sqlext

import (
	"strings"

	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// erPartitionClauseOnNonpartitioned is MySQL's ER_PARTITION_CLAUSE_ON_NONPARTITIONED.
const erPartitionClauseOnNonpartitioned = 1747

// partitionSelection refuses a statement that names partitions of a
// table: SELECT ... FROM t PARTITION (p0), INSERT INTO t PARTITION (p1),
// DELETE FROM t PARTITION (p2). sqlearn keeps no partitioning of the
// user's: storage hash-partitions every table on its primary key, and
// CREATE TABLE ... PARTITION BY, which dumps carry, makes a table like
// any other (SHOW CREATE TABLE has no PARTITION BY). To MySQL such a
// table is not partitioned, and naming a partition of it is 1747; the
// engine read or wrote the whole table instead.
func partitionSelection(st ast.Statement) error {
	named := false
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *ast.AliasedTableExpr:
			named = named || len(x.Partitions) > 0
		case *ast.Insert:
			named = named || len(x.Partitions) > 0
		case *ast.Delete:
			named = named || len(x.Partitions) > 0
		}
		return !named, nil
	}, st)
	if !named {
		return nil
	}
	return mysql.NewSQLError(erPartitionClauseOnNonpartitioned, "HY000", "PARTITION () clause on non partitioned table")
}

// rewritePartitionClause leaves out the PARTITION BY clause of a CREATE
// TABLE the parser refused, as it refuses dumps' partition definitions
// that name a storage engine (PARTITION p0 VALUES LESS THAN (2024)
// ENGINE = InnoDB). The clause makes no difference here (see
// partitionSelection): storage partitions every table by its key. A
// clause in a versioned comment (/*!50100 PARTITION BY ... */, as
// mysqldump writes it) goes with its comment.
func rewritePartitionClause(q string) (string, bool) {
	toks := sqlTokens(q)
	if len(toks) < 3 || !toks[0].word || !strings.EqualFold(toks[0].text, "CREATE") ||
		!strings.EqualFold(toks[1].text, "TABLE") && !strings.EqualFold(toks[2].text, "TABLE") {
		return q, false
	}
	depth := 0
	for i := 0; i+1 < len(toks); i++ {
		switch t := toks[i]; {
		case t.text == "(":
			depth++
		case t.text == ")":
			depth--
		case depth == 0 && t.word && strings.EqualFold(t.text, "PARTITION") && strings.EqualFold(toks[i+1].text, "BY"):
			from, to := t.start, len(q)
			if open := strings.LastIndex(q[:t.start], "/*!"); open >= 0 && strings.TrimSpace(strings.TrimLeft(q[open+3:t.start], "0123456789")) == "" {
				if end := strings.Index(q[t.start:], "*/"); end >= 0 {
					from, to = open, t.start+end+2
				}
			}
			return q[:from] + q[to:], true
		}
	}
	return q, false
}
