package core

// both asks f of a, then of b, and gives both answers; b is not asked when a fails, which
// keeps the calls made into user arrays the ones the reference makes.
func both[A, T any](a, b A, f func(A) (T, error)) (T, T, error) {
	var zero T
	first, err := f(a)
	if err != nil {
		return zero, zero, err
	}
	second, err := f(b)
	if err != nil {
		return zero, zero, err
	}
	return first, second, nil
}
