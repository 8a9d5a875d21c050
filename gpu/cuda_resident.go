//go:build cuda

package gpu

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// cudaBuffer is plain device memory from cuMemAlloc. Managed (unified)
// memory is avoided: its page migration would hide the transfer costs the
// dispatcher has to see.
type cudaBuffer struct {
	dev  *cudaDevice
	ptr  cu.DevicePtr // 0 for an empty buffer
	n    int
	elem Elem
	// Buffers are not safe for concurrent use: the plan that owns one
	// frees it once nothing reads it.
	freed bool
}

func (b *cudaBuffer) Len() int   { return b.n }
func (b *cudaBuffer) Elem() Elem { return b.elem }

// own checks that b came from d, is live and holds elem (0: any) with at
// least n elements.
func (d *cudaDevice) own(b Buffer, elem Elem, n int) (*cudaBuffer, error) {
	cb, ok := b.(*cudaBuffer)
	if !ok || cb.dev != d || cb.freed {
		return nil, ErrForeignBuffer
	}
	if elem != 0 && cb.elem != elem {
		return nil, fmt.Errorf("%w: %d-byte buffer where %d-byte elements are needed", ErrElem, cb.elem.Size(), elem.Size())
	}
	if cb.n < n {
		return nil, fmt.Errorf("%w: buffer of %d elements, %d needed", ErrShape, cb.n, n)
	}
	return cb, nil
}

func (d *cudaDevice) Alloc(elem Elem, n int) (Buffer, error) {
	if elem != F64 && elem != F32 {
		return nil, ErrElem
	}
	if n < 0 {
		return nil, ErrShape
	}
	b := &cudaBuffer{dev: d, n: n, elem: elem}
	if n == 0 {
		return b, nil
	}
	err := d.do(func() (err error) {
		b.ptr, err = cu.MemAlloc(int64(n * elem.Size()))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%w: allocating %d elements: %v", ErrDevice, n, err)
	}
	return b, nil
}

func (d *cudaDevice) Free(b Buffer) error {
	cb, err := d.own(b, 0, 0)
	if err != nil {
		return err
	}
	if cb.ptr == 0 {
		cb.freed = true
		return nil
	}
	ptr := cb.ptr
	cb.ptr, cb.freed = 0, true
	return d.do(func() error { return cu.MemFree(ptr) })
}

func copyIn[T any](d *cudaDevice, elem Elem, dst Buffer, src []T) error {
	b, err := d.own(dst, elem, len(src))
	if err != nil || len(src) == 0 {
		return err
	}
	return d.do(func() error { return htod(b.ptr, unsafe.Pointer(&src[0]), len(src)*elem.Size()) })
}

func copyOut[T any](d *cudaDevice, elem Elem, dst []T, src Buffer) error {
	b, err := d.own(src, elem, len(dst))
	if err != nil || len(dst) == 0 {
		return err
	}
	return d.do(func() error { return out(dst, b.ptr) })
}

func (d *cudaDevice) CopyIn(dst Buffer, src []float64) error    { return copyIn(d, F64, dst, src) }
func (d *cudaDevice) CopyOut(dst []float64, src Buffer) error   { return copyOut(d, F64, dst, src) }
func (d *cudaDevice) CopyIn32(dst Buffer, src []float32) error  { return copyIn(d, F32, dst, src) }
func (d *cudaDevice) CopyOut32(dst []float32, src Buffer) error { return copyOut(d, F32, dst, src) }

func (d *cudaDevice) GemmBuf(transA, transB bool, m, n, k int, alpha float64, a Buffer, lda int, b Buffer, ldb int, beta float64, c Buffer, ldc int) error {
	na, nb, nc := gemmExtents(transA, transB, m, n, k, lda, ldb, ldc)
	cc, err := d.own(c, 0, nc)
	if err != nil {
		return err
	}
	ca, err := d.own(a, cc.elem, na)
	if err != nil {
		return err
	}
	cb, err := d.own(b, cc.elem, nb)
	if err != nil {
		return err
	}
	return d.do(func() error {
		return d.gemmDev(cc.elem, transA, transB, m, n, k, alpha, ca.ptr, lda, cb.ptr, ldb, beta, cc.ptr, ldc)
	})
}

func (d *cudaDevice) GemvBuf(trans bool, m, n int, alpha float64, a Buffer, lda int, x Buffer, beta float64, y Buffer) error {
	xl, yl := n, m
	if trans {
		xl, yl = m, n
	}
	cy, err := d.own(y, 0, yl)
	if err != nil {
		return err
	}
	ca, err := d.own(a, cy.elem, extent(m, n, lda))
	if err != nil {
		return err
	}
	cx, err := d.own(x, cy.elem, xl)
	if err != nil {
		return err
	}
	return d.do(func() error { return d.gemvDev(cy.elem, trans, m, n, alpha, ca.ptr, lda, cx.ptr, beta, cy.ptr) })
}

func (d *cudaDevice) UnaryBuf(op UnaryOp, s float64, dst, x Buffer) error {
	cx, err := d.own(x, F64, 0)
	if err != nil {
		return err
	}
	cd, err := d.own(dst, F64, cx.n)
	if err != nil {
		return err
	}
	return d.do(func() error { return d.unaryDev(op, s, cd.ptr, cx.ptr, cx.n) })
}

func (d *cudaDevice) BinaryBuf(op BinaryOp, dst, x, y Buffer) error {
	cx, err := d.own(x, F64, 0)
	if err != nil {
		return err
	}
	cy, err := d.own(y, F64, cx.n)
	if err != nil {
		return err
	}
	cd, err := d.own(dst, F64, cx.n)
	if err != nil {
		return err
	}
	return d.do(func() error { return d.binaryDev(op, cd.ptr, cx.ptr, cy.ptr, cx.n) })
}

func (d *cudaDevice) ReduceBuf(op ReduceOp, x Buffer) (float64, error) {
	cx, err := d.own(x, F64, 0)
	if err != nil {
		return 0, err
	}
	var r float64
	err = d.do(func() (err error) {
		r, err = d.reduceDev(op, cx.ptr, cx.n)
		return err
	})
	return r, err
}

func (d *cudaDevice) Sync() error {
	return d.do(func() error {
		if err := cu.Synchronize(); err != nil {
			return fmt.Errorf("%w: synchronize: %v", ErrDevice, err)
		}
		return nil
	})
}
