package optimizer

import "errors"

// Errors returned by Run and Explain, wrapped with the script position;
// test with errors.Is. Parse errors wrap lang.ErrSyntax, matrix errors keep
// their matrix sentinel, and cancellation keeps the context's error.
var (
	ErrUndefined       = errors.New("optimizer: undefined variable")
	ErrUnknownFunction = errors.New("optimizer: unknown function")
	ErrArgument        = errors.New("optimizer: invalid argument")
	ErrNotScalar       = errors.New("optimizer: value is not 1x1")
	ErrShape           = errors.New("optimizer: shape mismatch")
	ErrNoEnv           = errors.New("optimizer: environment does not provide this")
)
