/*
   Instances of the tridiagonal kernels for full blocks: the template that tridiag_host.c
   compiles once per instruction set (simd.h: PPE_HOST_FN names the instance's functions,
   PPE_HOST_TARGET is its target attribute).

   A full block is PPE_TD_G groups of PPE_TRIDIAG_SZ lanes with unit lane stride: in the
   packed layout each group is contiguous, in the natural layout the groups are consecutive
   lines of a row. The views are rebuilt below with literal lane strides (shared: gs 0,
   rs 1, ls 0; per line and data: ls 1; per lane: rs 0, ls 1) so that after inlining the
   lane loop is a fixed-length unit-stride loop the compiler vectorises. One instance per
   kernel, fly or pre, and place of the coefficients and factors.
*/

#define TD_FULL  ((ppe_td_lanes){0, PPE_TD_G, 0, PPE_TRIDIAG_SZ})
#define TD_SH(x) ((ppe_td_carr){(x).v, 0, 1, 0})
#define TD_PL(x) ((ppe_td_carr){(x).v, (x).gs, (x).rs, 1})
#define TD_LN(x) ((ppe_td_carr){(x).v, (x).gs, 0, 1})
#define TD_LW(x) ((ppe_td_arr){(x).v, (x).gs, 0, 1})
#define TD_DT(x) ((ppe_td_arr){(x).v, (x).gs, (x).rs, 1})
#define TD_SC(x) ((ppe_td_arr){(x).v, (x).gs, (x).rs, 1})
#define TD_K(CM, x) ((ppe_td_coefs){CM((x)->a), CM((x)->e), CM((x)->c), TD_SH((x)->w), TD_LN((x)->shift), TD_LN((x)->mask)})

/* CM: views of the coefficients, FM: views of the factors */
#define TD_CALL_THOMAS(CM, FM)      ppe_td_thomas(TD_FULL, n, CM(x->a), CM(x->c), FM(x->ip), TD_LN(x->last), TD_DT(x->d))
#define TD_CALL_THOMAS_FLY(CM, FM)  ppe_td_thomas_fly(TD_FULL, n, TD_K(CM, x), TD_SC(x->s), TD_SC(x->t), TD_DT(x->d))
#define TD_CALL_PTHOMAS(CM, FM)     ppe_td_pthomas(TD_FULL, n, CM(x->a), CM(x->c), FM(x->ip), FM(x->q), TD_LN(x->last), TD_DT(x->d))
#define TD_CALL_PTHOMAS_FLY(CM, FM) ppe_td_pthomas_fly(TD_FULL, n, TD_K(CM, x), TD_SC(x->s), TD_SC(x->t), TD_SC(x->u), TD_DT(x->d))
#define TD_CALL_REDUCE(CM, FM)      ppe_td_reduce(TD_FULL, n, CM(x->a), CM(x->c), FM(x->ip), TD_DT(x->d), TD_LW(x->r0), TD_LW(x->r1))
#define TD_CALL_REDUCE_FLY(CM, FM)  ppe_td_reduce_fly(TD_FULL, n, TD_K(CM, x), TD_SC(x->s), TD_SC(x->u), TD_DT(x->d), TD_LW(x->r0), TD_LW(x->r1))
#define TD_CALL_RECON(CM, FM)       ppe_td_recon(TD_FULL, n, FM(x->al), FM(x->be), TD_LN(x->x0), TD_LN(x->x1), TD_DT(x->d))
#define TD_CALL_RECON_FLY(CM, FM)   ppe_td_recon_fly(TD_FULL, n, TD_K(CM, x), TD_SC(x->s), TD_SC(x->t), TD_SC(x->u), TD_LN(x->x0), TD_LN(x->x1), TD_DT(x->d))

#define TD_INST(kname, CALL) \
  PPE_HOST_TARGET static void PPE_HOST_FN(kname##_S)(long n, const PPETdArgs *x) \
  { \
    CALL(TD_SH, TD_SH); \
  } \
  PPE_HOST_TARGET static void PPE_HOST_FN(kname##_F)(long n, const PPETdArgs *x) \
  { \
    CALL(TD_SH, TD_PL); \
  } \
  PPE_HOST_TARGET static void PPE_HOST_FN(kname##_L)(long n, const PPETdArgs *x) \
  { \
    CALL(TD_PL, TD_PL); \
  }

TD_INST(Thomas, TD_CALL_THOMAS)
TD_INST(ThomasFly, TD_CALL_THOMAS_FLY)
TD_INST(PThomas, TD_CALL_PTHOMAS)
TD_INST(PThomasFly, TD_CALL_PTHOMAS_FLY)
TD_INST(Reduce, TD_CALL_REDUCE)
TD_INST(ReduceFly, TD_CALL_REDUCE_FLY)
TD_INST(Recon, TD_CALL_RECON)
TD_INST(ReconFly, TD_CALL_RECON_FLY)

#define TD_ROW(kname) {PPE_HOST_FN(kname##_S), PPE_HOST_FN(kname##_F), PPE_HOST_FN(kname##_L)}
#define TD_K2(k, kf)  {TD_ROW(k), TD_ROW(kf)}
/* [kernel][fly][mode] */
static void (*const PPE_HOST_FN(TdFull)[PPE_TD_K_NUM][2][PPE_TD_MODE_NUM])(long, const PPETdArgs *) = {
  TD_K2(Thomas, ThomasFly), TD_K2(PThomas, PThomasFly), TD_K2(Reduce, ReduceFly), TD_K2(Recon, ReconFly),
};

/* Kernel k, fly or pre-computed, of a full block with the strides of mode. */
PPE_HOST_TARGET static void PPE_HOST_FN(RunFull)(PPETdKernel k, int fly, PPETdMode mode, long n, const PPETdArgs *x)
{
  PPE_HOST_FN(TdFull)[k][fly][mode](n, x);
}

#undef TD_ROW
#undef TD_K2
#undef TD_INST
#undef TD_FULL
#undef TD_SH
#undef TD_PL
#undef TD_LN
#undef TD_LW
#undef TD_DT
#undef TD_SC
#undef TD_K
#undef TD_CALL_THOMAS
#undef TD_CALL_THOMAS_FLY
#undef TD_CALL_PTHOMAS
#undef TD_CALL_PTHOMAS_FLY
#undef TD_CALL_REDUCE
#undef TD_CALL_REDUCE_FLY
#undef TD_CALL_RECON
#undef TD_CALL_RECON_FLY
