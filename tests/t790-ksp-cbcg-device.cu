/*
   Compile check: the single-source tall-skinny kernels of KSP cbcg (src/kernels/tsblock.h)
   build for the device with nvcc (as .cu) and hipcc (-x hip): one thread block per tile, each
   thread a contiguous range of rows, the same tile bodies the host loops call.
*/
#include <kernels/tsblock.h>

#if defined(__HIPCC__)
  #include <hip/hip_runtime.h>
#endif

__global__ void ppe_ts_gram_device(const double *const *x, const double *const *y, long n, double *partial)
{
  long   chunk = (n + gridDim.x * blockDim.x - 1) / (gridDim.x * blockDim.x);
  long   t = (long)blockIdx.x * blockDim.x + threadIdx.x, p0 = t * chunk, p1 = p0 + chunk < n ? p0 + chunk : n;
  double out[PPE_TS_TA * PPE_TS_TB];
  if (p0 >= n) p0 = p1 = n;
  ppe_ts_gram_tile(x, y, p0, p1, out);
  for (int i = 0; i < PPE_TS_TA * PPE_TS_TB; i++) partial[t * PPE_TS_TA * PPE_TS_TB + i] = out[i];
}

__global__ void ppe_ts_update_device(int k, const double *const *q, const double *const *aq, double *const *s, const double *B, const double *a, long n, double *x, double *r, double *z)
{
  long    t = (long)blockIdx.x * blockDim.x + threadIdx.x;
  double *tt[PPE_TS_TB];
  if (t >= n) return;
  for (int j = 0; j < PPE_TS_TB; j++) tt[j] = s[j] + t;
  ppe_ts_combine_tile(k, q, (const double *const *)s, B, k, PPE_TS_TB, t, t + 1, tt);
  ppe_ts_axpy_rows(k, q, aq, a, t, t + 1, x, r);
  ppe_ts_cheb_rows(2.0, x, 0.5, r, z, t, t + 1, z);
}
