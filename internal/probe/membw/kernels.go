package membw

// readSum returns the sum of s, read with four independent accumulators so
// that the additions never limit the load rate.
//
//go:noinline
func readSum(s []uint64) uint64 {
	var a, b, c, d uint64
	for len(s) >= 8 {
		a += s[0]
		b += s[1]
		c += s[2]
		d += s[3]
		a += s[4]
		b += s[5]
		c += s[6]
		d += s[7]
		s = s[8:]
	}
	for _, v := range s {
		a += v
	}
	return a + b + c + d
}

// fillWords stores v into every word of s.
//
//go:noinline
func fillWords(s []uint64, v uint64) {
	for len(s) >= 8 {
		s[0] = v
		s[1] = v
		s[2] = v
		s[3] = v
		s[4] = v
		s[5] = v
		s[6] = v
		s[7] = v
		s = s[8:]
	}
	for i := range s {
		s[i] = v
	}
}
