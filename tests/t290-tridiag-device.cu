/*
   Compile check: the single-source tridiagonal kernels (src/kernels/tridiag.h) build for
   the device with nvcc (as .cu) and hipcc (-x hip). One thread per line of SZ-packed data
   (group = block, lane = thread), the same bodies the host back end calls for a block of lanes.
*/
#include <kernels/tridiag.h>

#if defined(__HIPCC__)
  #include <hip/hip_runtime.h>
#endif

__global__ void ppe_td_device_all(long m, int sz, ppe_td_coefs K, ppe_td_carr ip, ppe_td_carr q, ppe_td_carr al, ppe_td_carr be, ppe_td_carr last, ppe_td_arr d, ppe_td_arr s, ppe_td_arr t, ppe_td_arr u, ppe_td_arr r0, ppe_td_arr r1)
{
  ppe_td_lanes R = {(int)blockIdx.x, (int)blockIdx.x + 1, (int)threadIdx.x, (int)threadIdx.x + 1};
  ppe_td_carr  x0 = {r0.v, r0.gs, 0, r0.ls}, x1 = {r1.v, r1.gs, 0, r1.ls};

  if ((int)threadIdx.x >= sz) return;
  ppe_td_thomas(R, m, K.a, K.c, ip, last, d);
  ppe_td_thomas_fly(R, m, K, s, t, d);
  ppe_td_pthomas(R, m, K.a, K.c, ip, q, last, d);
  ppe_td_pthomas_fly(R, m, K, s, t, u, d);
  ppe_td_reduce(R, m, K.a, K.c, ip, d, r0, r1);
  ppe_td_reduce_fly(R, m, K, s, u, d, r0, r1);
  ppe_td_recon(R, m, al, be, x0, x1, d);
  ppe_td_recon_fly(R, m, K, s, t, u, x0, x1, d);
}
