package sqlext

import (
	"strings"
	"sync"
)

// Index cardinality, as SHOW INDEX and information_schema.STATISTICS
// give it: for each column of an index, the number of distinct values of
// the index's columns up to it (storage's Cardinality). The engine
// showed 0.
//
// MySQL keeps these as statistics, recomputed by ANALYZE TABLE and, in
// InnoDB, once a tenth of a table's rows have changed. So are they kept
// here (indexStats): taken when first asked for, taken again when the
// table's row count has moved by more than a tenth since, or after
// ANALYZE TABLE, so that a BI tool reading STATISTICS for every table
// does not walk every index each time.

// indexStats holds the cardinalities taken, by table.
type indexStats struct {
	mu     sync.Mutex
	tables map[string]tableCardinality // lower-case db + "." + table
}

type tableCardinality struct {
	rows    int                 // the table's row count when taken
	indexes map[string][]uint64 // by lower-case index name
}

func statsKey(db, table string) string { return strings.ToLower(db) + "." + strings.ToLower(table) }

// cardinality is the cardinality of column seq (from 1) of the index
// named of the store's table db.table; ok is false when there is none
// to give (not the store's table, no such index).
func (p *Provider) cardinality(db, table, index string, seq int) (n int64, ok bool) {
	info, err := p.store.Table(db, table)
	if err != nil || seq < 1 {
		return 0, false
	}
	key, name := statsKey(db, table), strings.ToLower(index)
	s := &p.indexStats
	s.mu.Lock()
	tc, have := s.tables[key]
	if have && drifted(tc.rows, info.Rows) {
		have = false
	}
	counts, known := tc.indexes[name]
	s.mu.Unlock()
	if !have || !known {
		if counts, err = p.store.Cardinality(db, table, index); err != nil {
			return 0, false
		}
		s.mu.Lock()
		if s.tables == nil {
			s.tables = map[string]tableCardinality{}
		}
		tc, have = s.tables[key]
		if !have || drifted(tc.rows, info.Rows) {
			tc = tableCardinality{rows: info.Rows, indexes: map[string][]uint64{}}
		}
		tc.indexes[name] = counts
		s.tables[key] = tc
		s.mu.Unlock()
	}
	if seq > len(counts) {
		return 0, false
	}
	return int64(counts[seq-1]), true
}

// drifted says whether a row count has moved by more than a tenth from
// the one statistics were taken at.
func drifted(then, now int) bool {
	d := now - then
	if d < 0 {
		d = -d
	}
	return d*10 > then
}

// forgetCardinality drops the statistics of db.table, which ANALYZE
// TABLE takes again.
func (p *Provider) forgetCardinality(db, table string) {
	p.indexStats.mu.Lock()
	delete(p.indexStats.tables, statsKey(db, table))
	p.indexStats.mu.Unlock()
}
