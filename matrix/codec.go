package matrix

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"unsafe"
)

// The binary format is specified byte by byte in docs/format/matrix.md;
// change the two together, and only ever move FormatVersion forward.
const (
	// FormatVersion is the version Encode writes and the only one Decode
	// accepts.
	FormatVersion = 1
	headerSize    = 32
)

var magic = [4]byte{'S', 'Q', 'M', 'X'}

var le = binary.LittleEndian

// Encode serialises m in the current binary format.
func Encode(m *Matrix) []byte {
	stored := len(m.data)
	size := headerSize + 8*stored
	if m.layout == LayoutCSR {
		size += 8*(m.rows+1) + 4*stored
	}
	if m.enc != nil {
		return m.enc
	}
	b := make([]byte, headerSize, size)
	writeHeader(b, m.layout, m.rows, m.cols, stored)
	if m.layout == LayoutCSR {
		for _, p := range m.indptr {
			b = le.AppendUint64(b, uint64(p))
		}
		for _, j := range m.indices {
			b = le.AppendUint32(b, uint32(j))
		}
	}
	return appendFloats(b, m.data)
}

func writeHeader(b []byte, layout Layout, rows, cols, stored int) {
	copy(b, magic[:])
	b[4] = FormatVersion
	b[5] = byte(layout)
	le.PutUint64(b[8:], uint64(rows))
	le.PutUint64(b[16:], uint64(cols))
	le.PutUint64(b[24:], uint64(stored))
}

// nativeLittleEndian is true on hosts whose float64 memory layout is the
// format's, where values move as one block copy instead of one at a time.
var nativeLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

func appendFloats(b []byte, vals []float64) []byte {
	if nativeLittleEndian && len(vals) > 0 {
		src := unsafe.Slice((*byte)(unsafe.Pointer(&vals[0])), 8*len(vals))
		b = slices.Grow(b, len(src))
		// In pieces: one copy of hundreds of megabytes cannot be preempted,
		// and a garbage collection waiting on it stalls every other core.
		const piece = 4 << 20
		for len(src) > 0 {
			n := min(piece, len(src))
			b = append(b, src[:n]...)
			src = src[n:]
		}
		return b
	}
	for _, v := range vals {
		b = le.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

// Decode parses a matrix written by Encode. It is safe on arbitrary bytes:
// it never panics, and it allocates only after checking that b is exactly as
// long as the header's sizes require.
func Decode(b []byte) (*Matrix, error) {
	if len(b) < headerSize {
		return nil, corrupt("%d bytes is shorter than the %d-byte header", len(b), headerSize)
	}
	if [4]byte(b[:4]) != magic {
		return nil, corrupt("bad magic %q", b[:4])
	}
	if b[4] != FormatVersion {
		return nil, fmt.Errorf("%w: %d (this build reads version %d)", ErrUnknownVersion, b[4], FormatVersion)
	}
	layout := Layout(b[5])
	if layout != LayoutDense && layout != LayoutCSR {
		return nil, corrupt("unknown layout %d", b[5])
	}
	if b[6] != 0 || b[7] != 0 {
		return nil, corrupt("reserved bytes are not zero")
	}
	rows, cols, nnz := le.Uint64(b[8:]), le.Uint64(b[16:]), le.Uint64(b[24:])
	if rows > MaxDim || cols > MaxDim {
		return nil, corrupt("dimensions %dx%d exceed %d", rows, cols, MaxDim)
	}
	payload := uint64(len(b) - headerSize)
	m := &Matrix{rows: int(rows), cols: int(cols), layout: layout}
	if layout == LayoutDense {
		// rows, cols < 2^31, so neither product below overflows.
		if nnz != rows*cols {
			return nil, corrupt("dense %dx%d matrix declares %d entries", rows, cols, nnz)
		}
		if payload%8 != 0 || payload/8 != nnz {
			return nil, corrupt("dense %dx%d matrix needs %d payload bytes, have %d", rows, cols, 8*nnz, payload)
		}
		m.data = readFloats(b[headerSize:], int(nnz))
		return m, nil
	}
	// Bound nnz by the byte count before multiplying, so 12*nnz cannot
	// overflow; the row pointers need 8*(rows+1) < 2^35 bytes.
	if nnz > payload || payload != 8*(rows+1)+12*nnz {
		return nil, corrupt("CSR %dx%d matrix with %d entries does not fit %d payload bytes", rows, cols, nnz, payload)
	}
	if nnz > rows*cols {
		return nil, corrupt("CSR %dx%d matrix declares %d entries", rows, cols, nnz)
	}
	p := b[headerSize:]
	m.indptr = make([]int, rows+1)
	prev := uint64(0)
	for i := range m.indptr {
		v := le.Uint64(p[8*i:])
		if (i == 0 && v != 0) || v < prev || v > nnz {
			return nil, corrupt("row pointer %d is %d", i, v)
		}
		m.indptr[i], prev = int(v), v
	}
	if prev != nnz {
		return nil, corrupt("last row pointer is %d, not the entry count %d", prev, nnz)
	}
	p = p[8*(rows+1):]
	m.indices = make([]int32, nnz)
	for i := range int(rows) {
		last := int64(-1)
		for k := m.indptr[i]; k < m.indptr[i+1]; k++ {
			j := le.Uint32(p[4*k:])
			if uint64(j) >= cols || int64(j) <= last {
				return nil, corrupt("row %d: column index %d out of order or outside %d columns", i, j, cols)
			}
			m.indices[k], last = int32(j), int64(j)
		}
	}
	m.data = readFloats(p[4*nnz:], int(nnz))
	return m, nil
}

func readFloats(b []byte, n int) []float64 {
	out := make([]float64, n)
	if nativeLittleEndian && n > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), 8*n), b[:8*n])
		return out
	}
	for i := range out {
		out[i] = math.Float64frombits(le.Uint64(b[8*i:]))
	}
	return out
}
