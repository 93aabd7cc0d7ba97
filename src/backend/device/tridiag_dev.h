/*
   Device launcher of the batched tridiagonal kernels (src/kernels/tridiag.h): one thread per
   lane (g, l) of the block R, the lanes of a group on consecutive threads.

   A thread runs the body the host's generic call runs (KernelAny in
   src/backend/host/tridiag_host.c) on the one-lane block {g, g+1, l, l+1} with the views as
   given, so both give the same bits. The views index by g and l: a thread reads and writes
   only its lane's elements of the data, of the per-lane arrays and of the fly kernels'
   scratch s, t, u, and the threads of a launch are independent. One kernel per body, so a
   launch carries the registers of its own body only.
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

/* A kernel whose thread calls one body on its lane: it declares the views x and the
   thread's one-lane block R under the names given, then runs CALL (rows: a->n). */
#define PPE_DEV_TD_KERNEL(name, x, R, CALL) \
  PPE_DEV_KERNEL(name, ppe_dev_td_args) \
  { \
    const PPETdArgs *x = &a->x; \
    ppe_td_lanes     R = ppe_dev_td_lane(a, t); \
    CALL; \
  }

PPE_DEV_TD_KERNEL(ppe_dev_td_thomas, x, R, ppe_td_thomas(R, a->n, x->a, x->c, x->ip, x->last, x->d))
PPE_DEV_TD_KERNEL(ppe_dev_td_thomas_fly, x, R, ppe_td_thomas_fly(R, a->n, ppe_td_args_coefs(x), x->s, x->t, x->d))
PPE_DEV_TD_KERNEL(ppe_dev_td_pthomas, x, R, ppe_td_pthomas(R, a->n, x->a, x->c, x->ip, x->q, x->last, x->d))
PPE_DEV_TD_KERNEL(ppe_dev_td_pthomas_fly, x, R, ppe_td_pthomas_fly(R, a->n, ppe_td_args_coefs(x), x->s, x->t, x->u, x->d))
PPE_DEV_TD_KERNEL(ppe_dev_td_reduce, x, R, ppe_td_reduce(R, a->n, x->a, x->c, x->ip, x->d, x->r0, x->r1))
PPE_DEV_TD_KERNEL(ppe_dev_td_reduce_fly, x, R, ppe_td_reduce_fly(R, a->n, ppe_td_args_coefs(x), x->s, x->u, x->d, x->r0, x->r1))
PPE_DEV_TD_KERNEL(ppe_dev_td_recon, x, R, ppe_td_recon(R, a->n, x->al, x->be, x->x0, x->x1, x->d))
PPE_DEV_TD_KERNEL(ppe_dev_td_recon_fly, x, R, ppe_td_recon_fly(R, a->n, ppe_td_args_coefs(x), x->s, x->t, x->u, x->x0, x->x1, x->d))

#undef PPE_DEV_TD_KERNEL

/* Kernel k (PPETdKernel), pre-computed or fly, on the lanes of R; an unknown k does nothing,
   as on the host. */
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTridiag)(int k, int fly, ppe_td_lanes R, long n, const PPETdArgs *x, void *stream)
{
  ppe_dev_td_args a;
  long            nl = (long)R.l1 - R.l0, ng = (long)R.g1 - R.g0, nt;

  if (nl <= 0 || ng <= 0) return 0;
  nt   = ng * nl;
  a.x  = *x;
  a.R  = R;
  a.n  = n;
  a.nl = nl;
  switch (k) {
  case PPE_TD_K_THOMAS:
    if (fly) PPE_DEV_LAUNCH(ppe_dev_td_thomas_fly, nt, stream, a);
    else PPE_DEV_LAUNCH(ppe_dev_td_thomas, nt, stream, a);
    break;
  case PPE_TD_K_PTHOMAS:
    if (fly) PPE_DEV_LAUNCH(ppe_dev_td_pthomas_fly, nt, stream, a);
    else PPE_DEV_LAUNCH(ppe_dev_td_pthomas, nt, stream, a);
    break;
  case PPE_TD_K_REDUCE:
    if (fly) PPE_DEV_LAUNCH(ppe_dev_td_reduce_fly, nt, stream, a);
    else PPE_DEV_LAUNCH(ppe_dev_td_reduce, nt, stream, a);
    break;
  case PPE_TD_K_RECON:
    if (fly) PPE_DEV_LAUNCH(ppe_dev_td_recon_fly, nt, stream, a);
    else PPE_DEV_LAUNCH(ppe_dev_td_recon, nt, stream, a);
    break;
  default:
    break;
  }
  return 0;
}
