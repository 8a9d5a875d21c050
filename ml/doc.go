// Package ml owns sqlearn's machine-learning algorithms: the columnar Dataset
// that the SQL layer fills from Arrow columns, the preprocessing that a model
// stores with itself (categorical encoding, standardisation, NULL handling),
// the training algorithms behind sys.ML_TRAIN (linear and ridge regression,
// logistic regression, k-means, naive Bayes, CART trees, gradient-boosted
// trees, ALS matrix factorisation), prediction by column name for
// ML_PREDICT_ROW and in batches for ML_PREDICT_TABLE, the metrics behind
// ML_SCORE, and the versioned binary model encoding (docs/format/model.md).
//
// Training and prediction are pure Go over float64 slices; long work takes a
// context.Context and reports Progress so the SQL side can list jobs and
// KILL QUERY can stop them.
//
// This package must not import the SQL engine, storage, replication or
// optimizer code: those layers convert their rows into a Dataset and call
// Train, Predict, Score, Encode and Decode.
package ml

import (
	"errors"
	"fmt"
)

// Sentinel errors; callers test with errors.Is. Messages that concern one
// column wrap these with the column's name.
var (
	ErrEmptyDataset     = errors.New("ml: dataset has no rows")
	ErrNoFeatures       = errors.New("ml: dataset has no feature columns")
	ErrColumnLength     = errors.New("ml: column length differs from the row count")
	ErrDuplicateColumn  = errors.New("ml: duplicate column name")
	ErrNullValue        = errors.New("ml: NULL value in column")
	ErrAllNull          = errors.New("ml: column has only NULL values")
	ErrMissingColumn    = errors.New("ml: missing column")
	ErrColumnType       = errors.New("ml: wrong value type for column")
	ErrTargetType       = errors.New("ml: target column must be numeric for this task")
	ErrSingleClass      = errors.New("ml: target column has a single class")
	ErrBadOption        = errors.New("ml: invalid option")
	ErrUnknownAlgorithm = errors.New("ml: unknown algorithm")
	ErrUnknownMetric    = errors.New("ml: unknown metric")
	ErrMetricTask       = errors.New("ml: metric does not apply to this model's task")
	ErrSingular         = errors.New("ml: system is singular; add regularisation (alpha)")
	ErrFormat           = errors.New("ml: malformed model encoding")
	ErrFormatVersion    = errors.New("ml: unsupported model format version")
)

func errorf(sentinel error, format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)
}
