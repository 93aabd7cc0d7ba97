/*
   Compile check: the single-source stencil body (src/kernels/stencil7.h) builds for the
   device with nvcc (as .cu) and hipcc (-x hip). One thread per point of an n^3 box, the
   same coefficient and point functions the host back end calls.
*/
#include <kernels/stencil7.h>

#if defined(__HIPCC__)
  #include <hip/hip_runtime.h>
#endif

__global__ void ppe_s7_apply_box(ppe_s7_dir X, ppe_s7_dir Y, ppe_s7_dir Z, double sigma, long n, const double *u, double *y)
{
  long p = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n * n * n) return;
  long        i = p % n, j = (p / n) % n, k = p / (n * n);
  ppe_s7_coef c = ppe_s7_point_coef(X, Y, Z, sigma, i, j, k);
  long        w = i > 0 ? p - 1 : p, e = i < n - 1 ? p + 1 : p, s = j > 0 ? p - n : p, nn = j < n - 1 ? p + n : p;
  long        b = k > 0 ? p - n * n : p, t = k < n - 1 ? p + n * n : p;
  y[p] = ppe_s7_apply(&c, u[p], u[w], u[e], u[s], u[nn], u[b], u[t]);
}
