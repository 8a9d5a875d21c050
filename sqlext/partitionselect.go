package sqlext

import (
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
