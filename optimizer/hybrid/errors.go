package hybrid

import "errors"

// Errors returned by the package, wrapped with detail.
var (
	ErrShape      = errors.New("hybrid: shape mismatch")
	ErrArgument   = errors.New("hybrid: invalid argument")
	ErrEmptyGraph = errors.New("hybrid: the graph has no vertices")
	ErrMode       = errors.New("hybrid: unknown iteration mode")
)
