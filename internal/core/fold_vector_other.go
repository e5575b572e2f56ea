//go:build !amd64 || purego

package core

// foldFloatsVector has no vector form here: foldExtremeRow folds element by element.
func foldFloatsVector[T Reducible](dst, row []T, max bool) bool { return false }
