// Element-wise, reduction and sparse kernels of the CUDA device.
//
// Compiled offline to PTX (see generate.sh) and embedded in the Go binary,
// so neither building nor running sqlearn needs nvcc: the driver compiles
// the PTX for whatever GPU it finds. Every parameter is 64 bits wide
// because the launcher copies each argument as eight bytes.
//
// The operator codes match gpu.UnaryOp, gpu.BinaryOp and the reduction
// codes in cuda_kernels.go.

typedef unsigned long long u64;

#define GRID_STRIDE(i, n) \
	for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < (n); i += (u64)blockDim.x * gridDim.x)

extern "C" __global__ void unary_f64(double *dst, const double *x, u64 n, u64 op, double s)
{
	GRID_STRIDE(i, n) {
		double v = x[i];
		switch (op) {
		case 1: v = exp(v); break;
		case 2: v = log(v); break;
		case 3: v = sqrt(v); break;
		case 4: v = pow(v, s); break;
		case 5: v = v * s; break;
		}
		dst[i] = v;
	}
}

extern "C" __global__ void binary_f64(double *dst, const double *x, const double *y, u64 n, u64 op)
{
	GRID_STRIDE(i, n) {
		double a = x[i], b = y[i], v;
		switch (op) {
		case 1: v = a + b; break;
		case 2: v = a - b; break;
		case 3: v = a * b; break;
		default: v = a / b; break;
		}
		dst[i] = v;
	}
}

// Reductions: 1 sum, 2 largest magnitude (NaN wins, as on the CPU),
// 3 sum of squares of x/scale (the scaled half of a safe 2-norm).
__device__ static double fold(u64 op, double a, double b)
{
	if (op == 2)
		return (isnan(a) || isnan(b)) ? a + b : fmax(a, b);
	return a + b;
}

__device__ static double lift(u64 op, double v, double scale)
{
	if (op == 2)
		return fabs(v);
	if (op == 3) {
		v /= scale;
		return v * v;
	}
	return v;
}

#define REDUCE_THREADS 256

// reduce_f64 leaves one partial result per block in out. The grid size is
// fixed by the caller for a given n, so repeated runs fold in the same
// order and agree bit for bit. Partials are folded with op 1 or 2 in a
// second launch (lift is the identity for op 1, and |v| is idempotent).
extern "C" __global__ void reduce_f64(const double *x, u64 n, u64 op, double scale, double *out)
{
	__shared__ double part[REDUCE_THREADS];
	double acc = 0;
	GRID_STRIDE(i, n) acc = fold(op, acc, lift(op, x[i], scale));
	part[threadIdx.x] = acc;
	__syncthreads();
	for (unsigned w = REDUCE_THREADS / 2; w > 0; w >>= 1) {
		if (threadIdx.x < w)
			part[threadIdx.x] = fold(op, part[threadIdx.x], part[threadIdx.x + w]);
		__syncthreads();
	}
	if (threadIdx.x == 0)
		out[blockIdx.x] = part[0];
}

// spmm_csr_f64: C (rows×n) = A·B for CSR A and dense B, one thread per
// output element, summing a row's stored entries in index order as the
// CPU device does.
extern "C" __global__ void spmm_csr_f64(const long long *indptr, const int *indices, const double *values,
	const double *b, double *c, u64 rows, u64 n)
{
	GRID_STRIDE(e, rows * n) {
		u64 i = e / n, j = e % n;
		double acc = 0;
		for (long long p = indptr[i]; p < indptr[i + 1]; p++)
			acc += values[p] * b[(u64)indices[p] * n + j];
		c[e] = acc;
	}
}

// mmsp_csc_f64: C (m×n) = A·B for dense A (m×k) and B given by columns
// (CSC, the host transposes CSR once), one thread per output element.
extern "C" __global__ void mmsp_csc_f64(const double *a, const long long *colptr, const int *rowidx,
	const double *values, double *c, u64 m, u64 k, u64 n)
{
	GRID_STRIDE(e, m * n) {
		u64 i = e / n, j = e % n;
		double acc = 0;
		for (long long p = colptr[j]; p < colptr[j + 1]; p++)
			acc += a[i * k + (u64)rowidx[p]] * values[p];
		c[e] = acc;
	}
}
