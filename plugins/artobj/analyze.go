package artobj

import (
	"context"

	"github.com/droidprof/droidprof/framework/sdk"
)

func analyze(ctx context.Context, a *sdk.Analysis) (*sdk.Result, error) {
	res := a.NewResult()
	return res, nil
}
