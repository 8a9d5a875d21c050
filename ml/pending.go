package ml

import "context"

func trainALS(ctx context.Context, m *Model, d *Dataset, o Options) error {
	return errorf(ErrUnknownAlgorithm, "%s is not implemented yet", o.Algorithm)
}
