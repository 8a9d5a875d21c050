package sqlext

import (
	"slices"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// AnalyzerRule is a rule other packages add to the engine's analyzer; it
// runs after the engine's own rules (udf uses one to compute repeated
// matrix subexpressions of a SELECT once). Ids must be distinct and above
// the engine's own (use values from 10000 up).
type AnalyzerRule struct {
	ID    analyzer.RuleId
	Apply analyzer.RuleFunc
}

// The rules every statement passes through, in the order they run:
// before the engine's own, MySQL's date functions in place of some of
// the engine's, text IN a list of text and numbers as its equalities
// (mixedInRule), comparisons of rows member by member
// (rowComparisonRule), the reading of text and of dates and times as
// numbers, of text as the date or time it starts with, the lending of a
// written table's database to its triggers, the typing of a recursive
// CTE's columns by its anchor (recursiveTypeRule), of a VALUES table's by
// all its rows (valuesTypeRule) and of the columns of set operations
// (unionTypeRule);
// after them, textRule and insertTextRule, then exactSumRule and exactWindowRule, which
// retype SUM and AVG, and numericRule, which types %, DIV and the choice
// functions as MySQL does, and decimalScaleRule, which types +, - and *
// of DECIMALs as it does, then unionRetypeRule, which types set
// operations again from those types, recursiveRetypeRule, which types
// recursive CTEs again from their anchors' types, derivedTypeRule, which carries such types out of derived
// tables and views, before rangeRule fixes the types of the arithmetic
// over them, then the rules of writes (the values generated columns read,
// JSON NULLs, numbers stored as dates, JSON text read with exact numbers, generated columns recomputed by ON
// DUPLICATE KEY UPDATE, blank strings stored as numbers, the columns of
// CREATE TABLE ... AS SELECT), then unroundedQuotientRule, which gives the
// divisions functions read as numbers their whole quotient, then doubleDecimalsRule, which fixes the decimals a DOUBLE
// result is written with, and last the session's own database given
// back. The engine's own check of an ALTER TABLE's clauses
// (resolveAlterColumn) answers with MySQL's errors (alterColumnErrors),
// and so does its check of the defaults DDL gives columns
// (defaultErrors). The engine's rewrite of MIN or MAX of a table's first
// key column into the first row in key order is left out
// (keepKeyAggregates).
func init() {
	for i, r := range analyzer.OnceAfterDefault {
		if r.Id.String() == "replaceAgg" {
			analyzer.OnceAfterDefault[i].Apply = keepKeyAggregates
		}
	}
	for i, r := range analyzer.OnceBeforeDefault {
		switch r.Id {
		case analyzer.ResolveAlterColumnId:
			analyzer.OnceBeforeDefault[i].Apply = alterColumnErrors(r.Apply)
		case analyzer.ValidateColumnDefaultsId:
			analyzer.OnceBeforeDefault[i].Apply = defaultErrors(r.Apply)
		}
	}
	beforeEveryStatement(dateFunctionRule, dateFunctions)
	beforeEveryStatement(mixedInRule, mixedInLists)
	beforeEveryStatement(rowComparisonRule, rowComparisons)
	beforeEveryStatement(numericTextRule, numericTexts)
	beforeEveryStatement(temporalNumberRule, temporalNumbers)
	beforeEveryStatement(truncatedTemporalRule, truncatedTemporals)
	beforeEveryStatement(triggerDatabaseRule, lendTriggerDatabase)
	beforeEngineRule("applyTriggers", triggerDatabaseAgainRule, lendTriggerDatabase)
	beforeEngineRule("applyTriggers", hideDeleteTargetsRule, hideDeleteTargets)
	beforeEngineRule("applyProcedures", rowTriggerRule, bindRowTriggers)
	beforeEveryStatement(recursiveTypeRule, recursiveTypes)
	beforeEveryStatement(valuesTypeRule, valuesTypes)
	beforeEveryStatement(unionTypeRule, unionTypes)
	onEveryStatement(textRule, textArguments)
	onEveryStatement(insertTextRule, selectedTimesAsText)
	onEveryStatement(exactSumRule, exactSums)
	onEveryStatement(exactWindowRule, exactWindows)
	onEveryStatement(distinctOrderRule, distinctOrders)
	onEveryStatement(numericRule, numericOperations)
	onEveryStatement(decimalScaleRule, decimalScales)
	onEveryStatement(unionRetypeRule, unionTypes)
	onEveryStatement(recursiveRetypeRule, recursiveTypes)
	onEveryStatement(derivedTypeRule, derivedTypesAndAggregates)
	onEveryStatement(rangeRule, checkRange)
	onEveryStatement(generatedInputRule, generatedInputs)
	onEveryStatement(jsonNullRule, jsonNulls)
	onEveryStatement(strictWarningRule, strictWarningStores)
	onEveryStatement(temporalStoreRule, temporalStores)
	onEveryStatement(onDupGeneratedRule, onDupGenerated)
	onEveryStatement(jsonDecimalArgsRule, jsonDecimalArgs)
	onEveryStatement(exactJSONRule, exactJSON)
	onEveryStatement(emptyNumberRule, blankNumbers)
	onEveryStatement(setNullRule, setNulls)
	onEveryStatement(safeUpdatesRule, safeUpdates)
	beforeEveryStatement(safeDeleteRule, safeDelete)
	beforeEveryStatement(dmlBetweenRule, dmlBetween)
	onEveryStatement(explainMax1RowRule, clearMax1RowUnderSetOp)
	onEveryStatement(ctasColumnsRule, ctasColumns)
	onEveryStatement(unroundedQuotientRule, unroundedQuotients)
	onEveryStatement(doubleDecimalsRule, doubleDecimals)
	onEveryStatement(excessSpacesRule, excessSpacesCut)
	onEveryStatement(valueErrorRule, valueErrors)
	onEveryStatement(aggregateNullsRule, aggregateNulls)
	onEveryStatement(afterPlanningRule, sessionAfterPlanning)
}

// beforeEveryStatement adds a rule to the batch the engine runs first for
// every statement, the short batches of single-table UPDATE and DELETE
// and of INSERT of literal rows included (see onEveryStatement). Like
// that one, the batch is the engine's, shared by every server in the
// process: such a rule holds no state.
func beforeEveryStatement(id analyzer.RuleId, apply analyzer.RuleFunc) {
	analyzer.AlwaysBeforeDefault = append(analyzer.AlwaysBeforeDefault, analyzer.Rule{Id: id, Apply: apply})
}

// keepKeyAggregates stands for the engine's rule that answers MIN or MAX
// of a table's first key column with the first row of the table sorted
// by it: on an empty table that is no row, where MySQL answers one row
// of NULL (a client's SELECT MAX(id) FROM t found no row). The store's
// indexes read only forwards, so the rewrite also sorted the whole
// table: MAX(id) of 300,000 rows took three to four times as long as the
// aggregate, which reads the rows once (docs/benchmarks.md).
func keepKeyAggregates(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return n, transform.SameTree, nil
}

// beforeEngineRule puts a rule just before the engine's rule named
// before in its last batch.
func beforeEngineRule(before string, id analyzer.RuleId, apply analyzer.RuleFunc) {
	analyzer.OnceAfterAll = slices.Insert(analyzer.OnceAfterAll, engineRuleAt(before), analyzer.Rule{Id: id, Apply: apply})
}

// onEveryStatement adds a rule to the engine's last batch, which every
// statement passes through. The engine plans single-table UPDATE and
// DELETE and INSERT of literal rows with a short list of batches that
// leaves out the analyzer's extension rules, so a rule that must see
// UPDATE t SET x = ... goes there. The batch is the engine's, shared by
// every server in the process: such a rule holds no state.
func onEveryStatement(id analyzer.RuleId, apply analyzer.RuleFunc) {
	analyzer.OnceAfterAll = append(analyzer.OnceAfterAll, analyzer.Rule{Id: id, Apply: apply})
}

// lastRules adds the rules that must run after every other, once every
// file's own have been added: the list of a SELECT computed once
// (projectonce.go), and the memo of correlated subqueries
// (subquerymemo.go), which wraps the engine's subqueries that earlier
// rules look for by type.
var lastRules sync.Once

// analyzerFor builds the analyzer over the provider with the extensions'
// rules.
func analyzerFor(p *Provider) *analyzer.Analyzer {
	lastRules.Do(func() {
		onEveryStatement(projectOnceRule, projectOnce)
		onEveryStatement(subqueryMemoRule, memoSubqueries)
	})
	b := analyzer.NewBuilder(p)
	// Also before the engine's rules, which turn a LIKE with a prefix
	// pattern into a range over the column's own type (textcontext.go).
	b.AddPreAnalyzeRule(textRule, textArguments)
	b.AddPostAnalyzeRule(setOpMax1RowRule, clearMax1RowUnderSetOp)
	b.AddPostAnalyzeRule(fileAccessRule, p.refuseFileAccess)
	b.AddPostAnalyzeRule(fulltextReadRule, fulltextReads)
	p.extMu.RLock()
	for _, r := range p.rules {
		b.AddPostAnalyzeRule(r.ID, r.Apply)
	}
	p.extMu.RUnlock()
	a := b.Build()
	a.ExecBuilder = statementBuilder{newExecBuilder()}
	if a.Catalog.InfoSchema != nil {
		a.Catalog.InfoSchema = routinesSchema{Database: a.Catalog.InfoSchema, p: p}
	}
	return a
}
