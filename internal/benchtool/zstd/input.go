package zstd

import (
	"bufio"
	"encoding/binary"
	"io"
	"math/rand/v2"
)

// InputName names the generated input and its version: the same name
// always means the same bytes, on every machine and Go version.
const InputName = "boardbench-mix-1"

// inputBlock is the size of one block of the input; each block is text,
// records or random bytes.
const inputBlock = 16 << 10

// WriteInput writes the first n bytes of the generated input to w. The
// input is a seeded stream of 16 KiB blocks: about 70% text-like lines
// (words of a fixed made-up vocabulary, skewed like natural language,
// with numbers, punctuation and indentation), 20% binary records (counters
// and time stamps with small steps, as in a table or a log) and 10%
// random bytes (already-compressed data). A shorter input is a prefix of a
// longer one. The generator is PCG (math/rand/v2), whose output the Go
// project keeps fixed; nothing else enters it.
func WriteInput(w io.Writer, n int64) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	g := newGenerator()
	block := make([]byte, 0, inputBlock+256)
	for n > 0 {
		block = g.block(block[:0])
		if int64(len(block)) > n {
			block = block[:n]
		}
		if _, err := bw.Write(block); err != nil {
			return err
		}
		n -= int64(len(block))
	}
	return bw.Flush()
}

// generator is the input's state.
type generator struct {
	rng   *rand.PCG
	words [][]byte
	// record state of the binary blocks.
	counter uint32
	stamp   uint64
	value   uint64
}

var syllables = []string{"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "da", "pe", "qu", "an", "or", "el",
	"is", "um", "ex", "con", "pro", "tra", "ber", "ion", "ent", "ard", "ste", "ful", "ing", "ed", "ly"}

func newGenerator() *generator {
	g := &generator{rng: rand.NewPCG(0x626f617264, 0x62656e6368)}
	seen := map[string]bool{}
	for len(g.words) < 3000 {
		k := 1 + g.intn(4)
		var w []byte
		for i := 0; i < k; i++ {
			w = append(w, syllables[g.intn(len(syllables))]...)
		}
		if !seen[string(w)] {
			seen[string(w)] = true
			g.words = append(g.words, w)
		}
	}
	return g
}

// intn returns a number in [0, n) (n small; the tiny modulo bias does not
// matter for test data).
func (g *generator) intn(n int) int { return int(g.rng.Uint64() % uint64(n)) }

// skewed returns a vocabulary index, small ones far more often (roughly
// like word frequencies in text).
func (g *generator) skewed() int {
	u := float64(g.rng.Uint64()>>11) / (1 << 53)
	return int(u * u * u * float64(len(g.words)))
}

// block appends one block to b.
func (g *generator) block(b []byte) []byte {
	switch k := g.intn(10); {
	case k < 7:
		return g.text(b)
	case k < 9:
		return g.records(b)
	default:
		return g.random(b)
	}
}

// text appends lines of words until the block is full.
func (g *generator) text(b []byte) []byte {
	for len(b) < inputBlock {
		for i := g.intn(4); i > 0; i-- {
			b = append(b, "    "...)
		}
		words := 3 + g.intn(12)
		for i := 0; i < words; i++ {
			if i > 0 {
				b = append(b, ' ')
			}
			switch g.intn(20) {
			case 0:
				b = appendUint(b, g.rng.Uint64()%100000)
			case 1:
				b = append(b, '(')
				b = append(b, g.words[g.skewed()]...)
				b = append(b, ')')
			default:
				b = append(b, g.words[g.skewed()]...)
			}
		}
		switch g.intn(5) {
		case 0:
			b = append(b, ';')
		case 1:
			b = append(b, '.')
		case 2:
			b = append(b, ':')
		}
		b = append(b, '\n')
	}
	return b
}

// records appends 16-byte records: a counter, a time stamp and a value
// that change in small steps.
func (g *generator) records(b []byte) []byte {
	for len(b) < inputBlock {
		g.counter++
		g.stamp += 1 + uint64(g.intn(1000))
		g.value = g.value + uint64(g.intn(64)) - 31
		b = binary.LittleEndian.AppendUint32(b, g.counter)
		b = binary.LittleEndian.AppendUint32(b, uint32(g.stamp))
		b = binary.LittleEndian.AppendUint64(b, g.value)
	}
	return b
}

// random appends random bytes.
func (g *generator) random(b []byte) []byte {
	for len(b) < inputBlock {
		b = binary.LittleEndian.AppendUint64(b, g.rng.Uint64())
	}
	return b
}

func appendUint(b []byte, v uint64) []byte {
	var tmp [20]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(b, tmp[i:]...)
}
