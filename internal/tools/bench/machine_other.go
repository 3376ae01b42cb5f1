//go:build !linux

package bench

import "errors"

func faultCost() (perPage, perHuge float64, err error) {
	return 0, 0, errors.New("measured on Linux only")
}
