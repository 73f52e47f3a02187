package storagebench

import "boardbench/internal/result"

// StorageSustainedForTest is a figure set whose windows have the rates,
// each window of win bytes.
func StorageSustainedForTest(rates []float64, win int64) result.StorageSustainedFigures {
	var f result.StorageSustainedFigures
	for i, r := range rates {
		f.Windows = append(f.Windows, result.StorageWindow{WrittenBytes: int64(i+1) * win, KBs: r})
	}
	return f
}
