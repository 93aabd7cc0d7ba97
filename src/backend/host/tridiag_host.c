/*
   Host back end of the batched tridiagonal solvers: the single-source kernels of
   src/kernels/tridiag.h instantiated for full blocks (PPE_TD_G groups of
   PPE_TRIDIAG_SZ lanes, unit lane stride) with constant strides, compiled for the
   generic x86-64 target and for AVX2 (chosen at set-up when the CPU has it), and a
   generic call for anything else (partial groups, general natural strides, the
   reduced systems whose lanes are the lines a rank owns).
*/
#include <ppekit/private/tridiagimpl.h>
#include "simd.h"

/* The instances of full blocks (tridiag_host_body.h), generic and AVX2. */
#define PPE_HOST_BODY "tridiag_host_body.h"
#include "simd_instances.h"

/* Any block, views as given (runtime strides). */
static void KernelAny(PPETdKernel k, PetscBool fly, ppe_td_lanes R, long n, const PPETdArgs *x)
{
  ppe_td_coefs K = ppe_td_args_coefs(x);

  switch (k) {
  case PPE_TD_K_THOMAS:
    if (fly) ppe_td_thomas_fly(R, n, K, x->s, x->t, x->d);
    else ppe_td_thomas(R, n, x->a, x->c, x->ip, x->last, x->d);
    break;
  case PPE_TD_K_PTHOMAS:
    if (fly) ppe_td_pthomas_fly(R, n, K, x->s, x->t, x->u, x->d);
    else ppe_td_pthomas(R, n, x->a, x->c, x->ip, x->q, x->last, x->d);
    break;
  case PPE_TD_K_REDUCE:
    if (fly) ppe_td_reduce_fly(R, n, K, x->s, x->u, x->d, x->r0, x->r1);
    else ppe_td_reduce(R, n, x->a, x->c, x->ip, x->d, x->r0, x->r1);
    break;
  case PPE_TD_K_RECON:
    if (fly) ppe_td_recon_fly(R, n, K, x->s, x->t, x->u, x->x0, x->x1, x->d);
    else ppe_td_recon(R, n, x->al, x->be, x->x0, x->x1, x->d);
    break;
  default:
    break;
  }
}

/*
   PPETridiagKernel_Host - run kernel k on the block R of rows 0..n-1: the instance of a full
   block (PPE_TD_G groups of PPE_TRIDIAG_SZ lanes, unit lane stride) whose views have the
   strides of mode (see tridiag_host_body.h), or the generic body for anything else (partial
   blocks, general strides, the reduced systems); avx2: use the AVX2 instances.
*/
void PPETridiagKernel_Host(PPETdKernel k, PetscBool fly, PPETdMode mode, PetscBool avx2, ppe_td_lanes R, long n, const PPETdArgs *x)
{
  PetscBool full = (PetscBool)(x->d.ls == 1 && R.g0 == 0 && R.g1 == PPE_TD_G && R.l0 == 0 && R.l1 == PPE_TRIDIAG_SZ);

  if (!full) {
    KernelAny(k, fly, R, n, x);
    return;
  }
  PPE_HOST_DISPATCH(avx2, RunFull, (k, fly ? 1 : 0, mode, n, x));
}
