/*
   Compile check: the single-source tile ILU(0) sweeps (src/kernels/tileilu.h) build for the
   device with nvcc (as .cu) and hipcc (-x hip): one thread per tile in the xyz layout
   (strided), one thread per lane of a zyx group (coalesced: consecutive threads read
   consecutive addresses), for the general and the symmetric storage of the factors.
*/
#include <kernels/tileilu.h>

#if defined(__HIPCC__)
  #include <hip/hip_runtime.h>
#endif

/* xyz: box m[0] x m[1] x m[2] cut into tiles t[0] x t[1] x t[2]; thread = tile */
__global__ void ppe_tileilu_xyz_kernel(const double *F, int sym, long m0, long m1, long m2, long t0, long t1, long t2, const double *r, double *z)
{
  long nt0 = (m0 + t0 - 1) / t0, nt1 = (m1 + t1 - 1) / t1, nt2 = (m2 + t2 - 1) / t2;
  long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nt0 * nt1 * nt2) return;
  long a = t % nt0, b = (t / nt0) % nt1, c = t / (nt0 * nt1);
  long o0 = a * t0, o1 = b * t1, o2 = c * t2;
  long e0 = m0 - o0 < t0 ? m0 - o0 : t0, e1 = m1 - o1 < t1 ? m1 - o1 : t1, e2 = m2 - o2 < t2 ? m2 - o2 : t2;
  ppe_tileilu_tile_xyz(F, sym, m0 * m1 * m2, m0, m0 * m1, o0 + m0 * (o1 + m1 * o2), e0, e1, e2, r, z);
}

/* zyx: ngroups groups of `lanes` tiles; block = group, thread = lane */
__global__ void ppe_tileilu_zyx_kernel(const double *F, int sym, long lanes, long tx, long ty, long tz, double *v)
{
  long g = blockIdx.x, lane = threadIdx.x, npos = tx * ty * tz, nc = sym ? PPE_TILEILU_NCOEF_SYM : PPE_TILEILU_NCOEF;
  if (lane >= lanes) return;
  ppe_tileilu_lane_zyx(F + g * npos * nc * lanes, sym, lanes, lane, tx, ty, tz, v + g * npos * lanes);
}
