package matrix

import "errors"

// Errors returned by the package, wrapped with detail; test with errors.Is.
var (
	ErrShapeMismatch       = errors.New("matrix: shape mismatch")
	ErrNotSquare           = errors.New("matrix: not square")
	ErrSingular            = errors.New("matrix: singular matrix")
	ErrNotPositiveDefinite = errors.New("matrix: not positive definite")
	ErrIndexOutOfRange     = errors.New("matrix: index out of range")
	ErrTooLarge            = errors.New("matrix: too large")
	ErrInvalidArgument     = errors.New("matrix: invalid argument")
	ErrCorrupt             = errors.New("matrix: corrupt encoding")
	ErrUnknownVersion      = errors.New("matrix: unknown format version")
	ErrInvalidJSON         = errors.New("matrix: invalid JSON")
	ErrMatrixMarket        = errors.New("matrix: invalid Matrix Market input")
)
