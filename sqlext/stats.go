package sqlext

import (
	"slices"

	"github.com/dolthub/go-mysql-server/memory"
	"github.com/dolthub/go-mysql-server/sql"
)

// ANALYZE TABLE gathers each index's statistics with the engine's own
// collector, whose histogram buckets are bounded by sampled key values,
// NULLs among them. The join planner measures the distance between
// bucket bounds as numbers and panicked on a NULL bound ("interface
// conversion: interface {} is nil, not float64"), so once a table whose
// indexed column holds NULLs had been analysed, joins on it failed.
// statsWithoutNullBounds hands the planner the histograms without the
// buckets a NULL bounds.
type statsWithoutNullBounds struct {
	sql.StatsProvider
}

func newStatsProvider() sql.StatsProvider {
	return statsWithoutNullBounds{StatsProvider: memory.NewStatsProv()}
}

func (p statsWithoutNullBounds) GetTableStats(ctx *sql.Context, db string, table sql.Table) ([]sql.Statistic, error) {
	stats, err := p.StatsProvider.GetTableStats(ctx, db, table)
	for i, s := range stats {
		stats[i] = withoutNullBounds(s)
	}
	return stats, err
}

func (p statsWithoutNullBounds) GetStats(ctx *sql.Context, qual sql.StatQualifier, cols []string) (sql.Statistic, bool) {
	// The engine's provider answers false even for statistics it has, and
	// the planner reads them whatever it answers.
	s, ok := p.StatsProvider.GetStats(ctx, qual, cols)
	if s != nil {
		s = withoutNullBounds(s)
	}
	return s, ok
}

// withoutNullBounds is s without the histogram buckets whose upper bound
// holds a NULL.
func withoutNullBounds(s sql.Statistic) sql.Statistic {
	h := s.Histogram()
	kept := slices.DeleteFunc(slices.Clone(h), func(b sql.HistogramBucket) bool {
		return slices.Contains(b.UpperBound(), nil)
	})
	if len(kept) == len(h) {
		return s
	}
	out, err := s.WithHistogram(sql.Histogram(kept))
	if err != nil {
		return s
	}
	return out
}
