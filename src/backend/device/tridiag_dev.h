/*
   Device launcher of the batched tridiagonal kernels (src/kernels/tridiag.h): one thread per
   lane (g, l) of the block R, the lanes of a group on consecutive threads.

   A thread runs the one dispatch of the bodies, ppe_td_kernel(), which the host back end runs
   too, on the one-lane block {g, g+1, l, l+1} with the views as given, so both give the same
   bits. The views index by g and l: a thread reads and writes only its lane's elements of the
   data, of the per-lane arrays and of the fly kernels' scratch s, t, u, and the threads of a
   launch are independent. One kernel per kernel and fly (both constant in it, so the
   dispatch folds to one body), so a launch carries the registers of its own body only.
*/
#include "ops.h"

typedef struct {
  PPETdArgs    x;  /* the views, as given */
  ppe_td_lanes R;  /* the block */
  long         n;  /* rows */
  long         nl; /* lanes per group of R */
} ppe_dev_td_args;

/* The one-lane block of thread t. */
PPE_DEV_FN ppe_td_lanes ppe_dev_td_lane(const ppe_dev_td_args *a, long t)
{
  ppe_td_lanes L;

  L.g0 = a->R.g0 + (int)(t / a->nl);
  L.g1 = L.g0 + 1;
  L.l0 = a->R.l0 + (int)(t % a->nl);
  L.l1 = L.l0 + 1;
  return L;
}

/* The kernel of PPETdKernel k, pre-computed (fly 0) or fly: each thread its lane. */
#define PPE_DEV_TD_KERNEL(name, k, fly) \
  PPE_DEV_KERNEL(name, ppe_dev_td_args) \
  { \
    ppe_td_kernel(k, fly, ppe_dev_td_lane(a, t), a->n, &a->x); \
  }
#define PPE_DEV_TD_KERNELS(name, k) PPE_DEV_TD_KERNEL(ppe_dev_td_##name, k, 0) PPE_DEV_TD_KERNEL(ppe_dev_td_##name##_fly, k, 1)
#define PPE_DEV_TD_ROW(name, k)     {ppe_dev_td_##name, ppe_dev_td_##name##_fly},

PPE_TD_KERNELS(PPE_DEV_TD_KERNELS)

/* the kernels by [k][fly] */
static void (*const ppe_dev_td_kernels[PPE_TD_K_NUM][2])(long, ppe_dev_td_args) = {PPE_TD_KERNELS(PPE_DEV_TD_ROW)};

#undef PPE_DEV_TD_KERNEL
#undef PPE_DEV_TD_KERNELS
#undef PPE_DEV_TD_ROW

/* Kernel k (PPETdKernel), pre-computed or fly, on the lanes of R; an unknown k does nothing,
   as on the host. */
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTridiag)(int k, int fly, ppe_td_lanes R, long n, const PPETdArgs *x, void *stream)
{
  ppe_dev_td_args a;
  long            nl = (long)R.l1 - R.l0, ng = (long)R.g1 - R.g0;

  if (nl <= 0 || ng <= 0 || k < 0 || k >= PPE_TD_K_NUM) return 0;
  a.x  = *x;
  a.R  = R;
  a.n  = n;
  a.nl = nl;
  PPE_DEV_LAUNCH(ppe_dev_td_kernels[k][fly ? 1 : 0], ng * nl, stream, a);
  return 0;
}
